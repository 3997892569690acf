package dev.columba.columnstore.encoding;

import static dev.columba.columnstore.encoding.SegmentFormat.LE_INT;
import static dev.columba.columnstore.encoding.SegmentFormat.LE_LONG;

import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.core.batch.CodedStrings;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;

/**
 * Writes decoded values into rows {@code [targetOffset, targetOffset + count)} of an Arrow vector
 * of the segment's type, through views of its buffers: capacity is reserved up front (strings'
 * data grows as bytes arrive), values go in as stored values, then {@link #finish} sets validity
 * and the value count. One per decode call; not thread-safe.
 *
 * <p>VARCHAR vectors are filled in order: rows before {@code targetOffset} keep their values (rows
 * never set become empty), and the value count becomes {@code targetOffset + count}. Fixed-width
 * vectors keep any rows after the range, and their value count only grows.
 */
final class VectorWriter {
    private final FieldVector vector;
    private final ValueKind kind;
    private final int targetOffset;
    private final int count;
    /** Where a dictionary decoder hands on the rows' ids, or null. */
    private final CodedStrings codes;
    private MemorySegment data;
    private MemorySegment validity;
    private MemorySegment offsets = MemorySegment.NULL;
    /**
     * {@link #putLongs} widens or narrows values into these and copies them to the vector in one
     * bounds-checked bulk copy (a checked {@link MemorySegment} access per value cost more than
     * the conversion).
     */
    private final DecodeScratch scratch;
    /** Strings: where the next value's bytes go in the data buffer. */
    private long stringEnd;

    VectorWriter(FieldVector vector, SqlType type, int targetOffset, int count, CodedStrings codes) {
        this(vector, type, targetOffset, count, codes, new DecodeScratch());
    }

