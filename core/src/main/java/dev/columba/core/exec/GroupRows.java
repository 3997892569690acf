package dev.columba.core.exec;

import java.util.Arrays;

/**
 * One batch's rows counted per group, for an aggregation of few groups (TPC-H Q1's four): the
 * accumulators that add a value for every row (COUNT(*), SUM and AVG of values without NULLs) take
 * their counts from here once a batch instead of incrementing a counter per row each, and add
 * their values in {@link #LANES} running sums per group ({@link #lanes}), so that consecutive rows
 * of one group do not each wait for the other's store to the same slot. Scratch of one
 * aggregation's thread, reused batch after batch.
 */
final class GroupRows {
    /** Aggregations with more groups than this add row by row. */
    static final int MAX_GROUPS = 64;
    static final int LANE_BITS = 2;
    static final int LANES = 1 << LANE_BITS;
    private final long[] counts = new long[MAX_GROUPS];
    private final long[] laneCounts = new long[MAX_GROUPS << LANE_BITS];
    /** Zero between uses: each user adds into it and leaves it zeroed. */
    private final long[] lanes = new long[MAX_GROUPS << LANE_BITS];
    /** Per row of the batch, its lane in {@link #lanes}. */
    private int[] laneOfRows = new int[0];
    private int groups;

    /** Counts the rows of {@code groupIds[0, count)}, ids below {@code groups} (at most {@link #MAX_GROUPS}). */
    void count(int[] groupIds, int count, int groups) {
        if (groups > MAX_GROUPS) {
            throw new IllegalArgumentException(groups + " groups are more than " + MAX_GROUPS);
        }
        this.groups = groups;
        if (laneOfRows.length < count) {
            laneOfRows = new int[Math.max(count, 2 * laneOfRows.length)];
        }
        int[] laneOfRows = this.laneOfRows;
        long[] laneCounts = this.laneCounts;
        for (int index = 0; index < count; index++) {
            int lane = (groupIds[index] << LANE_BITS) | (index & (LANES - 1));
            laneOfRows[index] = lane;
            laneCounts[lane]++;
        }
        for (int group = 0; group < groups; group++) {
            long total = 0;
            for (int lane = group << LANE_BITS; lane < (group + 1) << LANE_BITS; lane++) {
                total += laneCounts[lane];
            }
            counts[group] = total;
        }
        Arrays.fill(laneCounts, 0, groups << LANE_BITS, 0);
    }

    /** The groups of the batch counted last: ids {@code [0, groups())}. */
    int groups() {
        return groups;
    }

    /** Per group, the rows of the batch counted last. */
    long[] counts() {
        return counts;
    }

    /** Per row of the batch counted last, its lane in {@link #lanes}: its group's, the lane changing with every row. */
    int[] laneOfRows() {
        return laneOfRows;
    }

    /** {@link #LANES} running sums per group (group {@code g}'s at {@code g << LANE_BITS}), all zero. */
    long[] lanes() {
        return lanes;
    }
}
