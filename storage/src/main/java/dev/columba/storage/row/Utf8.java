package dev.columba.storage.row;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * UTF-8 straight between {@link String}s and {@link MemorySegment}s, without an intermediate
 * {@code byte[]} on the write side. Strings must be valid Unicode: an unpaired surrogate has no
 * UTF-8 form, and {@link String#getBytes} would silently turn it into {@code '?'}.
 */
final class Utf8 {
    private Utf8() {
    }

    /**
     * The UTF-8 length of {@code text}, plus one byte per U+0000 when {@code escapeZero} (the key
     * encoding's escape).
     *
     * @throws ColumbaException INVALID_ARGUMENT naming {@code label} on an unpaired surrogate
     */
    static long length(String text, boolean escapeZero, String label) {
        int length = text.length();
        long bytes = length;
        for (int index = 0; index < length; index++) {
            char unit = text.charAt(index);
            if (unit < 0x80) {
                if (unit == 0 && escapeZero) {
                    bytes++;
                }
            } else if (unit < 0x800) {
                bytes += 1;
            } else if (Character.isSurrogate(unit)) {
                if (!Character.isHighSurrogate(unit) || index + 1 == length || !Character.isLowSurrogate(text.charAt(index + 1))) {
                    throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, label + " cannot hold " + ColumnValues.show(text)
                            + ": unpaired surrogate U+" + Integer.toHexString(unit).toUpperCase(Locale.ROOT)
                            + " at index " + index + " is not Unicode");
                }
                // A pair is two chars and four bytes: two already counted.
                bytes += 2;
                index++;
            } else {
                bytes += 2;
            }
        }
        return bytes;
    }

    /**
     * Writes {@code text} (already checked by {@link #length}) at {@code offset}, escaping U+0000 as
     * {@code 0x00 escapedZero} when {@code escapeZero}.
     *
     * @return the bytes written
     */
    static long write(String text, MemorySegment target, long offset, boolean escapeZero, byte escapedZero) {
        int length = text.length();
        long position = offset;
        for (int index = 0; index < length; index++) {
            char unit = text.charAt(index);
            if (unit < 0x80) {
                target.set(ValueLayout.JAVA_BYTE, position++, (byte) unit);
                if (unit == 0 && escapeZero) {
                    target.set(ValueLayout.JAVA_BYTE, position++, escapedZero);
                }
            } else if (unit < 0x800) {
                target.set(ValueLayout.JAVA_BYTE, position++, (byte) (0xC0 | unit >>> 6));
                target.set(ValueLayout.JAVA_BYTE, position++, (byte) (0x80 | unit & 0x3F));
            } else if (Character.isHighSurrogate(unit)) {
                int codePoint = Character.toCodePoint(unit, text.charAt(++index));
                target.set(ValueLayout.JAVA_BYTE, position++, (byte) (0xF0 | codePoint >>> 18));
                target.set(ValueLayout.JAVA_BYTE, position++, (byte) (0x80 | codePoint >>> 12 & 0x3F));
                target.set(ValueLayout.JAVA_BYTE, position++, (byte) (0x80 | codePoint >>> 6 & 0x3F));
                target.set(ValueLayout.JAVA_BYTE, position++, (byte) (0x80 | codePoint & 0x3F));
            } else {
                target.set(ValueLayout.JAVA_BYTE, position++, (byte) (0xE0 | unit >>> 12));
                target.set(ValueLayout.JAVA_BYTE, position++, (byte) (0x80 | unit >>> 6 & 0x3F));
                target.set(ValueLayout.JAVA_BYTE, position++, (byte) (0x80 | unit & 0x3F));
            }
        }
        return position - offset;
    }

    /** The code points of the valid UTF-8 bytes {@code bytes[start, end)}: the bytes that start one. */
    static int characters(byte[] bytes, int start, int end) {
        int characters = 0;
        for (int index = start; index < end; index++) {
            // Continuation bytes are 10xxxxxx; every other byte starts a code point.
            if ((bytes[index] & 0xC0) != 0x80) {
                characters++;
            }
        }
        return characters;
    }

    /** Writes {@code count} blanks, the padding of a CHAR value. */
    static void writeBlanks(MemorySegment target, long offset, long count) {
        for (long index = 0; index < count; index++) {
            target.set(ValueLayout.JAVA_BYTE, offset + index, (byte) ' ');
        }
    }

    /**
     * The string held by {@code length} UTF-8 bytes at {@code offset}. A segment over a
     * {@code byte[]} is decoded in place; any other is copied once, since {@link String} has no
     * constructor from off-heap memory.
     */
    static String decode(MemorySegment source, long offset, int length) {
        if (length == 0) {
            return "";
        }
        if (source.heapBase().orElse(null) instanceof byte[] array) {
            // For a heap segment, address() is the offset of its first byte within the array.
            return new String(array, Math.toIntExact(source.address() + offset), length, StandardCharsets.UTF_8);
        }
        byte[] bytes = new byte[length];
        MemorySegment.copy(source, ValueLayout.JAVA_BYTE, offset, bytes, 0, length);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
