package dev.columba.columnstore.encoding;

import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.type.SqlType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A simple predicate on one column that a scan evaluates on encoded segments
 * ({@link SegmentReader#filter}) and on segment statistics ({@link #mayMatch}). Constants are Java
 * values of the column type (see {@code SqlType}); a DECIMAL constant may have any scale (compared
 * by value), and a CHAR constant is blank-padded to the column's length before comparing.
 *
 * <p>SQL semantics: a NULL row satisfies only {@link IsNull}; a comparison with a NULL constant is
 * never true; an IN list ignores its NULL elements. Values compare in SQL order
 * ({@link ValueKind#compareValues}): strings by code point, DOUBLE with {@code -0.0 = 0.0} and NaN
 * equal to itself and above every other value.
 */
public sealed interface ColumnPredicate {

    enum Operator {
        EQUAL("="), NOT_EQUAL("<>"), LESS("<"), LESS_OR_EQUAL("<="), GREATER(">"), GREATER_OR_EQUAL(">=");

        private final String symbol;

        Operator(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }

        /** Whether a comparison result ({@code value} compared to the constant) satisfies this operator. */
        public boolean accepts(int comparison) {
            return switch (this) {
                case EQUAL -> comparison == 0;
                case NOT_EQUAL -> comparison != 0;
                case LESS -> comparison < 0;
                case LESS_OR_EQUAL -> comparison <= 0;
                case GREATER -> comparison > 0;
                case GREATER_OR_EQUAL -> comparison >= 0;
            };
        }
    }

    /** {@code column <operator> constant}. */
    record Comparison(Operator operator, Object constant) implements ColumnPredicate {
        public Comparison {
            Objects.requireNonNull(operator, "operator");
        }

        @Override
        public String toString() {
            return "column " + operator.symbol() + " " + constant;
        }
    }

    /** {@code column IN (constants...)}. */
    record In(List<Object> constants) implements ColumnPredicate {
        public In {
            constants = Collections.unmodifiableList(new ArrayList<>(constants));
        }

        @Override
        public String toString() {
            return "column IN " + constants;
        }
    }

    record IsNull() implements ColumnPredicate {
        @Override
        public String toString() {
            return "column IS NULL";
        }
    }

    record IsNotNull() implements ColumnPredicate {
        @Override
        public String toString() {
            return "column IS NOT NULL";
        }
    }

    static ColumnPredicate compare(Operator operator, Object constant) {
        return new Comparison(operator, constant);
    }

    static ColumnPredicate equal(Object constant) {
        return new Comparison(Operator.EQUAL, constant);
    }

    static ColumnPredicate in(Object... constants) {
        return new In(java.util.Arrays.asList(constants));
    }

    static ColumnPredicate isNull() {
        return new IsNull();
    }

    static ColumnPredicate isNotNull() {
        return new IsNotNull();
    }

    /**
     * Whether a value (null for SQL NULL) of {@code type} satisfies this predicate: the reference
     * semantics that filters on encoded segments reproduce.
     *
     * @throws ColumbaException WRONG_TYPE when a constant is not of the type's Java class
     */
    default boolean matches(SqlType type, Object value) {
        return switch (this) {
            case IsNull ignored -> value == null;
            case IsNotNull ignored -> value != null;
            case Comparison(Operator operator, Object constant) -> value != null && constant != null
                    && operator.accepts(ValueKind.compareValues(type, value, Constants.normalize(type, constant)));
            case In(List<Object> constants) -> {
                if (value == null) {
                    yield false;
                }
                for (Object constant : constants) {
                    if (constant != null && ValueKind.compareValues(type, value, Constants.normalize(type, constant)) == 0) {
                        yield true;
                    }
                }
                yield false;
            }
        };
    }

    /**
     * Whether some row of a segment (or rowgroup) with these statistics may satisfy the predicate:
     * false means no row can, so the scan skips it. {@code min} and {@code max} bound the non-NULL
     * values and are null when there are none.
     */
    static boolean mayMatch(SqlType type, Object min, Object max, long rowCount, long nullCount, ColumnPredicate predicate) {
        if (rowCount <= 0) {
            return false;
        }
        return switch (predicate) {
            case IsNull ignored -> nullCount > 0;
            case IsNotNull ignored -> nullCount < rowCount;
            case Comparison(Operator operator, Object constant) -> min != null && max != null && constant != null
                    && comparisonMayMatch(type, min, max, operator, Constants.normalize(type, constant));
            case In(List<Object> constants) -> {
                if (min == null || max == null) {
                    yield false;
                }
                for (Object constant : constants) {
                    if (constant != null && comparisonMayMatch(type, min, max, Operator.EQUAL, Constants.normalize(type, constant))) {
                        yield true;
                    }
                }
                yield false;
            }
        };
    }

    /** {@link #mayMatch(SqlType, Object, Object, long, long, ColumnPredicate)} over a segment's metadata. */
    static boolean mayMatch(SqlType type, SegmentMetadata metadata, ColumnPredicate predicate) {
        return mayMatch(type, metadata.min(), metadata.max(), metadata.rowCount(), metadata.nullCount(), predicate);
    }

    private static boolean comparisonMayMatch(SqlType type, Object min, Object max, Operator operator, Object constant) {
        int minComparison = ValueKind.compareValues(type, min, constant);
        int maxComparison = ValueKind.compareValues(type, max, constant);
        return switch (operator) {
            case EQUAL -> minComparison <= 0 && maxComparison >= 0;
            case NOT_EQUAL -> !(minComparison == 0 && maxComparison == 0);
            case LESS -> minComparison < 0;
            case LESS_OR_EQUAL -> minComparison <= 0;
            case GREATER -> maxComparison > 0;
            case GREATER_OR_EQUAL -> maxComparison >= 0;
        };
    }
}
