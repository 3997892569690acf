package dev.columba.core.exec;

import dev.columba.core.context.QueryContext;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.EvaluationContext;
import java.time.Clock;
import java.util.Objects;
import org.apache.arrow.memory.BufferAllocator;

/**
 * What the operators of one query share while it runs: the query's allocator (a child of the
 * database's allocator tree, carrying the query's memory limit), the batch size, the statement's
 * clock reading for CURRENT_DATE, the {@link QueryContext} (settings and statistics) for scans,
 * and the cancellation flag. The creator owns the allocator and closes it after the operators.
 *
 * <p>Batch size: 4096 rows by default, so a batch of a few 8-byte columns stays within the L2
 * cache while the per-batch overhead (virtual calls, vector bookkeeping) is spread over enough rows
 * to vanish; DuckDB uses 2048, Velox 1024 to 10000.
 */
public final class ExecutionContext {
    public static final int DEFAULT_BATCH_SIZE = 4096;
    public static final int MAX_BATCH_SIZE = 1 << 20;

    private final QueryContext query;
    private final BufferAllocator allocator;
    private final int batchSize;
    private final EvaluationContext evaluation;
    /** The context this one is a worker's of: its cancellation is this one's too. Null for a query's own. */
    private final ExecutionContext parent;
    /** Where leaves take and keep their small output batches between statements; null when nothing is kept. */
    private final ReusableBatches reusableBatches;
    private volatile boolean cancelled;

    public ExecutionContext(QueryContext query, BufferAllocator allocator, int batchSize, EvaluationContext evaluation) {
        this(query, allocator, batchSize, evaluation, null, null);
    }

    /** A statement's context whose leaves reuse output batches kept in {@code reusableBatches} (a session's). */
    public ExecutionContext(QueryContext query, BufferAllocator allocator, int batchSize, EvaluationContext evaluation,
                            ReusableBatches reusableBatches) {
        this(query, allocator, batchSize, evaluation, null, reusableBatches);
    }

    private ExecutionContext(QueryContext query, BufferAllocator allocator, int batchSize, EvaluationContext evaluation,
                             ExecutionContext parent, ReusableBatches reusableBatches) {
        this.parent = parent;
        this.reusableBatches = reusableBatches;
        this.query = Objects.requireNonNull(query, "query");
        this.allocator = Objects.requireNonNull(allocator, "allocator");
        this.evaluation = Objects.requireNonNull(evaluation, "evaluation");
        if (batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT,
                    "batch size must be between 1 and " + MAX_BATCH_SIZE + " rows, was " + batchSize);
        }
        this.batchSize = batchSize;
    }

    /** A context with the default batch size, the statement starting now on the system clock. */
    public static ExecutionContext of(QueryContext query, BufferAllocator allocator) {
        return new ExecutionContext(query, allocator, DEFAULT_BATCH_SIZE, EvaluationContext.startingNow(Clock.systemDefaultZone()));
    }

    public QueryContext query() {
        return query;
    }

    /** The query's allocator, whose limit is the query's memory limit. */
    public BufferAllocator allocator() {
        return allocator;
    }

    /** Rows per batch that operators aim for when they build batches. */
    public int batchSize() {
        return batchSize;
    }

    public EvaluationContext evaluation() {
        return evaluation;
    }

    /** Asks the query to stop; operators notice at their next batch. Callable from any thread. */
    public void cancel() {
        cancelled = true;
    }

    public boolean cancelled() {
        return cancelled || parent != null && parent.cancelled();
    }

    /**
     * A context for a part of the query that runs on other threads (a parallel plan's workers, or
     * the group of them under one exchange): the same query, allocator, batch size and clock;
     * cancelled when this one is, and cancellable on its own so that a failing worker can stop its
     * siblings without cancelling the query.
     */
    public ExecutionContext worker() {
        return new ExecutionContext(query, allocator, batchSize, evaluation, this, null);
    }

    /** The session's kept output batches ({@link ReusableBatches}), or null: a worker's context has none. */
    public ReusableBatches reusableBatches() {
        return reusableBatches;
    }

    /** @throws ColumbaException {@link ErrorCode#QUERY_CANCELLED} (57014) once the query was cancelled */
    public void checkCancelled() {
        if (cancelled()) {
            throw new ColumbaException(ErrorCode.QUERY_CANCELLED, "the query was cancelled");
        }
    }
}
