package dev.columba.storage.buffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.StampedLock;

/**
 * The buffer pool's map from page id to the frame holding the page (loading or valid): open
 * addressing over primitive keys, split into segments that each take their own {@link StampedLock}.
 *
 * <p>Why not a {@code ConcurrentHashMap<Long, Frame>}: every lookup boxed the page id and then
 * followed three dependent pointers (the bucket's node, the node's {@code Long} key to compare, the
 * frame), each a likely cache miss for a leaf of a large table; that was 3–5% of a prepared point
 * select. Here a lookup reads the key from a {@code long[]} and the frame from the same index of a
 * {@code Frame[]}: two independent loads.
 *
 * <p>Concurrency: writers of a segment hold its write lock; readers take no lock but an optimistic
 * stamp (a sequence lock: the stamp changes with every write), probe, and retry if a write ran
 * meanwhile. A reader's probe may see a table mid-change (a key moved by a removal's backward
 * shift, an array replaced by growth); the stamp's validation throws that answer away, and the
 * probe is bounded by the table's length so it cannot run for ever on such a view. Linear probing
 * with backward-shift deletion: no tombstones, so a table of {@code n} live entries never holds
 * more than {@code n} slots. A segment doubles when it is half full; the pool's page table holds at
 * most one entry per frame, so growth happens only while a pool first fills.
 *
 * <p>What callers do with a frame they got is unchanged: they pin it and check its page id and
 * state, as a frame may be evicted or replaced right after any lookup, with either map.
 */
final class PageTable {
    /** 64 segments: enough that four clients loading pages rarely meet on one lock. */
    private static final int SEGMENT_SHIFT = 26;
    private static final int SEGMENTS = 1 << (32 - SEGMENT_SHIFT);
    private static final long EMPTY = -1;
    private static final VarHandle KEYS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle FRAMES = MethodHandles.arrayElementVarHandle(Frame[].class);

    private final Segment[] segments = new Segment[SEGMENTS];

    /** @param expectedEntries about how many entries the table will hold (the pool's frames) */
    PageTable(int expectedEntries) {
        int perSegment = Math.max(16, Integer.highestOneBit(Math.max(1, expectedEntries / SEGMENTS)) * 4);
        for (int index = 0; index < SEGMENTS; index++) {
            segments[index] = new Segment(perSegment);
        }
    }

    /** The frame mapped to {@code pageId}, or null. */
    Frame get(long pageId) {
        int hash = hash(pageId);
        return segments[hash >>> SEGMENT_SHIFT].get(pageId, hash);
    }

    boolean containsKey(long pageId) {
        return get(pageId) != null;
    }

    /** Maps {@code pageId} to {@code frame} unless it is mapped; returns the frame it was mapped to, or null. */
    Frame putIfAbsent(long pageId, Frame frame) {
        int hash = hash(pageId);
        return segments[hash >>> SEGMENT_SHIFT].put(pageId, hash, frame, true);
    }

    /** Maps {@code pageId} to {@code frame}; returns the frame it was mapped to, or null. */
    Frame put(long pageId, Frame frame) {
        int hash = hash(pageId);
        return segments[hash >>> SEGMENT_SHIFT].put(pageId, hash, frame, false);
    }

    /** Removes {@code pageId}'s mapping if it maps to {@code frame}; whether it did. */
    boolean remove(long pageId, Frame frame) {
        int hash = hash(pageId);
        return segments[hash >>> SEGMENT_SHIFT].remove(pageId, hash, frame);
    }

    /** Entries now; concurrent changes may or may not be counted. */
    int size() {
        int size = 0;
        for (Segment segment : segments) {
            size += segment.size;
        }
        return size;
    }

    /**
     * Page ids are dense and sequential: multiplying by the golden ratio's odd 64-bit constant
     * and folding the halves spreads them over both the segment bits (the top six) and the
     * slot bits (the bottom ones).
     */
    private static int hash(long pageId) {
        long mixed = pageId * 0x9E3779B97F4A7C15L;
        return (int) (mixed ^ (mixed >>> 32));
    }

    /** One segment's arrays, replaced together when the segment grows (so a reader never mixes two). */
    private record Slots(long[] keys, Frame[] frames, int mask) {
        static Slots ofCapacity(int capacity) {
            long[] keys = new long[capacity];
            java.util.Arrays.fill(keys, EMPTY);
            return new Slots(keys, new Frame[capacity], capacity - 1);
        }
    }

