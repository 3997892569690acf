package dev.columba.core.stats;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The I/O counters one statement collects, per table in the order the tables were first touched
 * (the order STATISTICS IO prints them), and the statement's waits.
 *
 * <p>Most statements touch one table (every point lookup does): its counters are kept in a field
 * read without a lock, and the map of further tables is made only when a second table is touched.
 * A synchronized linked map per statement and a locked lookup per scan were 3% of a prepared point
 * select.
 */
public final class QueryStatistics {
    /** The first table touched and its counters; set once, under {@code this}. */
    private volatile String firstTable;
    private volatile IoCounters firstCounters;
    /** The tables touched after the first, in order; made under {@code this} when the second comes. */
    private Map<String, IoCounters> laterTables;
    private final WaitCounters waits;
    private final AtomicLong workerCpuNanos = new AtomicLong();
    private final AtomicInteger degree = new AtomicInteger(1);

    /** @param databaseWaits the database's waits, which every wait of the statement adds to as well (null: none) */
    public QueryStatistics(WaitCounters databaseWaits) {
        this.waits = new WaitCounters(databaseWaits);
    }

    /** The statement's waits (a parallel plan's exchanges and shared builds, storage's latches and reads). */
    public WaitCounters waits() {
        return waits;
    }

    /** Adds CPU time a parallel plan's worker thread spent on the statement. */
    public void addWorkerCpuNanos(long nanos) {
        workerCpuNanos.addAndGet(nanos);
    }

    /** CPU time of the statement's worker threads (not the thread that runs the statement). */
    public long workerCpuNanos() {
        return workerCpuNanos.get();
    }

    /** Records that {@code workers} ran in parallel somewhere in the plan. */
    public void ranWorkers(int workers) {
        degree.accumulateAndGet(workers, Math::max);
    }

    /** The largest number of workers that ran at once under one exchange: 1 for a serial plan. */
    public int degree() {
        return degree.get();
    }

    /** The counters of {@code tableName}, created on first use. */
    public IoCounters table(String tableName) {
        IoCounters first = firstCounters;
        if (first != null && firstTable.equals(tableName)) {
            return first;
        }
        synchronized (this) {
            if (firstCounters == null) {
                firstTable = tableName;
                firstCounters = new IoCounters(waits);
                return firstCounters;
            }
            if (firstTable.equals(tableName)) {
                return firstCounters;
            }
            if (laterTables == null) {
                laterTables = new LinkedHashMap<>();
            }
            return laterTables.computeIfAbsent(tableName, name -> new IoCounters(waits));
        }
    }

    /** A snapshot of every table's counters. */
    public synchronized Map<String, IoStats> snapshot() {
        if (firstCounters == null) {
            return Map.of();
        }
        Map<String, IoStats> result = new LinkedHashMap<>();
        result.put(firstTable, firstCounters.snapshot());
        if (laterTables != null) {
            laterTables.forEach((table, counters) -> result.put(table, counters.snapshot()));
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
