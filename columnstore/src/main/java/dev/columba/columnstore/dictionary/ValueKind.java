package dev.columba.columnstore.dictionary;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.UUID;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroVector;

/**
 * How the columnstore stores the values of each SQL type: the <em>stored form</em> that
 * dictionaries and segments share (specified in {@code docs/format/segment.md}, "Stored values").
 * Fixed-width kinds are little-endian integers of {@link #width()} bytes: BOOLEAN 0 or 1, INT and
 * DATE (days) 4 bytes, BIGINT, TIMESTAMP (microseconds) and DECIMAL up to 18 digits (unscaled) 8
 * bytes, DOUBLE its IEEE 754 bits, DECIMAL beyond 18 digits 16 bytes (Arrow's Decimal128: low 8
 * bytes, then high 8 bytes). STRING is a byte string: the UTF-8 of a VARCHAR or CHAR, the bytes of
 * a VARBINARY or BINARY, the 16 bytes of a UUID (most significant first); its vectors are Arrow's
 * VarChar or VarBinary, whichever the SQL type's Arrow type is.
 *
 * <p>Two orders matter. The <em>storage order</em> is total and sorts dictionaries: signed for the
 * integral kinds, IEEE total order for DOUBLE ({@code -0.0 < 0.0}, NaN last), signed 128-bit for
 * DECIMAL128, unsigned bytes (code point order) for STRING. The <em>SQL order</em>
 * ({@link #compareValues}) is the same except that DOUBLE {@code -0.0} equals {@code 0.0} and every
 * NaN equals every other NaN; so the SQL order only merges neighbours of the storage order, and a
 * binary search with SQL comparisons over a dictionary sorted in storage order is sound.
 */
public enum ValueKind {
    BOOLEAN(1, 1, BitVector.class),
    INT(2, 4, IntVector.class),
    BIGINT(3, 8, BigIntVector.class),
    DOUBLE(4, 8, Float8Vector.class),
    DECIMAL64(5, 8, DecimalVector.class),
    DECIMAL128(6, 16, DecimalVector.class),
    STRING(7, ValueKind.VARIABLE_WIDTH, BaseVariableWidthVector.class),
    DATE(8, 4, DateDayVector.class),
    TIMESTAMP(9, 8, TimeStampMicroVector.class);

    /** The {@link #width()} of variable-length kinds. */
    public static final int VARIABLE_WIDTH = -1;

    /** The largest DECIMAL precision whose unscaled values always fit a long. */
    public static final int MAX_LONG_DECIMAL_PRECISION = 18;

    /** The bits of the NaN every dictionary stores (Java's {@code Double.NaN}). */
    public static final long CANONICAL_NAN_BITS = 0x7ff8000000000000L;

    private static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueKind[] BY_CODE = new ValueKind[16];

    static {
        for (ValueKind kind : values()) {
            BY_CODE[kind.code] = kind;
        }
    }

    private final int code;
    private final int width;
    private final Class<? extends FieldVector> vectorClass;

    ValueKind(int code, int width, Class<? extends FieldVector> vectorClass) {
        this.code = code;
        this.width = width;
        this.vectorClass = vectorClass;
    }

    /** The kind that stores values of {@code type}. */
    public static ValueKind of(SqlType type) {
        return switch (type) {
            case SqlType.BooleanType ignored -> BOOLEAN;
            case SqlType.IntegerType ignored -> INT;
            case SqlType.BigintType ignored -> BIGINT;
            case SqlType.DoubleType ignored -> DOUBLE;
            case SqlType.DecimalType decimal -> decimal.precision() <= MAX_LONG_DECIMAL_PRECISION ? DECIMAL64 : DECIMAL128;
            case SqlType.VarcharType ignored -> STRING;
            case SqlType.CharType ignored -> STRING;
            case SqlType.VarbinaryType ignored -> STRING;
            case SqlType.BinaryType ignored -> STRING;
            case SqlType.UuidType ignored -> STRING;
            case SqlType.DateType ignored -> DATE;
            case SqlType.TimestampType ignored -> TIMESTAMP;
        };
    }

    /** The kind with format code {@code code}, or null when no kind has it. */
    public static ValueKind ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    /** The byte that names this kind in segment and dictionary headers. */
    public int code() {
        return code;
    }

    /** Bytes of one stored value, or {@link #VARIABLE_WIDTH}. */
    public int width() {
        return width;
    }

    /** The Arrow vector class holding values of this kind ({@code SqlType.arrowType()}). */
    public Class<? extends FieldVector> vectorClass() {
        return vectorClass;
    }

