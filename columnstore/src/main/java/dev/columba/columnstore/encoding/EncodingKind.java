package dev.columba.columnstore.encoding;

/**
 * How a segment's values are laid out; the byte names it in the segment header
 * ({@code docs/format/segment.md}). {@link SegmentEncoder} picks the smallest applicable one.
 */
public enum EncodingKind {
    /**
     * Frame of reference and bit-packing: each value minus the segment's minimum, in the fewest
     * bits that hold the largest difference. Integer-like kinds (BOOLEAN, INT, BIGINT, DATE,
     * TIMESTAMP, DECIMAL up to 18 digits). Random access to any row.
     */
    VALUE(1),
    /**
     * Runs of equal values: bit-packed run values (frame of reference) and run lengths, plus the
     * first row of every 32nd run to find a row by binary search. Integer-like kinds and DOUBLE.
     */
    RUN_LENGTH(2),
    /** Bit-packed dictionary ids (frame of reference on the ids). Any kind, given dictionaries. */
    DICTIONARY(3),
    /** Dictionary ids in runs, as {@link #RUN_LENGTH} stores values. Any kind, given dictionaries. */
    DICTIONARY_RUN_LENGTH(4),
    /**
     * The stored form of each value: fixed-width little-endian values, or string end offsets and
     * UTF-8 bytes. Any kind; the fallback when a dictionary overflows.
     */
    PLAIN(5);

    private final int code;

    EncodingKind(int code) {
        this.code = code;
    }

    /** The byte naming this encoding in a segment header. */
    public int code() {
        return code;
    }

    /** The encoding with header byte {@code code}, or null when none has it. */
    public static EncodingKind ofCode(int code) {
        for (EncodingKind kind : values()) {
            if (kind.code == code) {
                return kind;
            }
        }
        return null;
    }

    /** True when the segment's values are dictionary ids and decoding needs the dictionaries. */
    public boolean usesDictionary() {
        return this == DICTIONARY || this == DICTIONARY_RUN_LENGTH;
    }
}
