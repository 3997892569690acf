package dev.columba.storage.row;

import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The constants of the row format and the key encoding, shared by their writers and readers.
 * Specified in {@code docs/format/row.md}; a change here is a change there, with a new version and
 * a History entry.
 */
final class RowFormat {
    private RowFormat() {
    }

    // ---- Row format ----------------------------------------------------------------------------

    /** The row format version this code writes, and the only one it reads. */
    static final int VERSION = 1;

    /** Low four bits of the header byte: the format version. */
    static final int VERSION_MASK = 0x0F;

    /** Header flag: variable-length end offsets are u32 instead of u16 (row longer than 65,535 bytes). */
    static final int FLAG_WIDE_OFFSETS = 0x10;

    /** Header flag: an out-of-row bitmap follows the offset table (some value is a {@link LobRef}). */
    static final int FLAG_OUT_OF_ROW = 0x20;

    /** Header bits version 1 never sets; a row with any of them is corrupt. */
    static final int RESERVED_FLAGS = 0xC0;

    /** Header byte plus the u16 column count. */
    static final int HEADER_BYTES = 3;

    /** Offset of the u16 column count in the header. */
    static final int COLUMN_COUNT_OFFSET = 1;

    /** The most columns a row can hold: the column count is a u16. */
    static final int MAX_COLUMNS = 0xFFFF;

    static final int NARROW_OFFSET_BYTES = 2;
    static final int WIDE_OFFSET_BYTES = 4;

    /** The longest row whose end offsets fit a u16. */
    static final int MAX_NARROW_ROW_BYTES = 0xFFFF;

    /** The longest row: it must fit a Java array. */
    static final int MAX_ROW_BYTES = Integer.MAX_VALUE - 8;

    /** An out-of-row value in the row: u64 first page id, u64 byte length. */
    static final int LOB_REF_BYTES = 16;

    static final ValueLayout.OfShort ROW_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt ROW_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong ROW_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    // ---- Key encoding --------------------------------------------------------------------------

    /** The first byte of a NULL key column; it sorts before every value. */
    static final byte KEY_NULL = 0x00;

    /** The first byte of a non-NULL key column. */
    static final byte KEY_VALUE = 0x01;

    /**
     * The byte appended to a key prefix to form its exclusive upper bound: greater than both column
     * markers, so it sorts after every key that extends the prefix.
     */
    static final byte KEY_PREFIX_UPPER = 0x02;

    /** In a string, byte 0x00 is written as {@code 0x00 KEY_STRING_ESCAPED_ZERO}. */
    static final byte KEY_STRING_ESCAPED_ZERO = (byte) 0xFF;

    /** A string ends with {@code 0x00 KEY_STRING_END}, which sorts before every escaped byte. */
    static final byte KEY_STRING_END = 0x01;

    static final ValueLayout.OfInt KEY_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    static final ValueLayout.OfLong KEY_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /** The longest key: it must fit a Java array. */
    static final int MAX_KEY_BYTES = Integer.MAX_VALUE - 8;
}
