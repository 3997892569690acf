package dev.columba.core.expr;

/** Facts about UTF-8 bytes that string kernels walk without decoding. */
final class Utf8 {
    private Utf8() {
    }

    /** The bytes of the sequence that {@code lead} starts (1 for a stray continuation byte, so walks always advance). */
    static int sequenceLength(byte lead) {
        int bits = lead & 0xFF;
        if (bits < 0x80) {
            return 1;
        }
        if (bits >= 0xF0) {
            return 4;
        }
        if (bits >= 0xE0) {
            return 3;
        }
        return bits >= 0xC0 ? 2 : 1;
    }

    /** Whether {@code value} continues a multi-byte sequence (10xxxxxx). */
    static boolean isContinuation(byte value) {
        return (value & 0xC0) == 0x80;
    }
}
