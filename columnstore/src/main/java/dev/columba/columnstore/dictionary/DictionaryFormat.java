package dev.columba.columnstore.dictionary;

import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The constants of the dictionary byte layout, shared by {@link DictionaryBuilder} (the writer)
 * and {@link Dictionary} (the reader), and public for the files that hold dictionaries and for
 * {@code columba inspect}. Specified in {@code docs/format/segment.md}, section "Dictionaries"; a
 * change here is a change there, with a new version and a History entry. Little-endian.
 */
public final class DictionaryFormat {
    private DictionaryFormat() {
    }

    /** "CDIC" as a little-endian u32: the first bytes of every dictionary. */
    public static final int MAGIC = 0x43494443;

    /** The version this code writes, and the newest it reads. */
    public static final int VERSION = 1;

    public static final int MAGIC_OFFSET = 0;
    /** u8. */
    public static final int VERSION_OFFSET = 4;
    /** u8: a {@link ValueKind} code. */
    public static final int KIND_OFFSET = 5;
    /** u8. */
    public static final int FLAGS_OFFSET = 6;
    static final int RESERVED_OFFSET = 7;
    /** i32. */
    public static final int ID_OFFSET = 8;
    /** u32: entries N. */
    public static final int COUNT_OFFSET = 12;
    /** u64: bytes of the entries' values. */
    public static final int DATA_LENGTH_OFFSET = 16;
    /** The header's length; string end offsets or fixed-width entries follow. */
    public static final int HEADER_BYTES = 24;

    /** Flag: a secondary (per rowgroup) dictionary; clear for a primary (per table column) one. */
    public static final int FLAG_SECONDARY = 0x01;

    /** Flag bits version 1 never sets. */
    static final int RESERVED_FLAGS = 0xFE;

    /** Bytes of one string entry's end offset. */
    static final int OFFSET_BYTES = 4;

    /** The largest dictionary: it must fit a Java array. */
    static final long MAX_BYTES = Integer.MAX_VALUE - 8;

    static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Bytes one entry of {@code length} value bytes adds to a dictionary of {@code kind}. */
    static long entryCost(ValueKind kind, int length) {
        return kind == ValueKind.STRING ? OFFSET_BYTES + (long) length : kind.width();
    }
}
