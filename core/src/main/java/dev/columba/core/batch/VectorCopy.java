package dev.columba.core.batch;

import java.util.Objects;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/**
 * Copies values between vectors of the same type a column at a time: the gather at the heart of
 * a hash join's build and output, a sort's output and a hash aggregate's new keys. One call per
 * column and chunk of rows, with a loop per physical width inside — Arrow's {@code copyFromSafe}
 * checks the type, the capacity and the source's validity and calls a generic memory copy for
 * every single value, which made it the largest item of a join's profile.
 *
 * <p>The source's validity is read bit by bit: its value count, which Arrow's null count depends
 * on, need not be set (a buffer being filled). Rows are written at consecutive target positions starting at {@code start}; a variable-width
 * target must not have been written past {@code start} (its values are appended). The target
 * grows as needed. A source position of -1 writes NULL.
 */
public final class VectorCopy {
    private VectorCopy() {
    }

    /** Copies {@code from[positions[i]]} to {@code to[start + i]} for {@code i} in {@code [0, count)}. */
    public static void gather(FieldVector from, int[] positions, int count, FieldVector to, int start) {
        gather(from, positions, 0, count, to, start);
    }

    /**
     * Copies {@code from[positions[offset + i]]} to {@code to[start + i]} for {@code i} in
     * {@code [0, count)}; a position of -1 gives NULL.
     */
    public static void gather(FieldVector from, int[] positions, int offset, int count, FieldVector to, int start) {
        if (count == 0) {
            return;
        }
        switch (to) {
            case BitVector bits -> gatherBits((BitVector) from, positions, offset, count, bits, start);
            case BaseFixedWidthVector fixed -> gatherFixed((BaseFixedWidthVector) from, positions, offset, count, fixed, start);
            case BaseVariableWidthVector variable ->
                    gatherVariable((BaseVariableWidthVector) from, positions, offset, count, variable, start);
            default -> {
                for (int index = 0; index < count; index++) {
                    int position = positions[offset + index];
                    if (position < 0) {
                        ensureCapacity(to, start + index + 1);
                        to.setNull(start + index);
                    } else {
                        to.copyFromSafe(position, start + index, from);
                    }
                }
            }
        }
    }

    /**
     * Copies the rows {@code [first, first + count)} of {@code from} to {@code to[start ...]}, a
     * column in bulk: one memory copy for fixed-width values and for variable-width bytes, the
     * offsets shifted in one loop, the validity bits shifted a word at a time. A hash join's
     * shared build appends the workers' shares whole this way, on one thread while the others
     * wait; row by row it was the longest serial step of TPC-H Q9's builds at MAXDOP 2.
     */
    public static void copyRange(FieldVector from, int first, int count, FieldVector to, int start) {
        if (count == 0) {
            return;
        }
        if (first < 0 || count < 0 || first + count > from.getValueCapacity()) {
            throw new IndexOutOfBoundsException("rows [" + first + ", " + (first + count) + ") of a vector of "
                    + from.getValueCapacity());
        }
        switch (to) {
            case BitVector bits -> {
                ensureCapacity(bits, start + count);
                copyBits(from.getDataBuffer(), first, count, bits.getDataBuffer(), start);
                copyBits(from.getValidityBuffer(), first, count, bits.getValidityBuffer(), start);
            }
            case BaseFixedWidthVector fixed -> {
                ensureCapacity(fixed, start + count);
                long width = fixed.getTypeWidth();
                fixed.getDataBuffer().setBytes(start * width, from.getDataBuffer(), first * width, count * width);
                copyBits(from.getValidityBuffer(), first, count, fixed.getValidityBuffer(), start);
            }
            case BaseVariableWidthVector variable -> copyVariableRange((BaseVariableWidthVector) from, first, count, variable, start);
            default -> {
                int[] positions = new int[count];
                for (int index = 0; index < count; index++) {
                    positions[index] = first + index;
                }
                gather(from, positions, 0, count, to, start);
            }
        }
    }

