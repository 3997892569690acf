package dev.columba.planner.rel;

import dev.columba.core.exec.Operator;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * Parallelism (Repartition Streams) inside a parallel fragment: rows with equal {@link #keys()}
 * end in one worker. Placed by {@code Parallelizer} between a partial aggregation and its final
 * merge, which then runs in the workers, each over the groups of its partition. It is a plan node
 * only: the final merge above it instantiates the three as one partitioned aggregation per worker
 * ({@link ColumbaSplitAggregate}, core's {@code SharedAggregation}), which exchanges group tables
 * instead of rows. Outside a parallel fragment (a statement inside a write transaction runs its
 * fragments once, serially) it passes its input on.
 */
public final class ColumbaRepartition extends SingleRel implements ColumbaRel {
    private final List<Integer> keys;
    private final int degree;

    public ColumbaRepartition(RelTraitSet traits, RelNode input, List<Integer> keys, int degree) {
        super(input.getCluster(), traits, input);
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("a repartition needs at least one key");
        }
        this.keys = List.copyOf(keys);
        this.degree = degree;
    }

    /** The input columns whose values decide a row's worker. */
    public List<Integer> keys() {
        return keys;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new ColumbaRepartition(traitSet, sole(inputs), keys, degree);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return planner.getCostFactory().makeTinyCost();
    }

    @Override
    public String explainDetail() {
        List<String> names = new ArrayList<>();
        for (int key : keys) {
            names.add(getInput().getRowType().getFieldNames().get(key));
        }
        return "Repartition Streams, hash " + names + ", degree " + degree;
    }

    @Override
    public Operator instantiate(Execution execution) {
        if (execution.inFragment()) {
            // Parallelizer places a repartition only under a final merge, which instantiates it.
            throw new IllegalStateException("a Repartition Streams is instantiated by the final aggregation above it");
        }
        return execution.instantiate(getInput());
    }
}
