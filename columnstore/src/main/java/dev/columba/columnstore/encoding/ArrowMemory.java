package dev.columba.columnstore.encoding;

import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;

/**
 * Arrow buffers seen as memory segments, so encoders and decoders read and write them with the
 * same bounds-checked little-endian accesses as segment bytes (Arrow's buffers are little-endian).
 */
final class ArrowMemory {
    private ArrowMemory() {
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

    /**
     * Checks that {@code vector} holds values of {@code type}: the kind's vector class and, for
     * DECIMAL, the type's scale.
     *
     * @throws ColumbaException WRONG_TYPE otherwise
     */
    static void checkVector(FieldVector vector, SqlType type) {
        ValueKind kind = ValueKind.of(type);
        if (!kind.vectorClass().isInstance(vector)) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE, type.sqlName() + " values come in a "
                    + kind.vectorClass().getSimpleName() + ", got " + vector.getClass().getSimpleName());
        }
        if (vector instanceof DecimalVector decimal && decimal.getScale() != ((SqlType.DecimalType) type).scale()) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE, type.sqlName() + " values come at scale "
                    + ((SqlType.DecimalType) type).scale() + ", got a DecimalVector of scale " + decimal.getScale());
        }
    }
}
