package dev.columba.planner.rel;

import dev.columba.columnstore.file.SegmentDistinct;
import dev.columba.core.type.SqlType;
import dev.columba.planner.schema.ColumbaTable;
import dev.columba.planner.schema.ColumnstoreStatistics;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.RelColumnOrigin;
import org.apache.calcite.rel.metadata.RelMdDistinctRowCount;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Calcite metadata: the distinct values of columns of a scan of a Columba table, so that joins and
 * GROUP BY are estimated from distinct counts (Calcite answers only for unique keys and otherwise
 * guesses a fixed fraction). Nodes above a scan (filters, projects, joins, aggregates) keep
 * Calcite's handlers, which ask down to the scan.
 *
 * <p>A columnstore table's distinct values per column come from its rowgroups' segment figures
 * ({@link ColumnstoreStatistics}), combined by {@link SegmentDistinct#ofColumn} (the Trino connector's rules too): for whole numbers (INT, BIGINT, DATE) the sum of the segments'
 * estimates, at most the span {@code max - min + 1} over all rowgroups; for strings (VARCHAR and CHAR) the largest
 * segment's (the primary dictionary is shared by every rowgroup, so the segments' counts overlap);
 * unknown for other types. A set of columns has at most the product of its columns' distinct
 * values and at most the table's rows. A unique key (clustered or of a unique index) has as many
 * distinct values as rows, in either store. A predicate or pushed filters that keep {@code n} of the
 * rows keep {@link RelMdUtil#numDistinctVals} of the values: the expected distinct values among
 * {@code n} draws.
 *
 * <p>A projection's keys that are expressions are bounded from what they read (Calcite guesses a
 * tenth of the rows for any call of two or more operands, so TPC-H Q9's GROUP BY nation,
 * EXTRACT(YEAR FROM o_orderdate) was estimated at 1.97 million groups, not 175): a deterministic
 * expression has at most as many values as the columns it reads have together, so the keys
 * together have at most as many as all the columns they read (a functional dependency); a literal
 * has one; EXTRACT of a calendar field has at most that field's values (12 months, 7 weekdays),
 * and EXTRACT(YEAR) at most the years between the column's smallest and largest value in the
 * table's segment figures. The answer is the least of those bounds, of Calcite's own and of the
 * projection's rows.
 */
public final class ColumbaDistinctRowCount implements MetadataHandler<BuiltInMetadata.DistinctRowCount> {
    public static final ColumbaDistinctRowCount INSTANCE = new ColumbaDistinctRowCount();

    @Override
    public MetadataDef<BuiltInMetadata.DistinctRowCount> getDef() {
        return BuiltInMetadata.DistinctRowCount.DEF;
    }

    /** A subset answers for its best (or first) member. */
    public Double getDistinctRowCount(RelSubset subset, RelMetadataQuery mq, ImmutableBitSet groupKey,
                                      RexNode predicate) {
        RelNode rel = subset.getBest() != null ? subset.getBest() : subset.getOriginal();
        return rel == null ? null : mq.getDistinctRowCount(rel, groupKey, predicate);
    }

    /**
     * A phase of a split aggregation answers as its aggregate: Calcite's handler for a single-input
     * node would answer from the rows aggregated, so a join above it at MAXDOP n was estimated from
     * those (see {@link ColumbaRowCount}).
     */
    public Double getDistinctRowCount(ColumbaSplitAggregate split, RelMetadataQuery mq, ImmutableBitSet groupKey,
                                      RexNode predicate) {
        return mq.getDistinctRowCount(split.aggregate(), groupKey, predicate);
    }

    /**
     * The exchanges of a parallel plan pass their input's rows on, every one of them: the same
     * distinct values. Calcite's handler for a node it does not know answers nothing, so at MAXDOP n
     * an aggregate or a join above a gather or a repartition fell back to its guesses.
     */
    public Double getDistinctRowCount(ColumbaGather gather, RelMetadataQuery mq, ImmutableBitSet groupKey,
                                      RexNode predicate) {
        return mq.getDistinctRowCount(gather.getInput(), groupKey, predicate);
    }

    /** As a gather: a repartition's workers together return every row of its input. */
    public Double getDistinctRowCount(ColumbaRepartition repartition, RelMetadataQuery mq, ImmutableBitSet groupKey,
                                      RexNode predicate) {
        return mq.getDistinctRowCount(repartition.getInput(), groupKey, predicate);
    }

    /**
     * A projection: Calcite's estimate, bounded by what its key expressions read (see the class
     * comment). With a predicate, Calcite's alone: the bounds hold for the unfiltered rows only.
     */
    public Double getDistinctRowCount(Project project, RelMetadataQuery mq, ImmutableBitSet groupKey,
                                      RexNode predicate) {
        Double calcite = CALCITE.getDistinctRowCount(project, mq, groupKey, predicate);
        if (predicate != null && !predicate.isAlwaysTrue()) {
            return calcite;
        }
        double bound = expressionsBound(project, mq, groupKey);
        if (Double.isNaN(bound)) {
            return calcite;
        }
        return calcite == null ? bound : Math.min(calcite, bound);
    }

