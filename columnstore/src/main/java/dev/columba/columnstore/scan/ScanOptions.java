package dev.columba.columnstore.scan;

import dev.columba.core.settings.StandardSettings;
import java.util.List;

/**
 * What a columnstore scan reads and how.
 *
 * @param projection       the columns to produce, in order
 * @param filters          predicates the scan applies (conjunction); rows failing one are not produced
 * @param comparisons      comparisons between two columns the scan applies too (ANDed with the filters)
 * @param readAhead        issue {@code MADV_WILLNEED} ahead of the segments (the {@code read_ahead} setting)
 * @param readAheadMaxBytes largest read-ahead request (the {@code columnstore_read_ahead_max_bytes} setting)
 * @param readAheadDepthBytes how many bytes of read-ahead the scan keeps requested and not yet touched,
 *                         across rowgroup boundaries; 0 reads ahead the current rowgroup only (the
 *                         {@code columnstore_read_ahead_depth} setting)
 * @param batchSize        rows per batch at most
 * @param withRowLocator   append a BIGINT column {@code (rowgroup << 32) | position} for deletes and updates
 */
public record ScanOptions(int[] projection, List<ColumnFilter> filters, List<ColumnComparison> comparisons, boolean readAhead, long readAheadMaxBytes,
                          long readAheadDepthBytes, int batchSize, boolean withRowLocator) {
    public static final long DEFAULT_READ_AHEAD_MAX_BYTES =
            StandardSettings.COLUMNSTORE_READ_AHEAD_MAX_BYTES.defaultValue();
    public static final long DEFAULT_READ_AHEAD_DEPTH_BYTES =
            StandardSettings.COLUMNSTORE_READ_AHEAD_DEPTH.defaultValue();
    public static final int DEFAULT_BATCH_SIZE = 4096;

    public ScanOptions {
        projection = projection.clone();
        filters = List.copyOf(filters);
        comparisons = List.copyOf(comparisons);
        if (batchSize < 1 || readAheadMaxBytes < 8192 || readAheadDepthBytes < 0) {
            throw new IllegalArgumentException("batch size " + batchSize + ", read-ahead request " + readAheadMaxBytes
                    + ", read-ahead depth " + readAheadDepthBytes);
        }
    }

    /** Every column, no filter, default read-ahead. */
    public static ScanOptions all(int columns) {
        int[] projection = new int[columns];
        for (int column = 0; column < columns; column++) {
            projection[column] = column;
        }
        return new ScanOptions(projection, List.of(), List.of(), true, DEFAULT_READ_AHEAD_MAX_BYTES,
                DEFAULT_READ_AHEAD_DEPTH_BYTES, DEFAULT_BATCH_SIZE, false);
    }

    public ScanOptions withFilters(List<ColumnFilter> newFilters) {
        return new ScanOptions(projection, newFilters, comparisons, readAhead, readAheadMaxBytes, readAheadDepthBytes, batchSize, withRowLocator);
    }

    public ScanOptions withComparisons(List<ColumnComparison> newComparisons) {
        return new ScanOptions(projection, filters, newComparisons, readAhead, readAheadMaxBytes, readAheadDepthBytes, batchSize,
                withRowLocator);
    }

    public ScanOptions withReadAhead(boolean enabled) {
        return new ScanOptions(projection, filters, comparisons, enabled, readAheadMaxBytes, readAheadDepthBytes, batchSize, withRowLocator);
    }

    public ScanOptions withProjection(int... columns) {
        return new ScanOptions(columns, filters, comparisons, readAhead, readAheadMaxBytes, readAheadDepthBytes, batchSize, withRowLocator);
    }

    public ScanOptions withRowLocator(boolean enabled) {
        return new ScanOptions(projection, filters, comparisons, readAhead, readAheadMaxBytes, readAheadDepthBytes, batchSize, enabled);
    }

    /** Read-ahead requests of at most {@code maxBytes}, {@code depthBytes} of them kept ahead. */
    public ScanOptions withReadAhead(long maxBytes, long depthBytes) {
        return new ScanOptions(projection, filters, comparisons, readAhead, maxBytes, depthBytes, batchSize, withRowLocator);
    }

    public ScanOptions withBatchSize(int rows) {
        return new ScanOptions(projection, filters, comparisons, readAhead, readAheadMaxBytes, readAheadDepthBytes, rows, withRowLocator);
    }
}
