package dev.columba.core.expr;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * CAST on Java values: the reference semantics every cast kernel must match. Conversions that
 * lose digits round half away from zero; text that does not parse is {@link ErrorCode#INVALID_CAST}
 * (22018), a value out of the target's range {@link ErrorCode#VALUE_OUT_OF_RANGE} (22003), a date
 * outside years 1 to 9999 {@link ErrorCode#DATETIME_OVERFLOW} (22008); each message names the value.
 *
 * <p>A binary string's text is its bytes in lowercase hexadecimal (as H2 and PostgreSQL's
 * {@code encode(b, 'hex')} write it), and text casts to binary by reading hexadecimal back, so the
 * two round-trip; a UUID's text is its canonical 8-4-4-4-12 lowercase form. A CAST to a shorter
 * VARBINARY keeps the first bytes, as a CAST to a shorter VARCHAR keeps the first characters.
 */
final class Casts {
    private static final Pattern INTEGER_TEXT = Pattern.compile("[+-]?\\d+");
    private static final Pattern NUMBER_TEXT = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern DATE_TEXT = Pattern.compile("(\\d{4})-(\\d{1,2})-(\\d{1,2})");
    private static final Pattern TIMESTAMP_TEXT = Pattern.compile(
            "(\\d{4})-(\\d{1,2})-(\\d{1,2})(?:[ T](\\d{1,2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d{1,9}))?)?)?");
    private static final Pattern UUID_TEXT = Pattern.compile(
            "\\p{XDigit}{8}(-?)\\p{XDigit}{4}\\1\\p{XDigit}{4}\\1\\p{XDigit}{4}\\1\\p{XDigit}{12}");
    private static final BigDecimal INT_MIN = BigDecimal.valueOf(Integer.MIN_VALUE);
    private static final BigDecimal INT_MAX = BigDecimal.valueOf(Integer.MAX_VALUE);
    private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);
    static final LocalDate MIN_DATE = LocalDate.of(1, 1, 1);
    static final LocalDate MAX_DATE = LocalDate.of(9999, 12, 31);

    private Casts() {
    }

    /** {@code value} (of {@code from}, or null) as a value of {@code to}. */
    static Object cast(Object value, SqlType from, SqlType to) {
        if (value == null || from.equals(to)) {
            return value;
        }
        return switch (to) {
            case SqlType.BooleanType ignored -> toBoolean(value, from);
            case SqlType.IntegerType ignored -> (int) toLong(value, from, to, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case SqlType.BigintType ignored -> toLong(value, from, to, Long.MIN_VALUE, Long.MAX_VALUE);
            case SqlType.DoubleType ignored -> toDouble(value, from);
            case SqlType.DecimalType decimal -> toDecimal(value, from, decimal);
            case SqlType.VarcharType varchar -> truncate(toText(value, from), varchar.maxLength());
            case SqlType.CharType character -> pad(truncate(toText(value, from), character.length()), character.length());
            case SqlType.VarbinaryType varbinary -> truncate(toBytes(value, from, to), varbinary.maxLength());
            case SqlType.BinaryType binary -> Arrays.copyOf(toBytes(value, from, to), binary.length());
            case SqlType.UuidType ignored -> toUuid(value, from);
            case SqlType.DateType ignored -> toDate(value, from);
            case SqlType.TimestampType ignored -> toTimestamp(value, from);
        };
    }

    /**
     * The bytes of a binary string, of a UUID, or that hexadecimal text writes (the inverse of
     * CAST of bytes to text: {@code 0a1b}, {@code 0x0A1B} or {@code \x0a1b}).
     */
    private static byte[] toBytes(Object value, SqlType from, SqlType to) {
        return switch (value) {
            case byte[] bytes -> bytes;
            case UUID uuid -> Values.uuidToBytes(uuid);
            case String text -> {
                byte[] bytes = Values.parseHex(text);
                if (bytes == null) {
                    throw invalid(text, to);
                }
                yield bytes;
            }
            default -> throw unsupported(value, from, to);
        };
    }

    /** The first {@code length} bytes of {@code bytes}. */
    private static byte[] truncate(byte[] bytes, int length) {
        return bytes.length <= length ? bytes : Arrays.copyOf(bytes, length);
    }

    private static UUID toUuid(Object value, SqlType from) {
        return switch (value) {
            case UUID uuid -> uuid;
            case byte[] bytes -> {
                if (bytes.length != SqlType.UuidType.BYTES) {
                    throw new ColumbaException(ErrorCode.INVALID_CAST, "invalid value for CAST to UUID: a binary string of "
                            + bytes.length + " bytes (a UUID has 16)");
                }
                yield Values.bytesToUuid(bytes, 0);
            }
            case String text -> parseUuid(text);
            default -> throw unsupported(value, from, SqlType.UUID);
        };
    }

    /**
     * A UUID's text: 32 hexadecimal digits, either case, in groups of 8-4-4-4-12 separated by
     * hyphens or without them, optionally in braces (as SQL Server and PostgreSQL read it).
     */
    static UUID parseUuid(String text) {
        String digits = text.strip();
        if (digits.length() >= 2 && digits.charAt(0) == '{' && digits.charAt(digits.length() - 1) == '}') {
            digits = digits.substring(1, digits.length() - 1);
        }
        if (!UUID_TEXT.matcher(digits).matches()) {
            throw invalid(text, SqlType.UUID);
        }
        String plain = digits.replace("-", "");
        return new UUID(Long.parseUnsignedLong(plain.substring(0, 16), 16), Long.parseUnsignedLong(plain.substring(16), 16));
    }

    private static boolean toBoolean(Object value, SqlType from) {
        return switch (value) {
            case Boolean bool -> bool;
            case Integer number -> number != 0;
            case Long number -> number != 0;
            case String text -> switch (text.strip().toLowerCase(Locale.ROOT)) {
                case "true", "t", "yes", "y", "on", "1" -> true;
                case "false", "f", "no", "n", "off", "0" -> false;
                default -> throw invalid(text, SqlType.BOOLEAN);
            };
            default -> throw unsupported(value, from, SqlType.BOOLEAN);
        };
    }

    private static long toLong(Object value, SqlType from, SqlType to, long min, long max) {
        long result = switch (value) {
            case Boolean bool -> bool ? 1 : 0;
            case Integer number -> number;
            case Long number -> number;
            case BigDecimal number -> rangeChecked(number.setScale(0, RoundingMode.HALF_UP), to);
            case Double number -> {
                if (number.isNaN() || number.isInfinite()) {
                    throw outOfRange(number, to);
                }
                yield rangeChecked(new BigDecimal(number).setScale(0, RoundingMode.HALF_UP), to);
            }
            case String text -> {
                String trimmed = text.strip();
                if (!INTEGER_TEXT.matcher(trimmed).matches()) {
                    throw invalid(text, to);
                }
                yield rangeChecked(new BigDecimal(trimmed), to);
            }
            default -> throw unsupported(value, from, to);
        };
        if (result < min || result > max) {
            throw outOfRange(value, to);
        }
        return result;
    }

    private static long rangeChecked(BigDecimal integral, SqlType to) {
        boolean isInt = to instanceof SqlType.IntegerType;
        if (integral.compareTo(isInt ? INT_MIN : LONG_MIN) < 0 || integral.compareTo(isInt ? INT_MAX : LONG_MAX) > 0) {
            throw outOfRange(integral, to);
        }
        return integral.longValueExact();
    }

    private static double toDouble(Object value, SqlType from) {
        return switch (value) {
            case Integer number -> number;
            case Long number -> (double) number;
            case BigDecimal number -> number.doubleValue();
            case Double number -> number;
            case String text -> parseDouble(text);
            default -> throw unsupported(value, from, SqlType.DOUBLE);
        };
    }

    private static double parseDouble(String text) {
        String trimmed = text.strip();
        switch (trimmed.toLowerCase(Locale.ROOT)) {
            case "nan" -> {
                return Double.NaN;
            }
            case "infinity", "+infinity" -> {
                return Double.POSITIVE_INFINITY;
            }
            case "-infinity" -> {
                return Double.NEGATIVE_INFINITY;
            }
            default -> {
                if (!NUMBER_TEXT.matcher(trimmed).matches()) {
                    throw invalid(text, SqlType.DOUBLE);
                }
                double result = Double.parseDouble(trimmed);
                if (Double.isInfinite(result)) {
                    throw outOfRange(text, SqlType.DOUBLE);
                }
                return result;
            }
        }
    }

    private static BigDecimal toDecimal(Object value, SqlType from, SqlType.DecimalType to) {
        BigDecimal exact = switch (value) {
            case Integer number -> BigDecimal.valueOf(number);
            case Long number -> BigDecimal.valueOf(number);
            case BigDecimal number -> number;
            case Double number -> {
                if (number.isNaN() || number.isInfinite()) {
                    throw outOfRange(number, to);
                }
                yield BigDecimal.valueOf(number);
            }
            case String text -> {
                String trimmed = text.strip();
                if (!NUMBER_TEXT.matcher(trimmed).matches()) {
                    throw invalid(text, to);
                }
                yield decimalText(trimmed, text, to);
            }
            default -> throw unsupported(value, from, to);
        };
        return fitDecimal(exact, to, value);
    }

    /**
     * The number {@code trimmed} (which matches {@link #NUMBER_TEXT}) writes. An exponent beyond what
     * BigDecimal holds (its magnitude 2^31 or more, "1e9999999999") is decided without it: negative, or
     * with only zero digits before it, the value rounds to 0 at any scale a DECIMAL has; positive, the
     * value is larger than any DECIMAL.
     */
    private static BigDecimal decimalText(String trimmed, String original, SqlType.DecimalType to) {
        try {
            return new BigDecimal(trimmed);
        } catch (NumberFormatException e) {
            int exponentAt = Math.max(trimmed.indexOf('e'), trimmed.indexOf('E'));
            if (exponentAt < 0) {
                throw e;
            }
            BigDecimal digits = new BigDecimal(trimmed.substring(0, exponentAt));
            if (digits.signum() == 0 || trimmed.charAt(exponentAt + 1) == '-') {
                return BigDecimal.ZERO;
            }
            throw outOfRange(original, to);
        }
    }

    /**
     * {@code exact} rounded half away from zero to the scale of {@code type}, or an error naming
     * {@code original} when it has too many digits for the type's precision.
     */
    static BigDecimal fitDecimal(BigDecimal exact, SqlType.DecimalType type, Object original) {
        BigDecimal scaled = exact.setScale(type.scale(), RoundingMode.HALF_UP);
        if (scaled.signum() != 0 && scaled.precision() > type.precision()) {
            throw outOfRange(original, type);
        }
        return scaled;
    }

    /** The text of a value as CAST to a string writes it. */
    static String toText(Object value, SqlType from) {
        return switch (value) {
            case Boolean bool -> bool ? "TRUE" : "FALSE";
            case Integer number -> number.toString();
            case Long number -> number.toString();
            case Double number -> number.toString();
            case BigDecimal number -> number.toPlainString();
            case String text -> text;
            case LocalDate date -> date.toString();
            case LocalDateTime timestamp -> timestampText(timestamp);
            case byte[] bytes -> Values.hex(bytes);
            case UUID uuid -> uuid.toString();
            default -> throw unsupported(value, from, SqlType.varchar(1));
        };
    }

    /** {@code yyyy-MM-dd HH:mm:ss}, with the fraction of a second when there is one and without its trailing zeros. */
    static String timestampText(LocalDateTime timestamp) {
        StringBuilder text = new StringBuilder(26);
        text.append(timestamp.toLocalDate()).append(' ');
        appendTwoDigits(text, timestamp.getHour()).append(':');
        appendTwoDigits(text, timestamp.getMinute()).append(':');
        appendTwoDigits(text, timestamp.getSecond());
        int micros = timestamp.getNano() / 1_000;
        if (micros != 0) {
            String fraction = String.format(Locale.ROOT, "%06d", micros);
            int end = fraction.length();
            while (fraction.charAt(end - 1) == '0') {
                end--;
            }
            text.append('.').append(fraction, 0, end);
        }
        return text.toString();
    }

    private static StringBuilder appendTwoDigits(StringBuilder text, int value) {
        if (value < 10) {
            text.append('0');
        }
        return text.append(value);
    }

    /** The first {@code length} characters (code points) of {@code text}. */
    static String truncate(String text, int length) {
        if (text.length() <= length) {
            return text;
        }
        int codePoints = text.codePointCount(0, text.length());
        if (codePoints <= length) {
            return text;
        }
        return text.substring(0, text.offsetByCodePoints(0, length));
    }

    private static String pad(String text, int length) {
        int codePoints = text.codePointCount(0, text.length());
        return codePoints >= length ? text : text + " ".repeat(length - codePoints);
    }

    private static LocalDate toDate(Object value, SqlType from) {
        return switch (value) {
            case LocalDate date -> date;
            case LocalDateTime timestamp -> timestamp.toLocalDate();
            case String text -> {
                Matcher matcher = DATE_TEXT.matcher(text.strip());
                if (!matcher.matches()) {
                    throw invalid(text, SqlType.DATE);
                }
                yield checkedDate(() -> LocalDate.of(Integer.parseInt(matcher.group(1)),
                        Integer.parseInt(matcher.group(2)), Integer.parseInt(matcher.group(3))), text, SqlType.DATE);
            }
            default -> throw unsupported(value, from, SqlType.DATE);
        };
    }

    private static LocalDateTime toTimestamp(Object value, SqlType from) {
        return switch (value) {
            case LocalDate date -> date.atStartOfDay();
            case LocalDateTime timestamp -> timestamp;
            case String text -> {
                Matcher matcher = TIMESTAMP_TEXT.matcher(text.strip());
                if (!matcher.matches()) {
                    throw invalid(text, SqlType.TIMESTAMP);
                }
                LocalDate date = checkedDate(() -> LocalDate.of(Integer.parseInt(matcher.group(1)),
                        Integer.parseInt(matcher.group(2)), Integer.parseInt(matcher.group(3))), text, SqlType.TIMESTAMP);
                if (matcher.group(4) == null) {
                    yield date.atStartOfDay();
                }
                String fraction = matcher.group(7) == null ? "0" : matcher.group(7);
                int nanos = Integer.parseInt((fraction + "00000000").substring(0, 9));
                try {
                    LocalTime time = LocalTime.of(Integer.parseInt(matcher.group(4)), Integer.parseInt(matcher.group(5)),
                            matcher.group(6) == null ? 0 : Integer.parseInt(matcher.group(6)), nanos);
                    yield date.atTime(time).truncatedTo(ChronoUnit.MICROS);
                } catch (DateTimeException e) {
                    throw invalid(text, SqlType.TIMESTAMP);
                }
            }
            default -> throw unsupported(value, from, SqlType.TIMESTAMP);
        };
    }

    private interface DateMaker {
        LocalDate make();
    }

    private static LocalDate checkedDate(DateMaker maker, String text, SqlType to) {
        LocalDate date;
        try {
            date = maker.make();
        } catch (DateTimeException e) {
            throw invalid(text, to);
        }
        if (date.isBefore(MIN_DATE)) {
            throw new ColumbaException(ErrorCode.DATETIME_OVERFLOW, "'" + text + "' is outside the years 1 to 9999");
        }
        return date;
    }

    static ColumbaException invalid(String text, SqlType to) {
        return new ColumbaException(ErrorCode.INVALID_CAST, "invalid value for CAST to " + to.sqlName() + ": '" + text + "'");
    }

    static ColumbaException outOfRange(Object value, SqlType to) {
        String shown = value instanceof String text ? "'" + text + "'"
                : value instanceof BigDecimal decimal ? decimal.toPlainString() : String.valueOf(value);
        return new ColumbaException(ErrorCode.VALUE_OUT_OF_RANGE, "value " + shown + " is out of range for " + to.sqlName());
    }

    private static ColumbaException unsupported(Object value, SqlType from, SqlType to) {
        return new ColumbaException(ErrorCode.WRONG_TYPE, "cannot cast " + from.sqlName() + " value " + value + " to " + to.sqlName());
    }

    /** {@code 10^exponent} as a BigInteger, for decimal range checks. */
    static BigInteger powerOfTen(int exponent) {
        return BigInteger.TEN.pow(exponent);
    }
}
