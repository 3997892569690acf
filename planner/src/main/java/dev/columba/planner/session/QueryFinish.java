package dev.columba.planner.session;

import dev.columba.core.context.QueryContext;
import java.util.List;

/**
 * The end of a query's statement, shared by the results that stream its rows ({@link RowsResult})
 * and that read them at once ({@link LookupResult}): when the result is read to its end or closed,
 * the statement's CPU and elapsed times are taken and its messages made; its statistics are made
 * when first asked for, from those times and its counters, which nothing changes after it
 * (read-ahead is settled when its scan closes): copying every table's counters and waits into maps
 * was 5% of a point select whose statistics nobody read.
 */
final class QueryFinish {
    private final Session session;
    private final QueryContext query;
    private final Session.CompileTime compile;
    private final long cpuStart;
    private final long start;
    /** Set when the statement finished, with {@link #cpuNanos} and {@link #elapsedNanos}. */
    private List<String> messages;
    private long cpuNanos;
    private long elapsedNanos;
    private StatementStatistics statistics;

    QueryFinish(Session session, QueryContext query, Session.CompileTime compile, long cpuStart, long start) {
        this.session = session;
        this.query = query;
        this.compile = compile;
        this.cpuStart = cpuStart;
        this.start = start;
    }

    QueryContext query() {
        return query;
    }

    boolean finished() {
        return messages != null;
    }

    /** Takes the times and makes the messages; once. */
    void finish() {
        if (messages != null) {
            return;
        }
        cpuNanos = session.cpuNanosSince(query, cpuStart);
        elapsedNanos = System.nanoTime() - start;
        messages = session.messages(query, compile, cpuNanos, elapsedNanos);
    }

    List<String> messages() {
        return messages == null ? List.of() : messages;
    }

    StatementStatistics statistics() {
        if (messages == null) {
            return StatementStatistics.NONE;
        }
        if (statistics == null) {
            statistics = session.finishedStatistics(query, cpuNanos, elapsedNanos);
        }
        return statistics;
    }
}