    /** Calcite's own handler, asked first for projections. */
    private static final RelMdDistinctRowCount CALCITE = new RelMdDistinctRowCount() {
    };

    /** The most distinct values of keys {@code groupKey} of {@code project}, NaN when nothing bounds them. */
    private static double expressionsBound(Project project, RelMetadataQuery mq, ImmutableBitSet groupKey) {
        RelNode input = project.getInput();
        ImmutableBitSet.Builder read = ImmutableBitSet.builder();
        double product = 1;
        for (int key : groupKey) {
            RexNode expression = project.getProjects().get(key);
            if (!RexUtil.isDeterministic(expression)) {
                return Double.NaN;
            }
            ImmutableBitSet columns = RelOptUtil.InputFinder.bits(expression);
            read.addAll(columns);
            Double values = expressionDistinct(input, mq, expression, columns);
            product = values == null || Double.isNaN(product) ? Double.NaN : product * Math.max(1, values);
        }
        double bound = Math.max(1, mq.getRowCount(project));
        if (!Double.isNaN(product)) {
            bound = Math.min(bound, product);
        }
        ImmutableBitSet allRead = read.build();
        Double together = allRead.isEmpty() ? Double.valueOf(1) : mq.getDistinctRowCount(input, allRead, null);
        if (together != null) {
            bound = Math.min(bound, Math.max(1, together));
        }
        return Double.isNaN(product) && together == null ? Double.NaN : bound;
    }

    /** The most distinct values of one key expression reading input {@code columns}, or null when unknown. */
    private static Double expressionDistinct(RelNode input, RelMetadataQuery mq, RexNode expression, ImmutableBitSet columns) {
        if (columns.isEmpty()) {
            return 1.0;
        }
        Double read = mq.getDistinctRowCount(input, columns, null);
        if (expression.getKind() == SqlKind.EXTRACT) {
            double field = extractedValues(input, mq, (RexCall) expression);
            // No conditional expression here: mixing Double and double in one unboxes a null (an NPE for
            // rowstore tables, whose columns have no distinct counts, in TpchQueriesTest).
            if (Double.isNaN(field)) {
                return read;
            }
            if (read == null) {
                return field;
            }
            return Math.min(read, field);
        }
        return read;
    }

    /**
     * The most values EXTRACT can return: a calendar field's count, or for YEAR the years between
     * the smallest and the largest value of its column (a table column's segment figures); NaN
     * when unknown.
     */
    private static double extractedValues(RelNode input, RelMetadataQuery mq, RexCall extract) {
        if (!(extract.getOperands().get(0) instanceof RexLiteral flag)
                || !(flag.getValue() instanceof TimeUnitRange unit)) {
            return Double.NaN;
        }
        return switch (unit) {
            case MONTH -> 12;
            case QUARTER -> 4;
            case DOW, ISODOW -> 7;
            case DAY -> 31;
            case DOY -> 366;
            case WEEK -> 53;
            case HOUR -> 24;
            case MINUTE -> 60;
            case YEAR -> extract.getOperands().get(1) instanceof RexInputRef column ? yearSpan(input, mq, column.getIndex()) : Double.NaN;
            default -> Double.NaN;
        };
    }

    /** The years from the smallest to the largest value of {@code input}'s column {@code column}, both included; NaN when unknown. */
    private static double yearSpan(RelNode input, RelMetadataQuery mq, int column) {
        List<ColumnstoreStatistics.SegmentStatistics> segments = segmentsOf(input, mq, column);
        if (segments == null) {
            return Double.NaN;
        }
        int first = Integer.MAX_VALUE;
        int last = Integer.MIN_VALUE;
        for (ColumnstoreStatistics.SegmentStatistics segment : segments) {
            if (segment.nonNullRows() == 0) {
                continue;
            }
            Integer low = year(segment.min());
            Integer high = year(segment.max());
            if (low == null || high == null) {
                return Double.NaN;
            }
            first = Math.min(first, low);
            last = Math.max(last, high);
        }
        return first > last ? Double.NaN : last - first + 1;
    }

    /**
     * The smallest and the largest value of {@code input}'s column {@code column} when it is an
     * INT or BIGINT column of a columnstore table, traced underived, whose every segment with values
     * has its minimum and maximum in the table's figures; null otherwise (a rowstore table, a
     * derived column, a table without figures).
     */
    public static long[] wholeNumberSpan(RelNode input, RelMetadataQuery mq, int column) {
        List<ColumnstoreStatistics.SegmentStatistics> segments = segmentsOf(input, mq, column);
        if (segments == null) {
            return null;
        }
        long low = Long.MAX_VALUE;
        long high = Long.MIN_VALUE;
        for (ColumnstoreStatistics.SegmentStatistics segment : segments) {
            if (segment.nonNullRows() == 0) {
                continue;
            }
            if (!(segment.min() instanceof Integer || segment.min() instanceof Long)
                    || !(segment.max() instanceof Integer || segment.max() instanceof Long)) {
                return null;
            }
            low = Math.min(low, ((Number) segment.min()).longValue());
            high = Math.max(high, ((Number) segment.max()).longValue());
        }
        return low > high ? null : new long[] {low, high};
    }

