package dev.columba.columnstore.table;

/** A rowgroup's state, as {@code sys.column_store_row_groups} reports it. */
public enum RowgroupState {
    /** A delta rowgroup accepting rows (a rowstore B+tree). */
    OPEN,
    /** A full delta rowgroup waiting for the tuple mover. */
    CLOSED,
    /** An immutable rowgroup file of encoded column segments. */
    COMPRESSED,
    /** A former delta rowgroup whose rows now live in a compressed rowgroup; its pages are freed. */
    TOMBSTONE
}
