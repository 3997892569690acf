package dev.columba.planner.schema;

import java.util.List;

/**
 * What the cost model knows about a columnstore table's compressed rowgroups, gathered from their
 * footers (never from segment data) when the table was last written or opened; see
 * {@link StatisticsStore}. Delta rowgroups have no footers: small ones are read row by row when
 * gathered ({@code StatisticsStore.SMALL_DELTA_ROWS}); the rows of larger ones, and of rowgroups
 * compressed since (by the tuple mover), are the difference between the table's row count and
 * {@link #liveRows()}, estimated with default selectivities.
 *
 * @param rowgroups the compressed rowgroups, by id, and the small delta rowgroups
 * @param valueBytes per column, the average bytes of a string value (from the primary dictionary's
 *     entries, or from the rows of small delta rowgroups), or -1 when unknown or not a string
 */
public record ColumnstoreStatistics(List<RowgroupStatistics> rowgroups, List<Double> valueBytes) {
    public ColumnstoreStatistics {
        rowgroups = List.copyOf(rowgroups);
        valueBytes = List.copyOf(valueBytes);
    }

    /** The average bytes of a string value of {@code column}, or -1 when unknown. */
    public double averageValueBytes(int column) {
        return column >= 0 && column < valueBytes.size() ? valueBytes.get(column) : -1;
    }

    /** Rows of the compressed rowgroups that were not deleted when gathered. */
    public long liveRows() {
        long live = 0;
        for (RowgroupStatistics rowgroup : rowgroups) {
            live += rowgroup.rows() - rowgroup.deletedRows();
        }
        return live;
    }

    /**
     * One compressed rowgroup.
     *
     * @param createdMicros its creation time, which tells a rowgroup from a later one that reuses
     *     its id (after TRUNCATE), so footers are read once per rowgroup file
     * @param rows rows written, deleted ones included
     * @param deletedRows rows deleted when gathered; their values still count in the segments,
     *     so estimates scale each rowgroup by its live share
     * @param columns one per table column
     */
    public record RowgroupStatistics(int rowgroupId, long createdMicros, long rows, long deletedRows,
                                     List<SegmentStatistics> columns) {
        public RowgroupStatistics {
            columns = List.copyOf(columns);
        }

        RowgroupStatistics withDeletedRows(long deleted) {
            return new RowgroupStatistics(rowgroupId, createdMicros, rows, deleted, columns);
        }
    }

    /**
     * One column segment, from its footer.
     *
     * @param rows rows, NULLs included
     * @param nulls NULL rows
     * @param min the smallest non-NULL value in the column's Java representation, null when all are NULL
     * @param max the largest non-NULL value, null when all are NULL
     * @param distinct estimated distinct non-NULL values, or -1 when nothing says (see
     *     {@link StatisticsStore#gather(dev.columba.columnstore.table.ColumnstoreTable,
     *     dev.columba.storage.buffer.PageReader, dev.columba.core.stats.IoCounters)})
     */
    public record SegmentStatistics(long rows, long nulls, Object min, Object max, long distinct) {
        public long nonNullRows() {
            return rows - nulls;
        }
    }
}
