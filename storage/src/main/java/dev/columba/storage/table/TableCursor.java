package dev.columba.storage.table;

/** Rows produced by a scan. {@link #row()} is reused: valid until the next {@link #next()}. */
public interface TableCursor extends AutoCloseable {
    boolean next();

    /** The current row's projected values. */
    Object[] row();

    /**
     * The current row's locator, as secondary indexes store it: its B+tree key (with the
     * uniquifier of a non-unique clustered key) or the eight bytes of a heap row id. A copy, for
     * {@link TableStore#deleteAt}.
     */
    byte[] locator();

    @Override
    void close();
}
