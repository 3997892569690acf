package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.TableSchema;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.vector.util.OversizedAllocationException;

/**
 * The lifecycle every operator shares: a child allocator of the query's per operator (named
 * after it, so a leak names its culprit), opening and closing the inputs, a cancellation check
 * per batch, skipping batches without live rows, and turning Arrow's allocation failures into
 * {@link ErrorCode#OUT_OF_MEMORY}. Closing releases the operator's resources, then its inputs,
 * then its allocator, reporting the first failure (a leak is {@link ErrorCode#INTERNAL}).
 */
abstract class BaseOperator implements Operator {
    private static final AtomicLong IDS = new AtomicLong();

    private enum State { NEW, OPEN, FINISHED, CLOSED }

    private final String name;
    private final TableSchema schema;
    private final List<Operator> inputs;
    private State state = State.NEW;
    ExecutionContext context;
    BufferAllocator allocator;

    BaseOperator(TableSchema schema, List<Operator> inputs) {
        this.name = getClass().getSimpleName() + "#" + IDS.incrementAndGet();
        this.schema = schema;
        this.inputs = List.copyOf(inputs);
    }

    @Override
    public final TableSchema schema() {
        return schema;
    }

    /** The operator's name in error messages and allocator names, e.g. {@code HashJoinOperator#7}. */
    final String name() {
        return name;
    }

    @Override
    public final void open(ExecutionContext executionContext) {
        if (state != State.NEW) {
            throw new IllegalStateException(name + " was already opened");
        }
        context = executionContext;
        allocator = executionContext.allocator().newChildAllocator(name, 0, Long.MAX_VALUE);
        state = State.OPEN;
        try {
            for (Operator input : inputs) {
                input.open(executionContext);
            }
            opened();
        } catch (OutOfMemoryException | OversizedAllocationException e) {
            throw outOfMemory(e);
        }
    }

    @Override
    public final Batch next() {
        if (state == State.FINISHED) {
            return null;
        }
        if (state != State.OPEN) {
            throw new IllegalStateException(name + " is not open");
        }
        context.checkCancelled();
        try {
            Batch batch = produce();
            while (batch != null && batch.selectedCount() == 0) {
                batch = produce();
            }
            if (batch == null) {
                state = State.FINISHED;
            }
            return batch;
        } catch (OutOfMemoryException | OversizedAllocationException e) {
            throw outOfMemory(e);
        }
    }

    private ColumbaException outOfMemory(RuntimeException cause) {
        return new ColumbaException(ErrorCode.OUT_OF_MEMORY, name + " needs more memory than the query may use: "
                + cause.getMessage(), cause);
    }

    @Override
    public final void close() {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        RuntimeException failure = null;
        try {
            release();
        } catch (RuntimeException e) {
            failure = e;
        }
        for (Operator input : inputs) {
            try {
                input.close();
            } catch (RuntimeException e) {
                failure = chain(failure, e);
            }
        }
        if (allocator != null) {
            try {
                allocator.close();
            } catch (IllegalStateException e) {
                failure = chain(failure, new ColumbaException(ErrorCode.INTERNAL, name + " did not release its memory: "
                        + e.getMessage(), e));
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static RuntimeException chain(RuntimeException first, RuntimeException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }

    /** Called once inputs are open; allocate lazily where possible. */
    abstract void opened();

    /** The next batch (possibly without live rows, which is skipped) or null at the end. */
    abstract Batch produce();

    /** Releases everything the operator allocated; must not fail halfway for lack of state (it may run after a failed open). */
    abstract void release();
}
