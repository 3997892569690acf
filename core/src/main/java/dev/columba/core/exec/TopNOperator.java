package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.ExecutionMode;
import java.util.List;

/**
 * ORDER BY ... OFFSET o FETCH n without sorting everything: keeps the best {@code o + n} rows
 * seen so far. Rows are buffered; when the buffer reaches twice the rows kept (at least a batch
 * more), it is sorted and cut back to the best {@code o + n}. The result is exactly the first
 * rows of a stable sort of the whole input (ties keep input order), skipping {@code o}.
 *
 * <p>Memory: at most about {@code 2 (o + n) + batch size} rows in Arrow vectors plus their sort
 * index, charged to the query's limit. Each returned batch is the operator's own, valid until the
 * next {@code next()}.
 */
public final class TopNOperator extends BaseOperator {
    private final Operator input;
    private final long offset;
    private final long keep;
    private final RowOrder order;
    private RowBuffer buffer;
    private MemoryCharge charge;
    private Batch output;
    private int[] sorted;
    private int emitted;
    private int end;

    public TopNOperator(Operator input, List<SortKey> keys, long offset, long limit) {
        super(input.schema(), List.of(input));
        if (offset < 0 || limit < 0) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "OFFSET and FETCH must not be negative, were "
                    + offset + " and " + limit);
        }
        this.input = input;
        this.offset = offset;
        this.keep = offset + limit < 0 ? Long.MAX_VALUE : offset + limit;
        this.order = new RowOrder(keys, input.schema());
    }

    @Override
    public ExecutionMode mode() {
        return ExecutionMode.BATCH;
    }

    @Override
    void opened() {
        buffer = new RowBuffer(schema(), allocator);
        charge = new MemoryCharge(allocator, name() + " sort index");
    }

    @Override
    Batch produce() {
        if (keep == 0) {
            return null;
        }
        if (sorted == null) {
            readInput();
        }
        if (emitted >= end) {
            return null;
        }
        if (output == null) {
            output = Batch.create(schema(), allocator);
        }
        int count = Math.min(context.batchSize(), end - emitted);
        SortOperator.gather(buffer, sorted, emitted, count, output);
        emitted += count;
        return output;
    }

    private void readInput() {
        // Past a few billion rows kept, cutting back can never happen: the buffer holds everything.
        long threshold = keep > Integer.MAX_VALUE ? Long.MAX_VALUE : Math.max(2 * keep, keep + context.batchSize());
        int[] positions = new int[0];
        for (Batch batch = input.next(); batch != null; batch = input.next()) {
            positions = Vectors.livePositions(batch, positions);
            buffer.append(batch, positions, batch.selectedCount());
            if (buffer.size() >= threshold) {
                cutBack();
            }
        }
        sorted = sortBuffer();
        end = (int) Math.min(buffer.size(), keep);
        emitted = (int) Math.min(offset, end);
    }

    private int[] sortBuffer() {
        int count = buffer.size();
        charge.ensure(2L * Integer.BYTES * count);
        int[] rows = new int[count];
        for (int row = 0; row < count; row++) {
            rows[row] = row;
        }
        order.bind(buffer);
        order.sort(rows, new int[count], count);
        return rows;
    }

    /** Keeps only the best {@code keep} rows, in sorted order, in a new buffer. */
    private void cutBack() {
        int[] rows = sortBuffer();
        RowBuffer kept = new RowBuffer(schema(), allocator);
        try {
            kept.append(buffer.asBatch(), rows, (int) Math.min(keep, rows.length));
        } catch (RuntimeException e) {
            kept.close();
            throw e;
        }
        buffer.close();
        buffer = kept;
    }

    @Override
    void release() {
        if (output != null) {
            output.close();
        }
        if (buffer != null) {
            buffer.close();
        }
        if (charge != null) {
            charge.close();
        }
    }
}
