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
    private boolean closed;

    PageRef(Frame frame, long stamp, boolean writable) {
        this.frame = frame;
        this.stamp = stamp;
        this.page = writable ? frame.memory : frame.memory.asReadOnly();
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

    /** Releases the pin and latch of a committed page; private pages stay with their transaction. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (stamp != 0) {
            frame.latch.unlockRead(stamp);
            frame.unpin();
        }
    }
}
