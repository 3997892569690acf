package dev.columba.planner.rel;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.exec.GatherOperator;
import dev.columba.core.exec.MergeGatherOperator;
import dev.columba.core.exec.Operator;
import dev.columba.core.exec.SortOperator;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * Parallelism (Gather Streams): its input, a plan fragment, runs on {@link #degree()} workers at
 * once, each with its own copy of the fragment's operators; the copies divide the rowgroups of the
 * fragment's {@linkplain #driver() driver} among themselves as they go (morsels), and those of the
 * scans of build inputs that every worker reads a share of ({@link #drivers()}), and read
 * everything else in full. The gather returns the workers' rows in no particular order, unless it
 * has an {@linkplain #order() order}: then its input is a sort (each worker sorts its share) and
 * the gather merges the workers' sorted runs ({@code MergeGatherOperator}), a parallel ORDER BY.
 *
 * <p>Placed after cost-based planning by {@code Parallelizer}. A statement that runs inside a write
 * transaction runs the fragment once, serially: its reads go through the transaction's private
 * pages, which belong to the session's thread.
 */
public final class ColumbaGather extends SingleRel implements ColumbaRel {
    private final int degree;
    private final List<RelNode> drivers;
    private final RelCollation order;

    /**
     * @param drivers the scans whose rowgroups the workers divide: the fragment's own (first), then
     *                those of the build inputs that every worker reads a share of
     */
    public ColumbaGather(RelOptCluster cluster, RelTraitSet traits, RelNode input, int degree, List<RelNode> drivers) {
        this(cluster, traits, input, degree, drivers, RelCollations.EMPTY);
    }

    /**
     * A gather that merges the workers' sorted rows into {@code order}: {@code input} is a
     * {@link ColumbaSort} by that order without offset or fetch (an empty order gathers rows as they come).
     */
    public ColumbaGather(RelOptCluster cluster, RelTraitSet traits, RelNode input, int degree, List<RelNode> drivers,
                         RelCollation order) {
        super(cluster, traits, input);
        if (drivers.isEmpty()) {
            throw new IllegalArgumentException("a gather needs the scan its workers divide");
        }
        this.degree = degree;
        this.drivers = List.copyOf(drivers);
        this.order = order;
    }

    /** The order the gather returns rows in: the workers' sort's, merged; empty when it returns them as they come. */
    public RelCollation order() {
        return order;
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
        return new ColumbaGather(getCluster(), traitSet, sole(inputs), degree, drivers, order);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return planner.getCostFactory().makeTinyCost();
    }

    @Override
    public String explainDetail() {
        return order.getFieldCollations().isEmpty() ? "Gather Streams, degree " + degree
                : "Gather Streams, degree " + degree + ", merging in order";
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
        if (order.getFieldCollations().isEmpty()) {
            return new GatherOperator(workers);
        }
        List<SortOperator> sorts = new ArrayList<>(copies);
        for (Operator worker : workers) {
            if (!(worker instanceof SortOperator sort)) {
                workers.forEach(Operator::close);
                throw new ColumbaException(ErrorCode.INTERNAL, "a merging gather's workers must sort, not " + worker);
            }
            sorts.add(sort);
        }
        return new MergeGatherOperator(sorts);
    }
}
