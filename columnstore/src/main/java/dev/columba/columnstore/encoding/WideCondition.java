package dev.columba.columnstore.encoding;

import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.core.type.SqlType;
import java.math.BigInteger;
import java.util.List;

/**
 * A {@link KeyCondition} over 128-bit unscaled decimals, tested on (high, low) halves without
 * allocating. Immutable.
 */
final class WideCondition {
    private static final BigInteger MIN = BigInteger.ONE.shiftLeft(127).negate();
    private static final BigInteger MAX = BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE);

    final KeyCondition.Shape shape;
    private final long lowHigh;
    private final long lowLow;
    private final long highHigh;
    private final long highLow;
    private final long[] pointHighs;
    private final long[] pointLows;

    private WideCondition(KeyCondition condition) {
        this.shape = condition.shape;
        BigInteger low = condition.low == null ? BigInteger.ZERO : condition.low;
        BigInteger high = condition.high == null ? BigInteger.ZERO : condition.high;
        lowHigh = low.shiftRight(64).longValue();
        lowLow = low.longValue();
        highHigh = high.shiftRight(64).longValue();
        highLow = high.longValue();
        List<BigInteger> points = condition.points;
        pointHighs = new long[points.size()];
        pointLows = new long[points.size()];
        for (int index = 0; index < points.size(); index++) {
            pointHighs[index] = points.get(index).shiftRight(64).longValue();
            pointLows[index] = points.get(index).longValue();
        }
    }

    static WideCondition bind(SqlType type, ColumnPredicate predicate) {
        return new WideCondition(KeyCondition.bind(type, predicate, MIN, MAX));
    }

    boolean test(long high, long low) {
        return switch (shape) {
            case NONE -> false;
            case ALL -> true;
            case RANGE -> ValueKind.compareWide(high, low, lowHigh, lowLow) >= 0
                    && ValueKind.compareWide(high, low, highHigh, highLow) <= 0;
            case NOT_EQUAL -> high != lowHigh || low != lowLow;
            case ONE_OF -> {
                int first = 0;
                int last = pointHighs.length - 1;
                while (first <= last) {
                    int middle = (first + last) >>> 1;
                    int comparison = ValueKind.compareWide(pointHighs[middle], pointLows[middle], high, low);
                    if (comparison == 0) {
                        yield true;
                    }
                    if (comparison < 0) {
                        first = middle + 1;
                    } else {
                        last = middle - 1;
                    }
                }
                yield false;
            }
        };
    }
}
