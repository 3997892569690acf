package dev.columba.columnstore.encoding;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;

/**
 * A predicate compiled against one segment ({@link SegmentReader#filter}): selects the matching
 * rows of a row range as ascending offsets from the range's first row, the form of a batch's
 * selection vector. {@link #select} starts a selection; {@link #refine} narrows one that another
 * column's filter made (a conjunction). NULL rows match only IS NULL. Immutable and thread-safe;
 * compile once per segment and query, use for every batch.
 */
public final class SegmentFilter {
    enum Mode { NULLS, NOT_NULLS, VALUES }

    private final SegmentReader reader;
    private final Mode mode;
    private final RowFilter values;

    SegmentFilter(SegmentReader reader, Mode mode, RowFilter values) {
        this.reader = reader;
        this.mode = mode;
        this.values = values;
    }

    /**
     * Writes the rows of {@code [fromRow, fromRow + count)} that match to {@code selection} as
     * offsets from {@code fromRow}, ascending, and returns how many. {@code selection} needs room
     * for {@code count} entries.
     */
    public int select(int fromRow, int count, int[] selection) {
        reader.checkRange(fromRow, count);
        if (selection.length < count) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "a selection of " + selection.length
                    + " entries cannot hold " + count + " rows");
        }
        boolean hasNulls = reader.header().hasNulls();
        return switch (mode) {
            case NULLS -> {
                if (!hasNulls) {
                    yield 0;
                }
                int selected = 0;
                for (int rowInRange = 0; rowInRange < count; rowInRange++) {
                    selection[selected] = rowInRange;
                    selected += reader.nullAt(fromRow + rowInRange) ? 1 : 0;
                }
                yield selected;
            }
            case NOT_NULLS -> {
                int selected = 0;
                for (int rowInRange = 0; rowInRange < count; rowInRange++) {
                    selection[selected] = rowInRange;
                    selected += hasNulls && reader.nullAt(fromRow + rowInRange) ? 0 : 1;
                }
                yield selected;
            }
            case VALUES -> {
                int selected = values.select(fromRow, count, selection);
                yield reader.dropNulls(fromRow, selection, selected);
            }
        };
    }

    /**
     * Keeps, of the rows {@code fromRow + selection[i]} for {@code i < selectedCount}, those that
     * match, compacted in order at the start of {@code selection}; returns how many.
     */
    public int refine(int fromRow, int[] selection, int selectedCount) {
        if (mode == Mode.VALUES && !reader.header().hasNulls()) {
            if (selectedCount == 0) {
                return 0;
            }
            reader.checkRange(fromRow + selection[0], selection[selectedCount - 1] - selection[0] + 1);
            return values.refine(fromRow, selection, selectedCount);
        }
        int kept = 0;
        for (int index = 0; index < selectedCount; index++) {
            int rowInRange = selection[index];
            selection[kept] = rowInRange;
            kept += matches(fromRow + rowInRange) ? 1 : 0;
        }
        return kept;
    }

    /**
     * A filter that matches exactly the rows both this and {@code other} (a filter of the same
     * segment) match, in one pass where two would be run: two value ranges of one packed column
     * become one range. Null when they do not combine; the caller then runs both.
     */
    public SegmentFilter and(SegmentFilter other) {
        if (other.reader != reader || mode != Mode.VALUES || other.mode != Mode.VALUES) {
            return null;
        }
        RowFilter both = values.intersect(other.values);
        return both == null ? null : new SegmentFilter(reader, Mode.VALUES, both);
    }

    /**
     * Whether {@link #andMatches} tests several rows a word: a range of narrow bit-packed values in
     * a segment without NULLs.
     */
    public boolean wordParallel() {
        return mode == Mode.VALUES && !reader.header().hasNulls() && values.wordParallel();
    }

    /**
     * Clears in {@code bits} (bit {@code i % 64} of {@code bits[i / 64]} for row {@code fromRow + i})
     * the rows of {@code [fromRow, fromRow + count)} that do not match, for a conjunction ANDed as
     * bitmaps; bits from {@code count} to the end of the word after it may change. {@code bits}
     * needs {@code count / 64 + 2} words.
     */
    public void andMatches(int fromRow, int count, long[] bits) {
        reader.checkRange(fromRow, count);
        if (bits.length < count / 64 + 2) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "a bitmap of " + bits.length
                    + " words cannot hold " + count + " rows");
        }
        if (wordParallel()) {
            values.andMatches(fromRow, count, bits);
            return;
        }
        for (int rowInRange = 0; rowInRange < count; rowInRange++) {
            if (!matches(fromRow + rowInRange)) {
                bits[rowInRange >>> 6] &= ~(1L << rowInRange);
            }
        }
    }

    /** Whether row {@code row} matches. */
    public boolean matches(int row) {
        reader.checkRange(row, 1);
        boolean isNull = reader.nullAt(row);
        return switch (mode) {
            case NULLS -> isNull;
            case NOT_NULLS -> !isNull;
            case VALUES -> !isNull && values.matches(row);
        };
    }


}
