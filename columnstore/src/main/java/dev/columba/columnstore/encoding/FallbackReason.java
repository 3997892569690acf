package dev.columba.columnstore.encoding;

/** Why a segment that should have used a dictionary does not: recorded in {@link SegmentMetadata}. */
public enum FallbackReason {
    /** No fallback: the segment's encoding was chosen from every encoding that applied. */
    NONE,
    /**
     * The column's dictionary would have grown past its cap while the rowgroup was built, and the
     * table's {@code dictionary_overflow = fallback} kept the rowgroup full and gave up the
     * dictionary for this segment.
     */
    DICTIONARY_OVERFLOW,
    /**
     * With {@code dictionary_overflow = fallback}, the column's dictionary was not smaller than its
     * first rows as plain strings (nearly every value distinct), so the builder gave it up for this
     * rowgroup after those rows. Segment metadata version 2 on.
     */
    HIGH_CARDINALITY
}
