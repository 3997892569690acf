package dev.columba.core.expr;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The reference semantics of {@link ScalarFunction}s, {@link Expr.Extract}, {@link Expr.DateAdd}
 * and LIKE on Java values. Arguments are never NULL here: every function is NULL on NULL input,
 * which the caller handles.
 */
final class BuiltinFunctions {
    /** The longest string a function may build, in UTF-16 units (Java's own limit is near 2^31). */
    static final int MAX_STRING_LENGTH = 1 << 28;

    private BuiltinFunctions() {
    }

    static Object call(ScalarFunction function, List<SqlType> types, Object[] arguments, SqlType resultType) {
        return switch (function) {
            case CHAR_LENGTH -> {
                if (arguments[0] instanceof byte[] bytes) {
                    yield bytes.length;
                }
                String text = (String) arguments[0];
                yield text.codePointCount(0, text.length());
            }
            case UPPER -> ((String) arguments[0]).toUpperCase(Locale.ROOT);
            case LOWER -> ((String) arguments[0]).toLowerCase(Locale.ROOT);
            case SUBSTRING -> substring((String) arguments[0], ((Number) arguments[1]).longValue(),
                    arguments.length > 2 ? ((Number) arguments[2]).longValue() : Long.MAX_VALUE, arguments.length > 2);
            case TRIM -> trim((String) arguments[0], trimSet(arguments), true, true);
            case LTRIM -> trim((String) arguments[0], trimSet(arguments), true, false);
            case RTRIM -> trim((String) arguments[0], trimSet(arguments), false, true);
            case REPLACE -> replace((String) arguments[0], (String) arguments[1], (String) arguments[2]);
            case REPEAT -> repeat((String) arguments[0], ((Number) arguments[1]).longValue());
            case POSITION -> position((String) arguments[0], (String) arguments[1]);
            case CONCAT -> {
                StringBuilder text = new StringBuilder();
                for (Object argument : arguments) {
                    text.append((String) argument);
                    checkLength(text.length(), "CONCAT");
                }
                yield text.toString();
            }
            case ABS -> abs(arguments[0], resultType);
            case ROUND -> round(arguments[0], arguments.length > 1 ? ((Number) arguments[1]).longValue() : 0, resultType);
            case FLOOR -> floorOrCeiling(arguments[0], resultType, true);
            case CEIL -> floorOrCeiling(arguments[0], resultType, false);
            case POWER -> power(((Number) Casts.cast(arguments[0], types.get(0), SqlType.DOUBLE)).doubleValue(),
                    ((Number) Casts.cast(arguments[1], types.get(1), SqlType.DOUBLE)).doubleValue());
            case SQRT -> squareRoot(((Number) Casts.cast(arguments[0], types.get(0), SqlType.DOUBLE)).doubleValue());
            case DATEDIFF -> dateDiff((String) arguments[0], arguments[1], arguments[2]);
        };
    }

    static String substring(String text, long start, long length, boolean hasLength) {
        if (hasLength && length < 0) {
            throw negativeSubstringLength(length);
        }
        long characters = text.codePointCount(0, text.length());
        long end = hasLength ? saturatedAdd(start, length) : Long.MAX_VALUE;
        long from = Math.max(start, 1);
        long to = Math.min(end, characters + 1);
        if (to <= from) {
            return "";
        }
        int begin = text.offsetByCodePoints(0, (int) (from - 1));
        return text.substring(begin, text.offsetByCodePoints(begin, (int) (to - from)));
    }

    static ColumbaException negativeSubstringLength(long length) {
        return new ColumbaException(ErrorCode.SUBSTRING_ERROR, "negative substring length not allowed: " + length);
    }

