package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.schema.TableSchema;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Adapts a {@link RowSource} (a rowstore scan's cursor) to the batch world: copies up to a batch
 * of rows into vectors per call. Its mode is {@link ExecutionMode#ROW}: the rows are produced
 * one at a time, whatever the operators above do with the batches.
 *
 * <p>Memory: one output batch, reused. Each returned batch is valid until the next {@code next()}.
 * The source is opened with the execution context at {@code open} and closed at {@code close}.
 */
public final class RowsToBatch extends BaseOperator {
    private final Function<ExecutionContext, RowSource> opener;
    private RowSource source;
    private Batch output;
    private boolean exhausted;

    /**
     * @param schema the columns of the rows, in order
     * @param opener opens the source when the operator opens (scans need the query context)
     */
    public RowsToBatch(TableSchema schema, Function<ExecutionContext, RowSource> opener) {
        super(schema, List.of());
        this.opener = Objects.requireNonNull(opener, "opener");
    }

    @Override
    public ExecutionMode mode() {
        return ExecutionMode.ROW;
    }

    @Override
    void opened() {
        source = opener.apply(context);
        output = Batch.create(schema(), allocator);
    }

    @Override
    Batch produce() {
        if (exhausted) {
            return null;
        }
        Vectors.rewind(output);
        int columns = schema().size();
        int count = 0;
        while (count < context.batchSize()) {
            Object[] row = source.next();
            if (row == null) {
                exhausted = true;
                break;
            }
            for (int columnIndex = 0; columnIndex < columns; columnIndex++) {
                VectorValues.set(output.column(columnIndex), count, schema().column(columnIndex).type(), row[columnIndex]);
            }
            count++;
        }
        if (count == 0) {
            return null;
        }
        output.setRowCount(count);
        return output;
    }

    @Override
    void release() {
        try {
            if (source != null) {
                source.close();
            }
        } finally {
            if (output != null) {
                output.close();
            }
        }
    }
}
