package dev.columba.core.exec;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import dev.columba.core.batch.Batch;

/**
 * One reader's use of a {@link RuntimeFilter}: the filter is shared by every worker of a parallel
 * plan, the probe is not (each worker's scan or {@link RuntimeFilterOperator} has its own). It
 * tests rows, counts them, and judges the filter's worth as it goes: a filter that dropped less
 * than one row in {@link #WORTH} of the last {@link #JUDGE_ROWS} tested lets the next
 * {@link #SKIP_ROWS} rows pass untested, then is judged again (the data may change). Dropping rows
 * is only ever an optimization: the join finds no partner for a row the filter lets through.
 * Owned by one thread.
 */
public final class RuntimeFilterProbe {
    /** The filter is judged after testing this many rows. */
    static final int JUDGE_ROWS = 65_536;
    /** A filter that drops less than 1 row in this many is not tested for the next {@link #SKIP_ROWS} rows. */
    static final int WORTH = 20;
    static final int SKIP_ROWS = 16 * JUDGE_ROWS;

    private final RuntimeFilter filter;
    private final int column;
    private final boolean wide;
    private long rowsIn;
    private long rowsOut;
    /** Rows tested since the filter was last judged, and how many of those it dropped. */
    private long judgedRows;
    private long judgedDropped;
    /** Rows to pass untested before the filter is tested again: it dropped too few to pay for its test. */
    private long rowsToSkip;

    /**
     * @param column the column of its reader's batches tested
     * @param type that column's type: INT, DATE (4 bytes) or BIGINT (8 bytes)
     * @throws ColumbaException {@link ErrorCode#WRONG_TYPE} for any other type
     */
    public RuntimeFilterProbe(RuntimeFilter filter, int column, SqlType type) {
        Layout layout = Layout.of(type);
        if (layout != Layout.INT32 && layout != Layout.INT64) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE, "a bitmap filter tests whole numbers, not " + type.sqlName());
        }
        this.filter = filter;
        this.column = column;
        this.wide = layout == Layout.INT64;
    }

    public RuntimeFilter filter() {
        return filter;
    }

    /** The column of its reader's batches this probe tests. */
    public int column() {
        return column;
    }

    /**
     * Whether the next {@code live} rows should be tested: the filter is published and useful, and
     * not resting after dropping too little. When not, the rows count as passed untested.
     */
    public boolean wants(int live) {
        if (!filter.active() || rowsToSkip > 0) {
            rowsToSkip = Math.max(0, rowsToSkip - live);
            rowsIn += live;
            rowsOut += live;
            return false;
        }
        return true;
    }

    /**
     * Keeps, of rows {@code rows[0, count)} of {@code batch}, those whose value in {@link #column}
     * may find a partner, in order at the start of {@code kept} (which may be {@code rows} itself),
     * and returns how many. NULLs are dropped. Call only after {@link #wants} said yes.
     */
    public int keep(Batch batch, int[] rows, int count, int[] kept) {
        int passed = filter.filter(batch.column(column), wide, rows, count, kept);
        tested(count, passed);
        return passed;
    }

    /**
     * Counts {@code count} rows its reader tested against {@link #filter} itself (one test per
     * run of equal values), of which {@code passed} passed, as {@link #keep} counts its own.
     */
    public void tested(int count, int passed) {
        rowsIn += count;
        rowsOut += passed;
        judgedRows += count;
        judgedDropped += count - passed;
        if (judgedRows >= JUDGE_ROWS) {
            if (judgedDropped * WORTH < judgedRows) {
                rowsToSkip = SKIP_ROWS;
            }
            judgedRows = 0;
            judgedDropped = 0;
        }
    }

    /** Rows offered to this probe so far, and those it passed (tested or not). */
    public long[] rowsInAndOut() {
        return new long[] {rowsIn, rowsOut};
    }
}
