package dev.columba.columnstore.encoding;

import static dev.columba.columnstore.encoding.SegmentFormat.LE_INT;
import static dev.columba.columnstore.encoding.SegmentFormat.LE_LONG;

import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.apache.arrow.vector.FieldVector;

/**
 * The input vector of one segment read as stored values ({@link ValueKind}): NULL flags, stored
 * longs, 128-bit decimals, string byte ranges. Holds views of the vector's buffers, so the vector
 * must not change while the segment is encoded.
 */
final class VectorSource {
    final FieldVector vector;
    final SqlType type;
    final ValueKind kind;
    final int rowCount;
    private final boolean mayHaveNulls;
    private final MemorySegment validity;
    private final MemorySegment data;
    private final MemorySegment offsets;

    VectorSource(FieldVector vector, SqlType type) {
        ArrowMemory.checkVector(vector, type);
        this.vector = vector;
        this.type = type;
        this.kind = ValueKind.of(type);
        this.rowCount = vector.getValueCount();
        this.mayHaveNulls = vector.getNullCount() > 0;
        this.validity = ArrowMemory.view(vector.getValidityBuffer());
        this.data = ArrowMemory.view(vector.getDataBuffer());
        this.offsets = kind == ValueKind.STRING ? ArrowMemory.view(vector.getOffsetBuffer()) : MemorySegment.NULL;
    }

    boolean isNull(int row) {
        return mayHaveNulls && (validity.get(ValueLayout.JAVA_BYTE, row >>> 3) & (1 << (row & 7))) == 0;
    }

    /** The stored long of row {@code row} of a {@link ValueKind#fitsLong()} kind. */
    long storedLong(int row) {
        return switch (kind) {
            case BOOLEAN -> (data.get(ValueLayout.JAVA_BYTE, row >>> 3) >>> (row & 7)) & 1;
            case INT, DATE -> data.get(LE_INT, (long) row * 4);
            case BIGINT, DOUBLE, TIMESTAMP -> data.get(LE_LONG, (long) row * 8);
            case DECIMAL64 -> data.get(LE_LONG, (long) row * 16);
            case DECIMAL128, STRING -> throw new IllegalStateException(kind + " values are not one long");
        };
    }

    /** The high 64 bits of a DecimalVector value (for DECIMAL64, the sign extension of the low bits when it fits). */
    long decimalHigh(int row) {
        return data.get(LE_LONG, (long) row * 16 + 8);
    }

    long decimalLow(int row) {
        return data.get(LE_LONG, (long) row * 16);
    }

    MemorySegment stringData() {
        return data;
    }

    int stringStart(int row) {
        return offsets.get(LE_INT, (long) row * 4);
    }

    int stringLength(int row) {
        return offsets.get(LE_INT, (long) row * 4 + 4) - offsets.get(LE_INT, (long) row * 4);
    }
}
