package dev.columba.planner.rel;

import dev.columba.core.exec.FilterOperator;
import dev.columba.core.exec.Operator;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;

/** Keeps the rows whose condition is TRUE: core's {@link FilterOperator}. */
public final class ColumbaFilter extends Filter implements ColumbaRel {
    public ColumbaFilter(RelOptCluster cluster, RelTraitSet traits, RelNode input, RexNode condition) {
        super(cluster, traits, input, condition);
    }

    @Override
    public Filter copy(RelTraitSet traitSet, RelNode input, RexNode condition) {
        return new ColumbaFilter(getCluster(), traitSet, input, condition);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double rows = mq.getRowCount(getInput());
        return Costs.cost(planner, mq.getRowCount(this), rows * Costs.BATCH_ROW, 0);
    }

    @Override
    public String explainDetail() {
        return condition.toString();
    }

    @Override
    public Operator instantiate(Execution execution) {
        Operator input = execution.instantiate(getInput());
        return new FilterOperator(input, execution.translator(input.schema()).translate(condition));
    }
}
