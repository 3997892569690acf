package dev.columba.columnstore.encoding;

import static dev.columba.columnstore.encoding.SegmentFormat.LE_INT;
import static dev.columba.columnstore.encoding.SegmentFormat.LE_LONG;
import static dev.columba.columnstore.encoding.SegmentFormat.LE_SHORT;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Little-endian writes into a byte array of the exact size the estimate promised; writing past
 * it, or finishing short of it, is a bug in an estimate.
 */
final class ByteWriter {
    private final byte[] bytes;
    private final MemorySegment segment;
    private long position;

    ByteWriter(long size) {
        if (size > SegmentFormat.MAX_SEGMENT_BYTES) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "a segment of " + size + " bytes exceeds the "
                    + SegmentFormat.MAX_SEGMENT_BYTES + " a segment can hold; the rowgroup must be cut shorter");
        }
        bytes = new byte[(int) size];
        segment = MemorySegment.ofArray(bytes);
    }

    long position() {
        return position;
    }

    MemorySegment segment() {
        return segment;
    }

    void putByte(int value) {
        segment.set(ValueLayout.JAVA_BYTE, position, (byte) value);
        position += 1;
    }

    void putShort(int value) {
        segment.set(LE_SHORT, position, (short) value);
        position += 2;
    }

    void putInt(int value) {
        segment.set(LE_INT, position, value);
        position += 4;
    }

    void putLong(long value) {
        segment.set(LE_LONG, position, value);
        position += 8;
    }

    void putBytes(MemorySegment source, long offset, long length) {
        MemorySegment.copy(source, offset, segment, position, length);
        position += length;
    }

    void skip(long length) {
        position += length;
    }

    /** The bytes, checked to be exactly filled. */
    byte[] finish() {
        if (position != bytes.length) {
            throw new ColumbaException(ErrorCode.INTERNAL, "segment estimate of " + bytes.length
                    + " bytes disagrees with the " + position + " bytes written");
        }
        return bytes;
    }
}
