package dev.columba.columnstore.encoding;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Little-endian writes into a byte array of the exact size the estimate promised; writing past
 * it, or finishing short of it, is a bug in an estimate. Single values go through array views
 * ({@link MethodHandles#byteArrayViewVarHandle}): a plain bounds-checked store, where a heap
 * segment's goes through its liveness checks for every value; runs of bytes are copied through
 * the segment.
 */
final class ByteWriter {
    private static final VarHandle SHORTS = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final byte[] bytes;
    private final MemorySegment segment;
    /** Below the array's length, an int: a segment's size never exceeds {@link SegmentFormat#MAX_SEGMENT_BYTES}. */
    private int position;

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
        bytes[position] = (byte) value;
        position += 1;
    }

    void putShort(int value) {
        SHORTS.set(bytes, position, (short) value);
        position += 2;
    }

    void putInt(int value) {
        INTS.set(bytes, position, value);
        position += 4;
    }

    void putLong(long value) {
        LONGS.set(bytes, position, value);
        position += 8;
    }

    void putBytes(MemorySegment source, long offset, long length) {
        MemorySegment.copy(source, offset, segment, position, length);
        position = Math.toIntExact(position + length);
    }

    void skip(long length) {
        position = Math.toIntExact(position + length);
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
