package dev.columba.columnstore.encoding;

import dev.columba.columnstore.dictionary.ValueKind;

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

    /**
     * Writes the strings of rows {@code fromRow + selection[i]} (ascending) to target rows {@code
     * selection[i]}, and an empty string to every other row of {@code [0, count)}: a string vector
     * is written in order, so the rows between get their offsets too. This default decodes the
     * selected rows one at a time; dictionary bodies override it to hand codes on as well.
     */
    /**
     * Writes only the dictionary ids of rows {@code [fromRow, fromRow + count)} to the target's
     * {@linkplain VectorWriter#codeSink codes}, and empty strings to its rows {@code [0, count)};
     * false, writing nothing, for a body that has no dictionary of strings.
     */
    default boolean decodeCodes(int fromRow, int count, VectorWriter target) {
        return false;
    }

    default void decodeSelectedStrings(int fromRow, int count, int[] selection, int selected, VectorWriter target) {
        int next = 0;
        for (int index = 0; index < selected; index++) {
            int row = selection[index];
            target.emptyStrings(next, row);
            decode(fromRow + row, 1, target, row);
            next = row + 1;
        }
        target.emptyStrings(next, count);
    }

    /** The Java value of non-NULL row {@code row}. */
    Object value(int row);

    /**
     * Adds the stored values of rows {@code [fromRow, fromRow + count)} to {@code total} without
     * writing them anywhere, for an integral kind ({@link ValueKind#integral}); false, adding
     * nothing, for bodies that cannot (dictionaries, plain values). The caller knows there are no
     * NULLs in the range (the value under a NULL is a placeholder).
     */
    default boolean sumValues(int fromRow, int count, ExactTotal total) {
        return false;
    }

    /**
     * Writes the stored values of rows {@code fromRow + selection[i]} ({@code i < selected},
     * ascending offsets below {@code count}) to {@code out[selection[i]]}, for an integral kind,
     * without writing a vector; the other elements of {@code out[0, count)} may be written with
     * anything (a body may read the whole range when most rows are selected). False, writing
     * nothing, for bodies that keep no integral values to read this way. The caller knows there
     * are no NULLs in the range.
     */
    default boolean readLongs(int fromRow, int count, int[] selection, int selected, long[] out, DecodeScratch scratch) {
        return false;
    }

    /** The least stored value {@link #readLongs} can write, {@code Long.MIN_VALUE} when the body keeps no bound. */
    default long lowestStored() {
        return Long.MIN_VALUE;
    }

    /** The greatest stored value {@link #readLongs} can write, {@code Long.MAX_VALUE} when the body keeps no bound. */
    default long highestStored() {
        return Long.MAX_VALUE;
    }

    /**
     * Selects the rows of {@code [fromRow, fromRow + count)} whose stored value {@code keep}
     * accepts, writing their offsets from {@code fromRow} to {@code selection} and returning how
     * many, when the body can test fewer values than rows (one test per run); -1, writing nothing,
     * otherwise. The caller knows there are no NULLs in the range.
     */
    default int selectByValue(int fromRow, int count, int[] selection, java.util.function.LongPredicate keep) {
        return -1;
    }

    /** Compiles a comparison or IN list. */
    RowFilter filter(ColumnPredicate predicate);
}
