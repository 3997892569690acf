package dev.columba.planner.rel;

import dev.columba.core.exec.JoinType;
import dev.columba.core.exec.Operator;
import dev.columba.core.expr.Expr;
import dev.columba.planner.exec.IndexNestedLoopJoinOperator;
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
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.validate.SqlValidatorUtil;

/**
 * Index nested-loop join: the outer input (its only input) drives probes of a rowstore table by
 * equality on its clustered key or a secondary index (see {@link IndexNestedLoopJoinOperator}).
 * The inner table is not an input: it is read by key, never scanned.
 *
 * <p>Random prefetch is decided when the rule builds the node, from the outer side's estimated
 * rows against {@code prefetch_threshold_rows} and the {@code prefetch} setting, and shown as
 * {@code WithUnorderedPrefetch} ({@code WithOrderedPrefetch} would be needed only if a parent
 * relied on the join's output order; Columba's plans sort explicitly, so none does).
 */
public final class ColumbaIndexNestedLoopJoin extends SingleRel implements ColumbaRel {
    /** Whether and how inner pages are prefetched. */
    public enum Prefetch { NONE, UNORDERED, ORDERED }

    private final RelOptTable innerTable;
    private final RowstoreTable rowstore;
    private final IndexNestedLoopJoinOperator.Access access;
    private final String indexName;
    private final int[] outerKeys;
    private final int[] innerProjection;
    private final JoinRelType joinType;
    private final RexNode residual;
    private final Prefetch prefetch;

    /**
     * @param indexName       the secondary index probed, or null for the clustered key
     * @param outerKeys       outer columns equal to the probed key's columns, in key order
     * @param innerProjection the inner table's columns the join produces
     * @param residual        a condition over the outer columns then all the inner table's columns, or null
     */
    public ColumbaIndexNestedLoopJoin(RelOptCluster cluster, RelTraitSet traits, RelNode outer, RelOptTable innerTable,
                                      IndexNestedLoopJoinOperator.Access access, String indexName, int[] outerKeys,
                                      int[] innerProjection, JoinRelType joinType, RexNode residual, Prefetch prefetch) {
        super(cluster, traits, outer);
        this.innerTable = innerTable;
        this.rowstore = innerTable.unwrap(RowstoreTable.class);
        this.access = access;
        this.indexName = indexName;
        this.outerKeys = outerKeys.clone();
        this.innerProjection = innerProjection.clone();
        this.joinType = joinType;
        this.residual = residual;
        this.prefetch = prefetch;
    }

    public Prefetch prefetch() {
        return prefetch;
    }

    /** The table probed. */
    public RelOptTable innerTable() {
        return innerTable;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new ColumbaIndexNestedLoopJoin(getCluster(), traitSet, inputs.getFirst(), innerTable, access, indexName,
                outerKeys, innerProjection, joinType, residual, prefetch);
    }

    private RelDataType innerRowType() {
        List<RelDataTypeField> fields = innerTable.getRowType().getFieldList();
        var builder = getCluster().getTypeFactory().builder();
        for (int column : innerProjection) {
            builder.add(fields.get(column));
        }
        return builder.build();
    }

    @Override
    protected RelDataType deriveRowType() {
        if (joinType == JoinRelType.SEMI || joinType == JoinRelType.ANTI) {
            return getInput().getRowType();
        }
        return SqlValidatorUtil.deriveJoinRowType(getInput().getRowType(), innerRowType(), joinType,
                getCluster().getTypeFactory(), null, List.of());
    }

    @Override
    public RelWriter explainTerms(RelWriter writer) {
        return super.explainTerms(writer)
                .item("inner", innerTable.getQualifiedName())
                .item("access", access + (indexName == null ? "" : " " + indexName))
                .item("outerKeys", Arrays.toString(outerKeys))
                .item("innerProjection", Arrays.toString(innerProjection))
                .item("joinType", joinType)
                .itemIf("residual", residual, residual != null)
                .item("prefetch", prefetch);
    }

    private boolean uniqueProbe() {
        return access == IndexNestedLoopJoinOperator.Access.CLUSTERED_UNIQUE
                || (access == IndexNestedLoopJoinOperator.Access.SECONDARY_INDEX && index().definition().unique()
                && index().definition().keyColumns().size() == outerKeys.length);
    }

    /** Rows one probe finds: one for a unique key, else the table's rows per distinct key value guessed. */
    private double matchesPerProbe() {
        if (uniqueProbe()) {
            return 1;
        }
        return Math.max(1, rowstore.rowCount() * Math.pow(0.15, outerKeys.length));
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        double outer = mq.getRowCount(getInput());
        double residualFraction = residual == null ? 1.0 : 0.5;
        return switch (joinType) {
            case SEMI -> outer * 0.9;
            case ANTI -> Math.max(1, outer * 0.1);
            case LEFT -> outer * Math.max(1, matchesPerProbe() * residualFraction);
            default -> outer * matchesPerProbe() * residualFraction;
        };
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double outer = mq.getRowCount(getInput());
        double matches = outer * matchesPerProbe();
        double lookups = access == IndexNestedLoopJoinOperator.Access.SECONDARY_INDEX ? 2 : 1;
        return Costs.cost(planner, estimateRowCount(mq), matches * Costs.ROW_DECODE + outer * Costs.ROW_DECODE,
                outer * lookups * Costs.PROBE);
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
    public String explainDetail() {
        List<Integer> keyColumns = access == IndexNestedLoopJoinOperator.Access.SECONDARY_INDEX
                ? index().definition().keyColumns() : rowstore.keyColumns();
        List<String> outerNames = getInput().getRowType().getFieldNames();
        List<String> seeks = new ArrayList<>();
        for (int key = 0; key < outerKeys.length; key++) {
            seeks.add(rowstore.schema().column(keyColumns.get(key)).name() + " = outer." + outerNames.get(outerKeys[key]));
        }
        String how = switch (access) {
            case CLUSTERED_UNIQUE -> "unique clustered key";
            case CLUSTERED_PREFIX -> "clustered key range";
            case SECONDARY_INDEX -> "index " + indexName;
        };
        StringBuilder text = new StringBuilder(joinType.toString()).append(", inner ").append(rowstore.name())
                .append(" seek ").append(how).append(" ").append(String.join(" AND ", seeks));
        if (residual != null) {
            text.append(", residual ").append(residual);
        }
        switch (prefetch) {
            case UNORDERED -> text.append(", WithUnorderedPrefetch");
            case ORDERED -> text.append(", WithOrderedPrefetch");
            case NONE -> {
            }
        }
        return text.toString();
    }

    @Override
    public Operator instantiate(Execution execution) {
        Operator outer = execution.instantiate(getInput());
        Expr condition = residual == null ? null
                : execution.translator(Execution.concat(outer.schema(), rowstore.schema())).translate(residual);
        JoinType type = Joins.joinType(joinType);
        return new IndexNestedLoopJoinOperator(execution.environment(), outer, rowstore.store(), access,
                access == IndexNestedLoopJoinOperator.Access.SECONDARY_INDEX ? index() : null, outerKeys, innerProjection,
                type, condition, prefetch != Prefetch.NONE);
    }
}
