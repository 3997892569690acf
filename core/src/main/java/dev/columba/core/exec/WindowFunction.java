package dev.columba.core.exec;

/**
 * The functions a {@link WindowOperator} computes over a row's partition. Ranking functions and
 * LAG/LEAD ignore the frame; FIRST_VALUE, LAST_VALUE and the aggregates read the frame.
 */
public enum WindowFunction {
    /** 1, 2, 3, ... in the partition's order (ties in an order the query does not fix). */
    ROW_NUMBER,
    /** 1 + the number of rows before the row's peers: ties share a rank, gaps follow them. */
    RANK,
    /** 1 + the number of distinct peer groups before the row's: no gaps. */
    DENSE_RANK,
    /** The bucket (1 to n) of the row when the partition is split into n buckets whose sizes differ by at most one, larger first. */
    NTILE,
    /** The argument {@code offset} rows before, within the partition; the default (or NULL) past its start. */
    LAG,
    /** The argument {@code offset} rows after, within the partition; the default (or NULL) past its end. */
    LEAD,
    /** The argument at the frame's first row; NULL for an empty frame. */
    FIRST_VALUE,
    /** The argument at the frame's last row; NULL for an empty frame. */
    LAST_VALUE,
    /** Rows (no argument) or non-NULL values in the frame. */
    COUNT,
    /** Sum of the frame's non-NULL values; NULL when there are none. Exact for integers and decimals. */
    SUM,
    /** Sum of the frame's non-NULL values; 0 when there are none (Calcite's {@code $SUM0}). */
    SUM0,
    /** Mean of the frame's non-NULL values; NULL when there are none. */
    AVG,
    MIN,
    MAX;

    /** Whether the function reads its frame (else only the partition and the order). */
    boolean readsFrame() {
        return switch (this) {
            case ROW_NUMBER, RANK, DENSE_RANK, NTILE, LAG, LEAD -> false;
            case FIRST_VALUE, LAST_VALUE, COUNT, SUM, SUM0, AVG, MIN, MAX -> true;
        };
    }

    /** The hash aggregate's function computing this one over a frame, or null if it is not an aggregate. */
    AggregateFunction aggregate() {
        return switch (this) {
            case COUNT -> AggregateFunction.COUNT;
            case SUM, SUM0 -> AggregateFunction.SUM;
            case AVG -> AggregateFunction.AVG;
            case MIN -> AggregateFunction.MIN;
            case MAX -> AggregateFunction.MAX;
            case ROW_NUMBER, RANK, DENSE_RANK, NTILE, LAG, LEAD, FIRST_VALUE, LAST_VALUE -> null;
        };
    }
}
