package dev.columba.storage.io;

/** Paging advice for a range of a memory-mapped file, {@code madvise(2)}. */
public enum MemoryAdvice {
    NORMAL,
    /** No kernel read-ahead on page faults: each fault reads one page; Columba does its own. */
    RANDOM,
    /** Aggressive kernel read-ahead on page faults. */
    SEQUENTIAL,
    /**
     * Start reading the range into the page cache asynchronously; returns once the reads are
     * queued. Linux reads at most the file's read-ahead window per call, so ask in chunks of at
     * most {@code read_ahead_kb}.
     */
    WILLNEED,
    /**
     * Unmap the range's pages from this process. For a shared file mapping the page cache keeps
     * them: the next access is a minor fault, not a read. For a private mapping, private changes to
     * those pages are discarded.
     */
    DONTNEED
}
