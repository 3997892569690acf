package dev.columba.planner.exec;

import dev.columba.columnstore.scan.ColumnstoreScan;
import dev.columba.columnstore.scan.ScanOptions;
import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.context.GeneratedKeys;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.settings.StandardSettings;
import dev.columba.core.exec.ExecutionContext;
import dev.columba.core.exec.Operator;
import dev.columba.core.exec.ValuesOperator;
import dev.columba.core.expr.EvaluationContext;
import dev.columba.core.expr.Evaluator;
import dev.columba.core.expr.Expr;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.planner.plan.StatementEnvironment;
import dev.columba.planner.schema.StatisticsStore;
import dev.columba.planner.schema.TablePartitions;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.table.TableCursor;
import dev.columba.storage.table.TableScan;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.txn.Transaction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;

/**
 * INSERT, UPDATE and DELETE: consumes its source and changes the table in the statement's write
 * transaction, then produces one row, the count of rows changed (column {@code rows}).
 *
 * <ul>
 *   <li>INSERT: each source row (the table's columns in order, converted to the column types) is
 *       inserted; into a columnstore table, INSERT ... SELECT takes the bulk path (rowgroups
 *       compressed directly from 102,400 rows on) and INSERT ... VALUES the delta store. A source
 *       that reads the target table is read to the end first, so the statement never sees its
 *       own rows.</li>
 *   <li>DELETE and UPDATE: the source (the target's rows, for UPDATE followed by the new values of
 *       the updated columns) is read to the end first. A table with a unique clustered key finds
 *       each row by its key. Other tables (heaps, non-unique clustered keys, columnstore) find
 *       them by content, with one scan of the table: equal rows are interchangeable, so taking any
 *       {@code k} of the rows equal to a row the source produced {@code k} times changes exactly
 *       what the statement means. An UPDATE deletes every target row, then inserts the new ones
 *       (so a key may move onto another row's old key); a columnstore UPDATE is delete +
 *       insert, as compressed rowgroups are immutable.</li>
 *   <li>MERGE: each source row is the target row (NULLs for a row the MERGE inserts), the row to
 *       write (every column) and an action code ({@link #MERGE_UPDATE}, {@link #MERGE_DELETE},
 *       {@link #MERGE_INSERT}). The source is read to the end first; the rows UPDATE and DELETE
 *       take away are found as DELETE finds them, then the new rows of UPDATE and INSERT are
 *       inserted. A target row that two source rows would update or delete fails the statement
 *       with 21000 (SQL Server's Msg 8672): a unique key seen twice, or, where rows are found by
 *       content, more rows of some content asked for than the table holds (equal rows are
 *       interchangeable, so each of {@code k} equal target rows matched once is asked for
 *       {@code k} times, and matched twice {@code 2k} times).</li>
 * </ul>
 * Values become column values by store assignment ({@link StoreAssignment}): a string too long for
 * its column fails with 22001, a NULL for a NOT NULL column (after identity and computed columns
 * are filled) with 23502. Inserts into a clustered table widen its key statistics; inserts into a
 * table with an IDENTITY column get its next values ({@link IdentityFill}). CREATE TABLE ... AS
 * uses this operator too, to load the table it created.
 *
 * <p>With an {@link Output} (an OUTPUT or RETURNING clause) it produces, instead of the count, one
 * row per row changed: the clause's expressions over the row's {@linkplain #changeSchema images},
 * the new row as written (identity and computed columns filled), the old row as it was, and for
 * MERGE the action. Every change is made and every output row computed before the first is
 * returned, so a failure anywhere fails the statement before the client saw a row, and the
 * session rolls the statement back.
 */
public final class TableModifyOperator implements Operator {
    public enum Kind { INSERT, UPDATE, DELETE, MERGE }

    /** MERGE: the source's last column says what its row does (the planner's MergeRewrite writes these codes). */
    public static final int MERGE_UPDATE = 1;
    public static final int MERGE_DELETE = 2;
    public static final int MERGE_INSERT = 3;

    /** The table written: a rowstore table (with its statistics) or a columnstore table. */
    public sealed interface Target {
        String name();

        int objectId();

        TableSchema schema();

