package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.type.SqlType;
import java.util.List;

/**
 * Applies a hash join's {@link RuntimeFilter} to its input (a scan on the join's probe side):
 * rows whose key column holds a value the build side lacks are deselected. While the filter is
 * not active, batches pass untouched, and so they do for a while after the filter dropped almost
 * nothing ({@link #judge}).
 *
 * <p>Memory: position arrays only; a filtered batch is a {@linkplain Batch#view view} of the
 * input's, valid until the next {@code next()}.
 */
public final class RuntimeFilterOperator extends BaseOperator {
    private final Operator input;
    private final int column;
    private final boolean wide;
    private final RuntimeFilter filter;
    private int[] rows = new int[0];
    private int[] kept = new int[0];
    private long rowsIn;
    private long rowsOut;
    /** Rows tested since the filter was last judged, and how many of those it dropped. */
    private long judgedRows;
    private long judgedDropped;
    /** Rows to pass untested before the filter is tested again: it dropped too few to pay for its test. */
    private long rowsToSkip;

    /** The filter is judged after testing this many rows. */
    static final int JUDGE_ROWS = 65_536;
    /** A filter that drops less than 1 row in this many is not tested for the next {@link #SKIP_ROWS} rows. */
    static final int WORTH = 20;
    static final int SKIP_ROWS = 16 * JUDGE_ROWS;

    /**
     * @param column the input column tested; INT, DATE (4 bytes) or BIGINT (8 bytes)
     * @throws ColumbaException {@link ErrorCode#WRONG_TYPE} for any other column type
     */
    public RuntimeFilterOperator(Operator input, int column, RuntimeFilter filter) {
        super(input.schema(), List.of(input));
        SqlType type = input.schema().column(column).type();
        Layout layout = Layout.of(type);
        if (layout != Layout.INT32 && layout != Layout.INT64) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE, "a bitmap filter tests whole numbers, not " + type.sqlName());
        }
        this.input = input;
        this.column = column;
        this.wide = layout == Layout.INT64;
        this.filter = filter;
    }

    public RuntimeFilter filter() {
        return filter;
    }

    public int column() {
        return column;
    }

    /** Rows this operator received and passed so far. */
    public long[] rowsInAndOut() {
        return new long[] {rowsIn, rowsOut};
    }

    @Override
    public ExecutionMode mode() {
        return ExecutionMode.BATCH;
    }

    @Override
    void opened() {
    }

    @Override
    Batch produce() {
        while (true) {
            Batch batch = input.next();
            if (batch == null) {
                return null;
            }
            int live = batch.selectedCount();
            rowsIn += live;
            if (!filter.active()) {
                rowsOut += live;
                return batch;
            }
            if (rowsToSkip > 0) {
                rowsToSkip -= live;
                rowsOut += live;
                return batch;
            }
            rows = Vectors.livePositions(batch, rows);
            if (kept.length < live) {
                kept = new int[Math.max(live, kept.length * 2)];
            }
            int count = filter.filter(batch.column(column), wide, rows, live, kept);
            rowsOut += count;
            judge(live, live - count);
            if (count == live) {
                return batch;
            }
            if (count == 0) {
                continue;
            }
            Batch view = Batch.view(batch.root().getFieldVectors(), batch.rowCount());
            view.select(kept, count);
            view.inheritCodes(batch);
            return view;
        }
    }

    /**
     * Judges the filter every {@link #JUDGE_ROWS} tested rows: a filter that drops almost nothing
     * (its build side holds nearly every key the probe side has: a foreign key to an unfiltered
     * table) costs a bit test a row for nothing, so the next {@link #SKIP_ROWS} rows pass untested
     * and it is judged again after them (the data may change). Dropping rows is only ever an
     * optimization: the join finds no partner for a row the filter lets through.
     */
    private void judge(int tested, int dropped) {
        judgedRows += tested;
        judgedDropped += dropped;
        if (judgedRows >= JUDGE_ROWS) {
            if (judgedDropped * WORTH < judgedRows) {
                rowsToSkip = SKIP_ROWS;
            }
            judgedRows = 0;
            judgedDropped = 0;
        }
    }

    @Override
    void release() {
    }
}