    /** @param scratch the decoding reader's arrays, which the writer and the body decoding into it reuse */
    VectorWriter(FieldVector vector, SqlType type, int targetOffset, int count, CodedStrings codes, DecodeScratch scratch) {
        this.scratch = scratch;
        ArrowMemory.checkVector(vector, type);
        this.vector = vector;
        this.codes = codes;
        this.kind = ValueKind.of(type);
        this.targetOffset = targetOffset;
        this.count = count;
        if (targetOffset < 0 || count < 0) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "cannot decode " + count + " rows to target offset "
                    + targetOffset);
        }
        int end = Math.addExact(targetOffset, count);
        // A string vector needs its first offset even for no rows.
        int needed = vector instanceof BaseVariableWidthVector ? Math.max(end, 1) : end;
        if (vector.getValueCapacity() < needed) {
            if (vector.getValueCapacity() == 0) {
                vector.setInitialCapacity(needed);
                vector.allocateNew();
            }
            while (vector.getValueCapacity() < needed) {
                if (vector instanceof BaseVariableWidthVector strings) {
                    strings.reallocValidityAndOffsetBuffers();
                } else {
                    vector.reAlloc();
                }
            }
        }
        if (vector instanceof BaseVariableWidthVector strings) {
            if (strings.getLastSet() < targetOffset - 1) {
                strings.fillEmpties(targetOffset);
            }
            offsets = ArrowMemory.view(strings.getOffsetBuffer());
            stringEnd = offsets.get(LE_INT, targetOffset * 4L);
        }
        refresh();
    }

    /**
     * Where a dictionary decoder writes the rows' codes (indexed like the vector's rows), or null
     * when the caller keeps none.
     */
    int[] codeSink() {
        return codes == null ? null : codes.codesFor(targetOffset + count);
    }

    /** Marks this writer's rows as holding codes of {@code space} (after they were all written to {@link #codeSink}). */
    void markCoded(Object space, int codeCount) {
        codes.markCoded(targetOffset, count, space, codeCount);
    }

    private void refresh() {
        data = ArrowMemory.view(vector.getDataBuffer());
        validity = ArrowMemory.view(vector.getValidityBuffer());
    }

    /** Arrays a body may decode a chunk into before writing it here; reused across the reader's calls. */
    DecodeScratch scratch() {
        return scratch;
    }

    /** The data buffer's memory, for bulk copies; valid until the next string write that grows it. */
    MemorySegment data() {
        return data;
    }

    /** Writes stored longs {@code values[0, length)} to rows from {@code index}. */
    void putLongs(int index, long[] values, int length) {
        switch (kind) {
            case BOOLEAN -> {
                for (int position = 0; position < length; position++) {
                    setBit(data, index + position, values[position] != 0);
                }
            }
            case INT, DATE -> {
                int[] narrowScratch = scratch.narrow(length);
                for (int position = 0; position < length; position++) {
                    narrowScratch[position] = (int) values[position];
                }
                MemorySegment.copy(narrowScratch, 0, data, LE_INT, index * 4L, length);
            }
            case BIGINT, DOUBLE, TIMESTAMP -> MemorySegment.copy(values, 0, data, LE_LONG, index * 8L, length);
            case DECIMAL64 -> {
                long[] wideScratch = scratch.wide(2 * length);
                for (int position = 0; position < length; position++) {
                    long unscaled = values[position];
                    wideScratch[2 * position] = unscaled;
                    wideScratch[2 * position + 1] = unscaled >> 63;
                }
                MemorySegment.copy(wideScratch, 0, data, LE_LONG, index * 16L, 2 * length);
            }
            case DECIMAL128, STRING -> throw new IllegalStateException(kind + " values are not one long");
        }
    }

    /**
     * Writes DECIMAL values already widened to their two words ({@code words[2i]} the low word,
     * {@code words[2i + 1]} the high) to {@code length} rows from {@code index}, in one bulk copy.
     */
    void putWideLongs(int index, long[] words, int length) {
        if (kind != ValueKind.DECIMAL64 && kind != ValueKind.DECIMAL128) {
            throw new IllegalStateException(kind + " values are not two words");
        }
        MemorySegment.copy(words, 0, data, LE_LONG, index * 16L, 2 * length);
    }

    /** Writes stored long {@code value} to {@code length} rows from {@code index}. */
    void fillLong(int index, long value, int length) {
        switch (kind) {
            case BOOLEAN -> {
                for (int position = 0; position < length; position++) {
                    setBit(data, index + position, value != 0);
                }
            }
            case INT, DATE -> {
                for (int position = 0; position < length; position++) {
                    data.set(LE_INT, (index + position) * 4L, (int) value);
                }
            }
            case BIGINT, DOUBLE, TIMESTAMP -> {
                for (int position = 0; position < length; position++) {
                    data.set(LE_LONG, (index + position) * 8L, value);
                }
            }
            case DECIMAL64 -> {
                for (int position = 0; position < length; position++) {
                    data.set(LE_LONG, (index + position) * 16L, value);
                    data.set(LE_LONG, (index + position) * 16L + 8, value >> 63);
                }
            }
            case DECIMAL128, STRING -> throw new IllegalStateException(kind + " values are not one long");
        }
    }

    /** Writes one stored long to row {@code index}. */
    void putLong(int index, long value) {
        switch (kind) {
            case BOOLEAN -> setBit(data, index, value != 0);
            case INT, DATE -> data.set(LE_INT, index * 4L, (int) value);
            case BIGINT, DOUBLE, TIMESTAMP -> data.set(LE_LONG, index * 8L, value);
            case DECIMAL64 -> {
                data.set(LE_LONG, index * 16L, value);
                data.set(LE_LONG, index * 16L + 8, value >> 63);
            }
            case DECIMAL128, STRING -> throw new IllegalStateException(kind + " values are not one long");
        }
    }

    /**
     * Writes stored longs {@code values[i]} to rows {@code positions[offset + i]} for
     * {@code i < length}: scattered writes through the vector's own buffer (unchecked when Arrow's
     * unsafe memory access is on, as Columba runs), the rows being within the range this writer
     * was made for.
     */
    void putLongsAt(int[] positions, int offset, long[] values, int length) {
        ArrowBuf buffer = vector.getDataBuffer();
        switch (kind) {
            case BOOLEAN -> {
                for (int index = 0; index < length; index++) {
                    setBit(data, positions[offset + index], values[index] != 0);
                }
            }
            case INT, DATE -> {
                for (int index = 0; index < length; index++) {
                    buffer.setInt(positions[offset + index] * 4L, (int) values[index]);
                }
            }
            case BIGINT, DOUBLE, TIMESTAMP -> {
                for (int index = 0; index < length; index++) {
                    buffer.setLong(positions[offset + index] * 8L, values[index]);
                }
            }
            case DECIMAL64 -> {
                for (int index = 0; index < length; index++) {
                    long at = positions[offset + index] * 16L;
                    buffer.setLong(at, values[index]);
                    buffer.setLong(at + 8, values[index] >> 63);
                }
            }
            case DECIMAL128, STRING -> throw new IllegalStateException(kind + " values are not one long");
        }
    }

    /** Writes a 128-bit decimal to row {@code index}. */
    void putWide(int index, long low, long high) {
        data.set(LE_LONG, index * 16L, low);
        data.set(LE_LONG, index * 16L + 8, high);
    }

    /**
     * Copies {@code length} values laid out as in Arrow (INT, DATE, BIGINT, DOUBLE, TIMESTAMP,
     * DECIMAL128: plain segments share the layout) from {@code source} to rows from {@code index}.
     */
    void copyFixed(int index, MemorySegment source, long sourceOffset, int length) {
        int width = kind.width();
        MemorySegment.copy(source, sourceOffset, data, (long) index * width, (long) length * width);
    }

    /** Appends a string as row {@code index}: rows are written in order. */
    void putString(int index, MemorySegment source, long sourceOffset, int length) {
        long start = reserveStringBytes(length);
        MemorySegment.copy(source, sourceOffset, data, start, length);
        offsets.set(LE_INT, (index + 1) * 4L, (int) stringEnd);
    }

    /**
     * Appends {@code count} strings as rows from {@code index} (rows are written in order): their
     * bytes are {@code bytes[0, byteCount)}, string {@code i} ending at {@code ends[i]} (relative to
     * {@code bytes}). Overwrites {@code ends}.
     */
    void putStrings(int index, byte[] bytes, int byteCount, int[] ends, int count) {
        long start = reserveStringBytes(byteCount);
        MemorySegment.copy(bytes, 0, data, ValueLayout.JAVA_BYTE, start, byteCount);
        for (int position = 0; position < count; position++) {
            ends[position] += (int) start;
        }
        MemorySegment.copy(ends, 0, offsets, LE_INT, (index + 1) * 4L, count);
    }

    /**
     * Reserves {@code length} bytes after the strings written so far and returns where they start in
     * {@link #data()}; the caller copies the bytes there and sets the end offsets ({@link #setStringEnd}).
     */
    long reserveStringBytes(long length) {
        long start = stringEnd;
        long needed = start + length;
        if (needed > Integer.MAX_VALUE) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "decoded strings would exceed the 2 GB a VarCharVector holds");
        }
        if (needed > data.byteSize()) {
            ((BaseVariableWidthVector) vector).reallocDataBuffer(Math.max(needed, 2 * data.byteSize()));
            refresh();
        }
        stringEnd = needed;
        return start;
    }

    /**
     * Writes empty strings to rows {@code [from, to)}, which follow the rows written so far. The
     * offsets are filled in a heap array and copied in bulk: stored one by one through the segment
     * they cost a few cycles each, and a sparse decode (the rows between the selected ones) writes
     * a whole batch of them (TPC-H Q12's ship mode: 6% of its samples).
     */
    void emptyStrings(int from, int to) {
        if (to <= from) {
            return;
        }
        int end = (int) stringEnd;
        if (end == 0) {
            offsets.asSlice((from + 1) * 4L, (to - from) * 4L).fill((byte) 0);
            return;
        }
        if (scratch == null) {
            for (int index = from; index < to; index++) {
                offsets.set(LE_INT, (index + 1) * 4L, end);
            }
            return;
        }
        int rows = to - from;
        MemorySegment.copy(scratch.repeated(rows, end), 0, offsets, LE_INT, (from + 1) * 4L, rows);
    }

    /** Sets where row {@code index}'s string ends in the data buffer. */
    void setStringEnd(int index, long end) {
        offsets.set(LE_INT, (index + 1) * 4L, (int) end);
    }

    /** Where the next string's bytes would start. */
    long stringEnd() {
        return stringEnd;
    }

    /**
     * Sets validity from a null bitmap ({@code nullBitmap == null}: no NULLs), bit {@code fromRow + i}
     * for target row {@code targetOffset + i}, and the vector's value count.
     */
    void finish(MemorySegment nullBitmap, long bitmapOffset, int fromRow) {
        if (nullBitmap == null) {
            setAll(validity, targetOffset, count);
        } else if ((fromRow & 7) == 0 && (targetOffset & 7) == 0) {
            int wholeBytes = count >>> 3;
            for (int byteIndex = 0; byteIndex < wholeBytes; byteIndex++) {
                byte nulls = nullBitmap.get(ValueLayout.JAVA_BYTE, bitmapOffset + (fromRow >>> 3) + byteIndex);
                validity.set(ValueLayout.JAVA_BYTE, (targetOffset >>> 3) + byteIndex, (byte) ~nulls);
            }
            copyInvertedBits(nullBitmap, bitmapOffset, fromRow, wholeBytes << 3);
        } else {
            copyInvertedBits(nullBitmap, bitmapOffset, fromRow, 0);
        }
        int end = targetOffset + count;
        if (vector instanceof BaseVariableWidthVector strings) {
            strings.setLastSet(end - 1);
            strings.setValueCount(end);
        } else {
            vector.setValueCount(Math.max(vector.getValueCount(), end));
        }
    }

    private void copyInvertedBits(MemorySegment nullBitmap, long bitmapOffset, int fromRow, int firstPosition) {
        for (int position = firstPosition; position < count; position++) {
            int row = fromRow + position;
            boolean isNull = (nullBitmap.get(ValueLayout.JAVA_BYTE, bitmapOffset + (row >>> 3)) & (1 << (row & 7))) != 0;
            setBit(validity, targetOffset + position, !isNull);
        }
    }

    private static void setAll(MemorySegment bits, int from, int length) {
        int position = from;
        int end = from + length;
        while (position < end && (position & 7) != 0) {
            setBit(bits, position++, true);
        }
        int wholeBytes = (end - position) >>> 3;
        if (wholeBytes > 0) {
            bits.asSlice(position >>> 3, wholeBytes).fill((byte) 0xFF);
            position += wholeBytes << 3;
        }
        while (position < end) {
            setBit(bits, position++, true);
        }
    }

    static void setBit(MemorySegment bits, int index, boolean value) {
        long byteOffset = index >>> 3;
        int mask = 1 << (index & 7);
        byte current = bits.get(ValueLayout.JAVA_BYTE, byteOffset);
        bits.set(ValueLayout.JAVA_BYTE, byteOffset, (byte) (value ? current | mask : current & ~mask));
    }
}
