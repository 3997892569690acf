package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.schema.TableSchema;

/**
 * A batch-mode operator: the pull interface every physical plan node becomes.
 *
 * <p>Lifecycle: construct (schema and mode are known), {@link #open} once, {@link #next} until it
 * returns null, {@link #close} once (also after a failure, or to stop early). An operator owns
 * its inputs: opening it opens them, closing it closes them.
 *
 * <p>Batches: {@code next} returns a batch with at least one live row. It belongs to the operator
 * (or to one of its inputs) and is valid until the next call to {@code next} or {@code close};
 * a consumer that needs rows longer copies them. Consumers never modify a batch they receive:
 * to narrow it they make a {@linkplain Batch#view view} with their own selection.
 *
 * <p>Memory: operators allocate from the query's allocator (through a child allocator of their
 * own); going over the query's limit is a {@link dev.columba.core.error.ColumbaException} with
 * {@code OUT_OF_MEMORY} (SQLSTATE 53200), and closing checks that everything was released.
 */
public interface Operator extends AutoCloseable {

    /** The columns of the batches this operator returns. */
    TableSchema schema();

    /** ROW if this operator evaluates any expression row by row (or produces its rows one at a time), else BATCH. */
    ExecutionMode mode();

    /** Prepares to produce batches within {@code context}; opens the inputs. */
    void open(ExecutionContext context);

    /** The next batch with at least one live row, or null when there are no more. */
    Batch next();

    /** Releases everything this operator and its inputs hold. Idempotent. */
    @Override
    void close();
}
