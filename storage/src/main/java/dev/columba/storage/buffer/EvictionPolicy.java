package dev.columba.storage.buffer;

import dev.columba.core.stats.WaitCounters;
import dev.columba.core.stats.WaitType;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Segmented LRU, the buffer pool's scan-resistant replacement policy.
 *
 * <p>A page enters the <em>probation</em> segment. A later {@link Access#RANDOM} access promotes
 * it to the <em>protected</em> segment, which may hold at most a fixed share of the pool; when it
 * overflows, its least recent page drops back to probation. Victims come from the least recent
 * end of probation first. {@link Access#SCAN} accesses never promote: a scan larger than the pool
 * only recycles probation pages, and the pages that seeks keep coming back to (B+tree roots and
 * inner pages, hot rows) survive it. This is InnoDB's midpoint insertion and SQL Server's LRU-K
 * in spirit, with the scan's own declaration instead of a time window to tell the two apart.
 *
 * <p>Thread-safe: one lock over both lists; scans never take it after admission, and neither do
 * seeks that come back to a page near the head of the protected segment. A random access moves a
 * protected page to the head only once it has aged: when fewer than a quarter of the segment's
 * places of head insertions happened since it was last put there, it is still in the segment's
 * first quarter, nowhere near demotion, and moving it would change nothing that matters (InnoDB's
 * "young" pages are not moved either, for the same reason). So the B+tree root and inner pages every
 * point select of every session reads do not make this lock a point all of them pass through.
 *
 * <p>The lock is the pool's one latch on an in-memory structure that readers contend for: every
 * page read from storage is admitted under it, by the reader or by the I/O thread that read it
 * ahead. A thread that finds it held waits, and that wait is measured ({@link WaitType#LATCH_EX}):
 * a {@code tryLock} first, the clock read only when it fails.
 */
final class EvictionPolicy {
    private static final byte NONE = 0;
    private static final byte PROBATION = 1;
    private static final byte PROTECTED = 2;

    private final Frame[] frames;
    private final int maxProtected;
    private final LinkedList probation = new LinkedList();
    private final LinkedList protectedList = new LinkedList();
    /** How many head insertions a protected frame stays recent for: a quarter of the segment. */
    private final long recentWindow;
    /** Head insertions into the protected segment so far; written under the lock. */
    private volatile long promotions;
    private final ReentrantLock lock = new ReentrantLock();
    /** The pool's waits, where a wait for {@link #lock} counts (and in the statement's, when there is one). */
    private final WaitCounters waits;

    EvictionPolicy(Frame[] frames, int protectedPercent, WaitCounters waits) {
        this.frames = frames;
        this.waits = waits;
        this.maxProtected = Math.max(1, frames.length * protectedPercent / 100);
        this.recentWindow = Math.max(1, maxProtected / 4);
    }

    /**
     * Takes the lock, measuring the wait if another thread holds it.
     *
     * @param statement the waits of the statement on whose behalf the caller works, or null
     */
    private void lock(WaitCounters statement) {
        if (lock.tryLock()) {
            return;
        }
        long start = System.nanoTime();
        lock.lock();
        WaitCounters.record(WaitType.LATCH_EX, System.nanoTime() - start, waits, statement);
    }

    /** The latch itself, which tests hold to make another thread wait for it. */
    ReentrantLock latch() {
        return lock;
    }

    /** A page just became VALID in {@code frame}; {@code statement}: the waits of the statement that reads it, or null. */
    void admit(Frame frame, WaitCounters statement) {
        lock(statement);
        try {
            if (frame.list != NONE) {
                unlink(frame);
            }
            probation.pushHead(frame);
            frame.list = PROBATION;
        } finally {
            lock.unlock();
        }
    }

    /** A page was requested again; {@code statement}: the waits of the statement that requests it, or null. */
    void touch(Frame frame, Access access, WaitCounters statement) {
        if (access != Access.RANDOM || frame.recentUntil > promotions) {
            return;
        }
        lock(statement);
        try {
            switch (frame.list) {
                case PROBATION -> {
                    unlink(frame);
                    pushProtected(frame);
                    if (protectedList.size > maxProtected) {
                        Frame demoted = frames[protectedList.tail];
                        unlink(demoted);
                        probation.pushHead(demoted);
                        demoted.list = PROBATION;
                    }
                }
                case PROTECTED -> {
                    if (protectedList.head != frame.index) {
                        unlink(frame);
                        pushProtected(frame);
                    }
                }
                default -> {
                    // Not tracked (a retired or loading frame): nothing to promote.
                }
            }
        } finally {
            lock.unlock();
        }
    }

    void remove(Frame frame) {
        lock(null);
        try {
            if (frame.list != NONE) {
                unlink(frame);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Appends up to {@code max} eviction candidates, least valuable first. */
    void candidates(int max, List<Frame> out) {
        lock(null);
        try {
            for (int index = probation.tail; index >= 0 && out.size() < max; index = frames[index].previous) {
                out.add(frames[index]);
            }
            for (int index = protectedList.tail; index >= 0 && out.size() < max; index = frames[index].previous) {
                out.add(frames[index]);
            }
        } finally {
            lock.unlock();
        }
    }

    int protectedSize() {
        lock.lock();
        try {
            return protectedList.size;
        } finally {
            lock.unlock();
        }
    }

    int probationSize() {
        lock.lock();
        try {
            return probation.size;
        } finally {
            lock.unlock();
        }
    }

    boolean isProtected(Frame frame) {
        lock.lock();
        try {
            return frame.list == PROTECTED;
        } finally {
            lock.unlock();
        }
    }

    /** Puts {@code frame} at the head of the protected segment, recent for the next {@link #recentWindow} insertions. */
    private void pushProtected(Frame frame) {
        protectedList.pushHead(frame);
        frame.list = PROTECTED;
        long count = promotions + 1;
        promotions = count;
        frame.recentUntil = count + recentWindow;
    }

    private void unlink(Frame frame) {
        LinkedList list = frame.list == PROBATION ? probation : protectedList;
        if (frame.previous >= 0) {
            frames[frame.previous].next = frame.next;
        } else {
            list.head = frame.next;
        }
        if (frame.next >= 0) {
            frames[frame.next].previous = frame.previous;
        } else {
            list.tail = frame.previous;
        }
        frame.previous = -1;
        frame.next = -1;
        frame.list = NONE;
        frame.recentUntil = 0;
        list.size--;
    }

    /** A doubly linked list threaded through the frames' {@code previous}/{@code next} indices. */
    private final class LinkedList {
        int head = -1;
        int tail = -1;
        int size;

        void pushHead(Frame frame) {
            frame.previous = -1;
            frame.next = head;
            if (head >= 0) {
                frames[head].previous = frame.index;
            } else {
                tail = frame.index;
            }
            head = frame.index;
            size++;
        }
    }
}
