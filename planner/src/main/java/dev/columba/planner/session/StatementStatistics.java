package dev.columba.planner.session;

import dev.columba.core.stats.IoStats;
import java.util.Map;

/**
 * What a statement did, typed: the I/O of each table it touched (in the order it first touched
 * them; the read-ahead used and wasted counters included), and its CPU and elapsed time.
 */
public record StatementStatistics(Map<String, IoStats> tables, long cpuNanos, long elapsedNanos) {
    public static final StatementStatistics NONE = new StatementStatistics(Map.of(), 0, 0);

    public StatementStatistics {
        tables = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(tables));
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