    private static void copyVariableRange(BaseVariableWidthVector from, int first, int count, BaseVariableWidthVector to, int start) {
        ArrowBuf sourceOffsets = from.getOffsetBuffer();
        int firstByte = sourceOffsets.getInt((long) first * 4);
        int bytes = sourceOffsets.getInt((long) (first + count) * 4) - firstByte;
        int end = makeRoom(to, start, count, bytes);
        ArrowBuf targetOffsets = to.getOffsetBuffer();
        to.getDataBuffer().setBytes(end, from.getDataBuffer(), firstByte, bytes);
        // Bounds checked here for both offset buffers: the loop reads and writes by address.
        Objects.checkFromIndexSize((long) first * 4, (long) (count + 1) * 4, sourceOffsets.capacity());
        Objects.checkFromIndexSize((long) start * 4, (long) (count + 1) * 4, targetOffsets.capacity());
        long source = sourceOffsets.memoryAddress() + (long) first * 4;
        long target = targetOffsets.memoryAddress() + (long) start * 4;
        int shift = end - firstByte;
        for (int index = 1; index <= count; index++) {
            MemoryUtil.putInt(target + 4L * index, MemoryUtil.getInt(source + 4L * index) + shift);
        }
        copyBits(from.getValidityBuffer(), first, count, to.getValidityBuffer(), start);
        to.setLastSet(start + count - 1);
    }

    /**
     * Makes room in {@code to} for {@code count} values from {@code start} holding {@code bytes}
     * bytes, the values before {@code start} set (empty where unset); returns where their bytes start.
     */
    private static int makeRoom(BaseVariableWidthVector to, int start, int count, long bytes) {
        while (to.getValueCapacity() < start + count + 1) {
            to.reallocValidityAndOffsetBuffers();
        }
        if (to.getLastSet() < start - 1) {
            to.fillEmpties(start);
        }
        int end = to.getOffsetBuffer().getInt((long) start * 4);
        if (to.getDataBuffer().capacity() < end + bytes) {
            to.reallocDataBuffer(end + bytes);
        }
        return end;
    }

    /**
     * Copies bits {@code [first, first + count)} of {@code source} to bits {@code [start, ...)} of
     * {@code target}: bit by bit up to the target's next word, then 64 target bits at a time, each
     * word put together from the two source words it straddles.
     */
    static void copyBits(ArrowBuf source, int first, int count, ArrowBuf target, int start) {
        int index = 0;
        for (; index < count && ((start + index) & 63) != 0; index++) {
            BitVectorHelper.setValidityBit(target, start + index, BitVectorHelper.get(source, first + index));
        }
        // Whole source words are read only where they lie within the source buffer.
        long sourceWords = source.capacity() >>> 3;
        for (; index + 64 <= count; index += 64) {
            long bit = (long) first + index;
            long word = bit >>> 6;
            int shift = (int) (bit & 63);
            if (word + (shift == 0 ? 1 : 2) > sourceWords) {
                break;
            }
            long low = source.getLong(word * 8);
            long value = shift == 0 ? low : low >>> shift | source.getLong(word * 8 + 8) << (64 - shift);
            target.setLong((long) (start + index) >>> 3, value);
        }
        for (; index < count; index++) {
            BitVectorHelper.setValidityBit(target, start + index, BitVectorHelper.get(source, first + index));
        }
    }

    private static void ensureCapacity(FieldVector vector, int values) {
        while (vector.getValueCapacity() < values) {
            vector.reAlloc();
        }
    }

