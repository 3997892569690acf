package dev.columba.columnstore.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The adaptive order fed the costs of a known data layout: filters whose cost per tested row and
 * share of rows kept are fixed, run in sequence over batches of {@link #ROWS} rows, the first over
 * all of them (at its own cost when first) and each later one over the rows left. The cost of a
 * batch is computed from the order the class chose for it, as the scan's clock would measure it.
 */
class FilterOrderTest {
    private static final int ROWS = 4096;

    /** A filter: nanoseconds per row when it runs first, when it runs later, and the share of rows it keeps. */
    private record Step(double firstCost, double laterCost, double kept) {}

    private static long cost(int[] order, Step... steps) {
        double live = ROWS;
        double nanos = 0;
        for (int position = 0; position < order.length; position++) {
            Step step = steps[order[position]];
            nanos += live * (position == 0 ? step.firstCost() : step.laterCost());
            live *= step.kept();
        }
        return Math.round(nanos);
    }

    /** Runs {@code batches} batches; returns how many ran in {@code best}. */
    private static int run(FilterOrder order, int batches, int[] best, Step... steps) {
        int inBest = 0;
        for (int batch = 0; batch < batches; batch++) {
            int[] now = order.order();
            if (Arrays.equals(now, best)) {
                inBest++;
            }
            order.record(cost(now, steps), ROWS);
        }
        return inBest;
    }

    /**
     * TPC-H Q3's lineitem scan: the date predicate (keeps 54%, a sequential pass) is the planner's
     * first; the order-key bitmap filter keeps 5% and is cheap first (a run at a time, undecoded)
     * but dear later (its column decoded at the rows left). The bitmap filter moves first and the
     * scan stays there but for the occasional trial.
     */
    @Test
    void aCheaperOrderIsFoundAndKept() {
        Step date = new Step(1.0, 2.0, 0.54);
        Step bitmap = new Step(0.8, 4.0, 0.05);
        FilterOrder order = new FilterOrder(2);
        int batches = 1000;
        int inBest = run(order, batches, new int[] {1, 0}, date, bitmap);
        assertTrue(inBest > 0.9 * batches, inBest + " of " + batches + " batches in the cheaper order");
        assertEquals(1, order.swapsKept(), "one swap found the cheaper order; none undid it");
    }

    @Test
    void theGivenOrderStaysWhenItIsTheCheaper() {
        Step selective = new Step(1.0, 1.5, 0.01);
        Step broad = new Step(1.0, 1.5, 0.9);
        FilterOrder order = new FilterOrder(2);
        int batches = 2000;
        int inGiven = run(order, batches, new int[] {0, 1}, selective, broad);
        assertTrue(inGiven > 0.95 * batches, inGiven + " of " + batches + " batches in the given order");
        assertEquals(0, order.swapsKept());
    }

    /**
     * A scan of a small table (60 batches): a swap that makes every batch dearer is undone after
     * its first {@link FilterOrder#EARLY_REJECT_BATCHES} batches, not after a whole phase.
     */
    @Test
    void aDearerTrialIsUndoneAfterItsFirstBatches() {
        Step selective = new Step(1.0, 1.5, 0.01);
        Step broad = new Step(1.0, 1.5, 0.9);
        FilterOrder order = new FilterOrder(2);
        int batches = 60;
        int inDearer = batches - run(order, batches, new int[] {0, 1}, selective, broad);
        assertTrue(inDearer > 0, "the other order was tried");
        assertTrue(inDearer <= 2 * FilterOrder.EARLY_REJECT_BATCHES, inDearer + " of " + batches + " batches in the dearer order");
    }

    /**
     * A batch during which the thread was descheduled (a thousand times the cost) in every baseline
     * phase does not make the scan give up the cheaper order: phases compare medians.
     */
    @Test
    void aSlowBatchNowAndThenDoesNotChangeTheOrder() {
        Step selective = new Step(1.0, 1.5, 0.01);
        Step broad = new Step(1.0, 1.5, 0.9);
        FilterOrder order = new FilterOrder(2);
        int batches = 2000;
        int inGiven = 0;
        for (int batch = 0; batch < batches; batch++) {
            int[] now = order.order();
            boolean given = now[0] == 0;
            inGiven += given ? 1 : 0;
            long nanos = cost(now, selective, broad);
            order.record(given && batch % 7 == 3 ? 1000 * nanos : nanos, ROWS);
        }
        assertTrue(inGiven > 0.95 * batches, inGiven + " of " + batches + " batches in the given order");
        assertEquals(0, order.swapsKept());
    }

    /** Adjacent swaps reach the cheapest of three: by rank, cost per row over the share dropped. */
    @Test
    void threeFiltersSettleInTheCheapestOrder() {
        Step broad = new Step(1.0, 1.0, 0.9);
        Step middle = new Step(1.0, 1.0, 0.5);
        Step selective = new Step(1.0, 1.0, 0.05);
        FilterOrder order = new FilterOrder(3);
        run(order, 600, new int[] {2, 1, 0}, broad, middle, selective);
        int inBest = run(order, 2000, new int[] {2, 1, 0}, broad, middle, selective);
        assertTrue(inBest > 0.9 * 2000, inBest + " of 2000 batches in the cheapest order");
    }

    /** When the data changes so that another order is cheaper, the scan follows within a bounded number of batches. */
    @Test
    void theOrderFollowsAChangeInTheData() {
        Step first = new Step(1.0, 2.0, 0.1);
        Step second = new Step(1.0, 2.0, 0.9);
        FilterOrder order = new FilterOrder(2);
        int inOld = run(order, 3000, new int[] {0, 1}, first, second);
        assertTrue(inOld > 0.9 * 3000, inOld + " of 3000 batches in the first cheaper order");
        int maximumDelay = 2 * (FilterOrder.MAX_WAIT_PHASES + 2) * FilterOrder.PHASE_BATCHES;
        int inNewBest = run(order, maximumDelay + 1000, new int[] {1, 0}, second, first);
        assertTrue(inNewBest >= 1000 * 0.9, inNewBest + " batches in the new cheaper order");
    }

    @Test
    void oneFilterOrNoneHasNothingToOrder() {
        for (int steps = 0; steps <= 1; steps++) {
            FilterOrder order = new FilterOrder(steps);
            for (int batch = 0; batch < 100; batch++) {
                order.record(batch, ROWS);
            }
            assertEquals(steps, order.order().length);
            assertTrue(!order.adapts());
        }
        assertThrows(IllegalArgumentException.class, () -> new FilterOrder(-1));
    }
}
