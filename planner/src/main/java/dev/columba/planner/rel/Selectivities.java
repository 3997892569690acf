package dev.columba.planner.rel;

import dev.columba.core.type.SqlType;
import dev.columba.planner.schema.ColumbaTable;
import dev.columba.planner.schema.KeyBounds;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import com.google.common.collect.BoundType;
import com.google.common.collect.Range;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.Sarg;

/**
 * Selectivity of predicates over a table from its statistics, for the cost model.
 *
 * <p>Conditions on the leading clustered-key column are estimated from the key's bounds (see
 * {@link dev.columba.planner.schema.StatisticsStore}): values are assumed spread evenly between
 * the smallest and the largest key. For keys of whole numbers (INT, BIGINT, DATE) that is a count
 * of values: {@code ID < 27} on keys 1..N holds the 26 values 1..26, each {@code N / (max - min + 1)}
 * rows, so exactly 26 rows for an identity column, which is what decides random prefetch in seed
 * 000. Other numbers and timestamps are treated as continuous. Equality on a unique key is one row.
 * Columnstore tables with gathered rowgroup figures are estimated by {@link RowgroupSelectivity}.
 * Everything else takes Calcite's default guesses.
 */
public final class Selectivities {
    private Selectivities() {
    }

    /**
     * The fraction of {@code table}'s rows for which {@code predicate} holds; its column
     * {@code i} is table column {@code columns[i]}.
     */
    public static double of(ColumbaTable table, int[] columns, RexNode predicate) {
        if (predicate == null || predicate.isAlwaysTrue()) {
            return 1.0;
        }
        if (predicate.isAlwaysFalse()) {
            return 0.0;
        }
        Optional<dev.columba.planner.schema.ColumnstoreStatistics> rowgroups = table.columnstoreStatistics();
        if (rowgroups.isPresent()) {
            return Math.max(0.0, Math.min(1.0, RowgroupSelectivity.of(table, rowgroups.get(), columns, predicate)));
        }
        double rows = Math.max(1, table.rowCount());
        double selectivity = 1.0;
        List<RexNode> onKey = new ArrayList<>();
        int leading = table.keyColumns().isEmpty() ? -1 : table.keyColumns().getFirst();
        for (RexNode conjunct : RelOptUtil.conjunctions(predicate)) {
            int column = comparedColumn(conjunct, columns);
            if (column >= 0 && column == leading) {
                onKey.add(conjunct);
            } else if (column >= 0 && isEquality(conjunct) && uniqueColumn(table, column)) {
                selectivity *= 1.0 / rows;
            } else {
                selectivity *= RelMdUtil.guessSelectivity(conjunct);
            }
        }
        if (!onKey.isEmpty()) {
            selectivity *= keySelectivity(table, onKey, rows);
        }
        return Math.max(0.0, Math.min(1.0, selectivity));
    }

    private static boolean isEquality(RexNode conjunct) {
        return conjunct.getKind() == SqlKind.EQUALS;
    }

    private static boolean uniqueColumn(ColumbaTable table, int column) {
        if (table.uniqueKey() && table.keyColumns().equals(List.of(column))) {
            return true;
        }
        return table.uniqueIndexKeys().contains(List.of(column));
    }

    /** The table column a conjunct compares with constants ({@code col op literal}, SEARCH), or -1. */
    private static int comparedColumn(RexNode conjunct, int[] columns) {
        if (!(conjunct instanceof RexCall call) || call.getOperands().isEmpty()) {
            return -1;
        }
        switch (conjunct.getKind()) {
            case EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> {
                RexNode left = call.getOperands().get(0);
                RexNode right = call.getOperands().get(1);
                if (left instanceof RexInputRef reference && isConstant(right)) {
                    return columns[reference.getIndex()];
                }
                if (right instanceof RexInputRef reference && isConstant(left)) {
                    return columns[reference.getIndex()];
                }
                return -1;
            }
            case SEARCH -> {
                return call.getOperands().get(0) instanceof RexInputRef reference ? columns[reference.getIndex()] : -1;
            }
            default -> {
                return -1;
            }
        }
    }

    private static boolean isConstant(RexNode node) {
        return node instanceof RexLiteral || node instanceof org.apache.calcite.rex.RexDynamicParam;
    }

