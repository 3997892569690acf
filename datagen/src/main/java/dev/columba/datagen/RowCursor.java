package dev.columba.datagen;

/**
 * A forward-only pass over a range of a generated table that reuses one {@code Object[]} for
 * every row, so a loader pays for the row values and nothing else.
 *
 * <p>Lifetime: the array returned by {@link #row()} belongs to the cursor and is overwritten by
 * the next call of {@link #next()}; copy it (or the values, which are immutable) to keep a row. A
 * cursor is used by one thread; independent cursors over the same generator may run in parallel.
 */
public interface RowCursor {

    /** Moves to the next row of the range; false once the range is exhausted. */
    boolean next();

    /**
     * The values of the current row, one per column of the generator's schema, in the Java
     * representation documented by {@link dev.columba.core.type.SqlType}. Valid until the next
     * call of {@link #next()}.
     */
    Object[] row();

    /** The 0-based index of the current row within the whole table (not within the range). */
    long rowIndex();
}
