package dev.columba.storage.row;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random SQL types, schemas and values for property tests. A value is an edge of its type a third
 * of the time, one of a few small values (so that keys collide and share prefixes) a third of the
 * time, and uniformly random otherwise. Values are valid but not always canonical: decimals come
 * at other scales, CHARs unpadded, timestamps with nanoseconds, as callers may pass them.
 */
final class RandomValues {
    /**
     * The lowest microsecond count whose timestamp {@link Values#timestampToMicros} converts back
     * without overflow: it multiplies floor seconds by 10^6 before adding the microseconds.
     */
    static final long MIN_TIMESTAMP_MICROS = -9_223_372_036_854_000_000L;

    /** Code points that stress UTF-8 and ordering: every encoded length, 0x00, noncharacters, surrogate pairs. */
    private static final int[] INTERESTING_CODE_POINTS = {
        'a', 'b', 'z', ' ', 0x00, 0x01, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x20AC, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF,
        0x10000, 0x1F600, 0x10FFFF,
    };

    /** The alphabet of the small strings: few enough code points that keys share prefixes. */
    private static final int[] SMALL_ALPHABET = {0x00, 'a', 'b', ' ', 0x1F600};

    private final Random random;

    RandomValues(Random random) {
        this.random = random;
    }

    Random random() {
        return random;
    }

    /** Every kind of type, with decimal precisions either side of 18 and strings short and long. */
    SqlType type() {
        return switch (random.nextInt(10)) {
            case 0 -> SqlType.BOOLEAN;
            case 1 -> SqlType.INT;
            case 2 -> SqlType.BIGINT;
            case 3 -> SqlType.DOUBLE;
            case 4 -> {
                int precision = switch (random.nextInt(4)) {
                    case 0 -> 18;
                    case 1 -> 19;
                    case 2 -> SqlType.DecimalType.MAX_PRECISION;
                    default -> 1 + random.nextInt(SqlType.DecimalType.MAX_PRECISION);
                };
                yield SqlType.decimal(precision, random.nextInt(precision + 1));
            }
            case 5 -> SqlType.varchar(random.nextInt(8) == 0 ? 2000 : 1 + random.nextInt(40));
            case 6 -> SqlType.character(1 + random.nextInt(random.nextInt(8) == 0 ? 300 : 12));
            case 7 -> SqlType.DATE;
            case 8 -> SqlType.TIMESTAMP;
            default -> SqlType.varchar(1 + random.nextInt(6));
        };
    }

    TableSchema schema(int maxColumns) {
        int columnCount = 1 + random.nextInt(maxColumns);
        List<Column> columns = new ArrayList<>();
        for (int columnIndex = 0; columnIndex < columnCount; columnIndex++) {
            columns.add(new Column("c" + columnIndex, type(), random.nextBoolean()));
        }
        return new TableSchema(columns);
    }

    /** A row for {@code schema}: NULL in nullable columns with the given probability. */
    Object[] row(TableSchema schema, double nullProbability) {
        Object[] row = new Object[schema.size()];
        for (int columnIndex = 0; columnIndex < row.length; columnIndex++) {
            Column column = schema.column(columnIndex);
            row[columnIndex] = column.nullable() && random.nextDouble() < nullProbability ? null : value(column.type());
        }
        return row;
    }

