package dev.columba.columnstore.encoding;

import dev.columba.core.type.SqlType;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * A {@link KeyCondition} over keys that fit a long (every {@code fitsLong} kind), tested without
 * allocating. Immutable.
 */
final class LongCondition {
    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    final KeyCondition.Shape shape;
    final long low;
    final long high;
    final long[] points;

    private LongCondition(KeyCondition condition) {
        this.shape = condition.shape;
        this.low = condition.low == null ? 0 : condition.low.longValueExact();
        this.high = condition.high == null ? 0 : condition.high.longValueExact();
        this.points = condition.points.stream().mapToLong(BigInteger::longValueExact).toArray();
    }

    static LongCondition bind(SqlType type, ColumnPredicate predicate) {
        return new LongCondition(KeyCondition.bind(type, predicate, LONG_MIN, LONG_MAX));
    }

    boolean test(long key) {
        return switch (shape) {
            case NONE -> false;
            case ALL -> true;
            case RANGE -> key >= low && key <= high;
            case NOT_EQUAL -> key != low;
            case ONE_OF -> Arrays.binarySearch(points, key) >= 0;
        };
    }
}
