package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.schema.TableSchema;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.apache.arrow.vector.FieldVector;

/**
 * A leaf that pulls batches from a {@link VectorSource}. A source that decodes its rows straight
 * into this operator's vectors (a rowstore scan) makes it {@link ExecutionMode#BATCH}; one that
 * copies rows in one at a time as objects ({@link RowsToBatch}) makes it {@link ExecutionMode#ROW}.
 *
 * <p>Memory: one output batch, reused. Each returned batch is valid until the next {@code next()}.
 * With the context's {@link ReusableBatches} (a session's statements), the batch is taken from
 * those kept by an earlier statement of the same columns, and kept again at {@code close} if it
 * stayed small: a point lookup then allocates no vector.
 * The source is opened with the execution context at {@code open} and closed at {@code close}.
 */
public final class VectorSourceOperator extends BaseOperator {
    /** Rows the output vectors are first allocated for. */
    private static final int INITIAL_CAPACITY = 16;

    private final ExecutionMode mode;
    private final Function<ExecutionContext, VectorSource> opener;
    private VectorSource source;
    private Batch output;
    private ReusableBatches reusable;
    private FieldVector[] vectors;
    private boolean exhausted;

    /**
     * @param schema the columns the source writes, in order
     * @param mode   how the source produces its rows: BATCH when it writes vectors directly
     * @param opener opens the source when the operator opens (scans need the query context)
     */
    public VectorSourceOperator(TableSchema schema, ExecutionMode mode, Function<ExecutionContext, VectorSource> opener) {
        super(schema, List.of());
        this.mode = Objects.requireNonNull(mode, "mode");
        this.opener = Objects.requireNonNull(opener, "opener");
    }

    @Override
    public ExecutionMode mode() {
        return mode;
    }

    @Override
    void opened() {
        source = opener.apply(context);
        reusable = context.reusableBatches();
        output = reusable == null ? null : reusable.take(schema());
        boolean fresh = output == null;
        if (fresh) {
            output = Batch.create(schema(), reusable == null ? allocator : reusable.allocator());
        }
        vectors = new FieldVector[output.columnCount()];
        for (int columnIndex = 0; columnIndex < vectors.length; columnIndex++) {
            vectors[columnIndex] = output.column(columnIndex);
            if (fresh) {
                // Small first buffers, grown by doubling as rows come: left empty, the first value would
                // allocate Arrow's default of 3,970 values per vector, which for a point lookup's one row
                // is most of the statement's cost (large pooled allocations, zeroed, then freed).
                vectors[columnIndex].setInitialCapacity(INITIAL_CAPACITY);
                vectors[columnIndex].allocateNew();
            }
        }
    }

    @Override
    Batch produce() {
        if (exhausted) {
            return null;
        }
        Vectors.rewind(output);
        int capacity = context.batchSize();
        int count = source.fill(vectors, capacity);
        exhausted = count < capacity;
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
            if (output != null && (reusable == null || !reusable.keep(schema(), output))) {
                output.close();
            }
            output = null;
        }
    }
}
