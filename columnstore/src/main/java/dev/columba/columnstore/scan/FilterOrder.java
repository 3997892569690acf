package dev.columba.columnstore.scan;

import java.util.Arrays;

/**
 * The order in which a scan runs its row filters over a batch (the pushed-down predicates, the
 * comparisons between two columns and the joins' bitmap filters), adapted by trial to what each
 * order costs on the data being read.
 *
 * <p>Why by trial and not from per-filter figures (Velox orders its filters by time per dropped
 * value): a filter's cost depends on where it runs. First, a predicate selects over all rows in one
 * sequential pass and a bitmap filter over a run-length column tests one value a run without
 * decoding it; later, a predicate refines a selection by random access and a bitmap filter decodes
 * its column first. Figures taken at the current positions undervalue a filter that would be cheap
 * first: TPC-H Q3 ran {@code l_shipdate > date} (keeps 54%) before the order-key bitmap (keeps
 * about 5% of those rows, tested a run at a time when first). So, as DuckDB's {@code
 * AdaptiveFilter} does, the scan times the whole filtering of each batch, and this class swaps
 * one adjacent pair at a time and keeps a swap only when it made the filtering cheaper.
 *
 * <p>The cycle: after {@link #WARM_UP_BATCHES}, a phase of {@link #PHASE_BATCHES} batches in the
 * current order gives the baseline; the next phase runs with one adjacent pair swapped (the pairs
 * in turn); the swap stays if that phase's cost per row is below the baseline, else it is undone
 * (at once when each of its first {@link #EARLY_REJECT_BATCHES} batches cost more than the
 * baseline: a scan of a small table is not to spend a whole phase of its few batches in a worse order)
 * and the pair waits twice as many phases as last time (up to {@link #MAX_WAIT_PHASES}) before it
 * is tried again, so that a settled order spends few batches on trials and a change in the data
 * is still noticed. A phase's cost is the median of its batches' costs per row, not the mean: a
 * batch during which the thread was descheduled is one outlier, not a wrong decision.
 *
 * <p>Every order gives the same rows (the filters are ANDed); only the time differs. Owned by one
 * thread: each worker's scan has its own.
 */
final class FilterOrder {
    /** Batches not timed at the start of a scan (its first batches run while the code is still being compiled). */
    static final int WARM_UP_BATCHES = 4;
    /** Batches a phase (baseline or trial) is timed over. */
    static final int PHASE_BATCHES = 9;
    /** A trial whose first this many batches each cost more than the baseline is undone at once. */
    static final int EARLY_REJECT_BATCHES = 3;
    /** The longest wait, in phases, of a pair whose swap was undone before it is tried again. */
    static final int MAX_WAIT_PHASES = 64;

    /** The filters' indexes in the order they run: valid until the next {@link #record}. */
    private final int[] order;
    /** Per adjacent pair (positions p and p + 1): phases to wait after its next undone swap, and phases left to wait now. */
    private final int[] backoff;
    private final int[] waiting;
    /** Cost per row of each batch of the current phase, and a scratch copy for its median. */
    private final double[] costs = new double[PHASE_BATCHES];
    private final double[] sorted = new double[PHASE_BATCHES];
    private int batchesInPhase;
    private int warmUpLeft = WARM_UP_BATCHES;
    /** The median cost per row of the last phase in the current order. */
    private double baseline;
    /** The pair swapped for the current phase's trial, or -1 in a baseline phase. */
    private int trying = -1;
    private int nextPair;
    /** Batches of the current trial so far that all cost more than the baseline ({@link #PHASE_BATCHES} once one did not). */
    private int trialsAbove;
    private int swapsKept;

    /** An order of {@code steps} filters, starting with the planner's (0, 1, ...). */
    FilterOrder(int steps) {
        if (steps < 0) {
            throw new IllegalArgumentException("filter count " + steps);
        }
        order = new int[steps];
        Arrays.setAll(order, index -> index);
        backoff = new int[Math.max(0, steps - 1)];
        Arrays.fill(backoff, 1);
        waiting = new int[backoff.length];
    }

    /** The filters' indexes in the order the next batch should run them. The array is live: do not change it. */
    int[] order() {
        return order;
    }

    /** Whether there is an order to choose: two filters or more. */
    boolean adapts() {
        return order.length >= 2;
    }

    /** Swaps kept so far (for tests and diagnostics). */
    int swapsKept() {
        return swapsKept;
    }

    /**
     * Records that filtering a batch of {@code rows} rows in the current {@link #order} took {@code
     * nanos}; may change the order for the next batch.
     */
    void record(long nanos, int rows) {
        if (!adapts() || rows <= 0) {
            return;
        }
        if (warmUpLeft > 0) {
            warmUpLeft--;
            return;
        }
        double batchCost = (double) nanos / rows;
        costs[batchesInPhase++] = batchCost;
        if (trying >= 0) {
            trialsAbove = batchCost > baseline ? trialsAbove + 1 : PHASE_BATCHES;
            if (trialsAbove == EARLY_REJECT_BATCHES) {
                // The first batches of the trial all cost more than the baseline's median: undone
                // now, so that a short scan does not spend a whole phase in a worse order.
                reject();
                return;
            }
        }
        if (batchesInPhase < PHASE_BATCHES) {
            return;
        }
        batchesInPhase = 0;
        double cost = median();
        if (trying >= 0) {
            if (cost < baseline) {
                backoff[trying] = 1;
                swapsKept++;
                trying = -1;
            } else {
                reject();
            }
            return;
        }
        baseline = cost;
        for (int attempt = 0; attempt < backoff.length; attempt++) {
            int pair = nextPair;
            nextPair = (nextPair + 1) % backoff.length;
            if (waiting[pair] > 0) {
                waiting[pair]--;
                continue;
            }
            swap(pair);
            trying = pair;
            trialsAbove = 0;
            return;
        }
    }

    /** Undoes the trial's swap; the pair waits twice as long as last time before it is tried again. */
    private void reject() {
        swap(trying);
        backoff[trying] = Math.min(2 * backoff[trying], MAX_WAIT_PHASES);
        waiting[trying] = backoff[trying];
        trying = -1;
        batchesInPhase = 0;
    }

    private void swap(int pair) {
        int first = order[pair];
        order[pair] = order[pair + 1];
        order[pair + 1] = first;
    }

    private double median() {
        System.arraycopy(costs, 0, sorted, 0, PHASE_BATCHES);
        Arrays.sort(sorted);
        return sorted[PHASE_BATCHES / 2];
    }
}
