package dev.columba.planner.rel;

import dev.columba.core.type.SqlType;
import dev.columba.planner.schema.ColumbaTable;
import dev.columba.planner.schema.ColumnstoreStatistics;
import dev.columba.planner.schema.ColumnstoreStatistics.RowgroupStatistics;
import dev.columba.planner.schema.ColumnstoreStatistics.SegmentStatistics;
import java.util.LinkedHashMap;
import java.util.Map;
import com.google.common.collect.BoundType;
import com.google.common.collect.ImmutableRangeSet;
import com.google.common.collect.Range;
import com.google.common.collect.RangeSet;
import com.google.common.collect.TreeRangeSet;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUnknownAs;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.Sarg;

/**
 * Selectivity of predicates over a columnstore table from its rowgroups' segment figures
 * ({@link ColumnstoreStatistics}), the way rowgroup elimination sees the table.
 *
 * <p>The conjuncts on one column (comparisons with literals, BETWEEN and IN as Calcite's SEARCH,
 * {@code <>}, IS [NOT] NULL) become one set of value ranges plus whether NULL passes. Each compressed
 * rowgroup keeps the share of its rows that NULL or the ranges admit: values are assumed spread
 * evenly over the segment's [min, max] (whole numbers — INT, BIGINT, DATE — counted as values, as
 * {@link Selectivities} does for keys; DOUBLE, DECIMAL, TIMESTAMP as a line), a single value holds
 * {@code 1 / distinct} of the non-NULL rows of a segment whose [min, max] contains it, and a range
 * over VARCHAR keeps all rows of a segment it encloses, none of one it misses, half otherwise.
 * Columns multiply within a rowgroup (so columns that are correlated through the load order — a
 * date and an id loaded in order — are estimated together), and rowgroups add up weighted by
 * their live rows. Rows the figures do not cover (large delta rowgroups, rowgroups compressed since
 * the last gather) take Calcite's default guesses, as do conjuncts on other expressions, on
 * BOOLEAN columns, and comparisons with parameters. CHAR values compare without trailing spaces.
 */
final class RowgroupSelectivity {
    /** Calcite's guess for an equality, used for a value inside a segment whose distinct count is unknown. */
    private static final double EQUALITY_GUESS = 0.15;

    private RowgroupSelectivity() {
    }

    /** What the conjuncts on one column admit: non-NULL values in {@code values}, NULL if {@code nulls}. */
    private record Condition(RangeSet<Comparable<?>> values, boolean nulls, double guess) {
        Condition and(Condition other) {
            RangeSet<Comparable<?>> both = TreeRangeSet.create(values);
            both.removeAll(other.values.complement());
            return new Condition(both, nulls && other.nulls, guess * other.guess);
        }
    }

