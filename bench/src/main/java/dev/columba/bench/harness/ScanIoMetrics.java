package dev.columba.bench.harness;

import dev.columba.core.stats.IoStats;
import dev.columba.storage.io.ProcSelfIo;

/**
 * The I/O figures every scan benchmark reports, recorded from one scan's {@link IoStats} and the
 * {@code /proc/self/io} difference over the same window, so that rowstore and columnstore scans are
 * reported in one vocabulary (architecture.md, "What a read is"): page counters of both
 * kinds (the lob ones are columnstore segment bytes and overflow pages), requests, rates, and the
 * check against the operating system.
 */
public final class ScanIoMetrics {
    public static final Metric LOGICAL_READS = new Metric("logicalReads", "pages");
    public static final Metric PHYSICAL_READS = new Metric("physicalReads", "pages");
    public static final Metric READ_AHEAD_READS = new Metric("readAheadReads", "pages");
    /** Columnstore segment bytes (and overflow pages) the scan touched, in 8 KB units. */
    public static final Metric LOB_LOGICAL_READS = new Metric("lobLogicalReads", "pages");
    public static final Metric LOB_PHYSICAL_READS = new Metric("lobPhysicalReads", "pages");
    public static final Metric LOB_READ_AHEAD_READS = new Metric("lobReadAheadReads", "pages");
    public static final Metric READ_AHEAD_USED = new Metric("readAheadUsed", "pages");
    public static final Metric READ_AHEAD_WASTED = new Metric("readAheadWasted", "pages");
    public static final Metric READ_IOS = new Metric("readIos", "I/Os");
    /** Bytes the scan's read requests asked the operating system for (the {@code READ_BYTES} counter). */
    public static final Metric READ_BYTES = new Metric("readMB", "MB");
    /** Bytes requested from the operating system per read request; absent without requests. */
    public static final Metric BYTES_PER_IO = new Metric("bytesPerIo", "bytes");
    public static final Metric PAGE_IO_WAIT = new Metric("pageIoWait", "ms");
    /** Bytes the scan went through per second: logical reads of both kinds x 8 KB over the scan's time. */
    public static final Metric SCAN_RATE = new Metric("scanMBps", "MB/s");
    /** Bytes from storage per second: physical and read-ahead reads of both kinds x 8 KB over the scan's time. */
    public static final Metric STORAGE_RATE = new Metric("storageMBps", "MB/s");
    /** {@code read_bytes} of {@code /proc/self/io} during the scan. */
    public static final Metric PROCESS_READ = new Metric("procReadMB", "MB");
    /** Physical and read-ahead reads of both kinds x 8 KB over {@code read_bytes}; absent when the process read nothing. */
    public static final Metric COUNTERS_TO_PROCESS = new Metric("countersToProcRatio", "ratio");

    /** 2^20: every MB in the reports. */
    public static final double MEGABYTE = 1 << 20;
    /** The page unit of the counters. */
    public static final int PAGE_BYTES = 8192;

    private ScanIoMetrics() {
    }

    /**
     * Records the figures of one scan that took {@code seconds}; {@code process} is the
     * {@code /proc/self/io} difference over the scan, or null where the system has none.
     */
    public static void record(IoStats stats, ProcSelfIo process, double seconds) {
        long bytesFromStorage = stats.pagesFromStorage() * PAGE_BYTES;
        IterationMetrics.record(LOGICAL_READS, stats.logicalReads());
        IterationMetrics.record(PHYSICAL_READS, stats.physicalReads());
        IterationMetrics.record(READ_AHEAD_READS, stats.readAheadReads());
        IterationMetrics.record(LOB_LOGICAL_READS, stats.lobLogicalReads());
        IterationMetrics.record(LOB_PHYSICAL_READS, stats.lobPhysicalReads());
        IterationMetrics.record(LOB_READ_AHEAD_READS, stats.lobReadAheadReads());
        IterationMetrics.record(READ_AHEAD_USED, stats.readAheadUsed());
        IterationMetrics.record(READ_AHEAD_WASTED, stats.readAheadWasted());
        IterationMetrics.record(READ_IOS, stats.readIos());
        IterationMetrics.record(READ_BYTES, stats.readBytes() / MEGABYTE);
        if (stats.readIos() > 0) {
            IterationMetrics.record(BYTES_PER_IO, stats.averageBytesPerIo());
        }
        IterationMetrics.record(PAGE_IO_WAIT, stats.pageIoWaitNanos() / 1e6);
        IterationMetrics.record(SCAN_RATE,
                (stats.logicalReads() + stats.lobLogicalReads()) * PAGE_BYTES / MEGABYTE / seconds);
        IterationMetrics.record(STORAGE_RATE, bytesFromStorage / MEGABYTE / seconds);
        if (process != null) {
            IterationMetrics.record(PROCESS_READ, process.readBytes() / MEGABYTE);
            if (process.readBytes() > 0) {
                IterationMetrics.record(COUNTERS_TO_PROCESS, (double) bytesFromStorage / process.readBytes());
            }
        }
    }
}
