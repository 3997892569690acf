package dev.columba.storage.row;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.UUID;

/**
 * The checks both codecs apply to a Java value before storing it (see {@link SqlType} for the
 * Java classes), and the conversions to and from the primitive forms they store. Every failure is
 * a {@link ColumbaException} whose message starts with the column's label (e.g.
 * {@code column price DECIMAL(10,2)}) and shows the value.
 */
final class ColumnValues {
    /** Longest string shown in an error message; the rest is elided. */
    private static final int SHOWN_CHARACTERS = 64;
    /** Per precision p up to 18, the largest unscaled value: 10^p - 1. */
    private static final long[] MAX_UNSCALED = new long[PhysicalType.MAX_DECIMAL64_PRECISION + 1];

    static {
        long power = 1;
        for (int precision = 0; precision < MAX_UNSCALED.length; precision++) {
            MAX_UNSCALED[precision] = power - 1;
            power *= 10;
        }
    }

    private ColumnValues() {
    }

    static boolean booleanValue(Object value, String label) {
        if (value instanceof Boolean bool) {
            return bool;
        }
        throw wrongType(label, Boolean.class, value);
    }

    static int intValue(Object value, String label) {
        if (value instanceof Integer number) {
            return number;
        }
        throw wrongType(label, Integer.class, value);
    }

    static long bigintValue(Object value, String label) {
        if (value instanceof Long number) {
            return number;
        }
        throw wrongType(label, Long.class, value);
    }

    static double doubleValue(Object value, String label) {
        if (value instanceof Double number) {
            return number;
        }
        throw wrongType(label, Double.class, value);
    }

    static int days(Object value, String label) {
        if (!(value instanceof LocalDate date)) {
            throw wrongType(label, LocalDate.class, value);
        }
        try {
            return Values.dateToDays(date);
        } catch (ArithmeticException e) {
            throw new ColumbaException(ErrorCode.VALUE_OUT_OF_RANGE,
                    label + " cannot hold " + date + ": days since 1970-01-01 overflow a 32-bit integer", e);
        }
    }

    static long micros(Object value, String label) {
        if (!(value instanceof LocalDateTime timestamp)) {
            throw wrongType(label, LocalDateTime.class, value);
        }
        try {
            return Values.timestampToMicros(timestamp);
        } catch (ArithmeticException e) {
            throw new ColumbaException(ErrorCode.VALUE_OUT_OF_RANGE,
                    label + " cannot hold " + timestamp + ": microseconds since 1970-01-01T00:00 overflow a 64-bit integer", e);
        }
    }

    /** The value at the column's scale, checked against its precision. */
    static BigDecimal decimal(Object value, SqlType.DecimalType type, String label) {
        if (!(value instanceof BigDecimal number)) {
            throw wrongType(label, BigDecimal.class, value);
        }
        try {
            return (BigDecimal) Values.canonical(type, number);
        } catch (IllegalArgumentException e) {
            throw new ColumbaException(ErrorCode.VALUE_OUT_OF_RANGE, label + " cannot hold " + number.toPlainString()
                    + ": needs rounding or more than " + type.precision() + " digits", e);
        }
    }

    /**
     * The most characters a VARCHAR or CHAR column holds (CHAR values are padded to exactly this),
     * the most bytes a VARBINARY or BINARY column holds (BINARY values are padded to exactly this),
     * or -1 for the other types.
     */
    static int characterLimit(SqlType type) {
        return switch (type) {
            case SqlType.VarcharType varchar -> varchar.maxLength();
            case SqlType.CharType character -> character.length();
            case SqlType.VarbinaryType varbinary -> varbinary.maxLength();
            case SqlType.BinaryType binary -> binary.length();
            case SqlType.UuidType ignored -> -1;
            case SqlType.BooleanType ignored -> -1;
            case SqlType.IntegerType ignored -> -1;
            case SqlType.BigintType ignored -> -1;
            case SqlType.DoubleType ignored -> -1;
            case SqlType.DecimalType ignored -> -1;
            case SqlType.DateType ignored -> -1;
            case SqlType.TimestampType ignored -> -1;
        };
    }

    /**
     * Checks a VARCHAR or CHAR value's class and length in characters (code points, as SQL counts
     * them) and returns it unpadded.
     */
    static String string(Object value, int characterLimit, String label) {
        if (!(value instanceof String text)) {
            throw wrongType(label, String.class, value);
        }
        // A string of at most `characterLimit` chars holds at most that many code points: no count.
        if (text.length() > characterLimit) {
            int characters = text.codePointCount(0, text.length());
            if (characters > characterLimit) {
                throw new ColumbaException(ErrorCode.STRING_TOO_LONG,
                        label + " cannot hold a string of " + characters + " characters: " + show(text));
            }
        }
        return text;
    }