    /** The fraction of rows whose leading key satisfies all of {@code conjuncts}. */
    private static double keySelectivity(ColumbaTable table, List<RexNode> conjuncts, double rows) {
        Optional<KeyBounds> bounds = table.keyBounds();
        boolean unique = table.uniqueKey() && table.keyColumns().size() == 1;
        if (bounds.isEmpty() || toPosition(bounds.get().min()) == null) {
            double guess = 1.0;
            for (RexNode conjunct : conjuncts) {
                guess *= unique && isEquality(conjunct) ? 1.0 / rows : RelMdUtil.guessSelectivity(conjunct);
            }
            return guess;
        }
        boolean discrete = isDiscrete(bounds.get().min());
        double min = toPosition(bounds.get().min());
        double max = toPosition(bounds.get().max());
        // The intersection of the comparisons, then each SEARCH's ranges within it.
        Range<Double> range = Range.closed(min, max);
        List<Sarg<?>> searches = new ArrayList<>();
        double guess = 1.0;
        for (RexNode conjunct : conjuncts) {
            RexCall call = (RexCall) conjunct;
            if (conjunct.getKind() == SqlKind.SEARCH) {
                RexLiteral literal = (RexLiteral) call.getOperands().get(1);
                searches.add(literal.getValueAs(Sarg.class));
                continue;
            }
            boolean columnOnLeft = call.getOperands().get(0) instanceof RexInputRef;
            RexNode constant = call.getOperands().get(columnOnLeft ? 1 : 0);
            Double value = constant instanceof RexLiteral literal ? literalPosition(literal) : null;
            if (value == null) {
                guess *= RelMdUtil.guessSelectivity(conjunct);
                continue;
            }
            SqlKind kind = columnOnLeft ? conjunct.getKind() : conjunct.getKind().reverse();
            Range<Double> condition = switch (kind) {
                case EQUALS -> Range.singleton(value);
                case LESS_THAN -> Range.lessThan(value);
                case LESS_THAN_OR_EQUAL -> Range.atMost(value);
                case GREATER_THAN -> Range.greaterThan(value);
                default -> Range.atLeast(value);
            };
            if (!range.isConnected(condition)) {
                return 0.0;
            }
            range = range.intersection(condition);
        }
        double total = count(range, discrete, min, max, rows, unique);
        if (!searches.isEmpty()) {
            for (Sarg<?> sarg : searches) {
                double within = 0;
                for (Range<?> part : sarg.rangeSet.asRanges()) {
                    Range<Double> converted = convert(part);
                    if (converted == null) {
                        within = total * 0.5;
                        break;
                    }
                    if (range.isConnected(converted)) {
                        within += count(range.intersection(converted), discrete, min, max, rows, unique);
                    }
                }
                total = Math.min(total, within);
            }
        }
        return Math.min(1.0, total / rows) * guess;
    }

    /** Rows whose key lies in {@code range}, the keys spread evenly over [min, max]. */
    private static double count(Range<Double> range, boolean discrete, double min, double max, double rows, boolean unique) {
        if (range.isEmpty()) {
            return 0;
        }
        double low = range.hasLowerBound() ? range.lowerEndpoint() : min;
        double high = range.hasUpperBound() ? range.upperEndpoint() : max;
        if (discrete) {
            double first = range.hasLowerBound() && range.lowerBoundType() == BoundType.OPEN ? Math.floor(low) + 1 : Math.ceil(low);
            double last = range.hasUpperBound() && range.upperBoundType() == BoundType.OPEN ? Math.ceil(high) - 1 : Math.floor(high);
            first = Math.max(first, min);
            last = Math.min(last, max);
            if (last < first) {
                return 0;
            }
            double density = rows / (max - min + 1);
            return (last - first + 1) * density;
        }
        if (high <= low) {
            return unique ? 1 : Math.max(1, rows / Math.max(1, rows));
        }
        double width = max - min;
        return width <= 0 ? rows : rows * Math.min(1.0, (Math.min(high, max) - Math.max(low, min)) / width);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Range<Double> convert(Range<?> range) {
        Double low = range.hasLowerBound() ? toPosition(range.lowerEndpoint()) : null;
        Double high = range.hasUpperBound() ? toPosition(range.upperEndpoint()) : null;
        if ((range.hasLowerBound() && low == null) || (range.hasUpperBound() && high == null)) {
            return null;
        }
        if (low != null && high != null) {
            return Range.range(low, range.lowerBoundType(), high, range.upperBoundType());
        }
        if (low != null) {
            return Range.downTo(low, range.lowerBoundType());
        }
        if (high != null) {
            return Range.upTo(high, range.upperBoundType());
        }
        return Range.all();
    }

    static Double literalPosition(RexLiteral literal) {
        if (literal.isNull()) {
            return null;
        }
        try {
            SqlType type = dev.columba.planner.schema.SqlTypes.fromRelType(literal.getType());
            return toPosition(ExpressionTranslator.literalValue(literal, type));
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static boolean isDiscrete(Object value) {
        return value instanceof Integer || value instanceof Long || value instanceof LocalDate;
    }

    /** A value as a point on a line (numbers as themselves, dates as days, timestamps as microseconds), or null. */
    static Double toPosition(Object value) {
        return switch (value) {
            case Integer number -> (double) number;
            case Long number -> (double) number;
            case Double number -> number;
            case BigDecimal number -> number.doubleValue();
            case LocalDate date -> (double) date.toEpochDay();
            case LocalDateTime timestamp -> timestamp.toEpochSecond(ZoneOffset.UTC) * 1e6 + timestamp.getNano() / 1e3;
            case org.apache.calcite.util.DateString date -> (double) date.getDaysSinceEpoch();
            case org.apache.calcite.util.TimestampString timestamp -> timestamp.getMillisSinceEpoch() * 1e3;
            case null, default -> null;
        };
    }
}