    /** A valid non-null value of {@code type}. */
    Object value(SqlType type) {
        int kind = random.nextInt(3);
        return switch (type) {
            case SqlType.BooleanType ignored -> random.nextBoolean();
            case SqlType.IntegerType ignored -> switch (kind) {
                case 0 -> pick(Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, 1, Integer.MIN_VALUE + 1, Integer.MAX_VALUE - 1);
                case 1 -> random.nextInt(5) - 2;
                default -> random.nextInt();
            };
            case SqlType.BigintType ignored -> switch (kind) {
                case 0 -> pick(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, 1L, (long) Integer.MIN_VALUE - 1, (long) Integer.MAX_VALUE + 1);
                case 1 -> (long) (random.nextInt(5) - 2);
                default -> random.nextLong();
            };
            case SqlType.DoubleType ignored -> switch (kind) {
                case 0 -> pick(0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE,
                        -Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_NORMAL, Double.longBitsToDouble(0x7FF0_0000_0000_0001L));
                case 1 -> pick(-1.5, -1.0, 0.0, 1.0, 2.5);
                default -> Double.longBitsToDouble(random.nextLong());
            };
            case SqlType.DecimalType decimal -> decimalValue(decimal, kind);
            case SqlType.VarcharType varchar -> string(varchar.maxLength(), kind);
            case SqlType.CharType character -> string(character.length(), kind);
            case SqlType.DateType ignored -> switch (kind) {
                case 0 -> pick(Values.daysToDate(Integer.MIN_VALUE), Values.daysToDate(Integer.MAX_VALUE), LocalDate.of(1, 1, 1),
                        LocalDate.of(9999, 12, 31), LocalDate.of(1970, 1, 1), LocalDate.of(1969, 12, 31), LocalDate.of(2000, 2, 29));
                case 1 -> Values.daysToDate(random.nextInt(5) - 2);
                default -> Values.daysToDate(random.nextInt());
            };
            case SqlType.TimestampType ignored -> switch (kind) {
                case 0 -> pick(Values.microsToTimestamp(MIN_TIMESTAMP_MICROS), Values.microsToTimestamp(Long.MAX_VALUE),
                        Values.microsToTimestamp(0), Values.microsToTimestamp(1), Values.microsToTimestamp(-1),
                        LocalDateTime.of(1, 1, 1, 0, 0), LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000),
                        LocalDateTime.of(2024, 2, 29, 12, 30, 15, 123_456_789));
                case 1 -> Values.microsToTimestamp(random.nextInt(5) - 2);
                default -> Values.microsToTimestamp(Math.max(MIN_TIMESTAMP_MICROS, random.nextLong()))
                        .plusNanos(random.nextInt(1000));
            };
            case SqlType.VarbinaryType varbinary -> bytes(random.nextInt(Math.min(varbinary.maxLength(), 16) + 1), kind);
            case SqlType.BinaryType binary -> bytes(random.nextInt(binary.length() + 1), kind);
            case SqlType.UuidType ignored -> kind == 0 ? pick(new java.util.UUID(0, 0), new java.util.UUID(-1, -1))
                    : new java.util.UUID(random.nextLong(), random.nextLong());
        };
    }

    /** {@code length} bytes: zeros (each escaped in a key) at the edge, else random. */
    private byte[] bytes(int length, int kind) {
        byte[] bytes = new byte[length];
        if (kind != 0) {
            random.nextBytes(bytes);
        }
        return bytes;
    }

    /** A string of at most {@code maxCodePoints} code points. */
    String string(int maxCodePoints, int kind) {
        return switch (kind) {
            case 0 -> switch (random.nextInt(4)) {
                case 0 -> "";
                case 1 -> fill(maxCodePoints, 0x1F600);
                case 2 -> fill(maxCodePoints, 0x00);
                default -> fill(Math.min(maxCodePoints, 3), INTERESTING_CODE_POINTS[random.nextInt(INTERESTING_CODE_POINTS.length)]);
            };
            case 1 -> {
                // Few short strings over a tiny alphabet: equal values and shared prefixes.
                StringBuilder text = new StringBuilder();
                int length = random.nextInt(Math.min(maxCodePoints, 3) + 1);
                for (int index = 0; index < length; index++) {
                    text.appendCodePoint(SMALL_ALPHABET[random.nextInt(SMALL_ALPHABET.length)]);
                }
                yield text.toString();
            }
            default -> {
                StringBuilder text = new StringBuilder();
                int length = random.nextInt(Math.min(maxCodePoints, 60) + 1);
                for (int index = 0; index < length; index++) {
                    text.appendCodePoint(codePoint());
                }
                yield text.toString();
            }
        };
    }

    private int codePoint() {
        return switch (random.nextInt(4)) {
            case 0 -> INTERESTING_CODE_POINTS[random.nextInt(INTERESTING_CODE_POINTS.length)];
            case 1 -> 0x20 + random.nextInt(0x5F);
            default -> {
                int codePoint;
                do {
                    codePoint = random.nextInt(Character.MAX_CODE_POINT + 1);
                } while (Character.getType(codePoint) == Character.SURROGATE);
                yield codePoint;
            }
        };
    }

    private BigDecimal decimalValue(SqlType.DecimalType type, int kind) {
        BigInteger largest = BigInteger.TEN.pow(type.precision()).subtract(BigInteger.ONE);
        BigInteger unscaled = switch (kind) {
            case 0 -> pick(largest, largest.negate(), BigInteger.ZERO, BigInteger.ONE, BigInteger.ONE.negate(),
                    largest.subtract(BigInteger.ONE).negate());
            case 1 -> BigInteger.valueOf(random.nextInt(5) - 2);
            default -> {
                BigInteger magnitude = new BigInteger(128, random).mod(BigInteger.TEN.pow(1 + random.nextInt(type.precision())));
                yield random.nextBoolean() ? magnitude : magnitude.negate();
            }
        };
        BigDecimal value = new BigDecimal(unscaled, type.scale());
        // Callers may pass any scale that represents the value exactly.
        return switch (random.nextInt(3)) {
            case 0 -> value.stripTrailingZeros();
            case 1 -> value.setScale(type.scale() + random.nextInt(3));
            default -> value;
        };
    }

    private String fill(int maxCodePoints, int codePoint) {
        return Character.toString(codePoint).repeat(Math.min(maxCodePoints, 1 + random.nextInt(8)));
    }

    @SafeVarargs
    private <T> T pick(T... choices) {
        return choices[random.nextInt(choices.length)];
    }
}
