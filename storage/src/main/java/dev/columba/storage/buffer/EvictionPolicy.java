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
 * <p>Thread-safe: one lock over both lists; scans never take it after admission.
 */
final class EvictionPolicy {
    private static final byte NONE = 0;
    private static final byte PROBATION = 1;
    private static final byte PROTECTED = 2;

    private final Frame[] frames;
    private final int maxProtected;
    private final LinkedList probation = new LinkedList();
    private final LinkedList protectedList = new LinkedList();

    EvictionPolicy(Frame[] frames, int protectedPercent) {
        this.frames = frames;
        this.maxProtected = Math.max(1, frames.length * protectedPercent / 100);
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
        if (access != Access.RANDOM) {
            return;
        }
        synchronized (this) {
            switch (frame.list) {
                case PROBATION -> {
                    unlink(frame);
                    protectedList.pushHead(frame);
                    frame.list = PROTECTED;
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
                        protectedList.pushHead(frame);
                        frame.list = PROTECTED;
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
