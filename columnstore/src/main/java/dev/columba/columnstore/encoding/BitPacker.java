package dev.columba.columnstore.encoding;

/**
 * Writes values of a fixed bit width as a packed stream's words: value {@code i} occupies bits
 * {@code [i * width, (i + 1) * width)} of a little-endian sequence of 64-bit words, least
 * significant bit first; the last word is zero-padded. Width 0 writes nothing.
 */
final class BitPacker {
    private final ByteWriter out;
    private final int width;
    private final long mask;
    private long word;
    private int used;

    BitPacker(ByteWriter out, int width) {
        this.out = out;
        this.width = width;
        this.mask = width == 64 ? -1L : (1L << width) - 1;
    }

    void add(long value) {
        if (width == 0) {
            return;
        }
        long bits = value & mask;
        word |= bits << used;
        int filled = used + width;
        if (filled >= 64) {
            out.putLong(word);
            // The bits of this value that did not fit the word start the next one.
            word = used == 0 ? 0 : bits >>> (64 - used);
            used = filled - 64;
        } else {
            used = filled;
        }
    }

    void finish() {
        if (used > 0) {
            out.putLong(word);
            word = 0;
            used = 0;
        }
    }
}
