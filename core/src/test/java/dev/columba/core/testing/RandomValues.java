package dev.columba.core.testing;

import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Random;
import java.util.UUID;

/**
 * Random SQL values for randomized tests, with NULLs and the edge values that break code: the
 * extremes of each type, zero and negative zero, NaN and infinities, empty and non-ASCII strings,
 * leap days and the first and last dates SQL allows. Mostly small values, so arithmetic succeeds
 * often enough to compare results rather than errors.
 */
public final class RandomValues {
    private static final String[] ALPHABET = {"a", "b", "c", "A", "B", "%", "_", " ", "é", "ß", "\uD83D\uDE00", "1", "0", "x"};
    private static final String[] TEXTS = {"", " ", "12", " -7 ", "3.5", "1e3", "abc", "2020-02-29", "1999-12-31 23:59:59.5",
        "true", "F", "9999999999", "NaN", "-0"};

    private final Random random;
    private final double nullChance;

    public RandomValues(Random random, double nullChance) {
        this.random = random;
        this.nullChance = nullChance;
    }

    public Random random() {
        return random;
    }

    /** A value of {@code type} in its Java representation, or null. */
    public Object value(SqlType type) {
        if (random.nextDouble() < nullChance) {
            return null;
        }
        return nonNull(type);
    }

    public Object nonNull(SqlType type) {
        boolean edge = random.nextInt(10) == 0;
        return switch (type) {
            case SqlType.BooleanType ignored -> random.nextBoolean();
            case SqlType.IntegerType ignored -> edge
                    ? pick(Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, 1, Integer.MIN_VALUE + 1)
                    : random.nextInt(2001) - 1000;
            case SqlType.BigintType ignored -> edge
                    ? pick(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, (long) Integer.MAX_VALUE + 1, 1L << 53)
                    : (long) (random.nextInt(200_001) - 100_000);
            case SqlType.DoubleType ignored -> edge
                    ? pick(0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1e300, -2.5, 0.5,
                        Double.MIN_VALUE, 4.5e15)
                    : (random.nextInt(20_001) - 10_000) / 8.0;
            case SqlType.DecimalType decimal -> decimal(decimal, edge);
            case SqlType.VarcharType varchar -> truncate(random.nextInt(4) == 0 ? pick(TEXTS) : text(), varchar.maxLength());
            case SqlType.CharType character -> Values.canonical(type, truncate(text(), character.length()));
            case SqlType.VarbinaryType varbinary -> bytes(random.nextInt(Math.min(varbinary.maxLength(), 12) + 1), edge);
            case SqlType.BinaryType binary -> bytes(binary.length(), edge);
            case SqlType.UuidType ignored -> edge ? pick(new UUID(0, 0), new UUID(-1, -1), new UUID(Long.MIN_VALUE, 0))
                    : new UUID(random.nextLong(), random.nextLong());
            case SqlType.DateType ignored -> date(edge);
            case SqlType.TimestampType ignored -> date(edge).atStartOfDay()
                    .plusNanos(1000L * (edge ? pick(0L, 86_399_999_999L, 500_000L) : (long) (random.nextDouble() * 86_400_000_000L)));
        };
    }

    /** {@code length} random bytes; at the edges all 0x00 or all 0xff, the ends of the unsigned byte order. */
    private byte[] bytes(int length, boolean edge) {
        byte[] bytes = new byte[length];
        if (edge) {
            java.util.Arrays.fill(bytes, random.nextBoolean() ? (byte) 0 : (byte) 0xff);
        } else {
            random.nextBytes(bytes);
        }
        return bytes;
    }

    private BigDecimal decimal(SqlType.DecimalType type, boolean edge) {
        BigInteger limit = BigInteger.TEN.pow(type.precision()).subtract(BigInteger.ONE);
        BigInteger unscaled;
        if (edge) {
            unscaled = pick(limit, limit.negate(), BigInteger.ZERO, BigInteger.ONE, BigInteger.valueOf(5));
        } else if (random.nextInt(4) == 0) {
            unscaled = new BigInteger(limit.bitLength() + 2, random).mod(limit.add(BigInteger.ONE));
            unscaled = random.nextBoolean() ? unscaled : unscaled.negate();
        } else {
            unscaled = BigInteger.valueOf(random.nextInt(2_000_001) - 1_000_000).min(limit).max(limit.negate());
        }
        return new BigDecimal(unscaled, type.scale());
    }

    private LocalDate date(boolean edge) {
        if (edge) {
            return pick(LocalDate.of(1, 1, 1), LocalDate.of(9999, 12, 31), LocalDate.of(2000, 2, 29),
                    LocalDate.of(1970, 1, 1), LocalDate.of(1969, 12, 31), LocalDate.of(2024, 1, 31), LocalDate.of(1900, 3, 1));
        }
        return LocalDate.of(1950, 1, 1).plusDays(random.nextInt(60_000));
    }

    private String text() {
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(7);
        for (int character = 0; character < length; character++) {
            text.append(pick(ALPHABET));
        }
        return text.toString();
    }

    /** {@code text} cut to {@code length} code points. */
    public static String truncate(String text, int length) {
        if (text.codePointCount(0, text.length()) <= length) {
            return text;
        }
        return text.substring(0, text.offsetByCodePoints(0, length));
    }

    /** A random LIKE pattern over the alphabet of generated strings. */
    public String likePattern() {
        StringBuilder pattern = new StringBuilder();
        int length = random.nextInt(5);
        for (int element = 0; element < length; element++) {
            int kind = random.nextInt(4);
            pattern.append(kind == 0 ? "%" : kind == 1 ? "_" : pick(ALPHABET));
        }
        return pattern.toString();
    }

    public LocalDateTime timestamp() {
        return (LocalDateTime) nonNull(SqlType.TIMESTAMP);
    }

    @SafeVarargs
    public final <T> T pick(T... choices) {
        return choices[random.nextInt(choices.length)];
    }
}
