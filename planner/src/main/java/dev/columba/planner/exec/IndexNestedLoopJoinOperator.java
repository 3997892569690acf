package dev.columba.planner.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.exec.ExecutionContext;
import dev.columba.core.exec.JoinType;
import dev.columba.core.exec.Operator;
import dev.columba.core.expr.Evaluator;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.expr.Expr;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.planner.plan.StatementEnvironment;
import dev.columba.storage.btree.BTree;
import dev.columba.storage.btree.LookupPrefetch;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.row.KeyCodec;
import dev.columba.storage.table.IndexStore;
import dev.columba.storage.table.TableCursor;
import dev.columba.storage.table.TableScan;
import dev.columba.storage.table.TableStore;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.HashSet;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * Index nested-loop join: for each row of the outer input, probes the inner rowstore table by
 * equality on its clustered key (or a prefix of it) or on a unique secondary index, and joins the
 * rows found (INNER, LEFT, SEMI, ANTI), checking an optional residual condition per pair.
 *
 * <p>Random prefetch (SQL Server's nested-loop prefetch): with {@code prefetch} on, each outer
 * batch's probe keys are handed to storage's {@link LookupPrefetch} before the probes run, so the
 * inner leaves they need are read asynchronously, many at once, while the probes consume them in
 * order; those pages count as read-ahead reads of the inner table. Without it every cold probe
 * waits for one random read. The planner decides (see {@code prefetch_threshold_rows}).
 *
 * <p>I/O statistics: probes are charged to the inner table's counters. A probe of a unique
 * clustered key is a single-row lookup that starts no scan ({@code Scan count 0}, as SQL Server
 * counts unique seeks); a probe of a non-unique key or of a secondary index is a range seek and
 * counts one scan each, as storage counts them.
 *
 * <p>ROW mode: rows are probed and assembled one at a time. Memory: one output batch, and the
 * joined rows of the outer batch being probed (on the heap).
 */
public final class IndexNestedLoopJoinOperator implements Operator {
    /** How the inner table is probed. */
    public enum Access {
        /** By the whole unique clustered key: at most one row, no scan. */
        CLUSTERED_UNIQUE,
        /** By a prefix of the clustered key (or a non-unique one): a range seek. */
        CLUSTERED_PREFIX,
        /** By a secondary index's key: its entries, then each row by locator. */
        SECONDARY_INDEX
    }

    private final StatementEnvironment environment;
    private final Operator outer;
    private final TableStore inner;
    private final Access access;
    private final IndexStore index;
    private final int[] outerKeys;
    private final List<SqlType> innerKeyTypes;
    private final int[] innerProjection;
    private final JoinType joinType;
    private final Expr residual;
    private final boolean prefetch;
    private final TableSchema schema;
    private final int outerColumns;

    private ExecutionContext context;
    private BufferAllocator allocator;
    private Batch output;
    private IoCounters counters;
    private KeyCodec probeCodec;
    private final Deque<Object[]> pending = new ArrayDeque<>();
    private boolean outerDone;

    /**
     * @param index           the secondary index probed ({@link Access#SECONDARY_INDEX}), else null
     * @param outerKeys       outer columns equal to the probed key columns, in key order
     * @param innerProjection the inner table's columns the join produces (INNER, LEFT)
     * @param residual        a condition over the outer columns then all the inner table's columns, or null
     */
    public IndexNestedLoopJoinOperator(StatementEnvironment environment, Operator outer, TableStore inner, Access access,
                                       IndexStore index, int[] outerKeys, int[] innerProjection, JoinType joinType,
                                       Expr residual, boolean prefetch) {
        this.environment = environment;
        this.outer = outer;
        this.inner = inner;
        this.access = access;
        this.index = index;
        this.outerKeys = outerKeys.clone();
        this.innerProjection = innerProjection.clone();
        this.joinType = joinType;
        this.residual = residual;
        this.prefetch = prefetch;
        List<Integer> keyColumns = access == Access.SECONDARY_INDEX ? index.definition().keyColumns()
                : inner.definition().keyColumns();
        this.innerKeyTypes = new ArrayList<>();
        for (int key = 0; key < outerKeys.length; key++) {
            innerKeyTypes.add(inner.schema().column(keyColumns.get(key)).type());
        }
        this.outerColumns = outer.schema().size();
        this.schema = outputSchema(outer.schema(), innerSchema(inner.schema(), innerProjection), joinType);
    }

    static TableSchema innerSchema(TableSchema table, int[] projection) {
        List<Column> columns = new ArrayList<>();
        for (int column : projection) {
            columns.add(table.column(column));
        }
        return new TableSchema(columns);
    }

    /** Outer columns, then (INNER, LEFT) the inner ones, names made unique by a numeric suffix. */
    public static TableSchema outputSchema(TableSchema outer, TableSchema inner, JoinType joinType) {
        if (joinType == JoinType.SEMI || joinType == JoinType.ANTI) {
            return outer;
        }
        List<Column> columns = new ArrayList<>(outer.columns());
        Set<String> seen = new HashSet<>();
        for (Column column : outer.columns()) {
            seen.add(column.name().toLowerCase(Locale.ROOT));
        }
        for (Column column : inner.columns()) {
            String name = column.name();
            int suffix = 0;
            while (!seen.add(name.toLowerCase(Locale.ROOT))) {
                name = column.name() + suffix++;
            }
            columns.add(new Column(name, column.type(), column.nullable() || joinType == JoinType.LEFT));
        }
        return new TableSchema(columns);
    }

    @Override
    public TableSchema schema() {
        return schema;
    }

    @Override
    public ExecutionMode mode() {
        return ExecutionMode.ROW;
    }

    @Override
    public void open(ExecutionContext executionContext) {
        if (environment == null) {
            throw new ColumbaException(ErrorCode.INTERNAL, "a plan instantiated for checking cannot be opened");
        }
        context = executionContext;
        allocator = executionContext.allocator().newChildAllocator("IndexNestedLoopJoin " + inner.name(), 0, Long.MAX_VALUE);
        outer.open(executionContext);
        output = Batch.create(schema, allocator);
        counters = executionContext.query().counters(inner.name());
        probeCodec = new KeyCodec(innerKeyTypes);
    }

    @Override
    public Batch next() {
        context.checkCancelled();
        while (pending.size() < context.batchSize() && !outerDone) {
            Batch batch = outer.next();
            if (batch == null) {
                outerDone = true;
                break;
            }
            probeBatch(batch);
        }
        if (pending.isEmpty()) {
            return null;
        }
        int rows = Math.min(pending.size(), context.batchSize());
        for (FieldVector vector : output.vectors()) {
            vector.reset();
        }
        for (int row = 0; row < rows; row++) {
            Object[] values = pending.removeFirst();
            for (int column = 0; column < values.length; column++) {
                VectorValues.set(output.column(column), row, schema.column(column).type(), values[column]);
            }
        }
        output.setRowCount(rows);
        return output;
    }

    private void probeBatch(Batch batch) {
        int live = batch.selectedCount();
        Object[][] keys = new Object[live][];
        List<byte[]> encoded = new ArrayList<>(live);
        for (int index = 0; index < live; index++) {
            keys[index] = keyValues(batch, batch.selectedRow(index));
            if (keys[index] != null && prefetch) {
                encoded.add(access == Access.CLUSTERED_UNIQUE ? probeCodec.encode(keys[index])
                        : probeCodec.prefixLowerBound(keys[index]));
            }
        }
        LookupPrefetch reads = prefetch && !encoded.isEmpty()
                ? new LookupPrefetch(probedTree(), environment.reader(), encoded.iterator(),
                        context.query().settings().get(dev.columba.core.settings.StandardSettings.PREFETCH_DEPTH), counters)
                : null;
        try {
            for (int index = 0; index < live; index++) {
                int row = batch.selectedRow(index);
                Object[] outerValues = new Object[outerColumns];
                for (int column = 0; column < outerColumns; column++) {
                    outerValues[column] = VectorValues.get(batch.column(column), row, outer.schema().column(column).type());
                }
                List<Object[]> matches = List.of();
                if (keys[index] != null) {
                    if (reads != null) {
                        reads.advance();
                    }
                    matches = probe(keys[index]);
                }
                emit(outerValues, matches);
            }
        } finally {
            if (reads != null) {
                reads.close();
            }
        }
    }

    private BTree probedTree() {
        return access == Access.SECONDARY_INDEX ? index.tree() : inner.tree();
    }

    /** The probe key of an outer row in the inner key's types, or null when it cannot match (NULL, out of range). */
    private Object[] keyValues(Batch batch, int row) {
        Object[] values = new Object[outerKeys.length];
        for (int key = 0; key < outerKeys.length; key++) {
            SqlType outerType = outer.schema().column(outerKeys[key]).type();
            Object value = VectorValues.get(batch.column(outerKeys[key]), row, outerType);
            if (value == null) {
                return null;
            }
            SqlType innerType = innerKeyTypes.get(key);
            if (!outerType.equals(innerType)) {
                try {
                    Object converted = Evaluator.cast(value, outerType, innerType);
                    if (dev.columba.core.expr.Comparisons.compare(converted, value) != 0) {
                        return null;
                    }
                    value = converted;
                } catch (ColumbaException e) {
                    return null;
                }
            }
            values[key] = value;
        }
        return values;
    }

    /** The inner rows (all columns) whose key equals {@code key}. */
    private List<Object[]> probe(Object[] key) {
        switch (access) {
            case CLUSTERED_UNIQUE -> {
                Object[] row = inner.get(environment.reader(), key, counters);
                return row == null ? List.<Object[]>of() : List.<Object[]>of(row);
            }
            case CLUSTERED_PREFIX -> {
                List<Object[]> rows = new ArrayList<>();
                TableScan range = TableScan.range(key, true, key, true, ReadAheadOptions.OFF);
                try (TableCursor cursor = inner.scan(environment.reader(), range, counters)) {
                    while (cursor.next()) {
                        rows.add(cursor.row().clone());
                    }
                }
                return rows;
            }
            case SECONDARY_INDEX -> {
                List<Object[]> rows = new ArrayList<>();
                for (byte[] locator : index.lookup(environment.reader(), key, counters)) {
                    Object[] row = inner.fetch(environment.reader(), locator, counters);
                    if (row != null) {
                        rows.add(row);
                    }
                }
                return rows;
            }
        }
        throw new IllegalStateException(access.toString());
    }

    private Object[] project(Object[] row) {
        Object[] projected = new Object[innerProjection.length];
        for (int column = 0; column < innerProjection.length; column++) {
            projected[column] = row[innerProjection[column]];
        }
        return projected;
    }

    private void emit(Object[] outerValues, List<Object[]> matches) {
        boolean matched = false;
        for (Object[] match : matches) {
            if (residual != null) {
                Object[] pair = Arrays.copyOf(outerValues, outerColumns + match.length);
                System.arraycopy(match, 0, pair, outerColumns, match.length);
                if (!Boolean.TRUE.equals(Evaluator.evaluate(residual, pair, context.evaluation()))) {
                    continue;
                }
            }
            matched = true;
            if (joinType == JoinType.INNER || joinType == JoinType.LEFT) {
                Object[] joined = Arrays.copyOf(outerValues, outerColumns + innerProjection.length);
                System.arraycopy(project(match), 0, joined, outerColumns, innerProjection.length);
                pending.addLast(joined);
            } else {
                break;
            }
        }
        switch (joinType) {
            case LEFT -> {
                if (!matched) {
                    pending.addLast(Arrays.copyOf(outerValues, outerColumns + innerProjection.length));
                }
            }
            case SEMI -> {
                if (matched) {
                    pending.addLast(outerValues);
                }
            }
            case ANTI -> {
                if (!matched) {
                    pending.addLast(outerValues);
                }
            }
            case INNER -> {
                // Pairs were added above.
            }
        }
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        try {
            outer.close();
        } catch (RuntimeException e) {
            failure = e;
        }
        if (output != null) {
            output.close();
            output = null;
        }
        if (allocator != null) {
            try {
                allocator.close();
            } catch (IllegalStateException e) {
                ColumbaException leak = new ColumbaException(ErrorCode.INTERNAL, "the index nested-loop join into "
                        + inner.name() + " did not release its memory: " + e.getMessage(), e);
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
