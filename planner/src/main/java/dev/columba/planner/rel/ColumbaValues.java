package dev.columba.planner.rel;

import com.google.common.collect.ImmutableList;
import dev.columba.core.exec.Operator;
import dev.columba.core.exec.ValuesOperator;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.planner.schema.SqlTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexLiteral;

/** Literal rows: core's {@link ValuesOperator}. BATCH mode. */
public final class ColumbaValues extends Values implements ColumbaRel {
    public ColumbaValues(RelOptCluster cluster, RelDataType rowType, ImmutableList<ImmutableList<RexLiteral>> tuples,
                         RelTraitSet traits) {
        super(cluster, List.of(), rowType, tuples, traits);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new ColumbaValues(getCluster(), getRowType(), tuples, traitSet);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return Costs.cost(planner, tuples.size(), tuples.size() * Costs.BATCH_ROW, 0);
    }

    @Override
    public String explainDetail() {
        return tuples.size() + " rows";
    }

    @Override
    public Operator instantiate(Execution execution) {
        List<String> names = Execution.uniqueNames(getRowType().getFieldNames());
        List<Column> columns = new ArrayList<>();
        List<RelDataTypeField> fields = getRowType().getFieldList();
        for (int index = 0; index < fields.size(); index++) {
            RelDataType type = fields.get(index).getType();
            columns.add(new Column(names.get(index), SqlTypes.fromRelType(type), type.isNullable()));
        }
        List<Object[]> rows = new ArrayList<>();
        for (List<RexLiteral> tuple : tuples) {
            Object[] row = new Object[tuple.size()];
            for (int column = 0; column < row.length; column++) {
                SqlType type = columns.get(column).type();
                row[column] = ExpressionTranslator.literalValue(tuple.get(column), type);
                widenToFit(columns, column, row[column]);
            }
            rows.add(row);
        }
        for (int column = 0; column < columns.size(); column++) {
            measureInCharacters(columns, column, rows);
        }
        return new ValuesOperator(new TableSchema(columns), rows);
    }

    /**
     * A CHAR column of literals whose length Calcite counted in UTF-16 units ({@code 'a😀b'} is its
     * CHAR(4)) measured in characters as Columba counts them: CHAR(3) when every row has that
     * many, else VARCHAR (as literals of different lengths are), so that no literal is padded
     * with a space for each of its characters outside the Basic Multilingual Plane.
     */
    private static void measureInCharacters(List<Column> columns, int index, List<Object[]> rows) {
        Column column = columns.get(index);
        if (!(column.type() instanceof SqlType.CharType character)) {
            return;
        }
        int longest = 0;
        boolean ragged = false;
        boolean measuredInUnits = false;
        for (Object[] row : rows) {
            if (row[index] instanceof String text) {
                int characters = text.codePointCount(0, text.length());
                measuredInUnits |= characters < text.length() && text.length() == character.length();
                ragged |= longest != 0 && characters != longest;
                longest = Math.max(longest, characters);
            }
        }
        if (measuredInUnits) {
            SqlType measured = ragged ? SqlType.varchar(longest) : SqlType.character(longest);
            columns.set(index, new Column(column.name(), measured, column.nullable()));
        }
    }

    /**
     * The rows of INSERT ... VALUES carry the target's column types, but string literals as written:
     * a literal longer than its column keeps its length here, so that the insert's store
     * assignment sees it whole and fails with 22001 rather than this operator with a type error.
     */
    private static void widenToFit(List<Column> columns, int index, Object value) {
        if (!(value instanceof String text)) {
            return;
        }
        Column column = columns.get(index);
        SqlType wider = switch (column.type()) {
            case SqlType.VarcharType varchar when text.length() > varchar.maxLength() -> SqlType.varchar(text.length());
            case SqlType.CharType character when text.length() > character.length() -> SqlType.character(text.length());
            default -> null;
        };
        if (wider != null) {
            columns.set(index, new Column(column.name(), wider, column.nullable()));
        }
    }
}
