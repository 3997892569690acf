package dev.columba.storage.buffer;

import dev.columba.core.stats.IoCounters;

/**
 * Reads pages as some reader sees them: the committed state ({@link BufferPool}) or a write
 * transaction's own view ({@link WriteSet}).
 */
public sealed interface PageReader permits BufferPool, WriteSet {
    /** Pins the page; the caller closes the reference. */
    PageRef read(long pageId, Access access, IoCounters counters);

    /** The pool behind this reader, which read-ahead goes through. */
    BufferPool bufferPool();
}
