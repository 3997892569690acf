package dev.columba.core.stats;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Thread-safe counts and times of {@link WaitType waits}: one set per statement, whose waits also
 * go to the database's (its parent), and the database's own, which {@code sys.wait_stats} shows.
 */
public final class WaitCounters {
    private final AtomicLongArray counts = new AtomicLongArray(WaitType.values().length);
    private final AtomicLongArray nanos = new AtomicLongArray(WaitType.values().length);
    /** The counters every wait recorded here is added to as well; null for the top of the tree. */
    private final WaitCounters parent;

    /** Counters of their own (a database's, or a statement run outside one). */
    public WaitCounters() {
        this(null);
    }

    /** Counters whose every wait also counts in {@code parent} (a statement's, under its database's). */
    public WaitCounters(WaitCounters parent) {
        this.parent = parent;
    }

    /** One wait of {@code type} that blocked its thread for {@code waitedNanos}, here and in the parents. */
    public void record(WaitType type, long waitedNanos) {
        for (WaitCounters counters = this; counters != null; counters = counters.parent) {
            counters.counts.incrementAndGet(type.ordinal());
            counters.nanos.addAndGet(type.ordinal(), waitedNanos);
        }
    }

    /**
     * Records a wait in a component's own counters {@code own} and in a statement's {@code statement}
     * (when there is one), once in each, whether or not the statement's counters report to {@code own}.
     */
    public static void record(WaitType type, long waitedNanos, WaitCounters own, WaitCounters statement) {
        if (statement == null) {
            own.record(type, waitedNanos);
            return;
        }
        statement.record(type, waitedNanos);
        if (!statement.reportsTo(own)) {
            own.record(type, waitedNanos);
        }
    }

    private boolean reportsTo(WaitCounters ancestor) {
        for (WaitCounters counters = this; counters != null; counters = counters.parent) {
            if (counters == ancestor) {
                return true;
            }
        }
        return false;
    }

    /** The waits so far; concurrent waits may or may not be included. */
    public WaitStats snapshot() {
        long[] countCopy = new long[counts.length()];
        long[] nanosCopy = new long[nanos.length()];
        boolean waited = false;
        for (int index = 0; index < countCopy.length; index++) {
            countCopy[index] = counts.get(index);
            nanosCopy[index] = nanos.get(index);
            waited |= countCopy[index] != 0 || nanosCopy[index] != 0;
        }
        // Most statements never wait: their snapshot is the shared empty one, not a new list of records.
        return waited ? WaitStats.of(countCopy, nanosCopy) : WaitStats.NONE;
    }
}
