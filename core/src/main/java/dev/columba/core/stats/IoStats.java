package dev.columba.core.stats;

import java.util.Locale;

/**
 * An immutable snapshot of {@link IoCounters}, in page units unless a name says otherwise.
 */
public record IoStats(
        long scanCount,
        long logicalReads,
        long physicalReads,
        long readAheadReads,
        long lobLogicalReads,
        long lobPhysicalReads,
        long lobReadAheadReads,
        long readAheadUsed,
        long readAheadWasted,
        long readIos,
        long readBytes,
        long pageIoWaitNanos,
        long segmentReads,
        long segmentSkipped) {

    public static final IoStats ZERO = new IoStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** The figures of {@code values}, indexed by {@link IoCounter#ordinal()}. */
    public static IoStats of(long[] values) {
        if (values.length != IoCounter.values().length) {
            throw new IllegalArgumentException(IoCounter.values().length + " counter values expected, got " + values.length);
        }
        return new IoStats(values[0], values[1], values[2], values[3], values[4], values[5], values[6], values[7],
                values[8], values[9], values[10], values[11], values[12], values[13]);
    }

    public long get(IoCounter counter) {
        return switch (counter) {
            case SCAN_COUNT -> scanCount;
            case LOGICAL_READS -> logicalReads;
            case PHYSICAL_READS -> physicalReads;
            case READ_AHEAD_READS -> readAheadReads;
            case LOB_LOGICAL_READS -> lobLogicalReads;
            case LOB_PHYSICAL_READS -> lobPhysicalReads;
            case LOB_READ_AHEAD_READS -> lobReadAheadReads;
            case READ_AHEAD_USED -> readAheadUsed;
            case READ_AHEAD_WASTED -> readAheadWasted;
            case READ_IOS -> readIos;
            case READ_BYTES -> readBytes;
            case PAGE_IO_WAIT_NANOS -> pageIoWaitNanos;
            case SEGMENT_READS -> segmentReads;
            case SEGMENT_SKIPPED -> segmentSkipped;
        };
    }

    private long[] toArray() {
        long[] values = new long[IoCounter.values().length];
        for (IoCounter counter : IoCounter.values()) {
            values[counter.ordinal()] = get(counter);
        }
        return values;
    }

    public IoStats plus(IoStats other) {
        long[] left = toArray();
        long[] right = other.toArray();
        for (int index = 0; index < left.length; index++) {
            left[index] += right[index];
        }
        return of(left);
    }

    public IoStats minus(IoStats other) {
        long[] left = toArray();
        long[] right = other.toArray();
        for (int index = 0; index < left.length; index++) {
            left[index] -= right[index];
        }
        return of(left);
    }

    /** Pages the process read from storage for these counters: physical plus read-ahead, both kinds. */
    public long pagesFromStorage() {
        return physicalReads + readAheadReads + lobPhysicalReads + lobReadAheadReads;
    }

    /** Average bytes per read request, or 0 without requests. */
    public double averageBytesPerIo() {
        return readIos == 0 ? 0 : (double) readBytes / readIos;
    }

    /**
     * The line {@code SET STATISTICS IO ON} prints for a table, in SQL Server's format (without the
     * Azure-only page server counters).
     */
    public String statisticsIoLine(String tableName) {
        return String.format(Locale.ROOT,
                "Table '%s'. Scan count %d, logical reads %d, physical reads %d, read-ahead reads %d, "
                        + "lob logical reads %d, lob physical reads %d, lob read-ahead reads %d.",
                tableName, scanCount, logicalReads, physicalReads, readAheadReads,
                lobLogicalReads, lobPhysicalReads, lobReadAheadReads);
    }
}
