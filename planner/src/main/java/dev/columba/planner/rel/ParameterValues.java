package dev.columba.planner.rel;

import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * Converts a parameter value as a client hands it over (any boxed number, text, {@code java.sql}
 * or {@code java.time} date-times) to the Java representation of the parameter's type, exactly:
 * a number that does not fit, or a fraction for an integer, is refused rather than rounded.
 */
final class ParameterValues {
    private ParameterValues() {
    }

    static Object convert(Object value, SqlType type) {
        Object converted = switch (type) {
            case SqlType.BooleanType ignored -> value instanceof Boolean ? value : Boolean.valueOf(parseBoolean(value));
            case SqlType.IntegerType ignored -> exact(value).intValueExact();
            case SqlType.BigintType ignored -> exact(value).longValueExact();
            case SqlType.DoubleType ignored -> value instanceof Number number ? number.doubleValue() : Double.parseDouble(value.toString());
            case SqlType.DecimalType decimal -> exact(value).setScale(decimal.scale(), RoundingMode.UNNECESSARY);
            case SqlType.VarcharType ignored -> value.toString();
            case SqlType.CharType ignored -> value.toString();
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

    private static boolean parseBoolean(Object value) {
        return switch (value.toString().trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true", "1" -> true;
            case "false", "0" -> false;
            default -> throw new IllegalArgumentException("not a boolean: " + value);
        };
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
