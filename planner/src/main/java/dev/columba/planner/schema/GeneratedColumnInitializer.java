package dev.columba.planner.schema;

import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.schema.ColumnStrategy;
import org.apache.calcite.sql2rel.NullInitializerExpressionFactory;

/**
 * Tells Calcite which columns the database fills: a computed column is
 * {@link ColumnStrategy#STORED} (the validator then rejects an explicit value for it, as SQL Server
 * does), an identity column has a default. Both get a typed NULL from SqlToRel; the insert
 * operator replaces it, identity first, then the computed columns from the finished row (a
 * computed column may use the identity value, as seed 000's {@code IDvarchar} does).
 */
final class GeneratedColumnInitializer extends NullInitializerExpressionFactory {
    private final GeneratedColumns generated;

    GeneratedColumnInitializer(GeneratedColumns generated) {
        this.generated = generated;
    }

    @Override
    public ColumnStrategy generationStrategy(RelOptTable relTable, int column) {
        if (generated.computed().containsKey(column)) {
            return ColumnStrategy.STORED;
        }
        if (column == generated.identity()) {
            return ColumnStrategy.DEFAULT;
        }
        return super.generationStrategy(relTable, column);
    }
}