    private static void gatherFixed(BaseFixedWidthVector from, int[] positions, int offset, int count,
                                    BaseFixedWidthVector to, int start) {
        ensureCapacity(to, start + count);
        ArrowBuf source = from.getDataBuffer();
        ArrowBuf target = to.getDataBuffer();
        switch (to.getTypeWidth()) {
            case 4 -> {
                for (int index = 0; index < count; index++) {
                    int position = positions[offset + index];
                    if (position >= 0) {
                        target.setInt((long) (start + index) * 4, source.getInt((long) position * 4));
                    }
                }
            }
            case 8 -> {
                for (int index = 0; index < count; index++) {
                    int position = positions[offset + index];
                    if (position >= 0) {
                        target.setLong((long) (start + index) * 8, source.getLong((long) position * 8));
                    }
                }
            }
            case 16 -> {
                for (int index = 0; index < count; index++) {
                    int position = positions[offset + index];
                    if (position >= 0) {
                        long at = (long) (start + index) * 16;
                        target.setLong(at, source.getLong(position * 16L));
                        target.setLong(at + 8, source.getLong(position * 16L + 8));
                    }
                }
            }
            default -> {
                int width = to.getTypeWidth();
                for (int index = 0; index < count; index++) {
                    int position = positions[offset + index];
                    if (position >= 0) {
                        target.setBytes((long) (start + index) * width, source, (long) position * width, width);
                    }
                }
            }
        }
        copyValidity(from, positions, offset, count, to.getValidityBuffer(), start);
    }

    private static void gatherBits(BitVector from, int[] positions, int offset, int count, BitVector to, int start) {
        ensureCapacity(to, start + count);
        ArrowBuf source = from.getDataBuffer();
        ArrowBuf target = to.getDataBuffer();
        for (int index = 0; index < count; index++) {
            int position = positions[offset + index];
            BitVectorHelper.setValidityBit(target, start + index, position < 0 ? 0 : BitVectorHelper.get(source, position));
        }
        copyValidity(from, positions, offset, count, to.getValidityBuffer(), start);
    }

    /**
     * Sets the target's validity bits: each row's source bit, 0 for a position of -1. Whole
     * 64-bit words of the target are assembled in a register and stored at once.
     */
    private static void copyValidity(FieldVector from, int[] positions, int offset, int count, ArrowBuf target, int start) {
        ArrowBuf source = from.getValidityBuffer();
        int index = 0;
        for (; index < count && ((start + index) & 63) != 0; index++) {
            int position = positions[offset + index];
            BitVectorHelper.setValidityBit(target, start + index, position < 0 ? 0 : BitVectorHelper.get(source, position));
        }
        for (; index + 64 <= count; index += 64) {
            long word = 0;
            int base = offset + index;
            for (int bit = 0; bit < 64; bit++) {
                int position = positions[base + bit];
                long valid = position < 0 ? 0 : (source.getByte(position >>> 3) >>> (position & 7)) & 1;
                word |= valid << bit;
            }
            target.setLong((long) (start + index) >>> 3, word);
        }
        for (; index < count; index++) {
            int position = positions[offset + index];
            BitVectorHelper.setValidityBit(target, start + index, position < 0 ? 0 : BitVectorHelper.get(source, position));
        }
    }

    private static void gatherVariable(BaseVariableWidthVector from, int[] positions, int offset, int count,
                                       BaseVariableWidthVector to, int start) {
        ArrowBuf sourceOffsets = from.getOffsetBuffer();
        ArrowBuf sourceData = from.getDataBuffer();
        ArrowBuf sourceValidity = from.getValidityBuffer();
        long bytes = 0;
        for (int index = 0; index < count; index++) {
            int position = positions[offset + index];
            if (position >= 0) {
                bytes += sourceOffsets.getInt((long) (position + 1) * 4) - sourceOffsets.getInt((long) position * 4);
            }
        }
        int end = makeRoom(to, start, count, bytes);
        ArrowBuf targetOffsets = to.getOffsetBuffer();
        ArrowBuf targetData = to.getDataBuffer();
        ArrowBuf targetValidity = to.getValidityBuffer();
        for (int index = 0; index < count; index++) {
            int position = positions[offset + index];
            int row = start + index;
            if (position < 0 || BitVectorHelper.get(sourceValidity, position) == 0) {
                BitVectorHelper.unsetBit(targetValidity, row);
            } else {
                int first = sourceOffsets.getInt((long) position * 4);
                int length = sourceOffsets.getInt((long) (position + 1) * 4) - first;
                targetData.setBytes(end, sourceData, first, length);
                end += length;
                BitVectorHelper.setBit(targetValidity, row);
            }
            targetOffsets.setInt((long) (row + 1) * 4, end);
        }
        to.setLastSet(start + count - 1);
    }
}
