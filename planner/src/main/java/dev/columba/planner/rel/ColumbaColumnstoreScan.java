package dev.columba.planner.rel;

import dev.columba.columnstore.scan.ColumnComparison;
import dev.columba.columnstore.scan.ColumnFilter;
import dev.columba.columnstore.scan.RowgroupMorsels;
import dev.columba.core.exec.Operator;
import dev.columba.core.type.SqlType;
import dev.columba.planner.exec.ColumnstoreScanOperator;
import dev.columba.planner.schema.ColumnstoreTableAdapter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * The batch-mode scan of a columnstore table: only the projected columns' segments are read, and
 * simple predicates ({@link PushedFilter}) run inside the scan, on encoded data, eliminating whole
 * rowgroups whose min/max cannot match; comparisons between two of the table's columns ({@link
 * ColumnComparison}) run inside it too, before the other columns are decoded. BATCH mode.
 */
public final class ColumbaColumnstoreScan extends org.apache.calcite.rel.core.TableScan implements ColumbaRel {
    private final ColumnstoreTableAdapter columnstore;
    private final int[] projection;
    private final List<PushedFilter> filters;
    /** Comparisons between two table columns, over table columns (not the projection's). */
    private final List<ColumnComparison> comparisons;

    public ColumbaColumnstoreScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, int[] projection,
                                  List<PushedFilter> filters) {
        this(cluster, traits, table, projection, filters, List.of());
    }

    public ColumbaColumnstoreScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, int[] projection,
                                  List<PushedFilter> filters, List<ColumnComparison> comparisons) {
        super(cluster, traits, List.of(), table);
        this.columnstore = table.unwrap(ColumnstoreTableAdapter.class);
        this.projection = projection.clone();
        this.filters = List.copyOf(filters);
        this.comparisons = List.copyOf(comparisons);
    }

    public static ColumbaColumnstoreScan of(RelOptCluster cluster, RelOptTable table) {
        int[] all = new int[table.getRowType().getFieldCount()];
        Arrays.setAll(all, column -> column);
        return new ColumbaColumnstoreScan(cluster, cluster.traitSetOf(ColumbaRel.CONVENTION), table, all, List.of());
    }

    public ColumnstoreTableAdapter columnstore() {
        return columnstore;
    }

    public int[] projection() {
        return projection.clone();
    }

    public List<PushedFilter> filters() {
        return filters;
    }

    public List<ColumnComparison> comparisons() {
        return comparisons;
    }

    /** Whether the scan drops rows itself: pushed filters or comparisons between columns. */
    public boolean filtersRows() {
        return !filters.isEmpty() || !comparisons.isEmpty();
    }

    public ColumbaColumnstoreScan withProjection(int[] columns) {
        return new ColumbaColumnstoreScan(getCluster(), getTraitSet(), getTable(), columns, filters, comparisons);
    }

    public ColumbaColumnstoreScan withFilters(List<PushedFilter> pushed, List<ColumnComparison> compared) {
        return new ColumbaColumnstoreScan(getCluster(), getTraitSet(), getTable(), projection, pushed, compared);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new ColumbaColumnstoreScan(getCluster(), traitSet, getTable(), projection, filters, comparisons);
    }

    @Override
    public RelDataType deriveRowType() {
        List<RelDataTypeField> fields = table.getRowType().getFieldList();
        var builder = getCluster().getTypeFactory().builder();
        for (int column : projection) {
            builder.add(fields.get(column));
        }
        return builder.build();
    }

    @Override
    public RelWriter explainTerms(RelWriter writer) {
        return super.explainTerms(writer).item("projection", Arrays.toString(projection))
                .itemIf("filters", describeFilters(), filtersRows());
    }

    private String describeFilters() {
        List<String> parts = new ArrayList<>();
        for (PushedFilter filter : filters) {
            parts.add(filter.describe(columnstore.schema().column(filter.column()).name()));
        }
        for (ColumnComparison comparison : comparisons) {
            parts.add(columnstore.schema().column(comparison.left()).name() + " " + comparison.operator().symbol() + " "
                    + columnstore.schema().column(comparison.right()).name());
        }
        return String.join(" AND ", parts);
    }

    /**
     * The fraction of rows the pushed filters keep: from the table's rowgroup figures when they are
     * gathered ({@link RowgroupSelectivity}), else Calcite's default guesses per filter.
     */
    double filterFraction() {
        if (!filtersRows()) {
            return 1.0;
        }
        if (columnstore.columnstoreStatistics().isPresent()) {
            int[] identity = new int[columnstore.schema().size()];
            Arrays.setAll(identity, column -> column);
            return Selectivities.of(columnstore, identity, filterCondition());
        }
        double fraction = 1.0;
        for (PushedFilter filter : filters) {
            fraction *= switch (filter.kind()) {
                case EQUAL -> 0.15;
                case IN -> Math.min(1.0, 0.15 * filter.constants().size());
                case IS_NULL -> 0.1;
                case IS_NOT_NULL -> 0.9;
                case NOT_EQUAL -> 0.85;
                default -> 0.5;
            };
        }
        // Calcite's guess for a comparison, as the filter above the scan estimated it before the push.
        return fraction * Math.pow(0.5, comparisons.size());
    }

    /** The pushed filters as one condition over the table's columns (not the projection's). */
    RexNode filterCondition() {
        RexBuilder builder = getCluster().getRexBuilder();
        List<RelDataTypeField> fields = table.getRowType().getFieldList();
        List<RexNode> conjuncts = new ArrayList<>();
        for (PushedFilter filter : filters) {
            RexNode column = builder.makeInputRef(fields.get(filter.column()).getType(), filter.column());
            conjuncts.add(switch (filter.kind()) {
                case EQUAL -> builder.makeCall(SqlStdOperatorTable.EQUALS, column, filter.constants().getFirst());
                case NOT_EQUAL -> builder.makeCall(SqlStdOperatorTable.NOT_EQUALS, column, filter.constants().getFirst());
                case LESS -> builder.makeCall(SqlStdOperatorTable.LESS_THAN, column, filter.constants().getFirst());
                case LESS_OR_EQUAL -> builder.makeCall(SqlStdOperatorTable.LESS_THAN_OR_EQUAL, column,
                        filter.constants().getFirst());
                case GREATER -> builder.makeCall(SqlStdOperatorTable.GREATER_THAN, column, filter.constants().getFirst());
                case GREATER_OR_EQUAL -> builder.makeCall(SqlStdOperatorTable.GREATER_THAN_OR_EQUAL, column,
                        filter.constants().getFirst());
                case IN -> builder.makeIn(column, filter.constants());
                case IS_NULL -> builder.makeCall(SqlStdOperatorTable.IS_NULL, column);
                case IS_NOT_NULL -> builder.makeCall(SqlStdOperatorTable.IS_NOT_NULL, column);
            });
        }
        for (ColumnComparison comparison : comparisons) {
            RexNode left = builder.makeInputRef(fields.get(comparison.left()).getType(), comparison.left());
            RexNode right = builder.makeInputRef(fields.get(comparison.right()).getType(), comparison.right());
            conjuncts.add(builder.makeCall(switch (comparison.operator()) {
                case EQUAL -> SqlStdOperatorTable.EQUALS;
                case NOT_EQUAL -> SqlStdOperatorTable.NOT_EQUALS;
                case LESS -> SqlStdOperatorTable.LESS_THAN;
                case LESS_OR_EQUAL -> SqlStdOperatorTable.LESS_THAN_OR_EQUAL;
                case GREATER -> SqlStdOperatorTable.GREATER_THAN;
                case GREATER_OR_EQUAL -> SqlStdOperatorTable.GREATER_THAN_OR_EQUAL;
            }, left, right));
        }
        return RexUtil.composeConjunction(builder, conjuncts);
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        return Math.max(1, columnstore.rowCount() * filterFraction());
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double rows = columnstore.rowCount();
        int totalColumns = Math.max(1, columnstore.schema().size());
        // The segments read: each column projected, filtered or compared, once however many filters it has.
        long read = java.util.stream.IntStream.concat(java.util.stream.IntStream.concat(Arrays.stream(projection),
                        filters.stream().mapToInt(PushedFilter::column)),
                comparisons.stream().flatMapToInt(c -> java.util.stream.IntStream.of(c.left(), c.right()))).distinct().count();
        double pages = columnstore.pages() * read / totalColumns;
        double out = rows * filterFraction();
        return Costs.cost(planner, out, rows * Costs.COLUMNSTORE_VALUE * Math.max(1, read) + out * Costs.BATCH_ROW * 0.1,
                pages * Costs.PAGE);
    }

    @Override
    public String explainDetail() {
        StringBuilder text = new StringBuilder(columnstore.name());
        if (projection.length < columnstore.schema().size()) {
            List<String> names = new ArrayList<>();
            for (int column : projection) {
                names.add(columnstore.schema().column(column).name());
            }
            text.append(", columns ").append(names);
        }
        if (filtersRows()) {
            // Only the predicates with constants eliminate rowgroups; comparisons between columns test rows.
            text.append(", filters ").append(describeFilters()).append(filters.isEmpty() ? "" : " (rowgroup elimination)");
        }
        return text.toString();
    }

    @Override
    public Operator instantiate(Execution execution) {
        for (PushedFilter filter : filters) {
            filter.toColumnFilter(execution, columnstore.schema().column(filter.column()).type());
        }
        RowgroupMorsels morsels = execution.divides(this) ? execution.shared(this, () -> RowgroupMorsels.shared(execution.fragmentWorkers())) : null;
        ColumnstoreScanOperator scan = new ColumnstoreScanOperator(execution.environment(), columnstore.table(), projection,
                morsels, () -> {
                    List<ColumnFilter> resolved = new ArrayList<>();
                    for (PushedFilter filter : filters) {
                        resolved.add(filter.toColumnFilter(execution, columnstore.schema().column(filter.column()).type()));
                    }
                    return resolved;
                }, false);
        if (!comparisons.isEmpty()) {
            scan.compareColumns(comparisons);
        }
        execution.takeDeferredStrings(this).forEach(scan::deferStrings);
        execution.takeDeferredLongs(this).forEach(scan::deferToLongs);
        ScanAggregation aggregation = execution.takeScanAggregation(this);
        if (aggregation != null) {
            aggregation.takenBy(scan);
        }
        return scan;
    }

    /**
     * Whether output column {@code column} may hand on its values as stored longs with its vector
     * deferred ({@code ColumnstoreScan.deferToLongs}): INT, BIGINT or DECIMAL of precision at most 18.
     */
    boolean canDeferToLongs(int column) {
        SqlType type = columnstore.schema().column(projection[column]).type();
        return type instanceof SqlType.IntegerType || type instanceof SqlType.BigintType
                || (type instanceof SqlType.DecimalType decimal && decimal.precision() <= 18);
    }

    /**
     * Whether output column {@code column} may hand on dictionary codes with its strings deferred:
     * a string column that no pushed filter reads.
     */
    boolean canDeferStrings(int column) {
        SqlType type = columnstore.schema().column(projection[column]).type();
        return (type instanceof SqlType.VarcharType || type instanceof SqlType.CharType)
                && filters.stream().noneMatch(filter -> filter.column() == projection[column]);
    }
}