    /** True when a stored value is one long: every fixed-width kind but DECIMAL128. */
    public boolean fitsLong() {
        return width > 0 && width <= Long.BYTES;
    }

    /** True for the kinds whose stored long is an integer ordered as a signed long (not DOUBLE). */
    public boolean integral() {
        return fitsLong() && this != DOUBLE;
    }

    // ---- Stored longs ---------------------------------------------------------------------------

    /** Reads the stored value at {@code offset} of a {@link #fitsLong()} kind, sign-extended to a long. */
    public long readLong(MemorySegment bytes, long offset) {
        return switch (this) {
            case BOOLEAN -> bytes.get(ValueLayout.JAVA_BYTE, offset);
            case INT, DATE -> bytes.get(LE_INT, offset);
            case BIGINT, DOUBLE, DECIMAL64, TIMESTAMP -> bytes.get(LE_LONG, offset);
            case DECIMAL128, STRING -> throw new IllegalStateException(this + " values are not one long");
        };
    }

    /** Writes {@code stored}, a stored value of a {@link #fitsLong()} kind, at {@code offset}. */
    public void writeLong(MemorySegment bytes, long offset, long stored) {
        switch (this) {
            case BOOLEAN -> bytes.set(ValueLayout.JAVA_BYTE, offset, (byte) stored);
            case INT, DATE -> bytes.set(LE_INT, offset, (int) stored);
            case BIGINT, DOUBLE, DECIMAL64, TIMESTAMP -> bytes.set(LE_LONG, offset, stored);
            case DECIMAL128, STRING -> throw new IllegalStateException(this + " values are not one long");
        }
    }

    /**
     * A long whose signed order is the storage order of {@code stored}: the value itself for the
     * integral kinds; for DOUBLE the IEEE total order, in which a NaN with the sign bit set would
     * sort first, so callers canonicalize NaNs ({@link #canonicalLong}) before relying on it.
     */
    public long storageKey(long stored) {
        return this == DOUBLE ? stored ^ ((stored >> 63) & Long.MAX_VALUE) : stored;
    }

    /**
     * A long whose signed order is the SQL order of {@code stored}: the storage key, except that
     * for DOUBLE {@code -0.0} maps like {@code 0.0} and every NaN like the canonical NaN, after
     * every other value.
     */
    public long sqlKey(long stored) {
        if (this != DOUBLE) {
            return stored;
        }
        double value = Double.longBitsToDouble(stored);
        if (value == 0.0) {
            return 0L;
        }
        return storageKey(Double.isNaN(value) ? CANONICAL_NAN_BITS : stored);
    }

    /** {@code stored} with a DOUBLE NaN replaced by the canonical NaN: the form dictionaries keep. */
    public long canonicalLong(long stored) {
        return this == DOUBLE && Double.isNaN(Double.longBitsToDouble(stored)) ? CANONICAL_NAN_BITS : stored;
    }

    /**
     * Compares two stored values in storage order; fixed-width values are {@link #width()} bytes,
     * strings their lengths.
     */
    public int compareStored(MemorySegment left, long leftOffset, int leftLength,
                             MemorySegment right, long rightOffset, int rightLength) {
        return switch (this) {
            case BOOLEAN, INT, BIGINT, DOUBLE, DECIMAL64, DATE, TIMESTAMP ->
                    Long.compare(storageKey(readLong(left, leftOffset)), storageKey(readLong(right, rightOffset)));
            case DECIMAL128 -> compareWide(left.get(LE_LONG, leftOffset + 8), left.get(LE_LONG, leftOffset),
                    right.get(LE_LONG, rightOffset + 8), right.get(LE_LONG, rightOffset));
            case STRING -> compareUnsigned(left, leftOffset, leftLength, right, rightOffset, rightLength);
        };
    }

    /** Signed 128-bit comparison of {@code (leftHigh, leftLow)} and {@code (rightHigh, rightLow)}. */
    public static int compareWide(long leftHigh, long leftLow, long rightHigh, long rightLow) {
        return leftHigh != rightHigh ? Long.compare(leftHigh, rightHigh) : Long.compareUnsigned(leftLow, rightLow);
    }

    /** Unsigned lexicographic comparison of two byte ranges: the code point order of UTF-8. */
    public static int compareUnsigned(MemorySegment left, long leftOffset, int leftLength,
                                      MemorySegment right, long rightOffset, int rightLength) {
        long mismatch = MemorySegment.mismatch(left, leftOffset, leftOffset + leftLength,
                right, rightOffset, rightOffset + rightLength);
        if (mismatch < 0) {
            return 0;
        }
        if (mismatch == leftLength) {
            return -1;
        }
        if (mismatch == rightLength) {
            return 1;
        }
        return Integer.compare(Byte.toUnsignedInt(left.get(ValueLayout.JAVA_BYTE, leftOffset + mismatch)),
                Byte.toUnsignedInt(right.get(ValueLayout.JAVA_BYTE, rightOffset + mismatch)));
    }

