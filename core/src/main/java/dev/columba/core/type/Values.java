package dev.columba.core.type;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.nio.ByteOrder;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.UUID;

/**
 * Conversions between the Java representation of values (see {@link SqlType}) and the
 * primitive forms they are stored in: days since the epoch for DATE, microseconds for TIMESTAMP,
 * unscaled integers for DECIMAL, 16 big-endian bytes for UUID, hexadecimal text for binary
 * strings. Also the check that a value fits its type.
 */
public final class Values {
    private static final LocalDateTime EPOCH = LocalDateTime.of(1970, 1, 1, 0, 0);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final HexFormat HEX = HexFormat.of();

    private Values() {
    }

    public static int dateToDays(LocalDate date) {
        return Math.toIntExact(date.toEpochDay());
    }

    public static LocalDate daysToDate(int days) {
        return LocalDate.ofEpochDay(days);
    }

    public static long timestampToMicros(LocalDateTime timestamp) {
        long seconds = timestamp.toEpochSecond(ZoneOffset.UTC);
        return Math.addExact(Math.multiplyExact(seconds, 1_000_000L), timestamp.getNano() / 1_000);
    }

    public static LocalDateTime microsToTimestamp(long micros) {
        return EPOCH.plus(micros, ChronoUnit.MICROS);
    }

    /** The 16 bytes of a UUID, most significant first: the order its text writes them and the order UUIDs sort in. */
    public static byte[] uuidToBytes(UUID uuid) {
        byte[] bytes = new byte[SqlType.UuidType.BYTES];
        LONGS.set(bytes, 0, uuid.getMostSignificantBits());
        LONGS.set(bytes, 8, uuid.getLeastSignificantBits());
        return bytes;
    }

    /** The UUID of 16 bytes at {@code offset} as {@link #uuidToBytes} writes them. */
    public static UUID bytesToUuid(byte[] bytes, int offset) {
        return new UUID((long) LONGS.get(bytes, offset), (long) LONGS.get(bytes, offset + 8));
    }

    /** Lowercase hexadecimal digits, two a byte, without a prefix: the text of a binary value. */
    public static String hex(byte[] bytes) {
        return HEX.formatHex(bytes);
    }

    /**
     * The bytes that hexadecimal text writes, two digits a byte, either case, optionally after
     * {@code 0x} (SQL Server) or {@code \x} (PostgreSQL); null when the text is not that.
     */
    public static byte[] parseHex(String text) {
        String digits = text.strip();
        if (digits.length() >= 2 && digits.charAt(0) == '0' && (digits.charAt(1) == 'x' || digits.charAt(1) == 'X')
                || digits.startsWith("\\x")) {
            digits = digits.substring(2);
        }
        if (digits.length() % 2 != 0) {
            return null;
        }
        for (int index = 0; index < digits.length(); index++) {
            if (Character.digit(digits.charAt(index), 16) < 0) {
                return null;
            }
        }
        return HEX.parseHex(digits);
    }

    /**
     * Checks that {@code value} is a valid non-null value of {@code type} and returns it in
     * canonical form (DECIMAL at the type's scale, CHAR blank-padded, BINARY zero-padded,
     * TIMESTAMP truncated to microseconds).
     *
     * @throws IllegalArgumentException naming the type and the value when it does not fit
     */
    public static Object canonical(SqlType type, Object value) {
        return switch (type) {
            case SqlType.BooleanType ignored -> cast(type, value, Boolean.class);
            case SqlType.IntegerType ignored -> cast(type, value, Integer.class);
            case SqlType.BigintType ignored -> cast(type, value, Long.class);
            case SqlType.DoubleType ignored -> cast(type, value, Double.class);
            case SqlType.DecimalType decimal -> {
                BigDecimal number = cast(type, value, BigDecimal.class);
                BigDecimal scaled;
                try {
                    scaled = number.setScale(decimal.scale(), RoundingMode.UNNECESSARY);
                } catch (ArithmeticException e) {
                    throw new IllegalArgumentException(type.sqlName() + " cannot hold " + number + " without rounding");
                }
                if (scaled.precision() > decimal.precision() && scaled.signum() != 0) {
                    throw new IllegalArgumentException(type.sqlName() + " cannot hold " + number + ": too many digits");
                }
                yield scaled;
            }
            case SqlType.VarcharType varchar -> {
                String text = cast(type, value, String.class);
                if (text.codePointCount(0, text.length()) > varchar.maxLength()) {
                    throw new IllegalArgumentException(type.sqlName() + " cannot hold a string of "
                            + text.codePointCount(0, text.length()) + " characters");
                }
                yield text;
            }
            case SqlType.CharType character -> {
                String text = cast(type, value, String.class);
                int length = text.codePointCount(0, text.length());
                if (length > character.length()) {
                    throw new IllegalArgumentException(type.sqlName() + " cannot hold a string of " + length + " characters");
                }
                yield length == character.length() ? text : text + " ".repeat(character.length() - length);
            }
            case SqlType.VarbinaryType varbinary -> {
                byte[] bytes = cast(type, value, byte[].class);
                if (bytes.length > varbinary.maxLength()) {
                    throw new IllegalArgumentException(type.sqlName() + " cannot hold a value of " + bytes.length + " bytes");
                }
                yield bytes;
            }
            case SqlType.BinaryType binary -> {
                byte[] bytes = cast(type, value, byte[].class);
                if (bytes.length > binary.length()) {
                    throw new IllegalArgumentException(type.sqlName() + " cannot hold a value of " + bytes.length + " bytes");
                }
                yield bytes.length == binary.length() ? bytes : Arrays.copyOf(bytes, binary.length());
            }
            case SqlType.UuidType ignored -> cast(type, value, UUID.class);
            case SqlType.DateType ignored -> inStoredRange(type, cast(type, value, LocalDate.class));
            case SqlType.TimestampType ignored ->
                    inStoredRange(type, cast(type, value, LocalDateTime.class).truncatedTo(ChronoUnit.MICROS));
        };
    }

    /**
     * Stored dates are days since 1970 in an {@code int} and timestamps microseconds since 1970 in
     * a {@code long}: Java's types reach further (years up to 999,999,999), so a value beyond the
     * stored range is refused here rather than overflowing when it is encoded.
     */
    private static LocalDate inStoredRange(SqlType type, LocalDate date) {
        try {
            dateToDays(date);
        } catch (ArithmeticException outOfRange) {
            throw outsideStoredRange(type, date, "days", 32);
        }
        return date;
    }

    private static LocalDateTime inStoredRange(SqlType type, LocalDateTime timestamp) {
        try {
            timestampToMicros(timestamp);
        } catch (ArithmeticException outOfRange) {
            throw outsideStoredRange(type, timestamp, "microseconds", 64);
        }
        return timestamp;
    }

    private static IllegalArgumentException outsideStoredRange(SqlType type, Object value, String unit, int bits) {
        return new IllegalArgumentException(type.sqlName() + " value " + value + " is outside the stored range ("
                + unit + " since 1970-01-01 must fit in " + bits + " bits)");
    }

    private static <T> T cast(SqlType type, Object value, Class<T> javaClass) {
        if (!javaClass.isInstance(value)) {
            throw new IllegalArgumentException(type.sqlName() + " expects a " + javaClass.getSimpleName() + ", got "
                    + (value == null ? "null" : value.getClass().getSimpleName() + " " + value));
        }
        return javaClass.cast(value);
    }
}
