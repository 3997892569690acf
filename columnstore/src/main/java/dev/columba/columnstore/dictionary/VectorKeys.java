package dev.columba.columnstore.dictionary;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;

/**
 * A flyweight that locates the stored form (see {@link ValueKind}) of one row of an Arrow vector
 * as a dictionary key, without allocating: after {@link #load}, the key is
 * {@code [offset, offset + length)} of {@link #segment}. Strings are read in place from the
 * vector's data buffer; fixed-width values are copied into a 16-byte scratch, DOUBLE NaNs
 * canonicalized (dictionaries keep one NaN).
 *
 * <p>Views of the vector's buffers are rebuilt when the vector changes or reallocates, so one
 * instance serves successive batches. Not thread-safe. The key is valid until the next
 * {@code load}.
 */
final class VectorKeys {
    private static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final SqlType type;
    private final ValueKind kind;
    private final MemorySegment scratch = MemorySegment.ofArray(new byte[16]);

    private FieldVector vector;
    private long dataAddress;
    private long dataCapacity;
    private long offsetAddress;
    private MemorySegment data = MemorySegment.NULL;
    private MemorySegment offsets = MemorySegment.NULL;

    MemorySegment segment;
    long offset;
    int length;

    VectorKeys(SqlType type) {
        this.type = type;
        this.kind = ValueKind.of(type);
    }

    /**
     * Locates the key of row {@code row} of {@code vector}, which must not be NULL there.
     *
     * @throws ColumbaException WRONG_TYPE when the vector does not hold the type's values
     */
    void load(FieldVector vector, int row) {
        bind(vector);
        switch (kind) {
            case BOOLEAN -> {
                int bit = (data.get(ValueLayout.JAVA_BYTE, row >>> 3) >>> (row & 7)) & 1;
                scratch.set(ValueLayout.JAVA_BYTE, 0, (byte) bit);
                useScratch(1);
            }
            case INT, DATE -> {
                scratch.set(LE_INT, 0, data.get(LE_INT, (long) row * 4));
                useScratch(4);
            }
            case BIGINT, TIMESTAMP -> {
                scratch.set(LE_LONG, 0, data.get(LE_LONG, (long) row * 8));
                useScratch(8);
            }
            case DOUBLE -> {
                scratch.set(LE_LONG, 0, kind.canonicalLong(data.get(LE_LONG, (long) row * 8)));
                useScratch(8);
            }
            case DECIMAL64 -> {
                scratch.set(LE_LONG, 0, data.get(LE_LONG, (long) row * 16));
                useScratch(8);
            }
            case DECIMAL128 -> {
                MemorySegment.copy(data, (long) row * 16, scratch, 0, 16);
                useScratch(16);
            }
            case STRING -> {
                int start = offsets.get(LE_INT, (long) row * 4);
                int end = offsets.get(LE_INT, (long) row * 4 + 4);
                segment = data;
                offset = start;
                length = end - start;
            }
        }
    }

    private void useScratch(int width) {
        segment = scratch;
        offset = 0;
        length = width;
    }

    private void bind(FieldVector candidate) {
        ArrowBuf dataBuffer = candidate == vector || kind.vectorClass().isInstance(candidate)
                ? candidate.getDataBuffer() : null;
        if (dataBuffer == null) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE, type.sqlName() + " values come in a "
                    + kind.vectorClass().getSimpleName() + ", got " + candidate.getClass().getSimpleName());
        }
        if (candidate instanceof DecimalVector decimal && decimal.getScale() != ((SqlType.DecimalType) type).scale()) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE, type.sqlName() + " values come at scale "
                    + ((SqlType.DecimalType) type).scale() + ", got a vector of scale " + decimal.getScale());
        }
        long offsetBufferAddress = kind == ValueKind.STRING ? candidate.getOffsetBufferAddress() : 0;
        if (candidate != vector || dataBuffer.memoryAddress() != dataAddress || dataBuffer.capacity() != dataCapacity
                || offsetBufferAddress != offsetAddress) {
            vector = candidate;
            dataAddress = dataBuffer.memoryAddress();
            dataCapacity = dataBuffer.capacity();
            offsetAddress = offsetBufferAddress;
            data = view(dataBuffer);
            offsets = kind == ValueKind.STRING ? view(candidate.getOffsetBuffer()) : MemorySegment.NULL;
        }
    }

    /**
     * The memory of an Arrow buffer; valid while the buffer is neither released nor reallocated.
     * Sizing a raw address is a restricted method: Columba runs with native access enabled
     * (architecture.md, "The JVM").
     */
    @SuppressWarnings("restricted")
    static MemorySegment view(ArrowBuf buffer) {
        return MemorySegment.ofAddress(buffer.memoryAddress()).reinterpret(buffer.capacity());
    }
}
