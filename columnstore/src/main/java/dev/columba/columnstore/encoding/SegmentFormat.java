package dev.columba.columnstore.encoding;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The constants of the segment byte layout, shared by the encoder (writer) and
 * {@link SegmentReader}. The magic, version and header lengths are public for {@code columba
 * inspect}, which finds segments by their magic when a rowgroup file's footer is lost (it reads
 * headers with {@link SegmentHeader}). Specified in {@code docs/format/segment.md};
 * a change here is a change there, with a new version and a History entry. Little-endian.
 */
public final class SegmentFormat {
    private SegmentFormat() {
    }

    /** "CSEG" as a little-endian u32: the first bytes of every segment. */
    public static final int MAGIC = 0x47455343;

    /** The version this code writes, and the newest it reads. */
    public static final int VERSION = 1;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 4;
    static final int ENCODING_OFFSET = 5;
    static final int KIND_OFFSET = 6;
    static final int FLAGS_OFFSET = 7;
    static final int ROW_COUNT_OFFSET = 8;
    static final int NULL_COUNT_OFFSET = 12;
    /** The header's length without dictionary references. */
    public static final int HEADER_BYTES = 16;

    /** Dictionary references follow the header in dictionary-encoded segments. */
    static final int PRIMARY_ID_OFFSET = 16;
    static final int PRIMARY_COUNT_OFFSET = 20;
    static final int SECONDARY_ID_OFFSET = 24;
    static final int SECONDARY_COUNT_OFFSET = 28;
    /** The header's length with dictionary references: the longest a segment header is. */
    public static final int DICTIONARY_HEADER_BYTES = 32;

    /** Flag: a null bitmap starts the payload. */
    static final int FLAG_NULLS = 0x01;
    /** Flag: the payload is zstd-compressed, preceded by its u32 uncompressed length. */
    static final int FLAG_ARCHIVED = 0x02;
    /** Flag bits version 1 never sets. */
    static final int RESERVED_FLAGS = 0xFC;

    static final int ARCHIVE_LENGTH_BYTES = 4;

    /** The most rows a segment holds: a rowgroup's. */
    static final int MAX_ROWS = 1 << 20;

    /** The longest segment: it must fit a Java array. */
    static final long MAX_SEGMENT_BYTES = Integer.MAX_VALUE - 8;

    /** Packed stream: i64 reference, u8 bit width, then 64-bit words. */
    static final int PACKED_HEADER_BYTES = 9;

    /** Run stream: u32 run count, i64 reference, u8 value width, u8 length width, u16 index stride. */
    static final int RUNS_HEADER_BYTES = 16;

    /** Runs per entry of the run index this code writes (readers accept 1..65535). */
    static final int RUN_INDEX_STRIDE = 32;

    /** Bytes of a string end offset in a plain segment. */
    static final int STRING_OFFSET_BYTES = 4;

    static final ValueLayout.OfShort LE_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Bytes of {@code count} values of {@code width} bits packed into whole 64-bit words. */
    static long packedBytes(long count, int width) {
        return ((count * width + 63) >>> 6) << 3;
    }

    /** The fewest bits that hold {@code unsignedValue}: 0 for 0, 64 for a negative long. */
    static int bitWidth(long unsignedValue) {
        return Long.SIZE - Long.numberOfLeadingZeros(unsignedValue);
    }

    static long nullBitmapBytes(int rowCount) {
        return (rowCount + 7L) >>> 3;
    }

    static ColumbaException corrupt(String origin, String message) {
        return new ColumbaException(ErrorCode.INDEX_CORRUPT, origin + ": " + message);
    }
}
