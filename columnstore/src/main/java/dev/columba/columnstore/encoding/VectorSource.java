package dev.columba.columnstore.encoding;

import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * The input vector of one segment read as stored values ({@link ValueKind}): NULL flags, stored
 * longs, 128-bit decimals, string byte ranges. Holds views of the vector's buffers, so the vector
 * must not change while the segment is encoded. Single values are read through the buffers
 * themselves ({@link ArrowBuf}, little-endian like Arrow's format) rather than segment views: the
 * analysis reads every row once or twice, and a buffer's access is a plain memory read where a
 * segment's goes through its liveness and alignment checks; string bytes, compared and copied in
 * runs, stay a segment ({@link #stringData}).
 */
final class VectorSource {
    final FieldVector vector;
    final SqlType type;
    final ValueKind kind;
    final int rowCount;
    private final boolean mayHaveNulls;
    private final MemorySegment data;
    private final ArrowBuf validityBuffer;
    private final ArrowBuf dataBuffer;
    private final ArrowBuf offsetBuffer;

    VectorSource(FieldVector vector, SqlType type) {
        ArrowMemory.checkVector(vector, type);
        this.vector = vector;
        this.type = type;
        this.kind = ValueKind.of(type);
        this.rowCount = vector.getValueCount();
        this.mayHaveNulls = vector.getNullCount() > 0;
        this.data = ArrowMemory.view(vector.getDataBuffer());
        this.validityBuffer = vector.getValidityBuffer();
        this.dataBuffer = vector.getDataBuffer();
        this.offsetBuffer = kind == ValueKind.STRING ? vector.getOffsetBuffer() : null;
    }

    boolean isNull(int row) {
        return mayHaveNulls && (validityBuffer.getByte(row >>> 3) & (1 << (row & 7))) == 0;
    }

    /** The stored long of row {@code row} of a {@link ValueKind#fitsLong()} kind. */
    long storedLong(int row) {
        return switch (kind) {
            case BOOLEAN -> (dataBuffer.getByte(row >>> 3) >>> (row & 7)) & 1;
            case INT, DATE -> dataBuffer.getInt((long) row * 4);
            case BIGINT, DOUBLE, TIMESTAMP -> dataBuffer.getLong((long) row * 8);
            case DECIMAL64 -> dataBuffer.getLong((long) row * 16);
            case DECIMAL128, STRING -> throw new IllegalStateException(kind + " values are not one long");
        };
    }

    /**
     * The stored longs of rows {@code [from, from + count)} into {@code target[0, count)}, as
     * {@link #storedLong} reads each (NULL rows whatever the buffer holds): one loop per width, no
     * switch per value.
     */
    void storedLongs(int from, int count, long[] target) {
        switch (kind) {
            case BOOLEAN -> {
                for (int index = 0; index < count; index++) {
                    target[index] = storedLong(from + index);
                }
            }
            case INT, DATE -> {
                for (int index = 0; index < count; index++) {
                    target[index] = dataBuffer.getInt((long) (from + index) * 4);
                }
            }
            case BIGINT, DOUBLE, TIMESTAMP -> {
                for (int index = 0; index < count; index++) {
                    target[index] = dataBuffer.getLong((long) (from + index) * 8);
                }
            }
            case DECIMAL64 -> {
                for (int index = 0; index < count; index++) {
                    target[index] = dataBuffer.getLong((long) (from + index) * 16);
                }
            }
            case DECIMAL128, STRING -> throw new IllegalStateException(kind + " values are not one long");
        }
    }

    /** The high 64 bits of a DecimalVector value (for DECIMAL64, the sign extension of the low bits when it fits). */
    long decimalHigh(int row) {
        return dataBuffer.getLong((long) row * 16 + 8);
    }

    long decimalLow(int row) {
        return dataBuffer.getLong((long) row * 16);
    }

    MemorySegment stringData() {
        return data;
    }

    int stringStart(int row) {
        return offsetBuffer.getInt((long) row * 4);
    }

    int stringLength(int row) {
        return offsetBuffer.getInt((long) row * 4 + 4) - offsetBuffer.getInt((long) row * 4);
    }
}
