package dev.columba.server.session;

import dev.columba.server.protocol.FrontendMessage.Format;
import dev.columba.server.protocol.PgTypes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Values between PostgreSQL's wire forms and the Java values Columba's driver binds and returns: parameters
 * decode from text or binary by their type OID, results encode to text or binary by their column's OID.
 *
 * <p>A parameter of unspecified type (OID 0) stays text and Columba converts it to the type the statement
 * gives it, as PostgreSQL types an unknown literal from its context. One exception: text in PostgreSQL's
 * date-time-with-zone form ({@code 2024-05-01 +02}, {@code 2024-05-01 10:00:00.5+02}), which pgJDBC sends for
 * {@code setDate} and {@code setTimestamp}, becomes a date or timestamp with the zone dropped, as PostgreSQL's
 * {@code timestamp without time zone} input drops it; such text bound to a character column loses its zone too.
 */
final class Values {
    /** Day 0 of PostgreSQL's binary dates and timestamps. */
    private static final LocalDate POSTGRES_EPOCH = LocalDate.of(2000, 1, 1);
    private static final LocalDateTime POSTGRES_EPOCH_TIME = POSTGRES_EPOCH.atStartOfDay();

    private static final Pattern ZONED_DATE_TIME = Pattern.compile(
            "(\\d{4,}-\\d{2}-\\d{2})(?:[ T](\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,9})?))? ?[+-]\\d{2}(?::?\\d{2}(?::?\\d{2})?)?( BC)?");

    /** {@code yyyy-MM-dd HH:mm:ss} and up to nine fraction digits, the way PostgreSQL prints and reads them. */
    private static final DateTimeFormatter TIMESTAMP = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .appendLiteral(' ')
            .appendPattern("HH:mm:ss")
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
            .toFormatter(Locale.ROOT);

    private static final DateTimeFormatter TIMESTAMP_WITH_ZONE = new DateTimeFormatterBuilder()
            .append(TIMESTAMP)
            .appendOffset("+HH:mm", "+00")
            .toFormatter(Locale.ROOT);

    private Values() {
    }

    // ---- parameters -----------------------------------------------------------------------------

