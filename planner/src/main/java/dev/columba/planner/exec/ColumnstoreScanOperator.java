package dev.columba.planner.exec;

import dev.columba.columnstore.scan.ColumnComparison;
import dev.columba.columnstore.scan.ColumnFilter;
import dev.columba.columnstore.scan.ColumnstoreScan;
import dev.columba.columnstore.scan.RowgroupMorsels;
import dev.columba.columnstore.scan.ScanAggregate;
import dev.columba.columnstore.scan.ScanOptions;
import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.exec.ExecutionContext;
import dev.columba.core.exec.FoldedAggregate;
import dev.columba.core.exec.Operator;
import dev.columba.core.exec.RuntimeFilter;
import dev.columba.core.exec.RuntimeFilterProbe;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.settings.StandardSettings;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.planner.plan.StatementEnvironment;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The batch-mode columnstore scan as an operator: projected columns, pushed-down column filters
 * (which also eliminate rowgroups by their min/max), read-ahead as the statement's settings say,
 * optionally a BIGINT row locator column last (for DELETE and UPDATE). Its batches are the scan's
 * own, valid until the next {@code next()}.
 */
public final class ColumnstoreScanOperator implements Operator {
    /** The name of the locator column ({@code (rowgroup << 32) | position}). */
    public static final String LOCATOR_COLUMN = "$locator";

    private final StatementEnvironment environment;
    private final ColumnstoreTable table;
    private final int[] projection;
    private final RowgroupMorsels morsels;
    private final Supplier<List<ColumnFilter>> filters;
    private final boolean withLocator;
    private final TableSchema schema;
    private final List<RuntimeFilterProbe> probes = new ArrayList<>();
    private final List<Integer> deferred = new ArrayList<>();
    private final List<Integer> deferredToLongs = new ArrayList<>();
    /** Comparisons between two table columns the scan applies with its filters (see {@link #compareColumns}). */
    private List<ColumnComparison> comparisons = List.of();
    /** Aggregates the scan computes itself over the rowgroups it can answer without their rows (see {@link #aggregate}). */
    private List<ScanAggregate> aggregates = List.of();
    private BufferAllocator allocator;
    private ColumnstoreScan scan;

    /**
     * @param filters evaluated when the scan opens (their constants may be parameters)
     */
    public ColumnstoreScanOperator(StatementEnvironment environment, ColumnstoreTable table, int[] projection,
                                   Supplier<List<ColumnFilter>> filters, boolean withLocator) {
        this(environment, table, projection, null, filters, withLocator);
    }

    /**
     * @param morsels the rowgroups this scan shares with the other workers of a parallel plan (it
     *                reads those it claims), or null to read them all
     * @param filters evaluated when the scan opens (their constants may be parameters)
     */
    public ColumnstoreScanOperator(StatementEnvironment environment, ColumnstoreTable table, int[] projection,
                                   RowgroupMorsels morsels, Supplier<List<ColumnFilter>> filters, boolean withLocator) {
        this.morsels = morsels;
        this.environment = environment;
        this.table = table;
        this.projection = projection.clone();
        this.filters = filters;
        this.withLocator = withLocator;
        List<Column> columns = new ArrayList<>();
        for (int column : projection) {
            Column tableColumn = table.schema().column(column);
            columns.add(Column.nullable(tableColumn.name(), tableColumn.type()));
        }
        if (withLocator) {
            columns.add(Column.notNull(LOCATOR_COLUMN, SqlType.BIGINT));
        }
        this.schema = new TableSchema(columns);
    }

    /**
     * Tests output column {@code column} against a hash join's bitmap filter inside the scan (see
     * {@link ColumnstoreScan#testAgainst}) instead of in a {@code RuntimeFilterOperator} above it.
     * Before {@link #open}.
     */
    public void testAgainst(int column, RuntimeFilter filter) {
        if (scan != null) {
            throw new IllegalStateException("the scan of " + table.name() + " is open already");
        }
        probes.add(new RuntimeFilterProbe(filter, column, schema.column(column).type()));
    }

    /**
     * Lets output column {@code column} (a string column) hand on its dictionary codes and defer
     * decoding its strings until a consumer asks (see {@link ColumnstoreScan#deferStrings}). Before
     * {@link #open}.
     */
    public void deferStrings(int column) {
        if (scan != null) {
            throw new IllegalStateException("the scan of " + table.name() + " is open already");
        }
        deferred.add(column);
    }

    /**
     * Lets output column {@code column} (INT, BIGINT or DECIMAL of precision at most 18) hand on its
     * values as stored longs and defer writing its vector until a consumer asks (see {@link
     * ColumnstoreScan#deferToLongs}). Before {@link #open}.
     */
    public void deferToLongs(int column) {
        if (scan != null) {
            throw new IllegalStateException("the scan of " + table.name() + " is open already");
        }
        deferredToLongs.add(column);
    }