        /** The table's catalog entry as the plan saw it: its columns and options are as now (only DDL changes them). */
        CatalogEntry.Table definition();
    }

    /**
     * A rowstore table; a partitioned one ({@code partitions} not null) has its rows in its
     * partitions' tables, each row in the one its partitioning value routes it to, so an UPDATE that
     * changes the value moves the row (an UPDATE deletes and inserts, below).
     */
    public record RowstoreTarget(TableStore table, StatisticsStore statistics, TablePartitions partitions)
            implements Target {
        /** The table that holds (or receives) {@code row}. */
        TableStore storeOf(Object[] row) {
            return partitions == null ? table : partitions.store(partitions.partitionOf(row[partitions.column()]));
        }

        @Override
        public String name() {
            return table.name();
        }

        @Override
        public int objectId() {
            return table.definition().objectId();
        }

        @Override
        public TableSchema schema() {
            return table.schema();
        }

        @Override
        public CatalogEntry.Table definition() {
            return table.definition();
        }
    }

    public record ColumnstoreTarget(ColumnstoreTable table) implements Target {
        @Override
        public String name() {
            return table.name();
        }

        @Override
        public int objectId() {
            return table.objectId();
        }

        @Override
        public TableSchema schema() {
            return table.schema();
        }

        @Override
        public CatalogEntry.Table definition() {
            return table.definition();
        }
    }

    /**
     * A CHECK constraint of the target: its name, its condition as written (for messages) and as an
     * expression over the table's row. A row fails it when the condition is false, not when it is
     * unknown (NULL), as the SQL standard says.
     */
    public record Check(String name, String condition, Expr expression) {
        public Check {
            java.util.Objects.requireNonNull(name, "name");
            java.util.Objects.requireNonNull(condition, "condition");
            java.util.Objects.requireNonNull(expression, "expression");
        }

        /**
         * Fails {@code statement} (23514, worded alike for INSERT, UPDATE, COPY and ALTER TABLE) if
         * {@code row} makes the condition false.
         */
        public void enforce(Object[] row, EvaluationContext evaluation, String statement, String table) {
            if (Boolean.FALSE.equals(Evaluator.evaluate(expression, row, evaluation))) {
                throw new ColumbaException(ErrorCode.CHECK_VIOLATION, "The " + statement + " statement conflicted with"
                        + " the CHECK constraint \"" + name + "\" (" + condition + ") of table " + table + ": row "
                        + Arrays.toString(row));
            }
        }
    }

    private static final TableSchema SCHEMA = TableSchema.of(Column.notNull("rows", SqlType.BIGINT));

    /** The type of MERGE's {@code $action} column: {@code INSERT}, {@code UPDATE} or {@code DELETE}. */
    public static final SqlType ACTION_TYPE = SqlType.varchar(6);

    /**
     * The rows an OUTPUT / RETURNING clause produces: {@code expressions} over a row of
     * {@link #changeSchema}, one per column of {@code schema}. With {@code into} (OUTPUT ... INTO)
     * they are not the operator's rows: {@code into} makes an operator that inserts them (each row
     * a parameter set) in the same transaction, and the operator produces the count.
     */
    public record Output(TableSchema schema, List<Expr> expressions,
                         java.util.function.Function<List<List<Object>>, Operator> into) {
        public Output {
            expressions = List.copyOf(expressions);
            if (expressions.size() != schema.size()) {
                throw new IllegalArgumentException(expressions.size() + " expressions for " + schema.size() + " columns");
            }
        }
    }

    /**
     * The row an {@link Output}'s expressions read for each changed row: the table's columns as the
     * new row ({@code inserted}), again as the old row ({@code deleted}), then MERGE's action. A
     * kind without an old row (INSERT) or a new one (DELETE) has NULLs there, and so has a MERGE
     * row for the image its action lacks; those columns are nullable, the others as the table's.
     */
    public static TableSchema changeSchema(TableSchema table, Kind kind) {
        List<Column> columns = new ArrayList<>();
        for (String image : List.of("inserted", "deleted")) {
            boolean present = image.equals("inserted") ? kind == Kind.INSERT || kind == Kind.UPDATE
                    : kind == Kind.DELETE || kind == Kind.UPDATE;
            for (Column column : table.columns()) {
                String name = image + "." + column.name();
                columns.add(present ? new Column(name, column.type(), column.nullable())
                        : Column.nullable(name, column.type()));
            }
        }
        columns.add(kind == Kind.MERGE ? Column.notNull("$action", ACTION_TYPE) : Column.nullable("$action", ACTION_TYPE));
        return new TableSchema(columns);
    }

