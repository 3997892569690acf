package dev.columba.columnstore.encoding;

/**
 * Scratch arrays for decoding a chunk of a segment, kept by its {@link SegmentReader} across
 * calls, and by a scan across the readers of one column's segments (a table of small rowgroups
 * opened a reader, and so a fresh set of arrays, every few batches: TPC-H Q11's partsupp, 13
 * rowgroups read twice, allocated 16 MB of scratch a statement): a scan decodes a rowgroup's segment a batch at a time, and allocating (and zeroing) the
 * chunk's values, packed words and widened values afresh for every batch and column was about
 * 32 KB per DECIMAL column and batch. Grown on demand, never shrunk; owned by the reader's
 * thread, like the reader. Contents do not survive between uses.
 */
public final class DecodeScratch {
    private long[] longs = new long[0];
    private byte[] words = new byte[0];
    private int[] narrow = new int[0];
    private long[] wide = new long[0];
    private int[] repeated = new int[0];

    /** Empty arrays, grown on first use. */
    public DecodeScratch() {
    }

    /** At least {@code length} longs: a chunk's values. */
    long[] longs(int length) {
        if (longs.length < length) {
            longs = new long[length];
        }
        return longs;
    }

    /** At least {@code length} bytes: a chunk's packed words ({@link PackedLongs#scratchFor}). */
    byte[] words(int length) {
        if (words.length < length) {
            words = new byte[length];
        }
        return words;
    }

    /** At least {@code length} ints: values narrowed for a 4-byte vector. */
    int[] narrow(int length) {
        if (narrow.length < length) {
            narrow = new int[length];
        }
        return narrow;
    }

    /**
     * At least {@code length} ints, the first {@code length} of them {@code value}: offsets to copy
     * in bulk into a string vector's rows that get empty strings ({@link VectorWriter#emptyStrings}).
     */
    int[] repeated(int length, int value) {
        if (repeated.length < length) {
            repeated = new int[Math.max(length, 2 * repeated.length)];
        }
        java.util.Arrays.fill(repeated, 0, length, value);
        return repeated;
    }

    /** At least {@code length} longs: values widened to a DECIMAL vector's two words each. */
    long[] wide(int length) {
        if (wide.length < length) {
            wide = new long[length];
        }
        return wide;
    }
}