    // ---- Java values ------------------------------------------------------------------------------

    /**
     * Compares two non-null Java values of {@code type} (see {@link SqlType}) in SQL order. DECIMAL
     * values compare by value whatever their scale; strings by code point.
     *
     * @throws ColumbaException WRONG_TYPE when a value is not of the type's Java class
     */
    public static int compareValues(SqlType type, Object left, Object right) {
        ValueKind kind = of(type);
        return switch (kind) {
            case BOOLEAN -> Boolean.compare(cast(type, left, Boolean.class), cast(type, right, Boolean.class));
            case INT -> Integer.compare(cast(type, left, Integer.class), cast(type, right, Integer.class));
            case BIGINT -> Long.compare(cast(type, left, Long.class), cast(type, right, Long.class));
            case DOUBLE -> Long.compare(
                    kind.sqlKey(Double.doubleToRawLongBits(cast(type, left, Double.class))),
                    kind.sqlKey(Double.doubleToRawLongBits(cast(type, right, Double.class))));
            case DECIMAL64, DECIMAL128 -> cast(type, left, BigDecimal.class).compareTo(cast(type, right, BigDecimal.class));
            case STRING -> switch (type) {
                case SqlType.VarbinaryType ignored -> Arrays.compareUnsigned(cast(type, left, byte[].class),
                        cast(type, right, byte[].class));
                case SqlType.BinaryType ignored -> Arrays.compareUnsigned(cast(type, left, byte[].class),
                        cast(type, right, byte[].class));
                case SqlType.UuidType ignored -> Arrays.compareUnsigned(Values.uuidToBytes(cast(type, left, UUID.class)),
                        Values.uuidToBytes(cast(type, right, UUID.class)));
                default -> compareCodePoints(cast(type, left, String.class), cast(type, right, String.class));
            };
            case DATE -> cast(type, left, LocalDate.class).compareTo(cast(type, right, LocalDate.class));
            case TIMESTAMP -> cast(type, left, LocalDateTime.class).compareTo(cast(type, right, LocalDateTime.class));
        };
    }

    /** Code point order of two strings, which is the unsigned byte order of their UTF-8. */
    public static int compareCodePoints(String left, String right) {
        int leftIndex = 0;
        int rightIndex = 0;
        while (leftIndex < left.length() && rightIndex < right.length()) {
            int leftCodePoint = left.codePointAt(leftIndex);
            int rightCodePoint = right.codePointAt(rightIndex);
            if (leftCodePoint != rightCodePoint) {
                return Integer.compare(leftCodePoint, rightCodePoint);
            }
            leftIndex += Character.charCount(leftCodePoint);
            rightIndex += Character.charCount(rightCodePoint);
        }
        return Integer.compare(left.length() - leftIndex, right.length() - rightIndex);
    }

    /**
     * The stored long of {@code value}, a non-null Java value of {@code type} of a
     * {@link #fitsLong()} kind. A DECIMAL must be exact at the type's scale and fit 18 digits.
     *
     * @throws ColumbaException WRONG_TYPE for a value of another class, VALUE_OUT_OF_RANGE for a
     *     DECIMAL that does not fit
     */
    public static long toLong(SqlType type, Object value) {
        return switch (of(type)) {
            case BOOLEAN -> cast(type, value, Boolean.class) ? 1 : 0;
            case INT -> cast(type, value, Integer.class);
            case BIGINT -> cast(type, value, Long.class);
            case DOUBLE -> Double.doubleToRawLongBits(cast(type, value, Double.class));
            case DECIMAL64 -> {
                BigInteger unscaled = unscaled(type, cast(type, value, BigDecimal.class));
                if (unscaled.bitLength() > 63) {
                    throw new ColumbaException(ErrorCode.VALUE_OUT_OF_RANGE, type.sqlName() + " cannot hold " + value);
                }
                yield unscaled.longValue();
            }
            case DATE -> Values.dateToDays(cast(type, value, LocalDate.class));
            case TIMESTAMP -> Values.timestampToMicros(cast(type, value, LocalDateTime.class));
            case DECIMAL128, STRING -> throw new IllegalStateException(type.sqlName() + " values are not one long");
        };
    }

