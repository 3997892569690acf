package dev.columba.core.stats;

/**
 * The waits Columba measures, named after the SQL Server waits they correspond to
 * ({@code sys.dm_os_wait_stats}). A wait is counted, and its time taken with
 * {@link System#nanoTime()}, only where a thread actually blocks: every place that records one
 * first tries without blocking (a {@code tryLock}, a {@code poll}) and reads the clock only when
 * that fails, so an uncontended path costs no clock reading (docs/design/execution.md, "Waits").
 */
public enum WaitType {
    /**
     * A thread waited for a page to arrive from storage into the buffer pool: its own synchronous
     * read, or a read another thread has in flight (the frame's latch, held exclusively by the
     * loader until the page is valid), or a frame to become free while reads hold every candidate.
     */
    PAGEIOLATCH_SH,
    /**
     * A thread waited for the buffer pool's latch on its replacement lists (the eviction policy),
     * held exclusively by another thread admitting, promoting or evicting a page. A latch on an
     * in-memory structure, not on a page: SQL Server's non-buffer latch waits.
     */
    LATCH_EX,
    /** A worker of a parallel plan waited for its consumer to take the batch it handed over. */
    CXPACKET,
    /** The consumer of an exchange (a gather) waited for its workers' next batch. */
    CXCONSUMER,
    /**
     * A worker waited for a hash join's build that the workers share: for the other workers'
     * shares and the table's assembly (built by each), or for the worker that reads and builds it
     * (built by one). SQL Server's wait for a batch-mode hash table build.
     */
    HTBUILD
}
