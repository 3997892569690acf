package dev.columba.core.stats;

/**
 * The I/O counters of architecture.md ("What a read is"), in 8 KB page units unless
 * the name says otherwise. One vocabulary for both stores.
 */
public enum IoCounter {
    /** Scans or seeks started after reaching the leaf level, as SQL Server counts them. */
    SCAN_COUNT,
    /** Pages requested by an operator, resident or not. */
    LOGICAL_READS,
    /** Pages that were not resident when requested: the requester waited for storage. */
    PHYSICAL_READS,
    /** Pages brought from storage by read-ahead or prefetch before they were requested. */
    READ_AHEAD_READS,
    /** Logical reads of large-object (overflow) pages and columnstore segment pages. */
    LOB_LOGICAL_READS,
    LOB_PHYSICAL_READS,
    LOB_READ_AHEAD_READS,
    /** Read-ahead pages (of both kinds) later requested by the query that read them ahead. */
    READ_AHEAD_USED,
    /** Read-ahead pages (of both kinds) the query that read them ahead never requested. */
    READ_AHEAD_WASTED,
    /** Read requests issued to the operating system (synchronous and asynchronous). */
    READ_IOS,
    /** Bytes those requests asked for. */
    READ_BYTES,
    /** Nanoseconds the query's threads waited for page reads to complete. */
    PAGE_IO_WAIT_NANOS,
    /** Columnstore segments read. */
    SEGMENT_READS,
    /** Columnstore segments skipped by rowgroup elimination. */
    SEGMENT_SKIPPED
}
