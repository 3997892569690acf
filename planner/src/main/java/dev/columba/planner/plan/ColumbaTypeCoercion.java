package dev.columba.planner.plan;

import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.implicit.TypeCoercionImpl;

/**
 * Calcite's implicit casts, except the one store assignment must not have: a character string
 * written to a CHAR(n) or VARCHAR(n) column keeps its own type, and any other value becomes the
 * longest VARCHAR. Calcite would wrap it in {@code CAST(... AS VARCHAR(n))}, and a cast truncates
 * silently ({@code 12345} into VARCHAR(3) would be {@code '123'}); the same for a binary string
 * written to a BINARY(n) or VARBINARY(n) column (any other value becomes the longest VARBINARY);
 * the insert operator instead
 * converts each value itself and fails with 22001 when characters other than trailing spaces
 * would be lost (SQL Server's Msg 2628, the SQL standard's store assignment). Casts the statement
 * writes itself still truncate, as CAST does.
 *
 * <p>Nor does a number meet a BOOLEAN in {@code =} or {@code <>}: Calcite casts the BOOLEAN to the
 * number there (and a literal 1 or 0 to TRUE or FALSE), while {@code <}, {@code >=} and the others
 * refuse the same types, so {@code i = (i > 1)} ran and {@code i >= (i > 1)} was 42804. Both are
 * 42804 now, as PostgreSQL's "operator does not exist: integer = boolean"; SQL Server has no
 * BOOLEAN values to compare.
 */
final class ColumbaTypeCoercion extends TypeCoercionImpl {
    ColumbaTypeCoercion(RelDataTypeFactory typeFactory, SqlValidator validator) {
        super(typeFactory, validator);
    }

    @Override
    public boolean querySourceCoercion(SqlValidatorScope scope, RelDataType sourceRowType, RelDataType targetRowType,
                                       SqlNode query) {
        List<RelDataTypeField> sources = sourceRowType.getFieldList();
        List<RelDataTypeField> targets = targetRowType.getFieldList();
        if (sources.size() != targets.size()) {
            return super.querySourceCoercion(scope, sourceRowType, targetRowType, query);
        }
        RelDataTypeFactory.Builder kept = factory.builder();
        for (int column = 0; column < targets.size(); column++) {
            RelDataType source = sources.get(column).getType();
            RelDataType target = targets.get(column).getType();
            kept.add(targets.get(column).getName(), SqlTypeUtil.isCharacter(target)
                    ? factory.createTypeWithNullability(uncut(source, target), target.isNullable())
                    : SqlTypeUtil.isBinary(target) ? factory.createTypeWithNullability(uncutBinary(source), target.isNullable())
                    : target);
        }
        return super.querySourceCoercion(scope, sourceRowType, kept.build(), query);
    }

    @Override
    protected boolean booleanEquality(SqlCallBinding binding, RelDataType left, RelDataType right) {
        return false;
    }

    /**
     * The type a value of {@code source} keeps on its way to a character column of type {@code
     * target}: its own if it is a string, else the longest VARCHAR, so that the number or date
     * is written out whole and store assignment judges its length.
     */
    private RelDataType uncutBinary(RelDataType source) {
        if (SqlTypeUtil.isBinary(source) || SqlTypeUtil.isNull(source)) {
            return source;
        }
        return factory.createSqlType(SqlTypeName.VARBINARY, factory.getTypeSystem().getMaxPrecision(SqlTypeName.VARBINARY));
    }

    private RelDataType uncut(RelDataType source, RelDataType target) {
        if (SqlTypeUtil.isCharacter(source) || SqlTypeUtil.isNull(source)) {
            return source;
        }
        RelDataType text = factory.createSqlType(SqlTypeName.VARCHAR,
                factory.getTypeSystem().getMaxPrecision(SqlTypeName.VARCHAR));
        return factory.createTypeWithCharsetAndCollation(text, target.getCharset(), target.getCollation());
    }
}