    private final StatementEnvironment environment;
    private final Operator source;
    private final Target target;
    private final Kind kind;
    private final int[] updatedColumns;
    private final boolean bulk;
    private final boolean materialize;
    private final Map<Integer, Expr> computed;
    /** An array, not a list: the per-row loop below allocates no iterator. */
    private final Check[] checks;

    private ExecutionContext context;
    private BufferAllocator allocator;
    /** The count's batch (without an {@link #output}). */
    private Batch count;
    private boolean done;
    /** The number of parameter sets whose rows the source produces one each, or 0 (see {@link #numberingFailuresByParameterSet}). */
    private int parameterSets;
    /** Rows taken from the source so far. */
    private long rowsRead;
    /** The OUTPUT / RETURNING clause, or null: the operator then produces the count. */
    private Output output;
    /** With an {@link #output}: a row of {@link #changeSchema} per row changed, in the order changed. */
    private List<Object[]> changes;
    /** With an {@link #output}: its rows, once every change is made. */
    private ValuesOperator outputRows;

    /**
     * @param updatedColumns for UPDATE, the table columns whose new values follow the old row in the source
     * @param bulk           INSERT into a columnstore through the bulk path
     * @param materialize    read the whole source before the first change (it reads the target)
     * @param computed       the target's computed columns: each column's expression over the table's row
     */
    public TableModifyOperator(StatementEnvironment environment, Operator source, Target target, Kind kind,
                               int[] updatedColumns, boolean bulk, boolean materialize, Map<Integer, Expr> computed) {
        this(environment, source, target, kind, updatedColumns, bulk, materialize, computed, List.of());
    }

    /** As above, every written row checked against the target's CHECK constraints {@code checks}. */
    public TableModifyOperator(StatementEnvironment environment, Operator source, Target target, Kind kind,
                               int[] updatedColumns, boolean bulk, boolean materialize, Map<Integer, Expr> computed,
                               List<Check> checks) {
        this.computed = Map.copyOf(computed);
        this.checks = checks.toArray(new Check[0]);
        this.environment = environment;
        this.source = source;
        this.target = target;
        this.kind = kind;
        this.updatedColumns = updatedColumns.clone();
        this.bulk = bulk;
        this.materialize = materialize;
        int expected = target.schema().size() + switch (kind) {
            case INSERT, DELETE -> 0;
            case UPDATE -> updatedColumns.length;
            case MERGE -> updatedColumns.length + 1;
        };
        if (source.schema().size() != expected) {
            throw new ColumbaException(ErrorCode.INTERNAL, kind + " of " + target.name() + " expects " + expected
                    + " source columns, the plan gives " + source.schema().size());
        }
    }

    /**
     * The source produces one row per parameter set of a batch, in order: a failure while a row is
     * inserted names its parameter set ("parameter set 7 of 1000: ..."). The rows are taken one at
     * a time (the bulk path measures each as it takes it), so the row being taken is the one that failed.
     */
    public TableModifyOperator numberingFailuresByParameterSet(int count) {
        this.parameterSets = count;
        return this;
    }

    /** Produces the rows {@code clause} asks for instead of the count (see the class comment). */
    public TableModifyOperator returning(Output clause) {
        this.output = clause;
        return this;
    }

    @Override
    public TableSchema schema() {
        return output == null || output.into() != null ? SCHEMA : output.schema();
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
        if (environment.transaction() == null) {
            throw new ColumbaException(ErrorCode.TRANSACTION_STATE, kind + " of " + target.name()
                    + " needs a write transaction; the session must begin one");
        }
        context = executionContext;
        allocator = executionContext.allocator().newChildAllocator(kind + " " + target.name(), 0, Long.MAX_VALUE);
        source.open(executionContext);
    }

