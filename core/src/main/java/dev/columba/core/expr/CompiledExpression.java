package dev.columba.core.expr;

import dev.columba.core.batch.Batch;
import dev.columba.core.type.SqlType;
import org.apache.arrow.vector.FieldVector;

/**
 * An expression compiled for one query ({@link ExpressionCompiler#compile}): evaluates over the
 * live rows of a batch into an Arrow vector. Not thread-safe; one per operator instance.
 */
public final class CompiledExpression implements AutoCloseable {
    private final Kernel root;
    private final Rows rows = new Rows(0);

    CompiledExpression(Kernel root) {
        this.root = root;
    }

    public SqlType type() {
        return root.type;
    }

    /** BATCH when every node is vectorized, ROW when some node runs row at a time. */
    public ExecutionMode mode() {
        return root.mode();
    }

    /**
     * The expression's value for every live row of {@code input}, at the row's own position: the
     * vector holds {@code input.rowCount()} values (or more), and only the selected positions are
     * defined. The vector belongs to this expression, or is one of {@code input}'s own columns when
     * the expression is a column reference; it is valid until the next {@code evaluate}, until
     * {@code input} changes, or until {@link #close}. Callers must not close it.
     *
     * @throws dev.columba.core.error.ColumbaException for SQL errors in the data (division by zero, overflow, bad casts)
     */
    public FieldVector evaluate(Batch input) {
        rows.selectLive(input);
        return root.evaluate(input, rows);
    }

    /** Releases the output vectors of every kernel. */
    @Override
    public void close() {
        root.close();
    }
}