    /**
     * The segment figures, one per rowgroup, of the columnstore column that {@code input}'s column
     * {@code column} is (traced underived); null when it is not so traced or the table has no figures.
     */
    private static List<ColumnstoreStatistics.SegmentStatistics> segmentsOf(RelNode input, RelMetadataQuery mq, int column) {
        RelColumnOrigin origin = mq.getColumnOrigin(input, column);
        if (origin == null || origin.isDerived()) {
            return null;
        }
        ColumbaTable table = origin.getOriginTable().unwrap(ColumbaTable.class);
        if (table == null || table.columnstoreStatistics().isEmpty()) {
            return null;
        }
        return table.columnstoreStatistics().get().rowgroups().stream()
                .map(rowgroup -> rowgroup.columns().get(origin.getOriginColumnOrdinal())).toList();
    }

    private static Integer year(Object value) {
        return switch (value) {
            case LocalDate date -> date.getYear();
            case LocalDateTime timestamp -> timestamp.getYear();
            case null, default -> null;
        };
    }

    public Double getDistinctRowCount(TableScan scan, RelMetadataQuery mq, ImmutableBitSet groupKey,
                                      RexNode predicate) {
        ColumbaTable table = scan.getTable().unwrap(ColumbaTable.class);
        if (table == null) {
            return null;
        }
        int[] projection = projection(scan);
        int[] columns = groupKey.asList().stream().mapToInt(column -> projection[column]).toArray();
        OptionalDouble distinct = tableDistinct(table, columns);
        if (distinct.isEmpty()) {
            return null;
        }
        double rows = mq.getRowCount(scan);
        if (predicate != null) {
            rows *= mq.getSelectivity(scan, predicate);
        }
        double tableRows = Math.max(1, table.rowCount());
        return rows >= tableRows ? distinct.getAsDouble() : RelMdUtil.numDistinctVals(distinct.getAsDouble(), rows);
    }

    /**
     * The distinct values of table columns {@code columns} together over the whole table (no
     * filter), or empty when the statistics do not say.
     */
    public static OptionalDouble tableDistinct(ColumbaTable table, int[] columns) {
        double rows = Math.max(1, table.rowCount());
        if (columns.length == 0) {
            return OptionalDouble.of(1);
        }
        if (unique(table, columns)) {
            return OptionalDouble.of(rows);
        }
        if (table.columnstoreStatistics().isEmpty()) {
            return OptionalDouble.empty();
        }
        ColumnstoreStatistics statistics = table.columnstoreStatistics().get();
        if (statistics.rowgroups().isEmpty()) {
            return OptionalDouble.empty();
        }
        double product = 1;
        for (int column : columns) {
            OptionalDouble distinct = columnDistinct(table.schema().column(column).type(), statistics, column);
            if (distinct.isEmpty()) {
                return OptionalDouble.empty();
            }
            product *= Math.max(1, distinct.getAsDouble());
        }
        return OptionalDouble.of(Math.min(rows, product));
    }

    private static OptionalDouble columnDistinct(SqlType type, ColumnstoreStatistics statistics, int column) {
        List<SegmentDistinct.Segment> segments = new ArrayList<>(statistics.rowgroups().size());
        for (ColumnstoreStatistics.RowgroupStatistics rowgroup : statistics.rowgroups()) {
            ColumnstoreStatistics.SegmentStatistics segment = rowgroup.columns().get(column);
            segments.add(new SegmentDistinct.Segment(segment.nonNullRows(), segment.distinct(), segment.min(),
                    segment.max()));
        }
        return SegmentDistinct.ofColumn(type, segments);
    }

    private static boolean unique(ColumbaTable table, int[] columns) {
        ImmutableBitSet set = ImmutableBitSet.of(columns);
        if (table.uniqueKey() && !table.keyColumns().isEmpty() && set.contains(ImmutableBitSet.of(table.keyColumns()))) {
            return true;
        }
        return table.uniqueIndexKeys().stream().anyMatch(key -> set.contains(ImmutableBitSet.of(key)));
    }

    /** The table column behind each output column of {@code scan} (its projection; identity for other scans). */
    static int[] projection(TableScan scan) {
        return switch (scan) {
            case ColumbaRowstoreScan rowstore -> rowstore.projection();
            case ColumbaColumnstoreScan columnstore -> columnstore.projection();
            default -> {
                int[] identity = new int[scan.getRowType().getFieldCount()];
                Arrays.setAll(identity, column -> column);
                yield identity;
            }
        };
    }
}
