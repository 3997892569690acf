package dev.columba.planner.rel;

import dev.columba.core.exec.GatherOperator;
import dev.columba.core.exec.HashAggregateOperator;
import dev.columba.core.exec.Operator;
import dev.columba.core.exec.SharedAggregation;
import dev.columba.core.schema.TableSchema;
import java.util.List;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * One half of a {@link ColumbaAggregate} split around a {@link ColumbaGather}: the partial
 * aggregation each worker runs over its rows (keys and aggregate states out), or the final merge
 * above the gather (or, over a {@link ColumbaRepartition}, in each worker over the groups of its
 * partition). Its row type is the aggregate's (the partial's state columns stand where the
 * aggregates are; only the operators see them).
 */
public final class ColumbaSplitAggregate extends SingleRel implements ColumbaRel {
    private final ColumbaAggregate aggregate;
    private final HashAggregateOperator.Phase phase;

    public ColumbaSplitAggregate(RelTraitSet traits, RelNode input, ColumbaAggregate aggregate, HashAggregateOperator.Phase phase) {
        super(aggregate.getCluster(), traits, input);
        this.aggregate = aggregate;
        this.phase = phase;
        this.rowType = aggregate.getRowType();
    }

    /** The aggregation this node is a phase of. */
    public ColumbaAggregate aggregate() {
        return aggregate;
    }

    public HashAggregateOperator.Phase phase() {
        return phase;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new ColumbaSplitAggregate(traitSet, sole(inputs), aggregate, phase);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return aggregate.computeSelfCost(planner, mq);
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        return mq.getRowCount(aggregate);
    }

    @Override
    public String explainDetail() {
        if (phase == HashAggregateOperator.Phase.PARTIAL) {
            return "partial, " + aggregate.explainDetail();
        }
        // Above the gather the input's columns are the partial's: name the keys, not the calls' $n.
        List<String> keys = new java.util.ArrayList<>();
        for (int key : aggregate.getGroupSet()) {
            keys.add(aggregate.getInput().getRowType().getFieldNames().get(key));
        }
        return "final, group by " + keys + ", " + aggregate.getAggCallList().size() + " aggregates merged";
    }

    @Override
    public Operator instantiate(Execution execution) {
        if (phase == HashAggregateOperator.Phase.PARTIAL) {
            return aggregate.instantiate(execution, aggregate.instantiateInput(execution, getInput()), phase, null);
        }
        if (getInput() instanceof ColumbaRepartition repartition && execution.inFragment()
                && repartition.getInput() instanceof ColumbaSplitAggregate partial) {
            // The workers aggregate their rows into partition tables and each finishes one partition
            // in place (SharedAggregation): the repartition of the partial groups and their second
            // insertion into a merge's table are not done.
            Operator rows = aggregate.instantiateInput(execution, partial.getInput());
            return aggregate.instantiate(execution, rows, HashAggregateOperator.Phase.COMPLETE, null,
                    execution.shared(repartition, SharedAggregation::new));
        }
        Operator input = execution.instantiate(getInput());
        // The partial aggregations' input: the rows, whose types the final merge needs (MIN, MAX).
        Operator partial = input instanceof GatherOperator gather ? gather.worker(0) : input;
        TableSchema rows = ((HashAggregateOperator) partial).inputSchema();
        return aggregate.instantiate(execution, input, phase, rows);
    }
}