    /**
     * Lets the scan keep only the rows where every one of {@code requested} holds, comparing two
     * table columns' stored values before the other columns are decoded ({@link
     * ScanOptions#comparisons}). Before {@link #open}.
     */
    public void compareColumns(List<ColumnComparison> requested) {
        if (scan != null) {
            throw new IllegalStateException("the scan of " + table.name() + " is open already");
        }
        comparisons = List.copyOf(requested);
    }

    /**
     * Lets the scan compute {@code requested} itself over the compressed rowgroups it can answer
     * exactly without returning their rows (see {@link ColumnstoreScan#aggregate}); the aggregation
     * above adds {@link #folded} to its results. Before {@link #open}.
     */
    public void aggregate(List<ScanAggregate> requested) {
        if (scan != null) {
            throw new IllegalStateException("the scan of " + table.name() + " is open already");
        }
        aggregates = List.copyOf(requested);
    }

    /**
     * What the scan computed itself for each {@linkplain #aggregate requested aggregate}, in order,
     * in the terms of {@link FoldedAggregate} (a SUM's total at its column's scale). After the
     * scan's last batch.
     */
    public List<FoldedAggregate> folded() {
        if (scan == null) {
            throw new IllegalStateException("the scan of " + table.name() + " is not open");
        }
        List<FoldedAggregate> values = new ArrayList<>();
        for (int index = 0; index < aggregates.size(); index++) {
            ScanAggregate aggregate = aggregates.get(index);
            Object value = scan.aggregated(index);
            values.add(switch (aggregate.function()) {
                case COUNT_ROWS, COUNT_VALUES -> new FoldedAggregate((Long) value, null);
                case MIN, MAX -> new FoldedAggregate(0, value);
                case SUM -> {
                    long count = scan.aggregatedCount(index);
                    SqlType type = schema.column(aggregate.column()).type();
                    int scale = type instanceof SqlType.DecimalType decimal ? decimal.scale() : 0;
                    yield new FoldedAggregate(count, count == 0 ? null : new BigDecimal((BigInteger) value, scale));
                }
            });
        }
        return values;
    }

    /** The rowgroups the open scan answered its aggregates from without returning their rows (for tests). */
    public int rowgroupsAggregated() {
        return scan == null ? 0 : scan.rowgroupsAggregated();
    }

    @Override
    public TableSchema schema() {
        return schema;
    }

    @Override
    public ExecutionMode mode() {
        return ExecutionMode.BATCH;
    }

    @Override
    public void open(ExecutionContext context) {
        if (environment == null) {
            throw new ColumbaException(ErrorCode.INTERNAL, "a plan instantiated for checking cannot be opened");
        }
        allocator = context.allocator().newChildAllocator("ColumnstoreScan " + table.name(), 0, Long.MAX_VALUE);
        ScanOptions options = ScanOptions.all(table.schema().size())
                .withProjection(projection)
                .withFilters(filters.get())
                .withComparisons(comparisons)
                .withReadAhead(context.query().settings().get(StandardSettings.READ_AHEAD))
                .withReadAhead(context.query().settings().get(StandardSettings.COLUMNSTORE_READ_AHEAD_MAX_BYTES),
                        context.query().settings().get(StandardSettings.COLUMNSTORE_READ_AHEAD_DEPTH))
                .withBatchSize(context.batchSize())
                .withRowLocator(withLocator);
        IoCounters counters = context.query().counters(table.name());
        scan = morsels == null ? new ColumnstoreScan(table, environment.reader(), options, counters, allocator)
                : new ColumnstoreScan(table, environment.reader(), options, counters, allocator, morsels);
        probes.forEach(scan::testAgainst);
        deferred.forEach(scan::deferStrings);
        deferredToLongs.forEach(scan::deferToLongs);
        if (!aggregates.isEmpty()) {
            scan.aggregate(aggregates);
        }
    }

    @Override
    public Batch next() {
        Batch batch = scan.next();
        while (batch != null && batch.selectedCount() == 0) {
            batch = scan.next();
        }
        return batch;
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        if (scan != null) {
            try {
                scan.close();
            } catch (RuntimeException e) {
                failure = e;
            }
            scan = null;
        }
        if (allocator != null) {
            try {
                allocator.close();
            } catch (IllegalStateException e) {
                ColumbaException leak = new ColumbaException(ErrorCode.INTERNAL, "the columnstore scan of " + table.name()
                        + " did not release its memory: " + e.getMessage(), e);
                if (failure == null) {
                    failure = leak;
                } else {
                    failure.addSuppressed(leak);
                }
            }
            allocator = null;
        }
        if (failure != null) {
            throw failure;
        }
    }
}
