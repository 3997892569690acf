package dev.columba.storage.buffer;

import java.util.List;

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

    EvictionPolicy(Frame[] frames, int protectedPercent) {
        this.frames = frames;
        this.maxProtected = Math.max(1, frames.length * protectedPercent / 100);
        this.recentWindow = Math.max(1, maxProtected / 4);
    }

    /** A page just became VALID in {@code frame}. */
    synchronized void admit(Frame frame) {
        if (frame.list != NONE) {
            unlink(frame);
        }
        probation.pushHead(frame);
        frame.list = PROBATION;
    }

    /** A page was requested again. */
    void touch(Frame frame, Access access) {
        if (access != Access.RANDOM || frame.recentUntil > promotions) {
            return;
        }
        synchronized (this) {
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
        }
    }

    synchronized void remove(Frame frame) {
        if (frame.list != NONE) {
            unlink(frame);
        }
    }

    /** Appends up to {@code max} eviction candidates, least valuable first. */
    synchronized void candidates(int max, List<Frame> out) {
        for (int index = probation.tail; index >= 0 && out.size() < max; index = frames[index].previous) {
            out.add(frames[index]);
        }
        for (int index = protectedList.tail; index >= 0 && out.size() < max; index = frames[index].previous) {
            out.add(frames[index]);
        }
    }

    synchronized int protectedSize() {
        return protectedList.size;
    }

    synchronized int probationSize() {
        return probation.size;
    }

    synchronized boolean isProtected(Frame frame) {
        return frame.list == PROTECTED;
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