    /** The Java value to bind for a parameter's bytes (null for SQL NULL). */
    static Object decodeParameter(byte[] bytes, int typeOid, Format format, int parameterNumber) {
        if (bytes == null) {
            return null;
        }
        try {
            return switch (format) {
                case TEXT -> decodeText(new String(bytes, StandardCharsets.UTF_8), typeOid);
                case BINARY -> decodeBinary(bytes, typeOid);
            };
        } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
            throw new WireSqlException("22P02", "invalid " + format.name().toLowerCase(Locale.ROOT) + " value for parameter $"
                    + parameterNumber + " of type OID " + typeOid + ": " + e.getMessage());
        }
    }

    private static Object decodeText(String text, int typeOid) {
        return switch (typeOid) {
            case PgTypes.BOOL -> parseBoolean(text);
            case PgTypes.INT2, PgTypes.INT4 -> Integer.parseInt(text.strip());
            case PgTypes.INT8 -> Long.parseLong(text.strip());
            case PgTypes.FLOAT4, PgTypes.FLOAT8 -> parseDouble(text.strip());
            case PgTypes.NUMERIC -> new BigDecimal(text.strip());
            case PgTypes.DATE -> LocalDate.parse(text.strip());
            case PgTypes.TIMESTAMP -> LocalDateTime.parse(text.strip(), TIMESTAMP);
            case PgTypes.TIMESTAMPTZ -> OffsetDateTime.parse(text.strip(), TIMESTAMP_WITH_ZONE)
                    .withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
            case PgTypes.UNSPECIFIED -> zonedDateTimeOrText(text);
            case PgTypes.UUID -> canonicalUuid(text);
            case PgTypes.BYTEA -> byteaText(text);
            default -> text;
        };
    }

    private static Object zonedDateTimeOrText(String text) {
        Matcher matcher = ZONED_DATE_TIME.matcher(text.strip());
        if (!matcher.matches() || matcher.group(3) != null) {
            return text;
        }
        LocalDate date = LocalDate.parse(matcher.group(1));
        if (matcher.group(2) == null) {
            return date;
        }
        return LocalDateTime.parse(matcher.group(1) + " " + matcher.group(2), TIMESTAMP);
    }

    /**
     * A uuid in the forms PostgreSQL reads (upper or lower case, with or without hyphens, in braces) as the
     * canonical lower-case text it prints, which is what a Columba VARCHAR column keeps of it.
     */
    private static String canonicalUuid(String text) {
        String digits = text.strip();
        if (digits.startsWith("{") && digits.endsWith("}")) {
            digits = digits.substring(1, digits.length() - 1);
        }
        digits = digits.replace("-", "").toLowerCase(Locale.ROOT);
        if (digits.length() != 32 || !digits.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw new NumberFormatException("'" + text + "' is not a uuid");
        }
        return digits.substring(0, 8) + "-" + digits.substring(8, 12) + "-" + digits.substring(12, 16) + "-"
                + digits.substring(16, 20) + "-" + digits.substring(20);
    }

    /** bytea's hex input form, {@code \x} and two hexadecimal digits a byte (PostgreSQL's escape form is not read). */
    private static byte[] byteaText(String text) {
        byte[] bytes = text.startsWith("\\x") ? dev.columba.core.type.Values.parseHex(text) : null;
        if (bytes == null) {
            throw new NumberFormatException("'" + text + "' is not bytea's hex form (\\x followed by pairs of hexadecimal digits)");
        }
        return bytes;
    }

    private static boolean parseBoolean(String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "t", "true", "y", "yes", "on", "1" -> true;
            case "f", "false", "n", "no", "off", "0" -> false;
            default -> throw new NumberFormatException("'" + text + "' is not a boolean");
        };
    }

    private static double parseDouble(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "nan" -> Double.NaN;
            case "infinity", "+infinity" -> Double.POSITIVE_INFINITY;
            case "-infinity" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(text);
        };
    }

    private static Object decodeBinary(byte[] bytes, int typeOid) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        Object value = switch (typeOid) {
            case PgTypes.BOOL -> {
                expectLength(bytes, 1, typeOid);
                yield bytes[0] != 0;
            }
            case PgTypes.INT2 -> {
                expectLength(bytes, 2, typeOid);
                yield (int) buffer.getShort();
            }
            case PgTypes.INT4 -> {
                expectLength(bytes, 4, typeOid);
                yield buffer.getInt();
            }
            case PgTypes.INT8 -> {
                expectLength(bytes, 8, typeOid);
                yield buffer.getLong();
            }
            case PgTypes.FLOAT4 -> {
                expectLength(bytes, 4, typeOid);
                // Through its shortest decimal form, so 0.1f binds as 0.1.
                yield Double.parseDouble(Float.toString(buffer.getFloat()));
            }
            case PgTypes.FLOAT8 -> {
                expectLength(bytes, 8, typeOid);
                yield buffer.getDouble();
            }
            case PgTypes.DATE -> {
                expectLength(bytes, 4, typeOid);
                yield POSTGRES_EPOCH.plusDays(buffer.getInt());
            }
            case PgTypes.TIMESTAMP, PgTypes.TIMESTAMPTZ -> {
                expectLength(bytes, 8, typeOid);
                yield POSTGRES_EPOCH_TIME.plus(buffer.getLong(), ChronoUnit.MICROS);
            }
            case PgTypes.NUMERIC -> BinaryNumeric.decode(buffer);
            case PgTypes.UUID -> {
                expectLength(bytes, 16, typeOid);
                yield new java.util.UUID(buffer.getLong(), buffer.getLong()).toString();
            }
            case PgTypes.TEXT, PgTypes.VARCHAR, PgTypes.BPCHAR, PgTypes.UNSPECIFIED ->
                    new String(bytes, StandardCharsets.UTF_8);
            case PgTypes.BYTEA -> bytes;
            default -> throw new WireSqlException("0A000", "binary parameters of type OID " + typeOid
                    + " are not supported; send them as text");
        };
        return value;
    }

    private static void expectLength(byte[] bytes, int length, int typeOid) {
        if (bytes.length != length) {
            throw new WireSqlException("22P03", "binary value of type OID " + typeOid + " has " + bytes.length
                    + " bytes, expected " + length);
        }
    }

    // ---- results ------------------------------------------------------------------------------

    /** The wire bytes of a non-null result value of the column type {@code typeOid}. */
    static byte[] encode(Object value, int typeOid, Format format) {
        return switch (format) {
            case TEXT -> text(value).getBytes(StandardCharsets.UTF_8);
            case BINARY -> binary(value, typeOid);
        };
    }

    /** PostgreSQL's text output of a value (the form psql prints and clients parse). */
    static String text(Object value) {
        return switch (value) {
            case Boolean bool -> bool ? "t" : "f";
            case Double number -> doubleText(number);
            case Float number -> doubleText(Double.parseDouble(number.toString()));
            case BigDecimal decimal -> decimal.toPlainString();
            case LocalDateTime timestamp -> TIMESTAMP.format(timestamp);
            case LocalDate date -> date.toString();
            case java.sql.Timestamp timestamp -> TIMESTAMP.format(timestamp.toLocalDateTime());
            case java.sql.Date date -> date.toLocalDate().toString();
            // bytea's hex output form (PostgreSQL's default bytea_output).
            case byte[] bytes -> "\\x" + dev.columba.core.type.Values.hex(bytes);
            default -> value.toString();
        };
    }

    /**
     * The shortest text that reads back as the same double, in PostgreSQL's layout (its {@code float8out}
     * with {@code extra_float_digits} above 0): positional from 1e-4 up to 1e15, else {@code 1.5e+20}.
     */
    static String doubleText(double number) {
        if (Double.isNaN(number)) {
            return "NaN";
        }
        if (Double.isInfinite(number)) {
            return number > 0 ? "Infinity" : "-Infinity";
        }
        if (number == 0) {
            return 1 / number < 0 ? "-0" : "0";
        }
        BigDecimal shortest = new BigDecimal(Double.toString(number)).stripTrailingZeros();
        int exponent = shortest.precision() - shortest.scale() - 1;
        if (exponent < -4 || exponent >= 15) {
            String digits = shortest.unscaledValue().abs().toString();
            StringBuilder out = new StringBuilder();
            if (shortest.signum() < 0) {
                out.append('-');
            }
            out.append(digits.charAt(0));
            if (digits.length() > 1) {
                out.append('.').append(digits, 1, digits.length());
            }
            out.append('e').append(exponent < 0 ? '-' : '+');
            int magnitude = Math.abs(exponent);
            if (magnitude < 10) {
                out.append('0');
            }
            return out.append(magnitude).toString();
        }
        return shortest.toPlainString();
    }

    private static byte[] binary(Object value, int typeOid) {
        return switch (typeOid) {
            case PgTypes.BOOL -> new byte[] {(byte) (((Boolean) value) ? 1 : 0)};
            case PgTypes.INT2 -> ByteBuffer.allocate(2).putShort(((Number) value).shortValue()).array();
            case PgTypes.INT4 -> ByteBuffer.allocate(4).putInt(((Number) value).intValue()).array();
            case PgTypes.INT8 -> ByteBuffer.allocate(8).putLong(((Number) value).longValue()).array();
            case PgTypes.FLOAT4 -> ByteBuffer.allocate(4).putFloat(((Number) value).floatValue()).array();
            case PgTypes.FLOAT8 -> ByteBuffer.allocate(8).putDouble(((Number) value).doubleValue()).array();
            case PgTypes.NUMERIC -> BinaryNumeric.encode(value instanceof BigDecimal decimal
                    ? decimal : new BigDecimal(value.toString()));
            case PgTypes.DATE -> ByteBuffer.allocate(4)
                    .putInt(Math.toIntExact(ChronoUnit.DAYS.between(POSTGRES_EPOCH, localDate(value)))).array();
            case PgTypes.TIMESTAMP -> ByteBuffer.allocate(8)
                    .putLong(ChronoUnit.MICROS.between(POSTGRES_EPOCH_TIME, localDateTime(value))).array();
            case PgTypes.TEXT, PgTypes.VARCHAR, PgTypes.BPCHAR -> text(value).getBytes(StandardCharsets.UTF_8);
            case PgTypes.BYTEA -> (byte[]) value;
            case PgTypes.UUID -> dev.columba.core.type.Values.uuidToBytes((java.util.UUID) value);
            default -> throw new WireSqlException("0A000", "binary results of type OID " + typeOid
                    + " are not supported; ask for text");
        };
    }

    /** Whether {@link #encode} can write a column of this type in binary. */
    static boolean hasBinaryForm(int typeOid) {
        return switch (typeOid) {
            case PgTypes.BOOL, PgTypes.INT2, PgTypes.INT4, PgTypes.INT8, PgTypes.FLOAT4, PgTypes.FLOAT8,
                 PgTypes.NUMERIC, PgTypes.DATE, PgTypes.TIMESTAMP, PgTypes.TEXT, PgTypes.VARCHAR,
                 PgTypes.BPCHAR, PgTypes.BYTEA, PgTypes.UUID -> true;
            default -> false;
        };
    }

    private static LocalDate localDate(Object value) {
        return value instanceof java.sql.Date date ? date.toLocalDate() : (LocalDate) value;
    }

    private static LocalDateTime localDateTime(Object value) {
        return value instanceof java.sql.Timestamp timestamp ? timestamp.toLocalDateTime() : (LocalDateTime) value;
    }

    /**
     * PostgreSQL's binary NUMERIC: int16 digit count, int16 weight (of the first digit, in base-10000 places),
     * int16 sign (0x0000 positive, 0x4000 negative, 0xC000 NaN), int16 display scale, then base-10000 digits.
     */
    static final class BinaryNumeric {
        private static final BigInteger TEN_THOUSAND = BigInteger.valueOf(10_000);
        private static final int POSITIVE = 0x0000;
        private static final int NEGATIVE = 0x4000;

        private BinaryNumeric() {
        }

        static byte[] encode(BigDecimal value) {
            int scale = Math.max(value.scale(), 0);
            // Align the scale to whole base-10000 digits, so the digits split at the decimal point.
            int alignedScale = (scale + 3) / 4 * 4;
            BigInteger unscaled = value.setScale(alignedScale).unscaledValue().abs();
            java.util.ArrayDeque<Short> digits = new java.util.ArrayDeque<>();
            while (unscaled.signum() > 0) {
                BigInteger[] quotientAndRemainder = unscaled.divideAndRemainder(TEN_THOUSAND);
                digits.addFirst(quotientAndRemainder[1].shortValue());
                unscaled = quotientAndRemainder[0];
            }
            int weight = digits.size() - alignedScale / 4 - 1;
            while (!digits.isEmpty() && digits.peekLast() == 0) {
                digits.removeLast();
            }
            while (!digits.isEmpty() && digits.peekFirst() == 0) {
                digits.removeFirst();
                weight--;
            }
            if (digits.isEmpty()) {
                weight = 0;
            }
            ByteBuffer out = ByteBuffer.allocate(8 + 2 * digits.size());
            out.putShort((short) digits.size());
            out.putShort((short) weight);
            out.putShort((short) (value.signum() < 0 ? NEGATIVE : POSITIVE));
            out.putShort((short) scale);
            for (short digit : digits) {
                out.putShort(digit);
            }
            return out.array();
        }

        static BigDecimal decode(ByteBuffer in) {
            if (in.remaining() < 8) {
                throw new WireSqlException("22P03", "binary NUMERIC has " + in.remaining() + " bytes, at least 8 expected");
            }
            int count = in.getShort();
            int weight = in.getShort();
            int sign = in.getShort() & 0xFFFF;
            int scale = in.getShort();
            if (sign != POSITIVE && sign != NEGATIVE) {
                throw new WireSqlException("22P03", "binary NUMERIC with sign 0x" + Integer.toHexString(sign)
                        + " (NaN or infinity) has no DECIMAL value");
            }
            if (count < 0 || in.remaining() != 2 * count) {
                throw new WireSqlException("22P03", "binary NUMERIC says " + count + " digits but has "
                        + in.remaining() + " bytes of them");
            }
            BigInteger unscaled = BigInteger.ZERO;
            for (int index = 0; index < count; index++) {
                unscaled = unscaled.multiply(TEN_THOUSAND).add(BigInteger.valueOf(in.getShort()));
            }
            // The digits so far stand for unscaled * 10000^(weight - count + 1).
            BigDecimal value = new BigDecimal(unscaled).scaleByPowerOfTen(4 * (weight - count + 1));
            if (sign == NEGATIVE) {
                value = value.negate();
            }
            return value.setScale(scale, java.math.RoundingMode.UNNECESSARY);
        }
    }
}
