package dev.columba.core.type;

import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The SQL types Columba stores, a closed family: adding a variant is a compile error in every
 * exhaustive {@code switch} that must learn about it (row format, key encoding, Arrow mapping,
 * encodings).
 *
 * <p>Java representation of values, used wherever rows cross an API as {@code Object[]}:
 * BOOLEAN {@link Boolean}, INT {@link Integer}, BIGINT {@link Long}, DOUBLE {@link Double},
 * DECIMAL {@link java.math.BigDecimal} (at the type's scale), VARCHAR and CHAR {@link String},
 * DATE {@link java.time.LocalDate}, TIMESTAMP {@link java.time.LocalDateTime} (microsecond
 * precision), VARBINARY and BINARY {@code byte[]} (never modified once it is a value), UUID
 * {@link java.util.UUID}; SQL NULL is {@code null}.
 *
 * <p>VARBINARY, BINARY and UUID share VARCHAR's Arrow layout (offsets and bytes, Arrow's Binary):
 * everything that compares, hashes or sorts strings by their bytes, unsigned, handles them as it
 * is. A UUID is its 16 bytes in the order its text writes them (big-endian), so it sorts as
 * PostgreSQL and H2 sort UUIDs.
 */
public sealed interface SqlType {

    /** The type as SQL spells it, e.g. {@code DECIMAL(12,2)}. */
    String sqlName();

    /** The Arrow type of a vector holding values of this type. */
    ArrowType arrowType();

    /** Bytes of a value of fixed width, or -1 for variable-length types. */
    int fixedWidth();

    record BooleanType() implements SqlType {
        public String sqlName() { return "BOOLEAN"; }
        public ArrowType arrowType() { return ArrowType.Bool.INSTANCE; }
        public int fixedWidth() { return 1; }
    }

    record IntegerType() implements SqlType {
        public String sqlName() { return "INT"; }
        public ArrowType arrowType() { return new ArrowType.Int(32, true); }
        public int fixedWidth() { return 4; }
    }

    record BigintType() implements SqlType {
        public String sqlName() { return "BIGINT"; }
        public ArrowType arrowType() { return new ArrowType.Int(64, true); }
        public int fixedWidth() { return 8; }
    }

    record DoubleType() implements SqlType {
        public String sqlName() { return "DOUBLE"; }
        public ArrowType arrowType() { return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE); }
        public int fixedWidth() { return 8; }
    }

    /** Exact decimal; precision 1..38, scale 0..precision (Arrow's Decimal128 range). */
    record DecimalType(int precision, int scale) implements SqlType {
        public static final int MAX_PRECISION = 38;

        public DecimalType {
            if (precision < 1 || precision > MAX_PRECISION) {
                throw new IllegalArgumentException("DECIMAL precision must be 1.." + MAX_PRECISION + ", was " + precision);
            }
            if (scale < 0 || scale > precision) {
                throw new IllegalArgumentException("DECIMAL scale must be 0.." + precision + ", was " + scale);
            }
        }

        public String sqlName() { return "DECIMAL(" + precision + "," + scale + ")"; }
        public ArrowType arrowType() { return new ArrowType.Decimal(precision, scale, 128); }
        public int fixedWidth() { return 16; }
    }

    /** Variable-length character string of at most {@code maxLength} characters. */
    record VarcharType(int maxLength) implements SqlType {
        public static final int MAX_LENGTH = 1 << 30;

        public VarcharType {
            if (maxLength < 1 || maxLength > MAX_LENGTH) {
                throw new IllegalArgumentException("VARCHAR length must be 1.." + MAX_LENGTH + ", was " + maxLength);
            }
        }

        public String sqlName() { return "VARCHAR(" + maxLength + ")"; }
        public ArrowType arrowType() { return ArrowType.Utf8.INSTANCE; }
        public int fixedWidth() { return -1; }
    }

    /** Fixed-length character string, blank-padded to {@code length} characters. */
    record CharType(int length) implements SqlType {
        public static final int MAX_LENGTH = 8000;

        public CharType {
            if (length < 1 || length > MAX_LENGTH) {
                throw new IllegalArgumentException("CHAR length must be 1.." + MAX_LENGTH + ", was " + length);
            }
        }

        public String sqlName() { return "CHAR(" + length + ")"; }
        public ArrowType arrowType() { return ArrowType.Utf8.INSTANCE; }
        public int fixedWidth() { return -1; }
    }

    /** Variable-length binary string of at most {@code maxLength} bytes. */
    record VarbinaryType(int maxLength) implements SqlType {
        public static final int MAX_LENGTH = 1 << 30;

        public VarbinaryType {
            if (maxLength < 1 || maxLength > MAX_LENGTH) {
                throw new IllegalArgumentException("VARBINARY length must be 1.." + MAX_LENGTH + ", was " + maxLength);
            }
        }

        public String sqlName() { return "VARBINARY(" + maxLength + ")"; }
        public ArrowType arrowType() { return ArrowType.Binary.INSTANCE; }
        public int fixedWidth() { return -1; }
    }

    /** Fixed-length binary string, padded with zero bytes to {@code length} bytes (as SQL Server and H2 pad). */
    record BinaryType(int length) implements SqlType {
        public static final int MAX_LENGTH = 8000;

        public BinaryType {
            if (length < 1 || length > MAX_LENGTH) {
                throw new IllegalArgumentException("BINARY length must be 1.." + MAX_LENGTH + ", was " + length);
            }
        }

        public String sqlName() { return "BINARY(" + length + ")"; }
        public ArrowType arrowType() { return ArrowType.Binary.INSTANCE; }
        public int fixedWidth() { return -1; }
    }

    /** A 128-bit universally unique identifier (SQL Server's UNIQUEIDENTIFIER), its 16 bytes big-endian. */
    record UuidType() implements SqlType {
        public static final int BYTES = 16;

        public String sqlName() { return "UUID"; }
        public ArrowType arrowType() { return ArrowType.Binary.INSTANCE; }
        public int fixedWidth() { return -1; }
    }

    /** Calendar date, stored as days since 1970-01-01. */
    record DateType() implements SqlType {
        public String sqlName() { return "DATE"; }
        public ArrowType arrowType() { return new ArrowType.Date(DateUnit.DAY); }
        public int fixedWidth() { return 4; }
    }

    /** Timestamp without time zone, stored as microseconds since 1970-01-01T00:00. */
    record TimestampType() implements SqlType {
        public String sqlName() { return "TIMESTAMP"; }
        public ArrowType arrowType() { return new ArrowType.Timestamp(TimeUnit.MICROSECOND, null); }
        public int fixedWidth() { return 8; }
    }

    SqlType BOOLEAN = new BooleanType();
    SqlType INT = new IntegerType();
    SqlType BIGINT = new BigintType();
    SqlType DOUBLE = new DoubleType();
    SqlType DATE = new DateType();
    SqlType TIMESTAMP = new TimestampType();
    SqlType UUID = new UuidType();

    static SqlType decimal(int precision, int scale) { return new DecimalType(precision, scale); }

    static SqlType varchar(int maxLength) { return new VarcharType(maxLength); }

    static SqlType character(int length) { return new CharType(length); }

    static SqlType varbinary(int maxLength) { return new VarbinaryType(maxLength); }

    static SqlType binary(int length) { return new BinaryType(length); }
}
