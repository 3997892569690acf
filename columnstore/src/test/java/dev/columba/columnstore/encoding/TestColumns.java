package dev.columba.columnstore.encoding;

import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Test columns: random Java values of every SQL type in several shapes, Arrow vectors filled and
 * read with Arrow's own accessors (not the code under test), and a reference SQL comparison
 * written independently of {@code ValueKind}.
 */
public final class TestColumns {
    public static final List<SqlType> TYPES = List.of(SqlType.BOOLEAN, SqlType.INT, SqlType.BIGINT, SqlType.DOUBLE,
            SqlType.decimal(9, 2), SqlType.decimal(18, 4), SqlType.decimal(38, 10), SqlType.varchar(40),
            SqlType.character(6), SqlType.DATE, SqlType.TIMESTAMP);

    /** How a generated column looks. */
    public enum Shape { RANDOM, SMALL_RANGE, SORTED_RUNS, FEW_DISTINCT, ALL_EQUAL, ALL_DISTINCT, EDGES, ALL_NULL }

    /**
     * The earliest timestamp whose microseconds a LocalDateTime round-trips through
     * {@code Values.timestampToMicros} (seconds times a million must not overflow).
     */
    static final long MIN_MICROS = Long.MIN_VALUE + 1_000_000;

    private static final LocalDateTime EPOCH = LocalDateTime.of(1970, 1, 1, 0, 0);

    private TestColumns() {
    }

    /** {@code rows} values of {@code type} in {@code shape}, about {@code nullFraction} of them NULL. */
    public static List<Object> values(SqlType type, Shape shape, int rows, double nullFraction, Random random) {
        List<Object> values = new ArrayList<>(rows);
        List<Object> pool = new ArrayList<>();
        int poolSize = 1 + random.nextInt(12);
        for (int index = 0; index < poolSize; index++) {
            pool.add(randomValue(type, random));
        }
        Object base = randomValue(type, random);
        for (int row = 0; row < rows; row++) {
            Object value = switch (shape) {
                case RANDOM -> randomValue(type, random);
                case SMALL_RANGE -> near(type, base, random);
                case SORTED_RUNS, FEW_DISTINCT -> pool.get(random.nextInt(pool.size()));
                case ALL_EQUAL -> base;
                case ALL_DISTINCT -> distinct(type, row, random);
                case EDGES -> random.nextBoolean() ? edgeValue(type, random) : randomValue(type, random);
                case ALL_NULL -> null;
            };
            values.add(random.nextDouble() < nullFraction ? null : value);
        }
        if (shape == Shape.SORTED_RUNS) {
            List<Object> sorted = new ArrayList<>(values.stream().filter(value -> value != null).toList());
            sorted.sort((left, right) -> compare(type, left, right));
            int next = 0;
            for (int row = 0; row < rows; row++) {
                if (values.get(row) != null) {
                    values.set(row, sorted.get(next++));
                }
            }
        }
        return values;
    }

    public static Object randomValue(SqlType type, Random random) {
        return switch (type) {
            case SqlType.BooleanType ignored -> random.nextBoolean();
            case SqlType.IntegerType ignored -> random.nextInt(4) == 0 ? random.nextInt(1000) - 500 : random.nextInt();
            case SqlType.BigintType ignored -> random.nextInt(4) == 0 ? (long) random.nextInt(100_000) : random.nextLong();
            case SqlType.DoubleType ignored -> switch (random.nextInt(6)) {
                case 0 -> (double) random.nextInt(100);
                case 1 -> random.nextGaussian() * 1e6;
                case 2 -> -random.nextDouble();
                default -> random.nextDouble() * 1000;
            };
            case SqlType.DecimalType decimal -> {
                BigInteger limit = BigInteger.TEN.pow(decimal.precision());
                BigInteger unscaled = random.nextInt(3) == 0 ? BigInteger.valueOf(random.nextInt(20_000) - 10_000)
                        : new BigInteger(limit.bitLength() + 8, random).mod(limit);
                if (random.nextBoolean()) {
                    unscaled = unscaled.negate();
                }
                yield new BigDecimal(unscaled, decimal.scale());
            }
            case SqlType.VarcharType varchar -> randomString(random, random.nextInt(Math.min(varchar.maxLength(), 40) + 1));
            case SqlType.CharType character -> padded(randomString(random, random.nextInt(character.length() + 1)), character.length());
            case SqlType.DateType ignored -> LocalDate.ofEpochDay(random.nextInt(200_000) - 100_000);
            case SqlType.TimestampType ignored -> micros(random.nextInt(4) == 0
                    ? Math.max(MIN_MICROS, Math.min(Long.MAX_VALUE - 1_000_000, random.nextLong()))
                    : (random.nextLong() >> 12));
            case SqlType.VarbinaryType varbinary -> randomBytes(random, random.nextInt(Math.min(varbinary.maxLength(), 40) + 1));
            case SqlType.BinaryType binary -> randomBytes(random, binary.length());
            case SqlType.UuidType ignored -> new java.util.UUID(random.nextLong(), random.nextLong());
        };
    }

