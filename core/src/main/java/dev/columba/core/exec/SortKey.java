package dev.columba.core.exec;

/**
 * One ORDER BY key: an input column, its direction, and where NULLs go. SQL's default (as in
 * PostgreSQL and Calcite's default collation) treats NULL as larger than any value: last when
 * ascending, first when descending.
 */
public record SortKey(int column, boolean descending, boolean nullsFirst) {
    public SortKey {
        if (column < 0) {
            throw new IllegalArgumentException("sort column must not be negative, was " + column);
        }
    }

    /** {@code column ASC NULLS LAST}. */
    public static SortKey ascending(int column) {
        return new SortKey(column, false, false);
    }

    /** {@code column DESC NULLS FIRST}. */
    public static SortKey descending(int column) {
        return new SortKey(column, true, true);
    }
}
