package dev.columba.core.expr;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BitVectorHelper;

/** Single-bit access to validity buffers and BOOLEAN value buffers, as kernel loops need it. */
final class Bits {
    private Bits() {
    }

    static boolean get(ArrowBuf buffer, int row) {
        return BitVectorHelper.get(buffer, row) != 0;
    }

    /** Sets the bits of rows 0 to {@code rowCount - 1} (and the rest of the last byte) to 1. */
    static void setAll(ArrowBuf buffer, int rowCount) {
        buffer.setOne(0L, (rowCount + 7L) / 8);
    }

    static void set(ArrowBuf buffer, int row, boolean value) {
        BitVectorHelper.setValidityBit(buffer, row, value ? 1 : 0);
    }
}
