package dev.columba.columnstore.encoding;

import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.core.type.SqlType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * A comparison or IN list bound to the integer keys of a kind whose values order like integers:
 * the stored value of the integral kinds (DECIMAL unscaled), {@link ValueKind#sqlKey} for DOUBLE,
 * the unscaled 128-bit value for DECIMAL128. The matching keys are one {@link Shape}. A constant
 * between two keys (a DECIMAL with more fractional digits than the column's scale) rounds the
 * bound the right way: {@code x < 1.005} at scale 2 is {@code x <= 1.00}.
 */
final class KeyCondition {
    enum Shape {
        /** No value matches. */
        NONE,
        /** Every (non-NULL) value matches. */
        ALL,
        /** Keys in {@code [low, high]}. */
        RANGE,
        /** Every key but {@code low}. */
        NOT_EQUAL,
        /** Keys in {@code points}. */
        ONE_OF
    }

    final Shape shape;
    final BigInteger low;
    final BigInteger high;
    /** Sorted, distinct. */
    final List<BigInteger> points;

    private KeyCondition(Shape shape, BigInteger low, BigInteger high, List<BigInteger> points) {
        this.shape = shape;
        this.low = low;
        this.high = high;
        this.points = points;
    }

    /**
     * Binds {@code predicate} (a comparison or IN list) on a column of {@code type} to keys in
     * {@code [domainLow, domainHigh]}.
     */
    static KeyCondition bind(SqlType type, ColumnPredicate predicate, BigInteger domainLow, BigInteger domainHigh) {
        return switch (predicate) {
            case ColumnPredicate.Comparison(ColumnPredicate.Operator operator, Object constant) -> {
                Object normalized = Constants.normalize(type, constant);
                if (normalized == null) {
                    yield new KeyCondition(Shape.NONE, null, null, List.of());
                }
                BigDecimal key = key(type, normalized);
                BigInteger floor = key.setScale(0, RoundingMode.FLOOR).toBigIntegerExact();
                BigInteger ceiling = key.setScale(0, RoundingMode.CEILING).toBigIntegerExact();
                boolean exact = floor.equals(ceiling);
                yield switch (operator) {
                    case EQUAL -> exact ? range(floor, floor, domainLow, domainHigh) : none();
                    case NOT_EQUAL -> exact && floor.compareTo(domainLow) >= 0 && floor.compareTo(domainHigh) <= 0
                            ? new KeyCondition(Shape.NOT_EQUAL, floor, floor, List.of())
                            : new KeyCondition(Shape.ALL, null, null, List.of());
                    case LESS -> range(domainLow, ceiling.subtract(BigInteger.ONE), domainLow, domainHigh);
                    case LESS_OR_EQUAL -> range(domainLow, floor, domainLow, domainHigh);
                    case GREATER -> range(floor.add(BigInteger.ONE), domainHigh, domainLow, domainHigh);
                    case GREATER_OR_EQUAL -> range(ceiling, domainHigh, domainLow, domainHigh);
                };
            }
            case ColumnPredicate.In(List<Object> constants) -> {
                TreeSet<BigInteger> points = new TreeSet<>();
                for (Object constant : constants) {
                    Object normalized = Constants.normalize(type, constant);
                    if (normalized == null) {
                        continue;
                    }
                    BigDecimal key = key(type, normalized);
                    if (key.signum() == 0 || key.stripTrailingZeros().scale() <= 0) {
                        BigInteger point = key.toBigIntegerExact();
                        if (point.compareTo(domainLow) >= 0 && point.compareTo(domainHigh) <= 0) {
                            points.add(point);
                        }
                    }
                }
                yield points.isEmpty() ? none() : new KeyCondition(Shape.ONE_OF, null, null, new ArrayList<>(points));
            }
            case ColumnPredicate.IsNull ignored -> throw new IllegalArgumentException("IS NULL has no key condition");
            case ColumnPredicate.IsNotNull ignored -> throw new IllegalArgumentException("IS NOT NULL has no key condition");
        };
    }

    private static KeyCondition none() {
        return new KeyCondition(Shape.NONE, null, null, List.of());
    }

    private static KeyCondition range(BigInteger low, BigInteger high, BigInteger domainLow, BigInteger domainHigh) {
        BigInteger clampedLow = low.max(domainLow);
        BigInteger clampedHigh = high.min(domainHigh);
        if (clampedLow.compareTo(clampedHigh) > 0) {
            return none();
        }
        if (clampedLow.equals(domainLow) && clampedHigh.equals(domainHigh)) {
            return new KeyCondition(Shape.ALL, null, null, List.of());
        }
        return new KeyCondition(Shape.RANGE, clampedLow, clampedHigh, List.of());
    }

    /** The key of a normalized constant, exact (fractional for a DECIMAL beyond the column's scale). */
    private static BigDecimal key(SqlType type, Object constant) {
        ValueKind kind = ValueKind.of(type);
        return switch (kind) {
            case DECIMAL64, DECIMAL128 -> ((BigDecimal) constant).movePointRight(((SqlType.DecimalType) type).scale());
            case BOOLEAN, INT, BIGINT, DOUBLE, DATE, TIMESTAMP -> BigDecimal.valueOf(kind.sqlKey(ValueKind.toLong(type, constant)));
            case STRING -> throw new IllegalArgumentException("strings have no integer key");
        };
    }
}
