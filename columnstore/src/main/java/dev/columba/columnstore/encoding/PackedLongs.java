package dev.columba.columnstore.encoding;

import static dev.columba.columnstore.encoding.SegmentFormat.LE_LONG;
import static dev.columba.columnstore.encoding.SegmentFormat.PACKED_HEADER_BYTES;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * A packed stream read in place: {@code count} values, each {@code reference} plus a
 * {@code width}-bit unsigned delta (see {@link BitPacker}). Random access to any index. Immutable.
 *
 * <p>Layout: i64 reference, u8 width (0..64), then {@code ceil(count * width / 64)} words.
 */
final class PackedLongs {
    private final MemorySegment bytes;
    private final long wordsOffset;
    private final long end;
    private final long reference;
    private final int width;
    private final long mask;
    private final int count;

    private PackedLongs(MemorySegment bytes, long wordsOffset, long end, long reference, int width, int count) {
        this.bytes = bytes;
        this.wordsOffset = wordsOffset;
        this.end = end;
        this.reference = reference;
        this.width = width;
        this.mask = width == 64 ? -1L : (1L << width) - 1;
        this.count = count;
    }

    /**
     * Checks and reads the stream of {@code count} values at {@code offset}, which must end by
     * {@code limit}.
     */
    static PackedLongs read(MemorySegment bytes, long offset, long limit, int count, String origin) {
        if (limit - offset < PACKED_HEADER_BYTES) {
            throw SegmentFormat.corrupt(origin, "packed stream at offset " + offset + " needs " + PACKED_HEADER_BYTES
                    + " header bytes, " + (limit - offset) + " remain");
        }
        long reference = bytes.get(LE_LONG, offset);
        int width = Byte.toUnsignedInt(bytes.get(ValueLayout.JAVA_BYTE, offset + 8));
        if (width > 64) {
            throw SegmentFormat.corrupt(origin, "bit width " + width + " at offset " + (offset + 8));
        }
        long wordsOffset = offset + PACKED_HEADER_BYTES;
        long end = wordsOffset + SegmentFormat.packedBytes(count, width);
        if (end > limit) {
            throw SegmentFormat.corrupt(origin, count + " values of " + width + " bits at offset " + wordsOffset
                    + " need " + (end - wordsOffset) + " bytes, " + (limit - wordsOffset) + " remain");
        }
        return new PackedLongs(bytes, wordsOffset, end, reference, width, count);
    }

    /** Where the stream ends. */
    long end() {
        return end;
    }

    long reference() {
        return reference;
    }

    int width() {
        return width;
    }

    /** The largest delta the width can hold. */
    long mask() {
        return mask;
    }

    int count() {
        return count;
    }

    /** The delta of value {@code index} (unsigned). */
    long delta(int index) {
        if (width == 0) {
            return 0;
        }
        long bit = (long) index * width;
        long wordOffset = wordsOffset + ((bit >>> 6) << 3);
        int shift = (int) (bit & 63);
        long value = bytes.get(LE_LONG, wordOffset) >>> shift;
        if (shift + width > 64) {
            value |= bytes.get(LE_LONG, wordOffset + 8) << (64 - shift);
        }
        return value & mask;
    }

    long get(int index) {
        return reference + delta(index);
    }

    /** Values {@code [from, from + length)} into {@code out[0, length)}. */
    void read(int from, int length, long[] out) {
        if (width == 0) {
            Arrays.fill(out, 0, length, reference);
            return;
        }
        long bit = (long) from * width;
        for (int index = 0; index < length; index++) {
            long wordOffset = wordsOffset + ((bit >>> 6) << 3);
            int shift = (int) (bit & 63);
            long value = bytes.get(LE_LONG, wordOffset) >>> shift;
            if (shift + width > 64) {
                value |= bytes.get(LE_LONG, wordOffset + 8) << (64 - shift);
            }
            out[index] = reference + (value & mask);
            bit += width;
        }
    }
}