    /** Checks a VARBINARY or BINARY value's class and length in bytes and returns it unpadded. */
    static byte[] binary(Object value, int byteLimit, String label) {
        if (!(value instanceof byte[] bytes)) {
            throw wrongType(label, byte[].class, value);
        }
        if (bytes.length > byteLimit) {
            throw new ColumbaException(ErrorCode.STRING_TOO_LONG,
                    label + " cannot hold a binary string of " + bytes.length + " bytes");
        }
        return bytes;
    }

    /** Checks a UUID value's class. */
    static UUID uuid(Object value, String label) {
        if (!(value instanceof UUID uuid)) {
            throw wrongType(label, UUID.class, value);
        }
        return uuid;
    }

    /**
     * Checks the valid UTF-8 bytes {@code bytes[start, end)} of a VARCHAR or CHAR value against the
     * column's limit as {@link #string} checks the same string, and returns its characters (code
     * points) when {@code countCharacters} or the bytes outnumber the limit, else -1. A value of at
     * most {@code characterLimit} bytes holds at most that many characters: no count.
     */
    static int utf8Characters(byte[] bytes, int start, int end, int characterLimit, boolean countCharacters,
                              String label) {
        if (end - start <= characterLimit && !countCharacters) {
            return -1;
        }
        int characters = Utf8.characters(bytes, start, end);
        if (characters > characterLimit) {
            string(new String(bytes, start, end - start, java.nio.charset.StandardCharsets.UTF_8), characterLimit, label);
        }
        return characters;
    }

    /** Checks an unscaled DECIMAL(p <= 18) value at the column's scale against its precision, as {@link #decimal}. */
    static void checkUnscaled(long unscaled, SqlType.DecimalType type, String label) {
        long limit = MAX_UNSCALED[type.precision()];
        if (unscaled > limit || unscaled < -limit) {
            decimal(BigDecimal.valueOf(unscaled, type.scale()), type, label);
        }
    }

    /** Blanks that pad a checked CHAR value to the column's {@code length} characters. */
    static int padding(String text, int length) {
        return length - text.codePointCount(0, text.length());
    }

    /** The low 64 bits of a canonical decimal's unscaled value (all of it for DECIMAL64). */
    static long unscaledLow(BigDecimal canonical) {
        return canonical.unscaledValue().longValue();
    }

    /** The high 64 bits of a canonical decimal's 128-bit two's complement unscaled value. */
    static long unscaledHigh(BigDecimal canonical) {
        return canonical.unscaledValue().shiftRight(Long.SIZE).longValue();
    }

    /** The decimal whose 128-bit unscaled value is {@code high:low}, at {@code scale}. */
    static BigDecimal decimalOf(long high, long low, int scale) {
        if (high == low >> (Long.SIZE - 1)) {
            return BigDecimal.valueOf(low, scale);
        }
        byte[] bigEndian = new byte[2 * Long.BYTES];
        for (int index = 0; index < Long.BYTES; index++) {
            bigEndian[index] = (byte) (high >>> (Long.SIZE - Byte.SIZE - index * Byte.SIZE));
            bigEndian[Long.BYTES + index] = (byte) (low >>> (Long.SIZE - Byte.SIZE - index * Byte.SIZE));
        }
        return new BigDecimal(new BigInteger(bigEndian), scale);
    }

    static ColumbaException nullNotAllowed(String label) {
        return new ColumbaException(ErrorCode.NULL_NOT_ALLOWED, label + " is NOT NULL and cannot hold NULL");
    }

    static ColumbaException wrongType(String label, Class<?> expected, Object value) {
        return new ColumbaException(ErrorCode.WRONG_TYPE, label + " expects " + expected.getSimpleName() + " values, got "
                + value.getClass().getSimpleName() + " " + show(value));
    }

    /** A value as an error message shows it: strings quoted and cut to a readable length. */
    static String show(Object value) {
        if (value instanceof String text) {
            return text.length() <= SHOWN_CHARACTERS
                    ? "'" + text + "'"
                    : "'" + text.substring(0, SHOWN_CHARACTERS) + "'... (" + text.length() + " chars)";
        }
        if (value instanceof BigDecimal number) {
            return number.toPlainString();
        }
        return String.valueOf(value);
    }
}