    static long saturatedAdd(long left, long right) {
        long sum = left + right;
        if (((left ^ sum) & (right ^ sum)) < 0) {
            return left < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return sum;
    }

    private static String trimSet(Object[] arguments) {
        return arguments.length > 1 ? (String) arguments[1] : " ";
    }

    static String trim(String text, String characters, boolean leading, boolean trailing) {
        int begin = 0;
        int end = text.length();
        while (leading && begin < end && characters.indexOf(text.codePointAt(begin)) >= 0) {
            begin += Character.charCount(text.codePointAt(begin));
        }
        while (trailing && end > begin && characters.indexOf(text.codePointBefore(end)) >= 0) {
            end -= Character.charCount(text.codePointBefore(end));
        }
        return text.substring(begin, end);
    }

    private static String replace(String text, String from, String to) {
        if (from.isEmpty()) {
            return text;
        }
        String result = text.replace(from, to);
        checkLength(result.length(), "REPLACE");
        return result;
    }

    private static String repeat(String text, long count) {
        if (count <= 0 || text.isEmpty()) {
            return "";
        }
        checkLength(count > MAX_STRING_LENGTH ? Long.MAX_VALUE : text.length() * count, "REPEAT");
        return text.repeat((int) count);
    }

    static void checkLength(long length, String function) {
        if (length > MAX_STRING_LENGTH) {
            throw new ColumbaException(ErrorCode.VALUE_OUT_OF_RANGE,
                    function + " would build a string longer than " + MAX_STRING_LENGTH + " characters");
        }
    }

    private static int position(String needle, String haystack) {
        int index = haystack.indexOf(needle);
        return index < 0 ? 0 : haystack.codePointCount(0, index) + 1;
    }

    private static Object abs(Object value, SqlType type) {
        return switch (value) {
            case Integer number -> {
                if (number == Integer.MIN_VALUE) {
                    throw Casts.outOfRange("ABS(" + number + ")", type);
                }
                yield Math.abs(number);
            }
            case Long number -> {
                if (number == Long.MIN_VALUE) {
                    throw Casts.outOfRange("ABS(" + number + ")", type);
                }
                yield Math.abs(number);
            }
            case Double number -> Math.abs(number);
            case BigDecimal number -> number.abs();
            default -> throw new IllegalArgumentException("ABS of " + value);
        };
    }

    private static Object round(Object value, long digits, SqlType type) {
        int places = (int) Math.max(-400, Math.min(400, digits));
        return switch (value) {
            case Integer number -> (int) roundIntegral(number, places, type);
            case Long number -> roundIntegral(number, places, type);
            case Double number -> {
                if (number.isNaN() || number.isInfinite()) {
                    yield number;
                }
                yield BigDecimal.valueOf(number).setScale(places, RoundingMode.HALF_UP).doubleValue();
            }
            case BigDecimal number -> {
                SqlType.DecimalType decimal = (SqlType.DecimalType) type;
                BigDecimal rounded = places >= number.scale() ? number : number.setScale(places, RoundingMode.HALF_UP);
                yield Casts.fitDecimal(rounded, decimal, "ROUND(" + number.toPlainString() + ", " + digits + ")");
            }
            default -> throw new IllegalArgumentException("ROUND of " + value);
        };
    }

    private static long roundIntegral(long value, int places, SqlType type) {
        if (places >= 0) {
            return value;
        }
        BigDecimal rounded = BigDecimal.valueOf(value).setScale(places, RoundingMode.HALF_UP);
        BigDecimal limit = type instanceof SqlType.IntegerType
                ? BigDecimal.valueOf(Integer.MAX_VALUE) : BigDecimal.valueOf(Long.MAX_VALUE);
        if (rounded.abs().compareTo(limit) > 0) {
            throw Casts.outOfRange("ROUND(" + value + ", " + places + ")", type);
        }
        return rounded.longValueExact();
    }

    private static Object floorOrCeiling(Object value, SqlType type, boolean floor) {
        return switch (value) {
            case Integer number -> number;
            case Long number -> number;
            case Double number -> floor ? Math.floor(number) : Math.ceil(number);
            case BigDecimal number -> Casts.fitDecimal(
                    number.setScale(0, floor ? RoundingMode.FLOOR : RoundingMode.CEILING), (SqlType.DecimalType) type,
                    (floor ? "FLOOR(" : "CEIL(") + number.toPlainString() + ")");
            default -> throw new IllegalArgumentException("FLOOR/CEIL of " + value);
        };
    }

    static double power(double base, double exponent) {
        if (base == 0 && exponent < 0) {
            throw new ColumbaException(ErrorCode.INVALID_POWER_ARGUMENT,
                    "zero raised to a negative power is undefined: POWER(" + base + ", " + exponent + ")");
        }
        if (base < 0 && exponent != Math.rint(exponent)) {
            throw new ColumbaException(ErrorCode.INVALID_POWER_ARGUMENT,
                    "a negative number raised to a non-integer power is complex: POWER(" + base + ", " + exponent + ")");
        }
        double result = Math.pow(base, exponent);
        if (Double.isInfinite(result) && Double.isFinite(base) && Double.isFinite(exponent)) {
            throw Casts.outOfRange("POWER(" + base + ", " + exponent + ")", SqlType.DOUBLE);
        }
        return result;
    }

    static double squareRoot(double value) {
        if (value < 0) {
            throw new ColumbaException(ErrorCode.INVALID_POWER_ARGUMENT,
                    "cannot take the square root of a negative number: " + value);
        }
        return Math.sqrt(value);
    }

    /** DATEDIFF: the boundaries of the unit crossed from {@code start} to {@code end}, as SQL Server counts them. */
    static int dateDiff(String unitName, Object start, Object end) {
        IntervalUnit unit;
        try {
            unit = IntervalUnit.valueOf(unitName.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "'" + unitName + "' is not a DATEDIFF unit");
        }
        LocalDateTime from = start instanceof LocalDate date ? date.atStartOfDay() : (LocalDateTime) start;
        LocalDateTime to = end instanceof LocalDate date ? date.atStartOfDay() : (LocalDateTime) end;
        long count = switch (unit) {
            case YEAR -> (long) to.getYear() - from.getYear();
            case QUARTER -> quarterNumber(to) - quarterNumber(from);
            case MONTH -> monthNumber(to) - monthNumber(from);
            // 1970-01-04, epoch day 3, was a Sunday: day + 4 counts weeks from Sunday to Saturday.
            case WEEK -> Math.floorDiv(to.toLocalDate().toEpochDay() + 4, 7)
                    - Math.floorDiv(from.toLocalDate().toEpochDay() + 4, 7);
            case DAY -> to.toLocalDate().toEpochDay() - from.toLocalDate().toEpochDay();
            case HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND ->
                    Math.floorDiv(epochMicros(to), unit.micros()) - Math.floorDiv(epochMicros(from), unit.micros());
        };
        if (count != (int) count) {
            throw new ColumbaException(ErrorCode.VALUE_OUT_OF_RANGE, "The datediff function resulted in an overflow: "
                    + count + " " + unit + " boundaries between " + start + " and " + end + " do not fit in an INT");
        }
        return (int) count;
    }

    private static long quarterNumber(LocalDateTime timestamp) {
        return timestamp.getYear() * 4L + (timestamp.getMonthValue() - 1) / 3;
    }

    private static long monthNumber(LocalDateTime timestamp) {
        return timestamp.getYear() * 12L + timestamp.getMonthValue() - 1;
    }

    /** Microseconds since 1970; years 1 to 9999 stay within a long. */
    private static long epochMicros(LocalDateTime timestamp) {
        return timestamp.toLocalDate().toEpochDay() * IntervalUnit.DAY.micros() + timestamp.toLocalTime().toNanoOfDay() / 1_000;
    }

    static long extract(DateTimeField field, Object value) {
        LocalDateTime timestamp = value instanceof LocalDate date ? date.atStartOfDay() : (LocalDateTime) value;
        return switch (field) {
            case YEAR -> timestamp.getYear();
            case QUARTER -> (timestamp.getMonthValue() - 1) / 3 + 1;
            case MONTH -> timestamp.getMonthValue();
            case DAY -> timestamp.getDayOfMonth();
            case DOW -> timestamp.getDayOfWeek().getValue() % 7 + 1;
            case DOY -> timestamp.getDayOfYear();
            case HOUR -> timestamp.getHour();
            case MINUTE -> timestamp.getMinute();
            case SECOND -> timestamp.getSecond();
        };
    }

    static Object dateAdd(Object value, long amount, IntervalUnit unit) {
        try {
            if (value instanceof LocalDate date) {
                LocalDate result = unit.monthBased()
                        ? date.plusMonths(Math.multiplyExact(amount, unit.months()))
                        : date.plusDays(Math.multiplyExact(amount, unit.micros() / IntervalUnit.DAY.micros()));
                return checkDateRange(result.atStartOfDay(), value, amount, unit).toLocalDate();
            }
            LocalDateTime timestamp = (LocalDateTime) value;
            LocalDateTime result = unit.monthBased()
                    ? timestamp.plusMonths(Math.multiplyExact(amount, unit.months()))
                    : timestamp.plus(Math.multiplyExact(amount, unit.micros()), ChronoUnit.MICROS);
            return checkDateRange(result, value, amount, unit);
        } catch (ArithmeticException | DateTimeException e) {
            throw dateOverflow(value, amount, unit);
        }
    }

    private static LocalDateTime checkDateRange(LocalDateTime result, Object value, long amount, IntervalUnit unit) {
        if (result.toLocalDate().isBefore(Casts.MIN_DATE) || result.toLocalDate().isAfter(Casts.MAX_DATE)) {
            throw dateOverflow(value, amount, unit);
        }
        return result;
    }

    static ColumbaException dateOverflow(Object value, long amount, IntervalUnit unit) {
        String shown = value instanceof LocalDateTime timestamp ? Casts.timestampText(timestamp) : value.toString();
        return new ColumbaException(ErrorCode.DATETIME_OVERFLOW,
                shown + " + " + amount + " " + unit + " is outside the years 1 to 9999");
    }

    /** Whether {@code value} matches the LIKE {@code pattern}, through a regular expression (the reference). */
    static boolean like(String value, String pattern, String escape) {
        int escapeCodePoint = escapeCodePoint(escape);
        StringBuilder regex = new StringBuilder(pattern.length() * 2);
        for (int index = 0; index < pattern.length(); ) {
            int codePoint = pattern.codePointAt(index);
            index += Character.charCount(codePoint);
            if (codePoint == escapeCodePoint) {
                if (index >= pattern.length()) {
                    throw new ColumbaException(ErrorCode.INVALID_ESCAPE_SEQUENCE,
                            "LIKE pattern must not end with the escape character: '" + pattern + "'");
                }
                int escaped = pattern.codePointAt(index);
                index += Character.charCount(escaped);
                regex.append(Pattern.quote(Character.toString(escaped)));
            } else if (codePoint == '%') {
                regex.append(".*");
            } else if (codePoint == '_') {
                regex.append('.');
            } else {
                regex.append(Pattern.quote(Character.toString(codePoint)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL).matcher(value).matches();
    }

    /** The escape character of a LIKE, or -1 for none; an escape of other than one character is an error (22025). */
    static int escapeCodePoint(String escape) {
        if (escape == null) {
            return -1;
        }
        if (escape.codePointCount(0, escape.length()) != 1) {
            throw new ColumbaException(ErrorCode.INVALID_ESCAPE_SEQUENCE,
                    "LIKE ESCAPE must be a single character, was '" + escape + "'");
        }
        return escape.codePointAt(0);
    }
}
