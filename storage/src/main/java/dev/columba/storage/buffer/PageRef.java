package dev.columba.storage.buffer;

import java.lang.foreign.MemorySegment;

/**
 * A pinned page. The segment is valid until {@link #close()}; committed pages are read-only, a
 * write transaction's private copies are writable. Not thread-safe: one user at a time.
 */
public final class PageRef implements AutoCloseable {
    private final Frame frame;
    private final long stamp;
    private final MemorySegment page;
    /** The write-set entry whose private copy this pins, so that it is not spilled meanwhile; else null. */
    private final WriteSet.Entry owner;
    private boolean closed;

    PageRef(Frame frame, long stamp, boolean writable) {
        this(frame, stamp, writable, null);
    }

    PageRef(Frame frame, long stamp, boolean writable, WriteSet.Entry owner) {
        this.frame = frame;
        this.stamp = stamp;
        this.page = writable ? frame.memory : frame.memory.asReadOnly();
        this.owner = owner;
    }

    public long pageId() {
        return frame.pageId;
    }

    /** The page's 8 KB; valid until {@link #close()}. */
    public MemorySegment page() {
        return page;
    }

    public boolean writable() {
        return !page.isReadOnly();
    }

    Frame frame() {
        return frame;
    }

    /**
     * Releases the pin and latch of a committed page, or the pin that keeps a private copy in
     * memory (the copy itself stays with its transaction, which may spill it once unpinned).
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (owner != null) {
            owner.unpin();
        }
        if (stamp != 0) {
            frame.latch.unlockRead(stamp);
            frame.unpin();
        }
    }
}