    @Override
    public Batch next() {
        if (outputRows != null) {
            return outputRows.next();
        }
        if (done) {
            return null;
        }
        done = true;
        changes = output == null ? null : new ArrayList<>();
        long changed;
        try {
            changed = switch (kind) {
                case INSERT -> insert();
                case DELETE, UPDATE -> deleteOrUpdate();
                case MERGE -> merge();
            };
        } catch (ColumbaException e) {
            if (parameterSets == 0 || rowsRead == 0) {
                throw e;
            }
            throw new ColumbaException(e.errorCode(), "parameter set " + rowsRead + " of " + parameterSets + ": "
                    + e.detail(), e);
        }
        if (output != null && output.into() == null) {
            outputRows = new ValuesOperator(output.schema(), outputRows());
            outputRows.open(context);
            return outputRows.next();
        }
        if (output != null) {
            changed = insertInto(outputRows());
        }
        count = Batch.create(SCHEMA, allocator);
        BigIntVector vector = (BigIntVector) count.column(0);
        // One value: setSafe alone would allocate (and zero) the vector's default few thousand slots.
        vector.allocateNew(1);
        vector.set(0, changed);
        count.setRowCount(1);
        return count;
    }

    // ---- OUTPUT and RETURNING ---------------------------------------------------------------------

    /** Notes a changed row for the {@link #output}: its new row, its old row (either may be null) and MERGE's action. */
    private void changed(Object[] inserted, Object[] deleted, String action) {
        if (changes == null) {
            return;
        }
        int columns = target.schema().size();
        Object[] change = new Object[2 * columns + 1];
        if (inserted != null) {
            System.arraycopy(inserted, 0, change, 0, columns);
        }
        if (deleted != null) {
            System.arraycopy(deleted, 0, change, columns, columns);
        }
        change[2 * columns] = action;
        changes.add(change);
    }

    /** {@code rows}, each noted as an inserted row as it passes. */
    private Iterator<Object[]> notingInserted(Iterator<Object[]> rows) {
        if (changes == null) {
            return rows;
        }
        return eachAsItPasses(rows, row -> {
            changed(row, null, null);
            return row;
        });
    }

    /** {@code rows} with {@code step} applied to each as it is taken; the row {@code step} returns is the one taken. */
    private static Iterator<Object[]> eachAsItPasses(Iterator<Object[]> rows, java.util.function.UnaryOperator<Object[]> step) {
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return rows.hasNext();
            }

