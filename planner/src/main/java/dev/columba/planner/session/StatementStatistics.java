package dev.columba.planner.session;

import dev.columba.core.stats.IoStats;
import dev.columba.core.stats.WaitStats;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a statement did, typed: the I/O of each table it touched (in the order it first touched
 * them; the read-ahead used and wasted counters included), its CPU and elapsed time, and what its
 * threads waited for (the session's and its parallel workers', measured where they blocked).
 *
 * @param cpuNanos the CPU time of the statement's threads, measured only when STATISTICS TIME was on
 *                 at its start (reading a thread's CPU clock is a system call); {@link #NOT_MEASURED}
 *                 otherwise
 */
public record StatementStatistics(Map<String, IoStats> tables, long cpuNanos, long elapsedNanos, WaitStats waits) {
    /** {@link #cpuNanos} of a statement that ran with STATISTICS TIME off. */
    public static final long NOT_MEASURED = -1;
    public static final StatementStatistics NONE = new StatementStatistics(Map.of(), 0, 0, WaitStats.NONE);

    public StatementStatistics {
        tables = Collections.unmodifiableMap(new LinkedHashMap<>(tables));
        Objects.requireNonNull(waits, "waits");
    }

    /** All tables' I/O added up. */
    public IoStats total() {
        IoStats total = IoStats.ZERO;
        for (IoStats stats : tables.values()) {
            total = total.plus(stats);
        }
        return total;
    }
}