    /**
     * The fraction of {@code table}'s rows for which {@code predicate} holds; its column {@code i}
     * is table column {@code columns[i]}.
     */
    static double of(ColumbaTable table, ColumnstoreStatistics statistics, int[] columns, RexNode predicate) {
        double otherGuess = 1.0;
        Map<Integer, Condition> conditions = new LinkedHashMap<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(predicate)) {
            int column = column(conjunct, columns);
            Condition condition = column < 0 ? null : condition(conjunct, domain(table.schema().column(column).type()));
            if (condition == null) {
                otherGuess *= RelMdUtil.guessSelectivity(conjunct);
            } else {
                conditions.merge(column, condition, Condition::and);
            }
        }
        double rows = Math.max(1, table.rowCount());
        double known = 0;
        double kept = 0;
        for (RowgroupStatistics rowgroup : statistics.rowgroups()) {
            double live = rowgroup.rows() - rowgroup.deletedRows();
            double fraction = 1.0;
            for (Map.Entry<Integer, Condition> entry : conditions.entrySet()) {
                fraction *= fraction(entry.getValue(), rowgroup.columns().get(entry.getKey()),
                        domain(table.schema().column(entry.getKey()).type()));
            }
            known += live;
            kept += live * fraction;
        }
        double unknownGuess = 1.0;
        for (Condition condition : conditions.values()) {
            unknownGuess *= condition.guess();
        }
        // Figures gathered before deletes or a rebuild may cover more rows than the table now has.
        double knownShare = Math.min(1.0, known / rows);
        double keptShare = known == 0 ? 0 : kept / known;
        return (knownShare * keptShare + (1 - knownShare) * unknownGuess) * otherGuess;
    }

    /** How values of a column type are compared for estimates. */
    private enum Domain { WHOLE_NUMBERS, LINE, TEXT, PADDED_TEXT, NONE }

    private static Domain domain(SqlType type) {
        return switch (type) {
            case SqlType.IntegerType ignored -> Domain.WHOLE_NUMBERS;
            case SqlType.BigintType ignored -> Domain.WHOLE_NUMBERS;
            case SqlType.DateType ignored -> Domain.WHOLE_NUMBERS;
            case SqlType.DoubleType ignored -> Domain.LINE;
            case SqlType.DecimalType ignored -> Domain.LINE;
            case SqlType.TimestampType ignored -> Domain.LINE;
            case SqlType.VarcharType ignored -> Domain.TEXT;
            case SqlType.VarbinaryType ignored -> Domain.NONE;
            case SqlType.BinaryType ignored -> Domain.NONE;
            case SqlType.UuidType ignored -> Domain.NONE;
            // CHAR compares as if padded with spaces: values and literals are compared without
            // their trailing spaces (exact for equalities, the TPC-H flags' case; close enough for
            // ranges, which only a value ending in a character below the space would misplace).
            case SqlType.CharType ignored -> Domain.PADDED_TEXT;
            // BOOLEAN has two values: not worth a model here.
            case SqlType.BooleanType ignored -> Domain.NONE;
        };
    }

    /** The table column a conjunct constrains ({@code col op literal}, SEARCH, IS [NOT] NULL), or -1. */
    private static int column(RexNode conjunct, int[] columns) {
        if (!(conjunct instanceof RexCall call) || call.getOperands().isEmpty()) {
            return -1;
        }
        for (RexNode operand : call.getOperands()) {
            if (operand instanceof RexInputRef reference) {
                return columns[reference.getIndex()];
            }
        }
        return -1;
    }

    /** What one conjunct admits, or null when it is not a condition this model understands. */
    private static Condition condition(RexNode conjunct, Domain domain) {
        if (domain == Domain.NONE) {
            return null;
        }
        RexCall call = (RexCall) conjunct;
        double guess = RelMdUtil.guessSelectivity(conjunct);
        switch (conjunct.getKind()) {
            case IS_NULL, IS_NOT_NULL -> {
                if (!(call.getOperands().getFirst() instanceof RexInputRef)) {
                    return null;
                }
                boolean isNull = conjunct.getKind() == SqlKind.IS_NULL;
                return new Condition(isNull ? ImmutableRangeSet.of() : ImmutableRangeSet.of(Range.all()), isNull, guess);
            }
            case SEARCH -> {
                if (!(call.getOperands().get(0) instanceof RexInputRef)
                        || !(call.getOperands().get(1) instanceof RexLiteral literal)) {
                    return null;
                }
                Sarg<?> sarg = literal.getValueAs(Sarg.class);
                RangeSet<Comparable<?>> values = TreeRangeSet.create();
                for (Range<?> part : sarg.rangeSet.asRanges()) {
                    Range<Comparable<?>> converted = convert(part, domain);
                    if (converted == null) {
                        return null;
                    }
                    values.add(converted);
                }
                return new Condition(values, sarg.nullAs == RexUnknownAs.TRUE, guess);
            }
            case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> {
                boolean columnOnLeft = call.getOperands().get(0) instanceof RexInputRef;
                RexNode constant = call.getOperands().get(columnOnLeft ? 1 : 0);
                if (!(call.getOperands().get(columnOnLeft ? 0 : 1) instanceof RexInputRef)
                        || !(constant instanceof RexLiteral literal)) {
                    return null;
                }
                Comparable<?> value = literalValue(literal, domain);
                if (value == null) {
                    return null;
                }
                SqlKind kind = columnOnLeft ? conjunct.getKind() : conjunct.getKind().reverse();
                RangeSet<Comparable<?>> values = TreeRangeSet.create();
                switch (kind) {
                    case EQUALS -> values.add(range(value, BoundType.CLOSED, value, BoundType.CLOSED));
                    case NOT_EQUALS -> {
                        values.add(Range.all());
                        values.remove(range(value, BoundType.CLOSED, value, BoundType.CLOSED));
                    }
                    case LESS_THAN -> values.add(upTo(value, BoundType.OPEN));
                    case LESS_THAN_OR_EQUAL -> values.add(upTo(value, BoundType.CLOSED));
                    case GREATER_THAN -> values.add(downTo(value, BoundType.OPEN));
                    default -> values.add(downTo(value, BoundType.CLOSED));
                }
                return new Condition(values, false, guess);
            }
            default -> {
                return null;
            }
        }
    }

    /** The share of a segment's rows a condition keeps. */
    private static double fraction(Condition condition, SegmentStatistics segment, Domain domain) {
        if (segment.rows() == 0) {
            return 0;
        }
        double nulls = condition.nulls() ? (double) segment.nulls() / segment.rows() : 0;
        if (segment.nonNullRows() == 0 || condition.values().isEmpty()) {
            return nulls;
        }
        Comparable<?> min = segmentValue(segment.min(), domain);
        Comparable<?> max = segmentValue(segment.max(), domain);
        double within;
        if (min == null || max == null) {
            within = condition.guess();
        } else {
            within = 0;
            Range<Comparable<?>> span = range(min, BoundType.CLOSED, max, BoundType.CLOSED);
            for (Range<Comparable<?>> part : condition.values().asRanges()) {
                if (part.isConnected(span) && !part.intersection(span).isEmpty()) {
                    within += rangeFraction(part.intersection(span), segment, domain);
                }
            }
        }
        return Math.min(1.0, within) * segment.nonNullRows() / segment.rows() + nulls;
    }

    /** The share of a segment's non-NULL values in {@code part}, a range within its [min, max]. */
    private static double rangeFraction(Range<Comparable<?>> part, SegmentStatistics segment, Domain domain) {
        Comparable<?> low = part.lowerEndpoint();
        Comparable<?> high = part.upperEndpoint();
        if (low.equals(high)) {
            return segment.distinct() > 0 ? 1.0 / segment.distinct() : EQUALITY_GUESS;
        }
        return switch (domain) {
            case WHOLE_NUMBERS -> {
                double min = (Double) segmentValue(segment.min(), domain);
                double max = (Double) segmentValue(segment.max(), domain);
                double first = part.lowerBoundType() == BoundType.OPEN ? Math.floor((Double) low) + 1 : Math.ceil((Double) low);
                double last = part.upperBoundType() == BoundType.OPEN ? Math.ceil((Double) high) - 1 : Math.floor((Double) high);
                if (last < first) {
                    yield 0.0;
                }
                // A single whole number is an equality: its share is one of the distinct values.
                if (first == last && segment.distinct() > 0) {
                    yield 1.0 / segment.distinct();
                }
                yield (last - first + 1) / (max - min + 1);
            }
            case LINE -> {
                double min = (Double) segmentValue(segment.min(), domain);
                double max = (Double) segmentValue(segment.max(), domain);
                yield max <= min ? 1.0 : ((Double) high - (Double) low) / (max - min);
            }
            case TEXT, PADDED_TEXT -> {
                Range<Comparable<?>> span = range(segmentValue(segment.min(), domain), BoundType.CLOSED,
                        segmentValue(segment.max(), domain), BoundType.CLOSED);
                yield part.encloses(span) ? 1.0 : 0.5;
            }
            case NONE -> EQUALITY_GUESS;
        };
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Range<Comparable<?>> range(Comparable<?> low, BoundType lowType, Comparable<?> high, BoundType highType) {
        return (Range) Range.range((Comparable) low, lowType, (Comparable) high, highType);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Range<Comparable<?>> upTo(Comparable<?> value, BoundType type) {
        return (Range) Range.upTo((Comparable) value, type);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Range<Comparable<?>> downTo(Comparable<?> value, BoundType type) {
        return (Range) Range.downTo((Comparable) value, type);
    }

    /** A Sarg range in the domain's values, or null when an endpoint does not convert. */
    private static Range<Comparable<?>> convert(Range<?> part, Domain domain) {
        Comparable<?> low = part.hasLowerBound() ? sargValue(part.lowerEndpoint(), domain) : null;
        Comparable<?> high = part.hasUpperBound() ? sargValue(part.upperEndpoint(), domain) : null;
        if ((part.hasLowerBound() && low == null) || (part.hasUpperBound() && high == null)) {
            return null;
        }
        if (low != null && high != null) {
            return range(low, part.lowerBoundType(), high, part.upperBoundType());
        }
        if (low != null) {
            return downTo(low, part.lowerBoundType());
        }
        return high != null ? upTo(high, part.upperBoundType()) : Range.all();
    }

    private static Comparable<?> sargValue(Object value, Domain domain) {
        if (domain == Domain.TEXT || domain == Domain.PADDED_TEXT) {
            return value instanceof NlsString text ? text(text.getValue(), domain) : null;
        }
        return Selectivities.toPosition(value);
    }

    private static Comparable<?> literalValue(RexLiteral literal, Domain domain) {
        if (literal.isNull()) {
            return null;
        }
        if (domain == Domain.TEXT || domain == Domain.PADDED_TEXT) {
            String text = literal.getValueAs(String.class);
            return text == null ? null : text(text, domain);
        }
        return Selectivities.literalPosition(literal);
    }

    /** A segment's min or max in the domain's values: positions for numbers and dates, text as is. */
    private static Comparable<?> segmentValue(Object value, Domain domain) {
        if (domain == Domain.TEXT || domain == Domain.PADDED_TEXT) {
            return value instanceof String text ? text(text, domain) : null;
        }
        return Selectivities.toPosition(value);
    }

    /** Text as the domain compares it: a CHAR value without its trailing spaces. */
    private static String text(String value, Domain domain) {
        return domain == Domain.PADDED_TEXT ? value.stripTrailing() : value;
    }
}
