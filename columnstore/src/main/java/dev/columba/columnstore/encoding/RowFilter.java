package dev.columba.columnstore.encoding;

/**
 * A value predicate compiled against one segment's body. NULL rows hold an arbitrary stored value
 * here; {@link SegmentFilter} removes them.
 */
interface RowFilter {
    /**
     * Writes the rows of {@code [fromRow, fromRow + count)} that match to {@code selection} as
     * ascending offsets from {@code fromRow}, and returns how many.
     */
    int select(int fromRow, int count, int[] selection);

    /** Whether row {@code row} matches. */
    boolean matches(int row);

    /**
     * Keeps, of the rows {@code fromRow + selection[i]} for {@code i < selectedCount}, those that
     * match, compacted in order at the start of {@code selection}; returns how many.
     */
    default int refine(int fromRow, int[] selection, int selectedCount) {
        int kept = 0;
        for (int index = 0; index < selectedCount; index++) {
            int rowInRange = selection[index];
            selection[kept] = rowInRange;
            kept += matches(fromRow + rowInRange) ? 1 : 0;
        }
        return kept;
    }

    /**
     * Whether {@link #andMatches} tests several rows per word (a range of narrow packed values), so
     * that a conjunction of such filters is cheaper as bitmaps ANDed than as a selection refined.
     */
    default boolean wordParallel() {
        return false;
    }

    /**
     * Clears in {@code bits} (bit {@code i % 64} of {@code bits[i / 64]} for row {@code fromRow + i})
     * the rows of {@code [fromRow, fromRow + count)} that do not match; bits from {@code count} to
     * the end of the word after it may change. {@code bits} needs {@code count / 64 + 2} words.
     */
    default void andMatches(int fromRow, int count, long[] bits) {
        for (int rowInRange = 0; rowInRange < count; rowInRange++) {
            if (!matches(fromRow + rowInRange)) {
                bits[rowInRange >>> 6] &= ~(1L << rowInRange);
            }
        }
    }

    /**
     * A filter of the same segment that matches exactly the rows both this and {@code other}
     * match, as cheap to run as one of them, or null when there is none (so the caller runs both).
     */
    default RowFilter intersect(RowFilter other) {
        return null;
    }

    RowFilter NONE = new RowFilter() {
        @Override
        public int select(int fromRow, int count, int[] selection) {
            return 0;
        }

        @Override
        public boolean matches(int row) {
            return false;
        }
    };

    RowFilter ALL = new RowFilter() {
        @Override
        public int select(int fromRow, int count, int[] selection) {
            for (int rowInRange = 0; rowInRange < count; rowInRange++) {
                selection[rowInRange] = rowInRange;
            }
            return count;
        }

        @Override
        public boolean matches(int row) {
            return true;
        }
    };
}
