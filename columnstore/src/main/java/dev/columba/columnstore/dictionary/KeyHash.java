package dev.columba.columnstore.dictionary;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The hash of a dictionary key (stored bytes), used by the builder's table and the frozen
 * dictionary's lookup index. Eight bytes at a time with a multiply-xorshift mix: good enough
 * spread for open addressing with linear probing, and no allocation.
 */
final class KeyHash {
    private static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final long MULTIPLIER = 0x9E3779B97F4A7C15L;

    private KeyHash() {
    }

    private static final VarHandle LONGS_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** {@link #hash(MemorySegment, long, int)} of an array's bytes, the same value without a segment. */
    static int hash(byte[] bytes, int offset, int length) {
        long hash = length * MULTIPLIER;
        int position = offset;
        int end = offset + length;
        while (end - position >= Long.BYTES) {
            hash = mix(hash ^ (long) LONGS_LE.get(bytes, position));
            position += Long.BYTES;
        }
        if (position < end) {
            long tail = 0;
            for (int shift = 0; position < end; position++, shift += 8) {
                tail |= (long) Byte.toUnsignedInt(bytes[position]) << shift;
            }
            hash = mix(hash ^ tail);
        }
        return (int) (hash ^ (hash >>> 32));
    }

    /**
     * Whether {@code left[leftOffset, + length)} and {@code right[rightOffset, + length)} hold the
     * same bytes: eight at a time, inlined where it is called. Dictionary keys are mostly short, where
     * {@link java.util.Arrays#equals(byte[], int, int, byte[], int, int)}'s range checks and call
     * into the vectorized mismatch cost more than the comparison.
     */
    static boolean equal(byte[] left, int leftOffset, byte[] right, int rightOffset, int length) {
        int index = 0;
        for (; length - index >= Long.BYTES; index += Long.BYTES) {
            if ((long) LONGS_LE.get(left, leftOffset + index) != (long) LONGS_LE.get(right, rightOffset + index)) {
                return false;
            }
        }
        for (; index < length; index++) {
            if (left[leftOffset + index] != right[rightOffset + index]) {
                return false;
            }
        }
        return true;
    }

    static int hash(MemorySegment bytes, long offset, int length) {
        long hash = length * MULTIPLIER;
        long position = offset;
        long end = offset + length;
        while (end - position >= Long.BYTES) {
            hash = mix(hash ^ bytes.get(LE_LONG, position));
            position += Long.BYTES;
        }
        if (position < end) {
            long tail = 0;
            for (int shift = 0; position < end; position++, shift += 8) {
                tail |= (long) Byte.toUnsignedInt(bytes.get(ValueLayout.JAVA_BYTE, position)) << shift;
            }
            hash = mix(hash ^ tail);
        }
        return (int) (hash ^ (hash >>> 32));
    }

    private static long mix(long value) {
        long mixed = value * MULTIPLIER;
        return mixed ^ (mixed >>> 29);
    }
}
