package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.ExecutionMode;
import java.util.List;

/**
 * Applies a hash join's {@link RuntimeFilter} to its input (a scan on the join's probe side):
 * rows whose key column holds a value the build side lacks are deselected. While the filter is
 * not active, batches pass untouched, and so they do for a while after the filter dropped almost
 * nothing (see {@link RuntimeFilterProbe}). A columnstore scan takes the filter into itself
 * instead, where it saves decoding the other columns of the rows it drops; this operator serves
 * every other input.
 *
 * <p>Memory: position arrays only; a filtered batch is a {@linkplain Batch#view view} of the
 * input's, valid until the next {@code next()}.
 */
public final class RuntimeFilterOperator extends BaseOperator {
    private final Operator input;
    private final RuntimeFilterProbe probe;
    private int[] rows = new int[0];

    /**
     * @param column the input column tested; INT, DATE (4 bytes) or BIGINT (8 bytes)
     * @throws ColumbaException {@link ErrorCode#WRONG_TYPE} for any other column type
     */
    public RuntimeFilterOperator(Operator input, int column, RuntimeFilter filter) {
        super(input.schema(), List.of(input));
        this.input = input;
        this.probe = new RuntimeFilterProbe(filter, column, input.schema().column(column).type());
    }

    public RuntimeFilter filter() {
        return probe.filter();
    }

    public int column() {
        return probe.column();
    }

    /** Rows this operator received and passed so far. */
    public long[] rowsInAndOut() {
        return probe.rowsInAndOut();
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
            if (!probe.wants(live)) {
                return batch;
            }
            rows = Vectors.livePositions(batch, rows);
            int count = probe.keep(batch, rows, live, rows);
            if (count == live) {
                return batch;
            }
            if (count == 0) {
                continue;
            }
            Batch view = Batch.viewOf(batch);
            view.select(rows, count);
            view.inheritCodes(batch);
            return view;
        }
    }

    @Override
    void release() {
    }
}
