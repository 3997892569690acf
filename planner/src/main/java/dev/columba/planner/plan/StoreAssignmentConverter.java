package dev.columba.planner.plan;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's conversion to relational algebra, except for the rows of INSERT ... VALUES bound for a
 * character (or binary) column: they keep the type the validator gave the VALUES column, not the column's.
 *
 * <p>Calcite converts a VALUES row that is not all literals (one value needs an implicit cast,
 * {@code (1, 'abcdefgh')} into a BIGINT key, or is an expression) by casting every value to the
 * target table's type, and {@code CAST('abcdefgh' AS VARCHAR(5))} cuts silently. Rows of literals
 * only keep their own types already (Calcite's {@code keepSourceTypeAndTargetNullability}); this
 * makes the other rows agree, so that the insert's store assignment sees every string whole and
 * fails with 22001 ({@code exec.StoreAssignment}). {@link ColumbaTypeCoercion} does the same for
 * the validator's casts. A CHAR(n) type of the VALUES column becomes VARCHAR(n): all its rows are
 * n characters long (rows of different lengths give VARCHAR), and VARCHAR cannot pad.
 */
final class StoreAssignmentConverter extends SqlToRelConverter {
    StoreAssignmentConverter(RelOptTable.ViewExpander viewExpander, SqlValidator validator, Prepare.CatalogReader catalogReader,
                             RelOptCluster cluster, SqlRexConvertletTable convertletTable, Config config) {
        super(viewExpander, validator, catalogReader, cluster, convertletTable, config);
    }

    @Override
    protected RelRoot convertQueryRecursive(SqlNode query, boolean top, @Nullable RelDataType targetRowType) {
        if (targetRowType == null || query.getKind() != SqlKind.VALUES) {
            return super.convertQueryRecursive(query, top, targetRowType);
        }
        return super.convertQueryRecursive(query, top, storedRowType(requireNonNull(validator).getValidatedNodeType(query),
                targetRowType));
    }

    /** {@code target} with the VALUES column's type (as VARCHAR) wherever {@code target} is a character type. */
    private RelDataType storedRowType(RelDataType values, RelDataType target) {
        List<RelDataTypeField> sources = values.getFieldList();
        List<RelDataTypeField> targets = target.getFieldList();
        if (sources.size() != targets.size()) {
            return target;
        }
        RelDataTypeFactory factory = getCluster().getTypeFactory();
        RelDataTypeFactory.Builder stored = factory.builder();
        for (int column = 0; column < targets.size(); column++) {
            RelDataType source = sources.get(column).getType();
            RelDataType type = targets.get(column).getType();
            if (SqlTypeUtil.isCharacter(type) && SqlTypeUtil.isCharacter(source)) {
                RelDataType varying = source.getSqlTypeName() == SqlTypeName.CHAR
                        ? factory.createTypeWithCharsetAndCollation(
                                factory.createSqlType(SqlTypeName.VARCHAR, source.getPrecision()),
                                source.getCharset(), source.getCollation())
                        : source;
                type = factory.createTypeWithNullability(varying, type.isNullable());
            } else if (SqlTypeUtil.isBinary(type) && SqlTypeUtil.isBinary(source)) {
                // A binary string whole, as a string: BINARY(n) becomes VARBINARY(n), which does not pad.
                type = factory.createTypeWithNullability(source.getSqlTypeName() == SqlTypeName.BINARY
                        ? factory.createSqlType(SqlTypeName.VARBINARY, source.getPrecision()) : source, type.isNullable());
            }
            stored.add(targets.get(column).getName(), type);
        }
        return stored.build();
    }
}
