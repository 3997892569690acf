package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.ExecutionMode;
import java.util.List;

/**
 * {@code OFFSET offset FETCH limit}: skips the first {@code offset} rows, then passes at most
 * {@code limit} rows, and stops pulling its input as soon as it has them.
 *
 * <p>Memory: none beyond a position array; returned batches are {@linkplain Batch#view views} of the
 * input's, valid until the next {@code next()}.
 */
public final class LimitOperator extends BaseOperator {
    /** {@code limit} for "no limit" (OFFSET alone). */
    public static final long UNLIMITED = Long.MAX_VALUE;

    private final Operator input;
    private final long offset;
    private final long limit;
    private long skipped;
    private long passed;
    private int[] positions = new int[0];

    public LimitOperator(Operator input, long offset, long limit) {
        super(input.schema(), List.of(input));
        if (offset < 0 || limit < 0) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "OFFSET and FETCH must not be negative, were "
                    + offset + " and " + limit);
        }
        this.input = input;
        this.offset = offset;
        this.limit = limit;
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
        while (passed < limit) {
            Batch batch = input.next();
            if (batch == null) {
                return null;
            }
            int live = batch.selectedCount();
            int skip = (int) Math.min(live, offset - skipped);
            skipped += skip;
            int take = (int) Math.min(live - skip, limit - passed);
            if (take <= 0) {
                continue;
            }
            passed += take;
            if (skip == 0 && take == live) {
                return batch;
            }
            if (positions.length < take) {
                positions = new int[Math.max(take, positions.length * 2)];
            }
            for (int index = 0; index < take; index++) {
                positions[index] = batch.selectedRow(skip + index);
            }
            Batch view = Batch.viewOf(batch);
            view.select(positions, take);
            return view;
        }
        return null;
    }

    @Override
    void release() {
    }
}
