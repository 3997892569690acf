package dev.columba.columnstore.scan;

/**
 * An aggregate a {@link ColumnstoreScan} computes itself over the compressed rowgroups it can
 * answer exactly from their footers and encoded segments, instead of returning their rows
 * ({@link ColumnstoreScan#aggregate}): SQL Server's aggregate pushdown into the columnstore scan.
 *
 * @param function what is computed
 * @param column the scan's output column it reads (an index into its projection); ignored by
 *     {@link Function#COUNT_ROWS}
 */
public record ScanAggregate(Function function, int column) {
    /** The aggregates a scan can compute. */
    public enum Function {
        /** Rows: COUNT(*). */
        COUNT_ROWS,
        /** Non-NULL values of the column: COUNT(column). */
        COUNT_VALUES,
        /** The smallest non-NULL value, from the segments' footers. */
        MIN,
        /** The largest non-NULL value, from the segments' footers. */
        MAX,
        /** The exact total of the values (and their count), from the encoded values without decoding them into vectors. */
        SUM
    }
}
