package dev.columba.planner.rel;

import dev.columba.core.exec.NestedLoopJoinOperator;
import dev.columba.core.exec.Operator;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;

/**
 * Join on any condition by pairing every left row with every (materialized) right row, the
 * condition evaluated vectorized over batches of pairs: core's {@link NestedLoopJoinOperator}.
 */
public final class ColumbaNestedLoopJoin extends Join implements ColumbaRel {
    public ColumbaNestedLoopJoin(RelOptCluster cluster, RelTraitSet traits, RelNode left, RelNode right, RexNode condition,
                                 JoinRelType joinType) {
        super(cluster, traits, List.of(), left, right, condition, java.util.Set.of(), joinType);
    }

    @Override
    public Join copy(RelTraitSet traitSet, RexNode condition, RelNode left, RelNode right, JoinRelType joinType,
                     boolean semiJoinDone) {
        return new ColumbaNestedLoopJoin(getCluster(), traitSet, left, right, condition, joinType);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double left = mq.getRowCount(getLeft());
        double right = mq.getRowCount(getRight());
        double out = mq.getRowCount(this);
        // The inner rows are copied and held, as a hash join's build, and each pair's values are
        // copied into a batch of pairs before the condition is evaluated: both cost by width
        // (RowBytes). Without the pairs' width, an equality with one estimated inner row ran as
        // 150 thousand customers paired with the nation pairs of TPC-H Q7, not as a hash join.
        double rightWeight = RowBytes.weight(getRight(), mq);
        double pairWeight = rightWeight + RowBytes.weight(getLeft(), mq) - 1;
        return Costs.cost(planner, out, left * right * Costs.PAIR * pairWeight
                + right * Costs.HASH_BUILD_ROW * rightWeight + out * Costs.BATCH_ROW, 0);
    }

    @Override
    public String explainDetail() {
        return getJoinType() + ", " + condition;
    }

    @Override
    public Operator instantiate(Execution execution) {
        Operator left = execution.instantiate(getLeft());
        Operator right = execution.instantiate(getRight());
        return new NestedLoopJoinOperator(left, right, Joins.joinType(getJoinType()),
                Joins.condition(execution, condition, left.schema(), right.schema()));
    }
}
