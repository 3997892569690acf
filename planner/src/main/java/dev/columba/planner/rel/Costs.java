package dev.columba.planner.rel;

import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;

/**
 * The per-row and per-page prices of the cost model, in pages (see {@link ColumbaCost}). They
 * only need to order plans sensibly: a page read from storage costs 1; a rowstore row decoded one
 * at a time costs 0.01; a row through a vectorized (batch-mode) operator 0.002; a columnstore
 * value 0.0005 (compressed, read in batches).
 */
final class Costs {
    static final double PAGE = 1.0;
    static final double ROW_DECODE = 0.01;
    static final double BATCH_ROW = 0.002;
    static final double COLUMNSTORE_VALUE = 0.0005;
    static final double HASH_BUILD_ROW = 0.01;
    static final double HASH_PROBE_ROW = 0.004;
    static final double PAIR = 0.002;
    static final double SORT_COMPARISON = 0.002;
    /** A probe of an index by key: a random leaf read (upper levels stay resident) and the row. */
    static final double PROBE = 0.3;

    private Costs() {
    }

    static RelOptCost cost(RelOptPlanner planner, double rows, double cpu, double io) {
        return planner.getCostFactory().makeCost(rows, cpu, io);
    }
}
