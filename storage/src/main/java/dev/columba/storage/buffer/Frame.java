package dev.columba.storage.buffer;

import dev.columba.core.stats.IoCounters;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.StampedLock;

/**
 * One 8 KB buffer of the pool and its metadata.
 *
 * <p>Life cycle: FREE, then LOADING (its latch held exclusively by whoever reads it from disk),
 * then VALID and published in the page table; or PRIVATE, a write transaction's copy that no
 * other thread sees until commit installs it. A VALID frame is immutable: a change makes a new
 * private frame, and installing it retires the old one. That is why readers need only a pin and
 * a shared latch that waits out the load, and why writing a dirty frame to disk needs no
 * exclusive access.
 *
 * <p>Pins: {@code pins >= 0} counts users; {@code -1} means claimed for reuse by the evictor,
 * which succeeds only from 0, so a pinned frame is never reused.
 */
final class Frame {
    enum State { FREE, LOADING, VALID, PRIVATE, RETIRED, FAILED }

    final int index;
    final MemorySegment memory;
    final AtomicInteger pins = new AtomicInteger();
    final StampedLock latch = new StampedLock();
    final AtomicBoolean writing = new AtomicBoolean();

    volatile long pageId = -1;
    volatile State state = State.FREE;
    volatile boolean dirty;
    /** LSN of the last change in the frame: the log must be durable up to here before the frame is written. */
    volatile long lsn;
    /** The query counters charged for reading this page ahead, until someone requests it. */
    final AtomicReference<IoCounters> readAheadOwner = new AtomicReference<>();
    /** The exclusive latch stamp of an asynchronous load, released by the I/O thread that completes it. */
    volatile long loadStamp;
    /** Why a load failed, for the threads that waited on it. */
    volatile RuntimeException failure;

    // Eviction-policy state, guarded by the policy's lock.
    int previous = -1;
    int next = -1;
    byte list;
    /**
     * While the policy's promotion count is below this, the frame is near the head of the protected
     * segment and a touch leaves it where it is without taking the policy's lock; 0 when the frame is
     * not protected. Written under the policy's lock, read without it.
     */
    volatile long recentUntil;

    Frame(int index, MemorySegment memory) {
        this.index = index;
        this.memory = memory;
    }

    /** Pins the frame unless it is claimed for reuse. */
    boolean tryPin() {
        while (true) {
            int current = pins.get();
            if (current < 0) {
                return false;
            }
            if (pins.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    void unpin() {
        int after = pins.decrementAndGet();
        if (after < 0) {
            throw new IllegalStateException("frame " + index + " unpinned more often than pinned");
        }
    }

    /** Claims an unpinned frame for reuse; fails if anyone holds a pin. */
    boolean tryClaim() {
        return pins.compareAndSet(0, -1);
    }

    /** Ends a claim, leaving the frame unpinned. */
    void releaseClaim() {
        pins.set(0);
    }

    @Override
    public String toString() {
        return "Frame[" + index + ", page " + pageId + ", " + state + (dirty ? ", dirty" : "") + ", pins " + pins + "]";
    }
}
