package dev.columba.core.stats;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Thread-safe I/O counters, one set per table per query (and cumulative sets per table). I/O
 * threads that complete read-ahead on a query's behalf add to the query's counters directly.
 * A query's counters also carry the query's {@link WaitCounters}, so that storage can charge the
 * waits of a read to the statement that made it.
 */
public final class IoCounters {
    private final AtomicLongArray values = new AtomicLongArray(IoCounter.values().length);
    private final WaitCounters waits;

    /** Counters without a statement's waits (cumulative ones, tools, setup reads). */
    public IoCounters() {
        this(null);
    }

    /** @param waits the waits of the statement these counters belong to, or null */
    public IoCounters(WaitCounters waits) {
        this.waits = waits;
    }

    /** The waits of the statement these counters belong to, or null when they belong to none. */
    public WaitCounters waits() {
        return waits;
    }

    public void add(IoCounter counter, long delta) {
        values.addAndGet(counter.ordinal(), delta);
    }

    public void increment(IoCounter counter) {
        values.incrementAndGet(counter.ordinal());
    }

    public long get(IoCounter counter) {
        return values.get(counter.ordinal());
    }

    /** Adds every counter of {@code stats}. */
    public void addAll(IoStats stats) {
        for (IoCounter counter : IoCounter.values()) {
            long delta = stats.get(counter);
            if (delta != 0) {
                values.addAndGet(counter.ordinal(), delta);
            }
        }
    }

    /** The counters now; concurrent updates may or may not be included. */
    public IoStats snapshot() {
        long[] copy = new long[values.length()];
        for (int index = 0; index < copy.length; index++) {
            copy[index] = values.get(index);
        }
        return IoStats.of(copy);
    }
}
