package dev.columba.storage.table;

import dev.columba.storage.btree.ReadAheadOptions;

/**
 * What a scan of a rowstore table reads.
 *
 * @param order      key order (the B+tree's leaf chain) or allocation order (file order; the only
 *                   order a heap has)
 * @param low        values of a prefix of the clustered key the scan starts at, or null
 * @param high       values of a prefix of the clustered key the scan ends at, or null
 * @param projection the columns to produce, in this order; null for all
 */
public record TableScan(Order order, Object[] low, boolean lowInclusive, Object[] high, boolean highInclusive,
                        int[] projection, ReadAheadOptions readAhead) {

    public enum Order { KEY, ALLOCATION }

    public TableScan {
        if (order == Order.ALLOCATION && (low != null || high != null)) {
            throw new IllegalArgumentException("an allocation-order scan reads the whole table: no key range");
        }
    }

    /** Every row in key order with every column. */
    public static TableScan all(ReadAheadOptions readAhead) {
        return new TableScan(Order.KEY, null, true, null, true, null, readAhead);
    }

    /** Rows whose key is below {@code high} (values of a key prefix), in key order. */
    public static TableScan below(Object[] high, boolean inclusive, ReadAheadOptions readAhead) {
        return new TableScan(Order.KEY, null, true, high, inclusive, null, readAhead);
    }

    /** Rows whose key is in a range (values of key prefixes; null for open), in key order. */
    public static TableScan range(Object[] low, boolean lowInclusive, Object[] high, boolean highInclusive,
                                  ReadAheadOptions readAhead) {
        return new TableScan(Order.KEY, low, lowInclusive, high, highInclusive, null, readAhead);
    }

    /** Every row in allocation (file) order. */
    public static TableScan allocationOrder(ReadAheadOptions readAhead) {
        return new TableScan(Order.ALLOCATION, null, true, null, true, null, readAhead);
    }

    public TableScan withProjection(int... columns) {
        return new TableScan(order, low, lowInclusive, high, highInclusive, columns, readAhead);
    }
}
