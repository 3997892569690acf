package dev.columba.planner.schema;

import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.ColumnStrategy;
import org.apache.calcite.sql2rel.InitializerContext;
import org.apache.calcite.sql2rel.NullInitializerExpressionFactory;

/**
 * Tells Calcite which columns the database fills: a computed column is
 * {@link ColumnStrategy#STORED} (the validator then rejects an explicit value for it, as SQL Server
 * does), an identity column has a default. Both get a typed NULL from SqlToRel; the insert
 * operator replaces it, identity first, then the computed columns from the finished row (a
 * computed column may use the identity value, as seed 000's {@code IDvarchar} does).
 *
 * <p>A column with a DEFAULT is {@link ColumnStrategy#DEFAULT} too, and its value is the default's
 * expression, converted here: an INSERT that leaves the column out, or writes {@code DEFAULT} in
 * VALUES, gets it (a NOT NULL column with a default may then be left out).
 */
final class GeneratedColumnInitializer extends NullInitializerExpressionFactory {
    private final GeneratedColumns generated;
    private final TableConstraints constraints;
    private final String table;

    GeneratedColumnInitializer(GeneratedColumns generated, TableConstraints constraints, String table) {
        this.generated = generated;
        this.constraints = constraints;
        this.table = table;
    }

    @Override
    public ColumnStrategy generationStrategy(RelOptTable relTable, int column) {
        if (generated.computed().containsKey(column)) {
            return ColumnStrategy.STORED;
        }
        if (column == generated.identity() || constraints.defaults().containsKey(column)) {
            return ColumnStrategy.DEFAULT;
        }
        // A nullable column without a DEFAULT defaults to NULL; saying so lets Calcite's converter
        // replace a DEFAULT written in VALUES for it (it leaves DEFAULT() in place for NULLABLE).
        ColumnStrategy strategy = super.generationStrategy(relTable, column);
        return strategy == ColumnStrategy.NULLABLE ? ColumnStrategy.DEFAULT : strategy;
    }

    @Override
    public RexNode newColumnDefaultValue(RelOptTable relTable, int column, InitializerContext context) {
        String sql = constraints.defaults().get(column);
        if (sql == null) {
            return super.newColumnDefaultValue(relTable, column, context);
        }
        RexNode value = context.convertExpression(TableConstraints.expression(sql, "DEFAULT of column "
                + relTable.getRowType().getFieldList().get(column).getName(), table));
        RelDataType type = relTable.getRowType().getFieldList().get(column).getType();
        return value.getType().equals(type) ? value : context.getRexBuilder().makeCast(type, value, true, false);
    }
}
