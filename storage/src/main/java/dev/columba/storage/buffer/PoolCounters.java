package dev.columba.storage.buffer;

import dev.columba.core.stats.IoCounter;
import dev.columba.core.stats.IoStats;
import java.util.concurrent.atomic.LongAdder;

/**
 * The buffer pool's cumulative I/O counters, charged by every page request of every session. One
 * {@link LongAdder} per counter rather than {@link dev.columba.core.stats.IoCounters}' single
 * atomic array: every logical read of every thread added to the same cache line, which then
 * travelled between the cores on each page a point select touched. A snapshot may miss updates made
 * while it is taken, as a statement's counters may.
 */
final class PoolCounters {
    private final LongAdder[] values = new LongAdder[IoCounter.values().length];

    PoolCounters() {
        for (int index = 0; index < values.length; index++) {
            values[index] = new LongAdder();
        }
    }

    void add(IoCounter counter, long delta) {
        values[counter.ordinal()].add(delta);
    }

    void increment(IoCounter counter) {
        values[counter.ordinal()].increment();
    }

    IoStats snapshot() {
        long[] copy = new long[values.length];
        for (int index = 0; index < copy.length; index++) {
            copy[index] = values[index].sum();
        }
        return IoStats.of(copy);
    }
}
