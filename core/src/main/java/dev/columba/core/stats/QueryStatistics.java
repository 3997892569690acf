package dev.columba.core.stats;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The I/O counters one statement collects, per table in the order the tables were first touched
 * (the order STATISTICS IO prints them).
 */
public final class QueryStatistics {
    private final Map<String, IoCounters> byTable = Collections.synchronizedMap(new LinkedHashMap<>());

    /** The counters of {@code tableName}, created on first use. */
    public IoCounters table(String tableName) {
        return byTable.computeIfAbsent(tableName, name -> new IoCounters());
    }

    /** A snapshot of every table's counters. */
    public Map<String, IoStats> snapshot() {
        Map<String, IoStats> result = new LinkedHashMap<>();
        synchronized (byTable) {
            byTable.forEach((table, counters) -> result.put(table, counters.snapshot()));
        }
        return result;
    }

    /** All tables' counters added up. */
    public IoStats total() {
        IoStats total = IoStats.ZERO;
        for (IoStats stats : snapshot().values()) {
            total = total.plus(stats);
        }
        return total;
    }
}
