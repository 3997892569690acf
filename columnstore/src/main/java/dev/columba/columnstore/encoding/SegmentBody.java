package dev.columba.columnstore.encoding;

/**
 * The part of a segment after its null bitmap, opened for reading: one implementation per
 * encoding. Bodies know nothing of NULLs; a NULL row holds some stored value, and
 * {@link SegmentReader} sets validity and removes NULL rows from filter results. Immutable and
 * thread-safe; per-call state (cursors, scratch) lives on the stack of each call.
 */
sealed interface SegmentBody permits PackedBody, RunBody, DictionaryBody, PlainBody {
    /** Rows decoded per step through a scratch array. */
    int CHUNK = 1024;

    /** Writes the values of rows {@code [fromRow, fromRow + count)} to target rows from {@code targetIndex}. */
    void decode(int fromRow, int count, VectorWriter target, int targetIndex);

    /**
     * Late materialization: writes the values of rows {@code fromRow + selection[i]} to target rows
     * {@code selection[i]} for {@code i < selected} (ascending), leaving the other target rows as
     * they were. Fixed-width kinds only (a string vector is written in order). This default decodes
     * row by row; bodies with random access override it.
     */
    default void decodeSelected(int fromRow, int[] selection, int selected, VectorWriter target) {
        for (int index = 0; index < selected; index++) {
            decode(fromRow + selection[index], 1, target, selection[index]);
        }
    }

    /** The Java value of non-NULL row {@code row}. */
    Object value(int row);

    /** Compiles a comparison or IN list. */
    RowFilter filter(ColumnPredicate predicate);
}
