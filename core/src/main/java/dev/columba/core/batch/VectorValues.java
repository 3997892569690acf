package dev.columba.core.batch;

import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.UUID;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Moves single values between Arrow vectors and their Java representation (see {@link SqlType}):
 * the slow, general path used where rows cross an API one at a time (literal rows, row sources,
 * JDBC getters, the row-mode fallback of expressions). Vectorized code reads the buffers directly.
 *
 * <p>Which vector holds which type: BOOLEAN {@link BitVector}, INT {@link IntVector}, BIGINT
 * {@link BigIntVector}, DOUBLE {@link Float8Vector}, DECIMAL {@link DecimalVector} (128-bit
 * unscaled, little-endian), VARCHAR and CHAR {@link VarCharVector} (UTF-8), DATE
 * {@link DateDayVector} (days since the epoch), TIMESTAMP {@link TimeStampMicroVector}, VARBINARY,
 * BINARY and UUID {@link VarBinaryVector} (a UUID's 16 bytes big-endian).
 */
public final class VectorValues {
    private VectorValues() {
    }

    /** A new, empty vector for values of {@code type}, allocated from {@code allocator}. */
    public static FieldVector newVector(String name, SqlType type, BufferAllocator allocator) {
        return new FieldType(true, type.arrowType(), null).createNewSingleVector(name, allocator, null);
    }

    /** The value at {@code position} in its Java representation, or {@code null} for SQL NULL. */
    public static Object get(FieldVector vector, int position, SqlType type) {
        if (vector.isNull(position)) {
            return null;
        }
        return switch (type) {
            case SqlType.BooleanType ignored -> ((BitVector) vector).get(position) != 0;
            case SqlType.IntegerType ignored -> ((IntVector) vector).get(position);
            case SqlType.BigintType ignored -> ((BigIntVector) vector).get(position);
            case SqlType.DoubleType ignored -> ((Float8Vector) vector).get(position);
            case SqlType.DecimalType decimal -> decimalAt((DecimalVector) vector, position, decimal.scale());
            case SqlType.VarcharType ignored -> string((VarCharVector) vector, position);
            case SqlType.CharType ignored -> string((VarCharVector) vector, position);
            case SqlType.VarbinaryType ignored -> ((VarBinaryVector) vector).get(position);
            case SqlType.BinaryType ignored -> ((VarBinaryVector) vector).get(position);
            case SqlType.UuidType ignored -> Values.bytesToUuid(((VarBinaryVector) vector).get(position), 0);
            case SqlType.DateType ignored -> Values.daysToDate(((DateDayVector) vector).get(position));
            case SqlType.TimestampType ignored -> Values.microsToTimestamp(((TimeStampMicroVector) vector).get(position));
        };
    }

    /**
     * Writes {@code value} (canonical for {@code type}, or {@code null}) at {@code position},
     * growing the vector as needed. Variable-width vectors must be written in ascending position order.
     */
    public static void set(FieldVector vector, int position, SqlType type, Object value) {
        if (value == null) {
            setNull(vector, position);
            return;
        }
        switch (type) {
            case SqlType.BooleanType ignored -> ((BitVector) vector).setSafe(position, (Boolean) value ? 1 : 0);
            case SqlType.IntegerType ignored -> ((IntVector) vector).setSafe(position, (Integer) value);
            case SqlType.BigintType ignored -> ((BigIntVector) vector).setSafe(position, (Long) value);
            case SqlType.DoubleType ignored -> ((Float8Vector) vector).setSafe(position, (Double) value);
            case SqlType.DecimalType decimal -> setDecimal((DecimalVector) vector, position, (BigDecimal) value, decimal);
            case SqlType.VarcharType ignored -> ((VarCharVector) vector).setSafe(position, utf8((String) value));
            case SqlType.CharType ignored -> ((VarCharVector) vector).setSafe(position, utf8((String) value));
            case SqlType.VarbinaryType ignored -> ((VarBinaryVector) vector).setSafe(position, (byte[]) value);
            case SqlType.BinaryType ignored -> ((VarBinaryVector) vector).setSafe(position, (byte[]) value);
            case SqlType.UuidType ignored -> ((VarBinaryVector) vector).setSafe(position, Values.uuidToBytes((UUID) value));
            case SqlType.DateType ignored -> ((DateDayVector) vector).setSafe(position, Values.dateToDays((LocalDate) value));
            case SqlType.TimestampType ignored ->
                    ((TimeStampMicroVector) vector).setSafe(position, Values.timestampToMicros((LocalDateTime) value));
        }
    }

    /** Marks {@code position} NULL, growing the vector as needed. */
    public static void setNull(FieldVector vector, int position) {
        while (position >= vector.getValueCapacity()) {
            vector.reAlloc();
        }
        vector.setNull(position);
    }

    private static BigDecimal decimalAt(DecimalVector vector, int position, int scale) {
        ArrowBuf buffer = vector.getDataBuffer();
        long offset = (long) position * DecimalVector.TYPE_WIDTH;
        long low = buffer.getLong(offset);
        long high = buffer.getLong(offset + 8);
        if (high == (low >> 63)) {
            return BigDecimal.valueOf(low, scale);
        }
        BigInteger unscaled = BigInteger.valueOf(high).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(low)));
        return new BigDecimal(unscaled, scale);
    }

    private static void setDecimal(DecimalVector vector, int position, BigDecimal value, SqlType.DecimalType type) {
        BigDecimal canonical = (BigDecimal) Values.canonical(type, value);
        while (position >= vector.getValueCapacity()) {
            vector.reAlloc();
        }
        BigInteger unscaled = canonical.unscaledValue();
        ArrowBuf buffer = vector.getDataBuffer();
        long offset = (long) position * DecimalVector.TYPE_WIDTH;
        buffer.setLong(offset, unscaled.longValue());
        // The high half is the sign's extension unless the value needs more than 63 bits.
        buffer.setLong(offset + 8, unscaled.bitLength() < Long.SIZE ? (unscaled.signum() < 0 ? -1L : 0L)
                : unscaled.shiftRight(64).longValue());
        vector.setIndexDefined(position);
    }

    private static String string(VarCharVector vector, int position) {
        return new String(vector.get(position), StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