    private static final class Segment {
        private final StampedLock lock = new StampedLock();
        /** Written under {@link #lock}'s write lock only; read optimistically. */
        private Slots slots;
        private volatile int size;

        Segment(int capacity) {
            slots = Slots.ofCapacity(capacity);
        }

        Frame get(long pageId, int hash) {
            while (true) {
                long stamp = lock.tryOptimisticRead();
                if (stamp != 0) {
                    Frame found = find(slots, pageId, hash);
                    if (lock.validate(stamp)) {
                        return found;
                    }
                }
                Thread.onSpinWait();
            }
        }

        /** The frame of {@code pageId} in {@code view}, possibly torn by a concurrent write (validated by the caller). */
        private static Frame find(Slots view, long pageId, int hash) {
            int mask = view.mask();
            int slot = hash & mask;
            for (int probes = 0; probes <= mask; probes++) {
                long key = (long) KEYS.getOpaque(view.keys(), slot);
                if (key == pageId) {
                    return (Frame) FRAMES.getOpaque(view.frames(), slot);
                }
                if (key == EMPTY) {
                    return null;
                }
                slot = (slot + 1) & mask;
            }
            return null;
        }

        Frame put(long pageId, int hash, Frame frame, boolean onlyIfAbsent) {
            if (pageId == EMPTY) {
                throw new IllegalArgumentException("page id " + pageId + " is the empty slot's mark");
            }
            long stamp = lock.writeLock();
            try {
                Slots view = slots;
                int slot = hash & view.mask();
                while (true) {
                    long key = view.keys()[slot];
                    if (key == pageId) {
                        Frame previous = view.frames()[slot];
                        if (!onlyIfAbsent) {
                            FRAMES.setOpaque(view.frames(), slot, frame);
                        }
                        return previous;
                    }
                    if (key == EMPTY) {
                        break;
                    }
                    slot = (slot + 1) & view.mask();
                }
                // Frame first, key second: a reader of the key always finds its frame (the stamp
                // validates the pair in any case).
                FRAMES.setOpaque(view.frames(), slot, frame);
                KEYS.setOpaque(view.keys(), slot, pageId);
                size = size + 1;
                if (size * 2 > view.keys().length) {
                    slots = grown(view);
                }
                return null;
            } finally {
                lock.unlockWrite(stamp);
            }
        }

        boolean remove(long pageId, int hash, Frame frame) {
            long stamp = lock.writeLock();
            try {
                Slots view = slots;
                long[] keys = view.keys();
                Frame[] frames = view.frames();
                int mask = view.mask();
                int slot = hash & mask;
                while (true) {
                    long key = keys[slot];
                    if (key == EMPTY) {
                        return false;
                    }
                    if (key == pageId) {
                        break;
                    }
                    slot = (slot + 1) & mask;
                }
                if (frames[slot] != frame) {
                    return false;
                }
                // Backward shift: move up every later entry of the run that may sit in the hole
                // (its home slot is not cyclically between the hole and itself).
                int hole = slot;
                int next = (hole + 1) & mask;
                while (keys[next] != EMPTY) {
                    int home = hash(keys[next]) & mask;
                    if (((next - home) & mask) >= ((next - hole) & mask)) {
                        KEYS.setOpaque(keys, hole, keys[next]);
                        FRAMES.setOpaque(frames, hole, frames[next]);
                        hole = next;
                    }
                    next = (next + 1) & mask;
                }
                KEYS.setOpaque(keys, hole, EMPTY);
                FRAMES.setOpaque(frames, hole, null);
                size = size - 1;
                return true;
            } finally {
                lock.unlockWrite(stamp);
            }
        }

        private static Slots grown(Slots view) {
            Slots bigger = Slots.ofCapacity(view.keys().length * 2);
            for (int slot = 0; slot < view.keys().length; slot++) {
                long key = view.keys()[slot];
                if (key != EMPTY) {
                    int target = hash(key) & bigger.mask();
                    while (bigger.keys()[target] != EMPTY) {
                        target = (target + 1) & bigger.mask();
                    }
                    bigger.keys()[target] = key;
                    bigger.frames()[target] = view.frames()[slot];
                }
            }
            return bigger;
        }
    }
}
