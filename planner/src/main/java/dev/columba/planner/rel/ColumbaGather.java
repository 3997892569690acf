package dev.columba.planner.rel;

import dev.columba.core.exec.GatherOperator;
import dev.columba.core.exec.Operator;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * Parallelism (Gather Streams): its input, a plan fragment, runs on {@link #degree()} workers at
 * once, each with its own copy of the fragment's operators; the copies divide the rowgroups of the
 * fragment's {@linkplain #driver() driver} among themselves as they go (morsels), and those of the
 * scans of build inputs that every worker reads a share of ({@link #drivers()}), and read
 * everything else in full. The gather returns the workers' rows in no particular order.
 *
 * <p>Placed after cost-based planning by {@code Parallelizer}. A statement that runs inside a write
 * transaction runs the fragment once, serially: its reads go through the transaction's private
 * pages, which belong to the session's thread.
 */
public final class ColumbaGather extends SingleRel implements ColumbaRel {
    private final int degree;
    private final List<RelNode> drivers;

    /**
     * @param drivers the scans whose rowgroups the workers divide: the fragment's own (first), then
     *                those of the build inputs that every worker reads a share of
     */
    public ColumbaGather(RelOptCluster cluster, RelTraitSet traits, RelNode input, int degree, List<RelNode> drivers) {
        super(cluster, traits, input);
        if (drivers.isEmpty()) {
            throw new IllegalArgumentException("a gather needs the scan its workers divide");
        }
        this.degree = degree;
        this.drivers = List.copyOf(drivers);
    }

    /** The number of workers. */
    public int degree() {
        return degree;
    }

    /** The scan in the fragment whose rowgroups the workers divide. */
    public RelNode driver() {
        return drivers.get(0);
    }

    /** Every scan whose rowgroups the workers divide: {@link #driver()}, then those of build inputs read by each worker. */
    public List<RelNode> drivers() {
        return drivers;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new ColumbaGather(getCluster(), traitSet, sole(inputs), degree, drivers);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return planner.getCostFactory().makeTinyCost();
    }

    @Override
    public String explainDetail() {
        return "Gather Streams, degree " + degree;
    }

    @Override
    public Operator instantiate(Execution execution) {
        if (!execution.planning() && execution.environment().transaction() != null) {
            return execution.instantiate(getInput());
        }
        // The planner's check needs one copy to learn the fragment's columns and mode.
        int copies = execution.planning() ? 1 : degree;
        Execution.Fragment fragment = new Execution.Fragment(drivers, copies);
        List<Operator> workers = new ArrayList<>(copies);
        try {
            for (int worker = 0; worker < copies; worker++) {
                workers.add(execution.worker(fragment).instantiate(getInput()));
            }
        } catch (RuntimeException e) {
            for (Operator worker : workers) {
                worker.close();
            }
            throw e;
        }
        return new GatherOperator(workers);
    }
}
