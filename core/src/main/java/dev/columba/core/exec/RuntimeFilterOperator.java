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
 * not active, batches pass untouched.
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
            rows = Vectors.livePositions(batch, rows);
            if (kept.length < live) {
                kept = new int[Math.max(live, kept.length * 2)];
            }
            int count = filter.filter(batch.column(column), wide, rows, live, kept);
            rowsOut += count;
            if (count == live) {
                return batch;
            }
            if (count == 0) {
                continue;
            }
            Batch view = Batch.view(batch.root().getFieldVectors(), batch.rowCount());
            view.select(kept, count);
            return view;
        }
    }

    @Override
    void release() {
    }
}