    /** A value close to {@code base}: small differences, the frame-of-reference case. */
    private static Object near(SqlType type, Object base, Random random) {
        int delta = random.nextInt(200);
        return switch (type) {
            case SqlType.BooleanType ignored -> random.nextBoolean();
            case SqlType.IntegerType ignored -> (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, (long) (Integer) base + delta));
            case SqlType.BigintType ignored -> (Long) base > Long.MAX_VALUE - 1000 ? (Long) base - delta : (Long) base + delta;
            case SqlType.DoubleType ignored -> (Double) base + delta;
            case SqlType.DecimalType decimal -> {
                BigDecimal value = ((BigDecimal) base).add(BigDecimal.valueOf(delta, decimal.scale()));
                yield value.precision() > decimal.precision() ? base : value;
            }
            case SqlType.VarcharType ignored -> "prefix-" + delta;
            case SqlType.CharType character -> padded("c" + (delta % 100), character.length());
            case SqlType.DateType ignored -> ((LocalDate) base).plusDays(delta);
            case SqlType.TimestampType ignored -> ((LocalDateTime) base).plusNanos(delta * 1000L);
            case SqlType.VarbinaryType ignored -> new byte[] {1, (byte) delta};
            case SqlType.BinaryType binary -> java.util.Arrays.copyOf(new byte[] {(byte) delta}, binary.length());
            case SqlType.UuidType ignored -> new java.util.UUID(((java.util.UUID) base).getMostSignificantBits(), delta);
        };
    }

    /** The {@code index}-th of distinct values (distinct for every index of one column). */
    private static Object distinct(SqlType type, int index, Random random) {
        return switch (type) {
            case SqlType.BooleanType ignored -> index % 2 == 0;
            case SqlType.IntegerType ignored -> index * 7919 - 1_000_000;
            case SqlType.BigintType ignored -> index * 1_000_003L - 5_000_000_000L;
            case SqlType.DoubleType ignored -> index * 0.5 - 100;
            case SqlType.DecimalType decimal -> BigDecimal.valueOf(index * 3L - 1000, decimal.scale());
            case SqlType.VarcharType ignored -> "value " + index + " " + randomString(random, random.nextInt(8));
            case SqlType.CharType character -> padded(Integer.toString(index, 36), character.length());
            case SqlType.DateType ignored -> LocalDate.ofEpochDay(index - 50_000);
            case SqlType.TimestampType ignored -> micros(index * 1_000_000L);
            case SqlType.VarbinaryType ignored -> java.nio.ByteBuffer.allocate(4).putInt(index).array();
            case SqlType.BinaryType binary -> java.util.Arrays.copyOf(java.nio.ByteBuffer.allocate(4).putInt(index).array(),
                    binary.length());
            case SqlType.UuidType ignored -> new java.util.UUID(index, random.nextLong());
        };
    }

    public static Object edgeValue(SqlType type, Random random) {
        return switch (type) {
            case SqlType.BooleanType ignored -> random.nextBoolean();
            case SqlType.IntegerType ignored -> pick(random, Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, 1);
            case SqlType.BigintType ignored -> pick(random, Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, 1L);
            case SqlType.DoubleType ignored -> pick(random, Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY,
                    Double.NEGATIVE_INFINITY, Double.MIN_VALUE, -Double.MAX_VALUE, Double.MAX_VALUE);
            case SqlType.DecimalType decimal -> {
                BigInteger largest = BigInteger.TEN.pow(decimal.precision()).subtract(BigInteger.ONE);
                yield new BigDecimal(pick(random, largest, largest.negate(), BigInteger.ZERO, BigInteger.ONE.negate()),
                        decimal.scale());
            }
            case SqlType.VarcharType varchar -> pick(random, "", "\u0000", "\uffff", "\ud83d\ude00", "\ue000",
                    "z".repeat(Math.min(varchar.maxLength(), 40)));
            case SqlType.CharType character -> padded(pick(random, "", "\ud83d\ude00", "\uffff", "\u0000"), character.length());
            case SqlType.DateType ignored -> LocalDate.ofEpochDay(pick(random, Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1));
            case SqlType.TimestampType ignored -> micros(pick(random, MIN_MICROS, Long.MAX_VALUE, 0L, -1L));
            case SqlType.VarbinaryType ignored -> pick(random, new byte[0], new byte[] {0}, new byte[] {(byte) 0xff});
            case SqlType.BinaryType binary -> new byte[binary.length()];
            case SqlType.UuidType ignored -> pick(random, new java.util.UUID(0, 0), new java.util.UUID(-1, -1));
        };
    }

    private static byte[] randomBytes(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    @SafeVarargs
    private static <T> T pick(Random random, T... choices) {
        return choices[random.nextInt(choices.length)];
    }

    private static String randomString(Random random, int codePoints) {
        StringBuilder text = new StringBuilder();
        for (int index = 0; index < codePoints; index++) {
            int codePoint = switch (random.nextInt(10)) {
                case 0 -> 0x80 + random.nextInt(0x700);
                case 1 -> 0x4e00 + random.nextInt(0x100);
                case 2 -> 0x1f600 + random.nextInt(0x40);
                case 3 -> 0xe000 + random.nextInt(0x1000);
                default -> 'a' + random.nextInt(26);
            };
            text.appendCodePoint(codePoint);
        }
        return text.toString();
    }

    static String padded(String text, int length) {
        int codePoints = text.codePointCount(0, text.length());
        return codePoints >= length ? text : text + " ".repeat(length - codePoints);
    }

    public static LocalDateTime micros(long micros) {
        return EPOCH.plusSeconds(Math.floorDiv(micros, 1_000_000L)).plusNanos(Math.floorMod(micros, 1_000_000L) * 1000L);
    }

    static long toMicros(LocalDateTime timestamp) {
        return Math.addExact(Math.multiplyExact(timestamp.toEpochSecond(ZoneOffset.UTC), 1_000_000L),
                timestamp.getNano() / 1000);
    }

    // ---- Vectors ----------------------------------------------------------------------------------

    public static FieldVector vector(BufferAllocator allocator, SqlType type, List<Object> values) {
        FieldVector vector = newVector(allocator, type);
        try {
            vector.allocateNew();
            for (int row = 0; row < values.size(); row++) {
                set(vector, type, row, values.get(row));
            }
            vector.setValueCount(values.size());
            return vector;
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
    }

    public static FieldVector newVector(BufferAllocator allocator, SqlType type) {
        return Field.nullable("column", type.arrowType()).createVector(allocator);
    }

    private static void set(FieldVector vector, SqlType type, int row, Object value) {
        if (value == null) {
            switch (vector) {
                case BitVector bits -> bits.setNull(row);
                case IntVector ints -> ints.setNull(row);
                case BigIntVector longs -> longs.setNull(row);
                case Float8Vector doubles -> doubles.setNull(row);
                case DecimalVector decimals -> decimals.setNull(row);
                case VarCharVector strings -> strings.setNull(row);
                case DateDayVector dates -> dates.setNull(row);
                case TimeStampMicroVector timestamps -> timestamps.setNull(row);
                default -> throw new IllegalArgumentException(vector.getClass().toString());
            }
            return;
        }
        switch (vector) {
            case BitVector bits -> bits.setSafe(row, (Boolean) value ? 1 : 0);
            case IntVector ints -> ints.setSafe(row, (Integer) value);
            case BigIntVector longs -> longs.setSafe(row, (Long) value);
            case Float8Vector doubles -> doubles.setSafe(row, (Double) value);
            case DecimalVector decimals -> decimals.setSafe(row, (BigDecimal) value);
            case VarCharVector strings -> strings.setSafe(row, ((String) value).getBytes(StandardCharsets.UTF_8));
            case DateDayVector dates -> dates.setSafe(row, Math.toIntExact(((LocalDate) value).toEpochDay()));
            case TimeStampMicroVector timestamps -> timestamps.setSafe(row, toMicros((LocalDateTime) value));
            default -> throw new IllegalArgumentException(vector.getClass().toString());
        }
    }

    /** Row {@code row} of {@code vector} as a Java value, read with Arrow's accessors. */
    public static Object get(FieldVector vector, int row) {
        if (vector.isNull(row)) {
            return null;
        }
        return switch (vector) {
            case BitVector bits -> bits.get(row) != 0;
            case IntVector ints -> ints.get(row);
            case BigIntVector longs -> longs.get(row);
            case Float8Vector doubles -> doubles.get(row);
            case DecimalVector decimals -> decimals.getObject(row);
            case VarCharVector strings -> new String(strings.get(row), StandardCharsets.UTF_8);
            case DateDayVector dates -> LocalDate.ofEpochDay(dates.get(row));
            case TimeStampMicroVector timestamps -> micros(timestamps.get(row));
            default -> throw new IllegalArgumentException(vector.getClass().toString());
        };
    }

    public static List<Object> read(FieldVector vector) {
        List<Object> values = new ArrayList<>(vector.getValueCount());
        for (int row = 0; row < vector.getValueCount(); row++) {
            values.add(get(vector, row));
        }
        return values;
    }

    // ---- Reference semantics ----------------------------------------------------------------------

    /** Equal as stored: DOUBLE by bits (so -0.0 differs from 0.0), DECIMAL by value and scale, binary strings by bytes. */
    public static boolean same(Object left, Object right) {
        if (left instanceof Double leftDouble && right instanceof Double rightDouble) {
            return Double.doubleToRawLongBits(leftDouble) == Double.doubleToRawLongBits(rightDouble);
        }
        if (left instanceof byte[] leftBytes && right instanceof byte[] rightBytes) {
            return Arrays.equals(leftBytes, rightBytes);
        }
        return java.util.Objects.equals(left, right);
    }

    /** SQL order of two non-null values of {@code type}, written apart from the code under test. */
    public static int compare(SqlType type, Object left, Object right) {
        return switch (type) {
            case SqlType.BooleanType ignored -> Boolean.compare((Boolean) left, (Boolean) right);
            case SqlType.IntegerType ignored -> Integer.compare((Integer) left, (Integer) right);
            case SqlType.BigintType ignored -> Long.compare((Long) left, (Long) right);
            case SqlType.DoubleType ignored -> {
                double a = (Double) left;
                double b = (Double) right;
                if (Double.isNaN(a) || Double.isNaN(b)) {
                    yield Boolean.compare(Double.isNaN(a), Double.isNaN(b));
                }
                yield a == b ? 0 : a < b ? -1 : 1;
            }
            case SqlType.DecimalType ignored -> ((BigDecimal) left).compareTo((BigDecimal) right);
            case SqlType.VarcharType ignored -> Arrays.compare(((String) left).codePoints().toArray(),
                    ((String) right).codePoints().toArray());
            case SqlType.CharType ignored -> Arrays.compare(((String) left).codePoints().toArray(),
                    ((String) right).codePoints().toArray());
            case SqlType.DateType ignored -> ((LocalDate) left).compareTo((LocalDate) right);
            case SqlType.TimestampType ignored -> ((LocalDateTime) left).compareTo((LocalDateTime) right);
            case SqlType.VarbinaryType ignored -> Arrays.compareUnsigned((byte[]) left, (byte[]) right);
            case SqlType.BinaryType ignored -> Arrays.compareUnsigned((byte[]) left, (byte[]) right);
            case SqlType.UuidType ignored -> Arrays.compareUnsigned(Values.uuidToBytes((java.util.UUID) left),
                    Values.uuidToBytes((java.util.UUID) right));
        };
    }
}
