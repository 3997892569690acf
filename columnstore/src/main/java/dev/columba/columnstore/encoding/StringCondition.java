package dev.columba.columnstore.encoding;

import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * A comparison or IN list bound to UTF-8 bytes, tested on a byte range in place (unsigned byte
 * order is code point order). Immutable.
 */
final class StringCondition {
    private static final Comparator<byte[]> UNSIGNED = (left, right) -> java.util.Arrays.compareUnsigned(left, right);

    private final KeyCondition.Shape shape;
    /** RANGE bounds (null: unbounded) and NOT_EQUAL's value in {@link #lower}. */
    private final MemorySegment lower;
    private final boolean lowerInclusive;
    private final MemorySegment upper;
    private final boolean upperInclusive;
    private final MemorySegment[] points;

    private StringCondition(KeyCondition.Shape shape, byte[] lower, boolean lowerInclusive, byte[] upper,
                            boolean upperInclusive, List<byte[]> points) {
        this.shape = shape;
        this.lower = lower == null ? null : MemorySegment.ofArray(lower);
        this.lowerInclusive = lowerInclusive;
        this.upper = upper == null ? null : MemorySegment.ofArray(upper);
        this.upperInclusive = upperInclusive;
        this.points = points.stream().map(MemorySegment::ofArray).toArray(MemorySegment[]::new);
    }

    static StringCondition bind(SqlType type, ColumnPredicate predicate) {
        return switch (predicate) {
            case ColumnPredicate.Comparison(ColumnPredicate.Operator operator, Object constant) -> {
                Object normalized = Constants.normalize(type, constant);
                if (normalized == null) {
                    yield new StringCondition(KeyCondition.Shape.NONE, null, false, null, false, List.of());
                }
                byte[] bytes = ((String) normalized).getBytes(StandardCharsets.UTF_8);
                yield switch (operator) {
                    case EQUAL -> new StringCondition(KeyCondition.Shape.RANGE, bytes, true, bytes, true, List.of());
                    case NOT_EQUAL -> new StringCondition(KeyCondition.Shape.NOT_EQUAL, bytes, true, null, false, List.of());
                    case LESS -> new StringCondition(KeyCondition.Shape.RANGE, null, false, bytes, false, List.of());
                    case LESS_OR_EQUAL -> new StringCondition(KeyCondition.Shape.RANGE, null, false, bytes, true, List.of());
                    case GREATER -> new StringCondition(KeyCondition.Shape.RANGE, bytes, false, null, false, List.of());
                    case GREATER_OR_EQUAL -> new StringCondition(KeyCondition.Shape.RANGE, bytes, true, null, false, List.of());
                };
            }
            case ColumnPredicate.In(List<Object> constants) -> {
                TreeSet<byte[]> points = new TreeSet<>(UNSIGNED);
                for (Object constant : constants) {
                    Object normalized = Constants.normalize(type, constant);
                    if (normalized != null) {
                        points.add(((String) normalized).getBytes(StandardCharsets.UTF_8));
                    }
                }
                yield new StringCondition(points.isEmpty() ? KeyCondition.Shape.NONE : KeyCondition.Shape.ONE_OF,
                        null, false, null, false, new ArrayList<>(points));
            }
            case ColumnPredicate.IsNull ignored -> throw new IllegalArgumentException("IS NULL has no value condition");
            case ColumnPredicate.IsNotNull ignored -> throw new IllegalArgumentException("IS NOT NULL has no value condition");
        };
    }

    boolean test(MemorySegment bytes, long offset, int length) {
        return switch (shape) {
            case NONE -> false;
            case ALL -> true;
            case RANGE -> {
                if (lower != null) {
                    int comparison = compare(bytes, offset, length, lower);
                    if (comparison < 0 || (comparison == 0 && !lowerInclusive)) {
                        yield false;
                    }
                }
                if (upper != null) {
                    int comparison = compare(bytes, offset, length, upper);
                    if (comparison > 0 || (comparison == 0 && !upperInclusive)) {
                        yield false;
                    }
                }
                yield true;
            }
            case NOT_EQUAL -> compare(bytes, offset, length, lower) != 0;
            case ONE_OF -> {
                int first = 0;
                int last = points.length - 1;
                while (first <= last) {
                    int middle = (first + last) >>> 1;
                    int comparison = compare(bytes, offset, length, points[middle]);
                    if (comparison == 0) {
                        yield true;
                    }
                    if (comparison > 0) {
                        first = middle + 1;
                    } else {
                        last = middle - 1;
                    }
                }
                yield false;
            }
        };
    }

    private static int compare(MemorySegment bytes, long offset, int length, MemorySegment constant) {
        return ValueKind.compareUnsigned(bytes, offset, length, constant, 0, (int) constant.byteSize());
    }
}
