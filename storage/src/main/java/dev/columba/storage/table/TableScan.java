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
 * @param firstPage  allocation order only: the scan reads the pages whose ids are at least this
 * @param endPage    allocation order only: and below this ({@code [0, Long.MAX_VALUE)} for every page);
 *                   scans of disjoint ranges that cover every id read each row of a table that does
 *                   not change in between exactly once (a connector's splits, docs/design/trino.md)
 */
public record TableScan(Order order, Object[] low, boolean lowInclusive, Object[] high, boolean highInclusive,
                        int[] projection, ReadAheadOptions readAhead, long firstPage, long endPage) {

    public enum Order { KEY, ALLOCATION }

    public TableScan {
        if (order == Order.ALLOCATION && (low != null || high != null)) {
            throw new IllegalArgumentException("an allocation-order scan reads the whole table: no key range");
        }
        if (firstPage < 0 || endPage < firstPage) {
            throw new IllegalArgumentException("page range [" + firstPage + ", " + endPage + ") is empty or negative");
        }
        if (order == Order.KEY && (firstPage != 0 || endPage != Long.MAX_VALUE)) {
            throw new IllegalArgumentException("a key-order scan follows the leaf chain: no page range");
        }
    }

    /** Every row in key order with every column. */
    public static TableScan all(ReadAheadOptions readAhead) {
        return new TableScan(Order.KEY, null, true, null, true, null, readAhead, 0, Long.MAX_VALUE);
    }

    /** Rows whose key is below {@code high} (values of a key prefix), in key order. */
    public static TableScan below(Object[] high, boolean inclusive, ReadAheadOptions readAhead) {
        return new TableScan(Order.KEY, null, true, high, inclusive, null, readAhead, 0, Long.MAX_VALUE);
    }

    /** Rows whose key is in a range (values of key prefixes; null for open), in key order. */
    public static TableScan range(Object[] low, boolean lowInclusive, Object[] high, boolean highInclusive,
                                  ReadAheadOptions readAhead) {
        return new TableScan(Order.KEY, low, lowInclusive, high, highInclusive, null, readAhead, 0, Long.MAX_VALUE);
    }

    /** Every row in allocation (file) order. */
    public static TableScan allocationOrder(ReadAheadOptions readAhead) {
        return new TableScan(Order.ALLOCATION, null, true, null, true, null, readAhead, 0, Long.MAX_VALUE);
    }

    public TableScan withProjection(int... columns) {
        return new TableScan(order, low, lowInclusive, high, highInclusive, columns, readAhead, firstPage, endPage);
    }

    /** This allocation-order scan limited to the pages whose ids lie in {@code [first, end)}. */
    public TableScan withPages(long first, long end) {
        return new TableScan(order, low, lowInclusive, high, highInclusive, projection, readAhead, first, end);
    }
}
