package dev.columba.datagen;

/**
 * Computes one row from its index alone. One instance per cursor: it may keep scratch state (a
 * {@link RowRandom}, a {@code StringBuilder}) reused from row to row, and is used by one thread.
 */
interface RowWriter {

    /** Writes the values of row {@code rowIndex} into {@code row}, one per column. */
    void write(long rowIndex, Object[] row);
}
