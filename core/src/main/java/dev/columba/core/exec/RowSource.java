package dev.columba.core.exec;

/**
 * Rows produced one at a time as {@code Object[]} (values per {@link dev.columba.core.type.SqlType}),
 * the shape of a rowstore cursor, for {@link RowsToBatch} to turn into batches.
 */
public interface RowSource extends AutoCloseable {

    /** The next row, or null at the end. The array may be reused by the next call. */
    Object[] next();

    @Override
    void close();
}
