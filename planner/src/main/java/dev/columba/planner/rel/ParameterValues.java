package dev.columba.planner.rel;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.Evaluator;
import dev.columba.core.expr.TypeRules;
import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.UUID;

/**
 * Converts a parameter value as a client hands it over (any boxed number, text, {@code java.sql}
 * or {@code java.time} date-times, {@code byte[]}, {@link UUID}) to the Java representation of the parameter's type, exactly:
 * a number outside its type's range or precision is refused with 22003, a fraction for an integer
 * (or more decimals than the type has) as a wrong type, rather than rounded.
 */
final class ParameterValues {
    private ParameterValues() {
    }

    static Object convert(Object value, SqlType type) {
        if (value instanceof String text && text.length() > maxLength(type)) {
            // Too long for the type the parameter's place gave it: passed whole, so that an INSERT
            // or UPDATE fails naming the column (store assignment), and a comparison finds no match.
            return text;
        }
        if (value instanceof byte[] bytes && TypeRules.isBinary(type) && bytes.length > TypeRules.maxLength(type)) {
            return bytes;
        }
        Object converted = switch (type) {
            case SqlType.BooleanType ignored -> value instanceof Boolean ? value : Boolean.valueOf(parseBoolean(value));
            case SqlType.IntegerType ignored -> (int) integral(value, type, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case SqlType.BigintType ignored -> integral(value, type, Long.MIN_VALUE, Long.MAX_VALUE);
            case SqlType.DoubleType ignored -> value instanceof Number number ? number.doubleValue() : Double.parseDouble(value.toString());
            case SqlType.DecimalType decimal -> {
                BigDecimal scaled = exact(value).setScale(decimal.scale(), RoundingMode.UNNECESSARY);
                if (scaled.signum() != 0 && scaled.precision() > decimal.precision()) {
                    throw outOfRange(value, type);
                }
                yield scaled;
            }
            case SqlType.VarcharType ignored -> value.toString();
            case SqlType.CharType ignored -> value.toString();
            case SqlType.VarbinaryType ignored -> binary(value, type);
            case SqlType.BinaryType ignored -> binary(value, type);
            case SqlType.UuidType ignored -> switch (value) {
                case UUID uuid -> uuid;
                case byte[] bytes -> Evaluator.cast(bytes, SqlType.varbinary(Math.max(1, bytes.length)), type);
                default -> Evaluator.cast(value.toString(), SqlType.varchar(SqlType.VarcharType.MAX_LENGTH), type);
            };
            case SqlType.DateType ignored -> switch (value) {
                case LocalDate date -> date;
                case LocalDateTime timestamp -> timestamp.toLocalDate();
                case java.sql.Date date -> date.toLocalDate();
                default -> LocalDate.parse(value.toString());
            };
            case SqlType.TimestampType ignored -> switch (value) {
                case LocalDateTime timestamp -> timestamp;
                case LocalDate date -> date.atStartOfDay();
                case java.sql.Timestamp timestamp -> timestamp.toLocalDateTime();
                default -> LocalDateTime.parse(value.toString().trim().replace(' ', 'T'));
            };
        };
        return Values.canonical(type, converted);
    }

    /** A binary string parameter: bytes as they are, a UUID's 16 bytes, or hexadecimal text as CAST reads it. */
    private static byte[] binary(Object value, SqlType type) {
        return switch (value) {
            case byte[] bytes -> bytes;
            case UUID uuid -> Values.uuidToBytes(uuid);
            default -> (byte[]) Evaluator.cast(value.toString(), SqlType.varchar(SqlType.VarcharType.MAX_LENGTH),
                    SqlType.varbinary(SqlType.VarbinaryType.MAX_LENGTH));
        };
    }

    /** {@code type}, or for a string longer than it (see {@link #convert}) the type of that length. */
    static SqlType fitting(SqlType type, Object converted) {
        if (converted instanceof byte[] bytes && TypeRules.isBinary(type) && bytes.length > TypeRules.maxLength(type)) {
            return SqlType.varbinary(bytes.length);
        }
        if (!(converted instanceof String text) || text.length() <= maxLength(type)) {
            return type;
        }
        int length = text.codePointCount(0, text.length());
        return type instanceof SqlType.CharType ? SqlType.character(length) : SqlType.varchar(length);
    }

    /** The length of a CHAR or VARCHAR type; no limit for the other types. */
    private static int maxLength(SqlType type) {
        return switch (type) {
            case SqlType.VarcharType varchar -> varchar.maxLength();
            case SqlType.CharType character -> character.length();
            default -> Integer.MAX_VALUE;
        };
    }

    private static boolean parseBoolean(Object value) {
        return switch (value.toString().trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true", "1" -> true;
            case "false", "0" -> false;
            default -> throw new IllegalArgumentException("not a boolean: " + value);
        };
    }

    /** A whole number of {@code type} between {@code min} and {@code max}; a fraction is refused as a wrong type. */
    private static long integral(Object value, SqlType type, long min, long max) {
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            // The common case of a batch of whole numbers, without a BigDecimal per value.
            long number = ((Number) value).longValue();
            if (number < min || number > max) {
                throw outOfRange(value, type);
            }
            return number;
        }
        BigInteger whole = exact(value).toBigIntegerExact();
        if (whole.compareTo(BigInteger.valueOf(min)) < 0 || whole.compareTo(BigInteger.valueOf(max)) > 0) {
            throw outOfRange(value, type);
        }
        return whole.longValue();
    }

    private static ColumbaException outOfRange(Object value, SqlType type) {
        return new ColumbaException(ErrorCode.VALUE_OUT_OF_RANGE, "value " + value + " is out of range for "
                + type.sqlName());
    }

    private static BigDecimal exact(Object value) {
        return switch (value) {
            case BigDecimal decimal -> decimal;
            case BigInteger integer -> new BigDecimal(integer);
            case Integer integer -> BigDecimal.valueOf(integer);
            case Long number -> BigDecimal.valueOf(number);
            case Short number -> BigDecimal.valueOf(number);
            case Byte number -> BigDecimal.valueOf(number);
            case Double number -> new BigDecimal(Double.toString(number));
            case Float number -> new BigDecimal(Float.toString(number));
            default -> new BigDecimal(value.toString().trim());
        };
    }
}
