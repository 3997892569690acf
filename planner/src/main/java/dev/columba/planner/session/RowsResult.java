package dev.columba.planner.session;

import dev.columba.core.batch.Batch;
import dev.columba.core.context.QueryContext;
import dev.columba.core.schema.TableSchema;
import dev.columba.storage.txn.ObjectLocks;
import java.util.List;

/**
 * A query's result: batches straight from the operator tree. The statement finishes when the last
 * batch was read or the result is closed: then its locks and memory are released and its
 * statistics and messages are complete.
 */
final class RowsResult implements StatementResult.Rows {
    private final Session session;
    private final Session.Execution execution;
    private final ObjectLocks.Lease lease;
    private final QueryContext query;
    private final Session.CompileTime compile;
    private final long cpuStart;
    private final long start;
    /** Set when the statement finished, with {@link #cpuNanos} and {@link #elapsedNanos}. */
    private List<String> messages;
    private long cpuNanos;
    private long elapsedNanos;
    private StatementStatistics statistics;

    RowsResult(Session session, Session.Execution execution, ObjectLocks.Lease lease, QueryContext query,
               Session.CompileTime compile, long cpuStart, long start) {
        this.session = session;
        this.execution = execution;
        this.lease = lease;
        this.query = query;
        this.compile = compile;
        this.cpuStart = cpuStart;
        this.start = start;
    }

    @Override
    public TableSchema schema() {
        return execution.plan.schema();
    }

    @Override
    public Batch next() {
        if (messages != null) {
            return null;
        }
        Batch batch;
        try {
            batch = execution.operator.next();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        if (batch == null) {
            close();
        }
        return batch;
    }

    @Override
    public List<String> messages() {
        return messages == null ? List.of() : messages;
    }

    /**
     * Made when first asked for, from the times measured when the statement finished and its
     * counters, which nothing changes after that (read-ahead is settled when its scan closes):
     * copying every table's counters and waits into maps was 5% of a point select whose
     * statistics nobody read.
     */
    @Override
    public StatementStatistics statistics() {
        if (messages == null) {
            return StatementStatistics.NONE;
        }
        if (statistics == null) {
            statistics = session.finishedStatistics(query, cpuNanos, elapsedNanos);
        }
        return statistics;
    }

    @Override
    public void close() {
        if (messages != null) {
            return;
        }
        try {
            execution.close();
        } finally {
            if (lease != null) {
                lease.close();
            }
            cpuNanos = session.cpuNanosSince(query, cpuStart);
            elapsedNanos = System.nanoTime() - start;
            messages = session.messages(query, compile, cpuStart, start);
        }
    }
}