            @Override
            public Object[] next() {
                return step.apply(rows.next());
            }
        };
    }

    /** Inserts {@code rows} through the output's INTO statement; how many rows it inserted. */
    private long insertInto(List<Object[]> rows) {
        if (rows.isEmpty()) {
            return 0;
        }
        List<List<Object>> parameterSets = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            parameterSets.add(Arrays.asList(row));
        }
        Operator insert = output.into().apply(parameterSets);
        try {
            insert.open(context);
            Batch inserted = insert.next();
            return ((BigIntVector) inserted.column(0)).get(inserted.selectedRow(0));
        } finally {
            insert.close();
        }
    }

    /** The output's rows: its expressions over every noted change. */
    private List<Object[]> outputRows() {
        List<Expr> expressions = output.expressions();
        List<Object[]> rows = new ArrayList<>(changes.size());
        for (Object[] change : changes) {
            Object[] row = new Object[expressions.size()];
            for (int column = 0; column < row.length; column++) {
                row[column] = Evaluator.evaluate(expressions.get(column), change, context.evaluation());
            }
            rows.add(row);
        }
        changes = null;
        return rows;
    }

    // ---- reading the source -----------------------------------------------------------------

    /**
     * The source's rows, one at a time, converted to the target's column types where they differ;
     * rows the source holds as Java values ({@link HeldRowsOperator}) are taken as they are, not
     * through its batches.
     */
    private Iterator<Object[]> sourceRows() {
        TableSchema sourceSchema = source.schema();
        TableSchema tableSchema = target.schema();
        // Per source column, once: its type, the table column it is stored into, whether they agree.
        int width = sourceSchema.size();
        SqlType[] fromTypes = new SqlType[width];
        Column[] toColumns = new Column[width];
        boolean[] sameType = new boolean[width];
        for (int column = 0; column < width; column++) {
            fromTypes[column] = sourceSchema.column(column).type();
            if (column >= tableSchema.size() + updatedColumns.length) {
                // MERGE's action code: no table column's.
                sameType[column] = true;
                continue;
            }
            int tableColumn = column < tableSchema.size() ? column : updatedColumns[column - tableSchema.size()];
            toColumns[column] = tableSchema.column(tableColumn);
            sameType[column] = fromTypes[column].equals(toColumns[column].type());
        }
        if (source instanceof HeldRowsOperator held) {
            Iterator<Object[]> heldRows = held.rows().iterator();
            return new Iterator<>() {
                @Override
                public boolean hasNext() {
                    return heldRows.hasNext();
                }

                @Override
                public Object[] next() {
                    Object[] row = heldRows.next();
                    rowsRead++;
                    Object[] values = new Object[width];
                    for (int column = 0; column < width; column++) {
                        values[column] = stored(row[column], fromTypes[column], toColumns[column], sameType[column]);
                    }
                    return values;
                }
            };
        }
        return new Iterator<>() {
            private Batch batch;
            private int index;
            private Object[] next;

            @Override
            public boolean hasNext() {
                while (next == null) {
                    if (batch == null || index >= batch.selectedCount()) {
                        batch = source.next();
                        index = 0;
                        if (batch == null) {
                            return false;
                        }
                        continue;
                    }
                    int row = batch.selectedRow(index++);
                    rowsRead++;
                    Object[] values = new Object[width];
                    for (int column = 0; column < width; column++) {
                        values[column] = stored(VectorValues.get(batch.column(column), row, fromTypes[column]),
                                fromTypes[column], toColumns[column], sameType[column]);
                    }
                    next = values;
                }
                return true;
            }

            @Override
            public Object[] next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Object[] row = next;
                next = null;
                return row;
            }
        };
    }

    private List<Object[]> drainSource() {
        List<Object[]> rows = new ArrayList<>();
        for (Iterator<Object[]> iterator = sourceRows(); iterator.hasNext(); ) {
            rows.add(iterator.next());
        }
        return rows;
    }

    /** A source value as its column stores it. */
    private Object stored(Object value, SqlType from, Column to, boolean sameType) {
        // Strings are checked even when the types agree: a parameter may be longer than its type.
        return value == null || sameType && !(value instanceof String) ? value
                : StoreAssignment.convert(value, from, to, target.name());
    }

    // ---- computed columns -------------------------------------------------------------------------

    /** {@code rows} with their computed columns set from the rest of each row. */
    private Iterator<Object[]> computeColumns(Iterator<Object[]> rows) {
        if (computed.isEmpty()) {
            return rows;
        }
        return eachAsItPasses(rows, this::computeColumns);
    }

    private Object[] computeColumns(Object[] row) {
        for (Map.Entry<Integer, Expr> column : computed.entrySet()) {
            Object value = Evaluator.evaluate(column.getValue(), row, context.evaluation());
            SqlType from = column.getValue().type();
            Column to = target.schema().column(column.getKey());
            row[column.getKey()] = value == null || from.equals(to.type()) ? value
                    : StoreAssignment.convert(value, from, to, target.name());
        }
        return row;
    }

    /** {@code rows}, each checked for NULLs in NOT NULL columns and against the CHECK constraints as it passes. */
    private Iterator<Object[]> checkNotNull(Iterator<Object[]> rows, String statement) {
        return eachAsItPasses(rows, row -> {
            StoreAssignment.checkNotNull(row, target.schema(), target.name(), statement);
            checkConstraints(row, statement);
            return row;
        });
    }

    /** Fails the statement if {@code row} makes a CHECK constraint's condition false (23514). */
    private void checkConstraints(Object[] row, String statement) {
        for (int index = 0; index < checks.length; index++) {
            checks[index].enforce(row, context.evaluation(), statement, target.name());
        }
    }

    // ---- INSERT ---------------------------------------------------------------------------------

    private long insert() {
        Transaction transaction = environment.transaction();
        Iterator<Object[]> rows = materialize ? drainSource().iterator() : sourceRows();
        IdentityFill identity = IdentityFill.of(environment.database(), transaction, target.definition());
        if (identity != null) {
            rows = identity.fill(rows);
        }
        rows = notingInserted(checkNotNull(computeColumns(rows), "INSERT"));
        long inserted = switch (target) {
            case RowstoreTarget rowstore -> insertRows(rowstore, transaction, rows);
            case ColumnstoreTarget columnstore -> {
                if (bulk) {
                    yield columnstore.table().bulkInsert(transaction, rows);
                }
                long count = 0;
                while (rows.hasNext()) {
                    columnstore.table().insert(transaction, rows.next());
                    count++;
                }
                yield count;
            }
        };
        if (identity != null) {
            identity.record(transaction);
            GeneratedKeys keys = identity.keys();
            if (keys != null) {
                environment.query().addGeneratedKeys(keys);
            }
        }
        return inserted;
    }

    private long insertRows(RowstoreTarget rowstore, Transaction transaction, Iterator<Object[]> rows) {
        TableStore table = rowstore.table();
        IoCounters counters = environment.query().counters(table.name());
        // A partitioned table keeps no key bounds (its keys are spread over its partitions).
        int leading = table.tree() == null || rowstore.partitions() != null ? -1 : table.definition().keyColumns().getFirst();
        Object low = null;
        Object high = null;
        long count = 0;
        // One inserter per table or partition, so rows in key order skip the descent from the root.
        Map<Integer, TableStore.RowInserter> inserters = new HashMap<>();
        // INSERT ... SELECT or CREATE TABLE AS into an empty table writes its new pages once, unlogged.
        if (rowstore.partitions() == null && rows.hasNext()
                && environment.query().settings().get(StandardSettings.MINIMAL_LOGGING)) {
            table.logNewPagesMinimallyIfEmpty(transaction, counters);
        }
        while (rows.hasNext()) {
            Object[] row = rows.next();
            TableStore store = rowstore.storeOf(row);
            inserters.computeIfAbsent(store.definition().objectId(), ignored -> store.inserter())
                    .insert(transaction, row, counters);
            if (leading >= 0 && row[leading] != null) {
                Object key = row[leading];
                low = low == null || dev.columba.core.expr.Comparisons.compare(key, low) < 0 ? key : low;
                high = high == null || dev.columba.core.expr.Comparisons.compare(key, high) > 0 ? key : high;
            }
            count++;
        }
        if (leading >= 0) {
            rowstore.statistics().widen(table.definition().objectId(), low, high, table.definition().rowCount() == 0);
        }
        return count;
    }

    // ---- DELETE and UPDATE ----------------------------------------------------------------------

    private long deleteOrUpdate() {
        List<Object[]> rows = drainSource();
        int columns = target.schema().size();
        List<Object[]> newRows = new ArrayList<>();
        if (kind == Kind.UPDATE) {
            for (Object[] row : rows) {
                Object[] updated = Arrays.copyOf(row, columns);
                for (int index = 0; index < updatedColumns.length; index++) {
                    updated[updatedColumns[index]] = row[columns + index];
                }
                StoreAssignment.checkNotNull(computeColumns(updated), target.schema(), target.name(), "UPDATE");
                checkConstraints(updated, "UPDATE");
                newRows.add(updated);
                changed(updated, row, null);
            }
        } else {
            for (Object[] row : rows) {
                changed(null, row, null);
            }
        }
        Transaction transaction = environment.transaction();
        long changed = remove(transaction, rows, false);
        switch (target) {
            case RowstoreTarget rowstore -> {
                if (kind == Kind.UPDATE) {
                    insertRows(rowstore, transaction, newRows.iterator());
                }
            }
            case ColumnstoreTarget columnstore -> {
                for (Object[] row : newRows) {
                    columnstore.table().insert(transaction, row);
                }
            }
        }
        return changed;
    }

    /**
     * Deletes the target rows {@code rows} hold in their first columns, returning how many were
     * deleted. With {@code once} (MERGE) a row asked for twice fails the statement (21000).
     */
    private long remove(Transaction transaction, List<Object[]> rows, boolean once) {
        long changed = 0;
        switch (target) {
            case RowstoreTarget rowstore -> {
                TableStore table = rowstore.table();
                IoCounters counters = environment.query().counters(table.name());
                if (table.tree() != null && table.definition().uniqueKey()) {
                    java.util.Set<List<Object>> seen = once ? new java.util.HashSet<>() : null;
                    for (Object[] row : rows) {
                        Object[] key = keyOf(table, row);
                        if (once && !seen.add(Arrays.asList(key))) {
                            throw matchedTwice(Arrays.toString(key));
                        }
                        // The key includes the partitioning column, so the row says its partition.
                        if (rowstore.storeOf(row).delete(transaction, key, counters)) {
                            changed++;
                        }
                    }
                } else {
                    Map<TableStore, List<Object[]>> byStore = new java.util.LinkedHashMap<>();
                    for (Object[] row : rows) {
                        byStore.computeIfAbsent(rowstore.storeOf(row), ignored -> new ArrayList<>()).add(row);
                    }
                    for (Map.Entry<TableStore, List<Object[]>> share : byStore.entrySet()) {
                        List<byte[]> locators = locateRowstore(share.getKey(), share.getValue(), counters);
                        if (once && locators.size() < share.getValue().size()) {
                            throw matchedTwice(null);
                        }
                        for (byte[] locator : locators) {
                            if (share.getKey().deleteAt(transaction, locator, counters)) {
                                changed++;
                            }
                        }
                    }
                }
            }
            case ColumnstoreTarget columnstore -> {
                ColumnstoreTable table = columnstore.table();
                List<Long> locators = locateColumnstore(table, rows);
                if (once && locators.size() < rows.size()) {
                    throw matchedTwice(null);
                }
                for (long locator : locators) {
                    if (table.delete(transaction, (int) (locator >>> 32), (int) locator)) {
                        changed++;
                    }
                }
            }
        }
        return changed;
    }

    private ColumbaException matchedTwice(String key) {
        return new ColumbaException(ErrorCode.CARDINALITY_VIOLATION, "The MERGE statement attempted to UPDATE or DELETE"
                + " the same row more than once. This happens when a target row matches more than one source row."
                + " A MERGE statement cannot UPDATE/DELETE the same row of the target table multiple times. Refine the"
                + " ON clause to ensure a target row matches at most one source row, or use the GROUP BY clause to"
                + " group the source rows (table " + target.name() + (key == null ? "" : ", key " + key) + ")");
    }

    // ---- MERGE ------------------------------------------------------------------------------------

    private long merge() {
        List<Object[]> rows = drainSource();
        int columns = target.schema().size();
        int actionColumn = 2 * columns;
        List<Object[]> removed = new ArrayList<>();
        List<Object[]> written = new ArrayList<>();
        List<Object[]> inserted = new ArrayList<>();
        // With an output: the changes of the rows inserted, whose new rows are known once identity fills them.
        List<Object[]> insertChanges = new ArrayList<>();
        for (Object[] row : rows) {
            int action = ((Number) row[actionColumn]).intValue();
            switch (action) {
                case MERGE_UPDATE -> {
                    removed.add(row);
                    Object[] newRow = computeColumns(Arrays.copyOfRange(row, columns, actionColumn));
                    written.add(newRow);
                    changed(newRow, row, "UPDATE");
                }
                case MERGE_DELETE -> {
                    removed.add(row);
                    changed(null, row, "DELETE");
                }
                case MERGE_INSERT -> {
                    inserted.add(Arrays.copyOfRange(row, columns, actionColumn));
                    if (changes != null) {
                        changed(null, null, "INSERT");
                        insertChanges.add(changes.getLast());
                    }
                }
                default -> throw new ColumbaException(ErrorCode.INTERNAL, "MERGE of " + target.name()
                        + " got action code " + action);
            }
        }
        for (Object[] row : written) {
            StoreAssignment.checkNotNull(row, target.schema(), target.name(), "MERGE");
            checkConstraints(row, "MERGE");
        }
        Transaction transaction = environment.transaction();
        IdentityFill identity = inserted.isEmpty() ? null
                : IdentityFill.of(environment.database(), transaction, target.definition());
        Iterator<Object[]> insertedRows = identity == null ? inserted.iterator() : identity.fill(inserted.iterator());
        Iterator<Object[]> insertChange = insertChanges.iterator();
        for (Iterator<Object[]> checked = checkNotNull(computeColumns(insertedRows), "MERGE"); checked.hasNext(); ) {
            Object[] row = checked.next();
            written.add(row);
            if (insertChange.hasNext()) {
                System.arraycopy(row, 0, insertChange.next(), 0, columns);
            }
        }
        long changed = remove(transaction, removed, true);
        switch (target) {
            case RowstoreTarget rowstore -> insertRows(rowstore, transaction, written.iterator());
            case ColumnstoreTarget columnstore -> {
                for (Object[] row : written) {
                    columnstore.table().insert(transaction, row);
                }
            }
        }
        if (identity != null) {
            identity.record(transaction);
            GeneratedKeys keys = identity.keys();
            if (keys != null) {
                environment.query().addGeneratedKeys(keys);
            }
        }
        return changed + inserted.size();
    }

    private static Object[] keyOf(TableStore table, Object[] row) {
        List<Integer> keyColumns = table.definition().keyColumns();
        Object[] key = new Object[keyColumns.size()];
        for (int index = 0; index < key.length; index++) {
            key[index] = row[keyColumns.get(index)];
        }
        return key;
    }

    /** How many rows of each content the source asked for. */
    private Map<List<Object>, Integer> wanted(List<Object[]> rows) {
        int columns = target.schema().size();
        Map<List<Object>, Integer> counts = new HashMap<>();
        for (Object[] row : rows) {
            counts.merge(Arrays.asList(Arrays.copyOf(row, columns)), 1, Integer::sum);
        }
        return counts;
    }

    private List<byte[]> locateRowstore(TableStore table, List<Object[]> rows, IoCounters counters) {
        Map<List<Object>, Integer> counts = wanted(rows);
        List<byte[]> locators = new ArrayList<>();
        TableScan all = table.tree() != null ? TableScan.all(ReadAheadOptions.from(context.query().settings()))
                : TableScan.allocationOrder(ReadAheadOptions.from(context.query().settings()));
        try (TableCursor cursor = table.scan(environment.reader(), all, counters)) {
            while (cursor.next() && !counts.isEmpty()) {
                if (take(counts, cursor.row())) {
                    locators.add(cursor.locator());
                }
            }
        }
        return locators;
    }

    private List<Long> locateColumnstore(ColumnstoreTable table, List<Object[]> rows) {
        Map<List<Object>, Integer> counts = wanted(rows);
        List<Long> locators = new ArrayList<>();
        int columns = table.schema().size();
        ScanOptions options = ScanOptions.all(columns).withRowLocator(true).withBatchSize(context.batchSize());
        try (ColumnstoreScan scan = new ColumnstoreScan(table, environment.reader(), options,
                environment.query().counters(table.name()), allocator)) {
            Object[] row = new Object[columns];
            for (Batch batch = scan.next(); batch != null && !counts.isEmpty(); batch = scan.next()) {
                for (int index = 0; index < batch.selectedCount(); index++) {
                    int position = batch.selectedRow(index);
                    for (int column = 0; column < columns; column++) {
                        row[column] = VectorValues.get(batch.column(column), position, table.schema().column(column).type());
                    }
                    if (take(counts, row)) {
                        locators.add(((BigIntVector) batch.column(columns)).get(position));
                    }
                }
            }
        }
        return locators;
    }

    private static boolean take(Map<List<Object>, Integer> counts, Object[] row) {
        List<Object> key = Arrays.asList(row.clone());
        Integer remaining = counts.get(key);
        if (remaining == null) {
            return false;
        }
        if (remaining == 1) {
            counts.remove(key);
        } else {
            counts.put(key, remaining - 1);
        }
        return true;
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        try {
            source.close();
        } catch (RuntimeException e) {
            failure = e;
        }
        if (count != null) {
            count.close();
            count = null;
        }
        if (outputRows != null) {
            try {
                outputRows.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
            outputRows = null;
        }
        if (allocator != null) {
            try {
                allocator.close();
            } catch (IllegalStateException e) {
                ColumbaException leak = new ColumbaException(ErrorCode.INTERNAL, kind + " of " + target.name()
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
