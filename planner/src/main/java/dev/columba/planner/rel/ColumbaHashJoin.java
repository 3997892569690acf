package dev.columba.planner.rel;

import dev.columba.core.exec.HashJoinOperator;
import dev.columba.core.exec.Operator;
import dev.columba.core.exec.SharedHashBuild;
import dev.columba.core.type.SqlType;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;

/**
 * Equi-join by hashing: the right input is the build side, the left is probed batch by batch
 * (core's {@link HashJoinOperator}); conditions beyond the equal keys are checked on candidate
 * pairs. Keys whose vectors differ in type are cast to their common type first.
 */
public final class ColumbaHashJoin extends Join implements ColumbaRel {
    /** Per equi-key (in {@link JoinInfo} order), the bitmap filter its build publishes, or null. */
    private final List<String> bitmapFilters;

    public ColumbaHashJoin(RelOptCluster cluster, RelTraitSet traits, RelNode left, RelNode right, RexNode condition,
                           JoinRelType joinType) {
        this(cluster, traits, left, right, condition, joinType, null);
    }

    private ColumbaHashJoin(RelOptCluster cluster, RelTraitSet traits, RelNode left, RelNode right, RexNode condition,
                            JoinRelType joinType, List<String> bitmapFilters) {
        super(cluster, traits, List.of(), left, right, condition, java.util.Set.of(), joinType);
        this.bitmapFilters = bitmapFilters;
    }

    @Override
    public Join copy(RelTraitSet traitSet, RexNode condition, RelNode left, RelNode right, JoinRelType joinType,
                     boolean semiJoinDone) {
        return new ColumbaHashJoin(getCluster(), traitSet, left, right, condition, joinType, bitmapFilters);
    }

    /**
     * This join over {@code left} and {@code right} publishing its keys' values to the bitmap
     * filters named in {@code filters} (one entry per equi-key, null for none).
     */
    public ColumbaHashJoin withBitmapFilters(RelNode left, RelNode right, List<String> filters) {
        return new ColumbaHashJoin(getCluster(), getTraitSet(), left, right, condition, joinType,
                java.util.Collections.unmodifiableList(new java.util.ArrayList<>(filters)));
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double left = mq.getRowCount(getLeft());
        double right = mq.getRowCount(getRight());
        double out = mq.getRowCount(this);
        return Costs.cost(planner, out, right * Costs.HASH_BUILD_ROW + left * Costs.HASH_PROBE_ROW + out * Costs.BATCH_ROW, 0);
    }

    @Override
    public String explainDetail() {
        String published = "";
        if (bitmapFilters != null) {
            List<String> names = bitmapFilters.stream().filter(java.util.Objects::nonNull).toList();
            published = names.isEmpty() ? "" : ", bitmap filters " + String.join(", ", names);
        }
        return getJoinType() + ", " + condition + ", build right" + published;
    }

    @Override
    public Operator instantiate(Execution execution) {
        Operator left = execution.instantiate(getLeft());
        Operator right = execution.instantiate(getRight());
        JoinInfo info = analyzeCondition();
        for (int key = 0; key < info.leftKeys.size(); key++) {
            int leftColumn = info.leftKeys.get(key);
            int rightColumn = info.rightKeys.get(key);
            SqlType common = Joins.keyType(left.schema().column(leftColumn).type(), right.schema().column(rightColumn).type());
            if (common != null) {
                if (!left.schema().column(leftColumn).type().equals(common)) {
                    left = Joins.castColumn(left, leftColumn, common);
                }
                if (!right.schema().column(rightColumn).type().equals(common)) {
                    right = Joins.castColumn(right, rightColumn, common);
                }
            }
        }
        RexNode remaining = org.apache.calcite.rex.RexUtil.composeConjunction(getCluster().getRexBuilder(), info.nonEquiConditions);
        // The workers of a parallel fragment probe one table, built by the first of them to need it.
        SharedHashBuild shared = execution.inFragment() ? execution.shared(this, SharedHashBuild::new) : null;
        HashJoinOperator join = new HashJoinOperator(left, right, Joins.joinType(getJoinType()), info.leftKeys, info.rightKeys,
                Joins.condition(execution, remaining, left.schema(), right.schema()), shared);
        if (bitmapFilters != null) {
            for (int key = 0; key < bitmapFilters.size(); key++) {
                if (bitmapFilters.get(key) != null) {
                    join.publishKeys(key, execution.runtimeFilter(bitmapFilters.get(key)));
                }
            }
        }
        return join;
    }
}
