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
 * precision); SQL NULL is {@code null}.
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

    static SqlType decimal(int precision, int scale) { return new DecimalType(precision, scale); }

    static SqlType varchar(int maxLength) { return new VarcharType(maxLength); }

    static SqlType character(int length) { return new CharType(length); }
}
