package dev.columba.planner.rel;

import dev.columba.core.context.QueryContext;
import dev.columba.core.exec.Operator;
import dev.columba.core.exec.VectorSourceOperator;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.expr.Expr;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import dev.columba.planner.exec.RowSources;
import dev.columba.planner.schema.RowstoreTable;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.table.TableCursor;
import dev.columba.storage.table.TableScan;
import dev.columba.storage.table.TableStore;
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
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * A scan of a rowstore table: a clustered table in key order (the B+tree's leaf chain), with a
 * key range pushed down from comparisons on the leading key columns, or a heap in allocation
 * order; only the projected columns are decoded. Sequential read-ahead follows the statement's
 * settings ({@code read_ahead}, its depth and I/O size). ROW mode: rows are decoded one at a time.
 */
public final class ColumbaRowstoreScan extends org.apache.calcite.rel.core.TableScan implements ColumbaRel {
    private final RowstoreTable rowstore;
    private final int[] projection;
    private final KeyRange range;
    /** The partitions read (1-based, ascending) of a partitioned table; null for all (or no partitioning). */
    private final int[] partitions;
    /** {@link #outputSchema()}, once made. */
    private TableSchema outputSchema;
    /** The input a key bound is translated against: none of its columns is referenced. */
    private static final TableSchema NO_INPUT = TableSchema.of(Column.nullable("unused", SqlType.INT));

    public ColumbaRowstoreScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, int[] projection, KeyRange range) {
        this(cluster, traits, table, projection, range, null);
    }

    private ColumbaRowstoreScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, int[] projection,
                                KeyRange range, int[] partitions) {
        super(cluster, traits, List.of(), table);
        this.rowstore = table.unwrap(RowstoreTable.class);
        this.projection = projection.clone();
        this.range = range;
        this.partitions = partitions == null ? null : partitions.clone();
    }

    /** The partitions this scan reads (1-based, ascending); every one when none were eliminated; empty when not partitioned. */
    public int[] partitionsRead() {
        if (rowstore.partitions() == null) {
            return new int[0];
        }
        return partitions != null ? partitions.clone() : rowstore.partitions().all();
    }

    /** The same scan reading only {@code numbers} of its table's partitions (partition elimination). */
    public ColumbaRowstoreScan withPartitions(int[] numbers) {
        return new ColumbaRowstoreScan(getCluster(), getTraitSet(), getTable(), projection, range, numbers);
    }

    /** A full scan of every column. */
    public static ColumbaRowstoreScan of(RelOptCluster cluster, RelOptTable table) {
        int columns = table.getRowType().getFieldCount();
        int[] all = new int[columns];
        Arrays.setAll(all, column -> column);
        return new ColumbaRowstoreScan(cluster, cluster.traitSetOf(ColumbaRel.CONVENTION), table, all, null);
    }

    public RowstoreTable rowstore() {
        return rowstore;
    }

    /** Table columns produced, in order. */
    public int[] projection() {
        return projection.clone();
    }

    /** The pushed-down key range, or null. */
    public KeyRange range() {
        return range;
    }

    public boolean clustered() {
        return rowstore.store().tree() != null;
    }

    public ColumbaRowstoreScan withProjection(int[] columns) {
        return new ColumbaRowstoreScan(getCluster(), getTraitSet(), getTable(), columns, range, partitions);
    }

    public ColumbaRowstoreScan withRange(KeyRange keyRange) {
        return new ColumbaRowstoreScan(getCluster(), getTraitSet(), getTable(), projection, keyRange, partitions);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new ColumbaRowstoreScan(getCluster(), traitSet, getTable(), projection, range, partitions);
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
        return super.explainTerms(writer)
                .item("projection", Arrays.toString(projection))
                .itemIf("range", range == null ? "" : range.describe(keyNames()), range != null)
                .itemIf("partitions", Arrays.toString(partitions), partitions != null);
    }

    /** The condition the range stands for, over this scan's columns, for estimates; null without a range. */
    RexNode rangeCondition() {
        if (range == null) {
            return null;
        }
        RexBuilder builder = getCluster().getRexBuilder();
        List<Integer> keys = rowstore.keyColumns();
        List<RexNode> conjuncts = new ArrayList<>();
        RelDataType tableType = table.getRowType();
        for (int index = 0; index < range.prefix().size(); index++) {
            conjuncts.add(builder.makeCall(SqlStdOperatorTable.EQUALS, tableRef(builder, tableType, keys.get(index)),
                    range.prefix().get(index)));
        }
        int column = keys.get(range.prefix().size() < keys.size() ? range.prefix().size() : keys.size() - 1);
        if (range.low() != null) {
            conjuncts.add(builder.makeCall(range.lowInclusive() ? SqlStdOperatorTable.GREATER_THAN_OR_EQUAL
                    : SqlStdOperatorTable.GREATER_THAN, tableRef(builder, tableType, column), range.low()));
        }
        if (range.high() != null) {
            conjuncts.add(builder.makeCall(range.highInclusive() ? SqlStdOperatorTable.LESS_THAN_OR_EQUAL
                    : SqlStdOperatorTable.LESS_THAN, tableRef(builder, tableType, column), range.high()));
        }
        return org.apache.calcite.rex.RexUtil.composeConjunction(builder, conjuncts);
    }

    private static RexNode tableRef(RexBuilder builder, RelDataType tableType, int column) {
        return builder.makeInputRef(tableType.getFieldList().get(column).getType(), column);
    }

    /** The fraction of the table's rows the range selects. */
    double rangeFraction() {
        RexNode condition = rangeCondition();
        if (condition == null) {
            return 1.0;
        }
        int[] identity = new int[table.getRowType().getFieldCount()];
        Arrays.setAll(identity, column -> column);
        return Selectivities.of(rowstore, identity, condition);
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        return Math.max(1, rowstore.rowCount() * rangeFraction() * partitionFraction());
    }

    /** The share of the table's rows in the partitions read, from each partition's row count. */
    private double partitionFraction() {
        if (partitions == null || rowstore.rowCount() == 0) {
            return 1.0;
        }
        long rows = 0;
        for (int number : partitions) {
            rows += rowstore.partitions().store(number).definition().rowCount();
        }
        return (double) rows / rowstore.rowCount();
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double fraction = rangeFraction() * partitionFraction();
        double rows = rowstore.rowCount() * fraction;
        double pages = Math.max(1, rowstore.pages() * fraction);
        double width = 0.5 + 0.5 * projection.length / Math.max(1, table.getRowType().getFieldCount());
        return Costs.cost(planner, rows, rows * Costs.ROW_DECODE * width, pages * Costs.PAGE);
    }

    private List<String> keyNames() {
        List<String> names = new ArrayList<>();
        for (int column : rowstore.keyColumns()) {
            names.add(rowstore.schema().column(column).name());
        }
        return names;
    }

    @Override
    public String explainDetail() {
        StringBuilder text = new StringBuilder(rowstore.name());
        if (clustered()) {
            text.append(", clustered index order");
            if (range != null) {
                text.append(", seek ").append(range.describe(keyNames()));
            }
        } else {
            text.append(", heap allocation order");
        }
        if (rowstore.partitions() != null) {
            int[] read = partitionsRead();
            text.append(", partitions ").append(read.length).append(" of ").append(rowstore.partitions().count());
            if (read.length < rowstore.partitions().count()) {
                text.append(' ').append(Arrays.toString(read));
            }
        }
        if (projection.length < rowstore.schema().size()) {
            List<String> names = new ArrayList<>();
            for (int column : projection) {
                names.add(rowstore.schema().column(column).name());
            }
            text.append(", columns ").append(names);
        }
        return text.toString();
    }

    @Override
    public Operator instantiate(Execution execution) {
        TableSchema schema = outputSchema();
        if (execution.planning()) {
            checkRange(execution);
            return new VectorSourceOperator(schema, ExecutionMode.BATCH, context -> RowSources.noVectors());
        }
        if (rowstore.partitions() != null) {
            return partitionedScan(execution, schema);
        }
        return new VectorSourceOperator(schema, ExecutionMode.BATCH, context -> {
            ReadAheadOptions readAhead = ReadAheadOptions.from(context.query().settings());
            TableScan scan = storageScan(execution.translator(NO_INPUT), readAhead);
            return scan == null ? RowSources.noVectors() : RowSources.scanVectors(execution.environment(), rowstore.store(), scan);
        });
    }

    /**
     * Whether this scan is a seek of one key of a unique clustered key of an unpartitioned table:
     * it selects at most one row, which {@link #lookUp} reads without an operator tree.
     */
    public boolean pointSeek() {
        return clustered() && rowstore.partitions() == null && projection.length > 0 && singleton();
    }

    /** A range that names every column of a unique clustered key: one key, at most one row. */
    private boolean singleton() {
        return range != null && range.low() == null && range.high() == null
                && range.prefix().size() == rowstore.keyColumns().size() && rowstore.uniqueKey();
    }

    /**
     * The rows of a {@link #pointSeek} (none or one) with {@code parameters} bound, each a new array
     * of the projected columns in their Java representation: the same storage scan the operator
     * tree opens (same key, no read-ahead, its reads charged to the table in {@code query}), read to
     * its end, so the pages read and counted are the same.
     */
    public List<Object[]> lookUp(PageReader reader, QueryContext query, List<Object> parameters) {
        TableScan scan = storageScan(new ExpressionTranslator(NO_INPUT, getCluster().getRexBuilder(), parameters),
                ReadAheadOptions.OFF);
        if (scan == null) {
            return List.of();
        }
        TableStore store = rowstore.store();
        TableCursor cursor = store.scan(reader, scan, query.counters(store.name()));
        try {
            if (!cursor.next()) {
                return List.of();
            }
            Object[] first = cursor.row().clone();
            if (!cursor.next()) {
                return java.util.Collections.singletonList(first);
            }
            // A unique key has one row per key; should storage hold more, they are all returned, as the operators would.
            List<Object[]> rows = new ArrayList<>();
            rows.add(first);
            do {
                rows.add(cursor.row().clone());
            } while (cursor.next());
            return rows;
        } finally {
            cursor.close();
        }
    }

    /** The columns the scan outputs: made once, as every execution of a cached plan needs them. */
    private TableSchema outputSchema() {
        TableSchema schema = outputSchema;
        if (schema == null) {
            List<Column> columns = new ArrayList<>();
            for (int column : projection) {
                columns.add(rowstore.schema().column(column));
            }
            if (columns.isEmpty()) {
                // No column read (COUNT(*), CountIntoScanRule): storage counts each page's rows and decodes
                // none. A batch needs a column all the same: this one is never written, so NULL throughout.
                columns.add(Column.nullable("$rows", SqlType.BOOLEAN));
            }
            schema = new TableSchema(columns);
            outputSchema = schema; // immutable: a race makes two equal copies, harmlessly
        }
        return schema;
    }

    /**
     * A scan of the partitions read, one after the other. The workers of a parallel fragment divide
     * them: each claims the next unread partition and reads it whole (the partitions are the
     * morsels), so each partition's read-ahead stays sequential within it and every page is read by
     * one worker; a worker that finds none left is done.
     */
    private Operator partitionedScan(Execution execution, TableSchema schema) {
        int[] read = partitionsRead();
        java.util.concurrent.atomic.AtomicInteger shared = execution.divides(this)
                ? execution.shared(this, java.util.concurrent.atomic.AtomicInteger::new) : null;
        return new VectorSourceOperator(schema, ExecutionMode.BATCH, context -> {
            java.util.concurrent.atomic.AtomicInteger claimed = shared != null ? shared
                    : new java.util.concurrent.atomic.AtomicInteger();
            ReadAheadOptions readAhead = ReadAheadOptions.from(context.query().settings());
            TableScan scan = storageScan(execution.translator(NO_INPUT), readAhead);
            if (scan == null) {
                return RowSources.noVectors();
            }
            return RowSources.concatenated(() -> {
                int index = claimed.getAndIncrement();
                if (index >= read.length) {
                    return null;
                }
                // Charged to the table's name: STATISTICS IO reports the table, as SQL Server does.
                return RowSources.cursor(execution.environment(), rowstore.partitions().store(read[index]), scan,
                        rowstore.name());
            });
        });
    }

    private void checkRange(Execution execution) {
        if (range != null) {
            ExpressionTranslator translator = execution.translator(NO_INPUT);
            for (RexNode value : range.prefix()) {
                keyValue(translator, value, 0);
            }
        }
    }

    /**
     * The storage scan for an execution whose parameters {@code translator} binds, or null when a
     * bound is NULL (nothing can match).
     */
    private TableScan storageScan(ExpressionTranslator translator, ReadAheadOptions readAhead) {
        if (!clustered()) {
            return TableScan.allocationOrder(readAhead).withProjection(projection);
        }
        if (range == null) {
            return TableScan.all(readAhead).withProjection(projection);
        }
        List<Object> prefix = new ArrayList<>();
        for (int index = 0; index < range.prefix().size(); index++) {
            Object value = keyValue(translator, range.prefix().get(index), index);
            if (value == null) {
                return null;
            }
            prefix.add(value);
        }
        int boundColumn = range.prefix().size();
        Object[] low = prefix.isEmpty() ? null : prefix.toArray();
        boolean lowInclusive = true;
        Object[] high = prefix.isEmpty() ? null : prefix.toArray();
        boolean highInclusive = true;
        if (range.low() != null) {
            Object value = keyValue(translator, range.low(), boundColumn);
            if (value == null) {
                return null;
            }
            low = append(prefix, value);
            lowInclusive = range.lowInclusive();
        }
        if (range.high() != null) {
            Object value = keyValue(translator, range.high(), boundColumn);
            if (value == null) {
                return null;
            }
            high = append(prefix, value);
            highInclusive = range.highInclusive();
        }
        // A seek of one key of a unique clustered key reads at most one leaf: reading ahead cannot help,
        // and preparing it (the parent's children up to the key) would cost more than the seek.
        return TableScan.range(low, lowInclusive, high, highInclusive, singleton() ? ReadAheadOptions.OFF : readAhead)
                .withProjection(projection);
    }

    private static Object[] append(List<Object> prefix, Object value) {
        Object[] values = Arrays.copyOf(prefix.toArray(), prefix.size() + 1);
        values[prefix.size()] = value;
        return values;
    }

    /** A bound's value in the type of key column {@code keyIndex}, or null for NULL. */
    private Object keyValue(ExpressionTranslator translator, RexNode value, int keyIndex) {
        Expr expression = translator.translate(value);
        if (!(expression instanceof Expr.Literal literal)) {
            throw new IllegalStateException("a key bound must be a literal or a parameter: " + value);
        }
        if (literal.value() == null) {
            return null;
        }
        SqlType keyType = rowstore.schema().column(rowstore.keyColumns().get(keyIndex)).type();
        Object converted = literal.type().equals(keyType) ? literal.value()
                : dev.columba.core.expr.Evaluator.cast(literal.value(), literal.type(), keyType);
        return Values.canonical(keyType, converted);
    }
}
