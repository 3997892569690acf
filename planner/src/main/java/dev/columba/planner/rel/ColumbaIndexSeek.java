package dev.columba.planner.rel;

import dev.columba.core.exec.Operator;
import dev.columba.core.exec.RowsToBatch;
import dev.columba.core.expr.Evaluator;
import dev.columba.core.expr.Expr;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.planner.exec.RowSources;
import dev.columba.planner.schema.RowstoreTable;
import dev.columba.storage.table.IndexStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;

/**
 * A seek of a rowstore table's secondary index by equality on a prefix of its key: the index's
 * matching entries, then each row by its locator ({@code IndexStore.lookup} + {@code
 * TableStore.fetch}). ROW mode.
 */
public final class ColumbaIndexSeek extends org.apache.calcite.rel.core.TableScan implements ColumbaRel {
    private final RowstoreTable rowstore;
    private final String indexName;
    private final List<RexNode> values;
    private final int[] projection;

    public ColumbaIndexSeek(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, String indexName,
                            List<RexNode> values, int[] projection) {
        super(cluster, traits, List.of(), table);
        this.rowstore = table.unwrap(RowstoreTable.class);
        this.indexName = indexName;
        this.values = List.copyOf(values);
        this.projection = projection.clone();
    }

    private IndexStore index() {
        for (IndexStore index : rowstore.store().indexes()) {
            if (index.definition().name().equals(indexName)) {
                return index;
            }
        }
        throw new IllegalStateException("index " + indexName + " of " + rowstore.name() + " is gone");
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new ColumbaIndexSeek(getCluster(), traitSet, getTable(), indexName, values, projection);
    }

    @Override
    public RelDataType deriveRowType() {
        List<RelDataTypeField> fields = table.getRowType().getFieldList();
        var builder = getCluster().getTypeFactory().builder();
        for (int column : projection) {
            builder.add(fields.get(column));
        }
        return builder.build();
    }

    @Override
    public RelWriter explainTerms(RelWriter writer) {
        return super.explainTerms(writer).item("index", indexName).item("values", values)
                .item("projection", Arrays.toString(projection));
    }

    /**
     * The order the seek returns rows in: the index's key columns after the ones it seeks by
     * equality, each in its direction (a {@code DESC} column descending), as output positions, up
     * to the first one not projected.
     */
    public List<org.apache.calcite.rel.RelFieldCollation> order() {
        IndexStore index = index();
        List<Integer> keyColumns = index.definition().keyColumns();
        List<org.apache.calcite.rel.RelFieldCollation> order = new ArrayList<>();
        for (int key = values.size(); key < keyColumns.size(); key++) {
            int position = KeyOrder.indexOf(projection, keyColumns.get(key));
            if (position < 0) {
                break;
            }
            boolean descending = index.definition().descending().get(key);
            order.add(new org.apache.calcite.rel.RelFieldCollation(position, descending
                    ? org.apache.calcite.rel.RelFieldCollation.Direction.DESCENDING
                    : org.apache.calcite.rel.RelFieldCollation.Direction.ASCENDING,
                    org.apache.calcite.rel.RelFieldCollation.NullDirection.FIRST));
        }
        return order;
    }

    private boolean uniqueLookup() {
        IndexStore index = index();
        return index.definition().unique() && values.size() == index.definition().keyColumns().size();
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        if (uniqueLookup()) {
            return 1;
        }
        return Math.max(1, rowstore.rowCount() * Math.pow(0.15, values.size()));
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double rows = estimateRowCount(mq);
        return Costs.cost(planner, rows, rows * Costs.ROW_DECODE, 2 * Costs.PAGE + rows * Costs.PROBE);
    }

    @Override
    public String explainDetail() {
        List<Integer> keyColumns = index().definition().keyColumns();
        List<String> parts = new ArrayList<>();
        for (int index = 0; index < values.size(); index++) {
            parts.add(rowstore.schema().column(keyColumns.get(index)).name() + " = " + KeyRange.text(values.get(index)));
        }
        return rowstore.name() + ", index " + indexName + ", seek " + String.join(" AND ", parts) + ", lookup by locator";
    }

    @Override
    public Operator instantiate(Execution execution) {
        List<Column> columns = new ArrayList<>();
        for (int column : projection) {
            columns.add(rowstore.schema().column(column));
        }
        TableSchema schema = new TableSchema(columns);
        IndexStore index = index();
        List<Integer> keyColumns = index.definition().keyColumns();
        Object[] keyValues = new Object[values.size()];
        boolean anyNull = false;
        for (int key = 0; key < values.size(); key++) {
            Expr expression = execution.translator(schema).translate(values.get(key));
            Expr.Literal literal = (Expr.Literal) expression;
            SqlType keyType = rowstore.schema().column(keyColumns.get(key)).type();
            if (literal.value() == null) {
                anyNull = true;
                continue;
            }
            keyValues[key] = literal.type().equals(keyType) ? literal.value()
                    : Evaluator.cast(literal.value(), literal.type(), keyType);
        }
        if (execution.planning() || anyNull) {
            return RowsToBatch.operator(schema, context -> RowSources.empty());
        }
        return RowsToBatch.operator(schema, context -> RowSources.indexSeek(execution.environment(), rowstore.store(), index,
                keyValues, projection));
    }
}
