package dev.columba.storage.table;

/** Rows produced by a scan. {@link #row()} is reused: valid until the next {@link #next()}. */
public interface TableCursor extends AutoCloseable {
    boolean next();

    /** The current row's projected values. */
    Object[] row();

    @Override
    void close();
}
