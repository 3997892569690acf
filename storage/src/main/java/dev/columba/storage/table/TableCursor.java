package dev.columba.storage.table;

import org.apache.arrow.vector.FieldVector;

/**
 * Rows produced by a scan, read either one at a time ({@link #next()}, {@link #row()}) or a batch
 * at a time straight into vectors ({@link #fill}); a caller uses one way or the other.
 */
public interface TableCursor extends AutoCloseable {
    boolean next();

    /** The current row's projected values, decoded on first call; reused: valid until the next {@link #next()}. */
    Object[] row();

    /**
     * Decodes up to {@code capacity} following rows into {@code vectors} (one per projected
     * column, as {@code RowCodec.decodeInto} fills them) at positions {@code 0 .. n-1}, and returns
     * {@code n}; 0 when the scan is over. Nothing is boxed.
     */
    int fill(FieldVector[] vectors, int capacity);

    /**
     * As {@link #fill(FieldVector[], int)}, writing at positions {@code from .. n-1} (returns
     * {@code n}, at most {@code capacity}): a scan that goes on with another cursor (the next
     * partition) where this one ended fills one batch from both.
     */
    int fill(FieldVector[] vectors, int from, int capacity);

    /**
     * The current row's locator, as secondary indexes store it: its B+tree key (with the
     * uniquifier of a non-unique clustered key) or the eight bytes of a heap row id. A copy, for
     * {@link TableStore#deleteAt}.
     */
    byte[] locator();

    @Override
    void close();
}