    /** The Java value of {@code stored}, a stored long of {@code type}'s {@link #fitsLong()} kind. */
    public static Object fromLong(SqlType type, long stored) {
        return switch (of(type)) {
            case BOOLEAN -> stored != 0;
            case INT -> (int) stored;
            case BIGINT -> stored;
            case DOUBLE -> Double.longBitsToDouble(stored);
            case DECIMAL64 -> BigDecimal.valueOf(stored, ((SqlType.DecimalType) type).scale());
            case DATE -> Values.daysToDate((int) stored);
            case TIMESTAMP -> Values.microsToTimestamp(stored);
            case DECIMAL128, STRING -> throw new IllegalStateException(type.sqlName() + " values are not one long");
        };
    }

    /**
     * The stored bytes of {@code value}, a non-null Java value of {@code type}: {@link #width()}
     * little-endian bytes, or the UTF-8 of a string.
     *
     * @throws ColumbaException WRONG_TYPE for a value of another class, VALUE_OUT_OF_RANGE for a
     *     DECIMAL that does not fit the type
     */
    public static byte[] toBytes(SqlType type, Object value) {
        ValueKind kind = of(type);
        return switch (kind) {
            case BOOLEAN, INT, BIGINT, DOUBLE, DECIMAL64, DATE, TIMESTAMP -> {
                byte[] bytes = new byte[kind.width];
                kind.writeLong(MemorySegment.ofArray(bytes), 0, toLong(type, value));
                yield bytes;
            }
            case DECIMAL128 -> {
                BigInteger unscaled = unscaled(type, cast(type, value, BigDecimal.class));
                if (unscaled.bitLength() > 127) {
                    throw new ColumbaException(ErrorCode.VALUE_OUT_OF_RANGE, type.sqlName() + " cannot hold " + value);
                }
                byte[] bytes = new byte[16];
                MemorySegment segment = MemorySegment.ofArray(bytes);
                segment.set(LE_LONG, 0, unscaled.longValue());
                segment.set(LE_LONG, 8, unscaled.shiftRight(64).longValue());
                yield bytes;
            }
            case STRING -> switch (type) {
                case SqlType.VarbinaryType ignored -> cast(type, value, byte[].class);
                case SqlType.BinaryType ignored -> cast(type, value, byte[].class);
                case SqlType.UuidType ignored -> Values.uuidToBytes(cast(type, value, UUID.class));
                default -> cast(type, value, String.class).getBytes(StandardCharsets.UTF_8);
            };
        };
    }

    /** The Java value of the stored bytes {@code [offset, offset + length)} of {@code type}. */
    public static Object fromBytes(SqlType type, MemorySegment bytes, long offset, int length) {
        ValueKind kind = of(type);
        return switch (kind) {
            case BOOLEAN, INT, BIGINT, DOUBLE, DECIMAL64, DATE, TIMESTAMP -> fromLong(type, kind.readLong(bytes, offset));
            case DECIMAL128 -> wideDecimal(type, bytes.get(LE_LONG, offset + 8), bytes.get(LE_LONG, offset));
            case STRING -> {
                byte[] stored = bytes.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE);
                yield switch (type) {
                    case SqlType.VarbinaryType ignored -> stored;
                    case SqlType.BinaryType ignored -> stored;
                    case SqlType.UuidType ignored -> Values.bytesToUuid(stored, 0);
                    default -> new String(stored, StandardCharsets.UTF_8);
                };
            }
        };
    }

    /** The DECIMAL value of {@code type} whose unscaled 128-bit value is {@code (high, low)}. */
    public static BigDecimal wideDecimal(SqlType type, long high, long low) {
        BigInteger unscaled = BigInteger.valueOf(high).shiftLeft(64).or(new BigInteger(Long.toUnsignedString(low)));
        return new BigDecimal(unscaled, ((SqlType.DecimalType) type).scale());
    }

    private static BigInteger unscaled(SqlType type, BigDecimal value) {
        int scale = ((SqlType.DecimalType) type).scale();
        try {
            return value.setScale(scale, RoundingMode.UNNECESSARY).unscaledValue();
        } catch (ArithmeticException e) {
            throw new ColumbaException(ErrorCode.VALUE_OUT_OF_RANGE, type.sqlName() + " cannot hold " + value
                    + " without rounding", e);
        }
    }

    private static <T> T cast(SqlType type, Object value, Class<T> javaClass) {
        if (!javaClass.isInstance(value)) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE, type.sqlName() + " expects a " + javaClass.getSimpleName()
                    + ", got " + (value == null ? "null" : value.getClass().getSimpleName() + " " + value));
        }
        return javaClass.cast(value);
    }
}
