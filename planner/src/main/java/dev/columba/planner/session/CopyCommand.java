package dev.columba.planner.session;

import dev.columba.columnstore.build.ColumnBatch;
import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.settings.StandardSettings;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.planner.copy.CopyOptions;
import dev.columba.planner.copy.CopyFileFormat;
import dev.columba.planner.copy.CopyFileFormats;
import dev.columba.planner.copy.CsvReader;
import dev.columba.planner.copy.ImportReader;
import dev.columba.planner.copy.ImportTarget;
import dev.columba.planner.copy.Transcoding;
import dev.columba.planner.parser.SqlCopy;
import dev.columba.planner.exec.IdentityFill;
import dev.columba.planner.exec.StoreAssignment;
import dev.columba.planner.exec.TableModifyOperator;
import dev.columba.planner.plan.QueryPlanner;
import dev.columba.planner.schema.GeneratedColumns;
import dev.columba.planner.schema.TableConstraints;
import dev.columba.core.expr.EvaluationContext;
import dev.columba.core.expr.Evaluator;
import dev.columba.core.expr.Expr;
import dev.columba.core.schema.Column;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.db.Database;
import dev.columba.storage.db.DatabaseLayout;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.txn.Transaction;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.calcite.sql.SqlIdentifier;

/**
 * {@code COPY table [(columns)] FROM 'file' [[WITH] (option, ...)]} ({@link CopyOptions}): CSV,
 * Parquet or Arrow IPC into a table, through the bulk path of a columnstore table (rowgroups compressed directly) or
 * row inserts of a rowstore one, in the session's write transaction, so that a failed COPY leaves
 * the table as it was. The file is read as UTF-8 and parsed in parallel ({@link CsvReader}). Fields
 * convert to the columns' types by store assignment, as INSERT's values do: a string longer than
 * its column fails with 22001 and a number outside its column's range with 22003, never cut. A
 * bad field, or a NULL for a NOT NULL column, fails the whole COPY naming its file, line and
 * column. Progress is reported every {@value CsvReader#PROGRESS_EVERY} rows. Parquet and Arrow
 * files ({@link CopyFileFormat}) name and type their columns: they are mapped to the table's by
 * name ({@link ImportTarget}) and read straight into the same column batches.
 */
final class CopyCommand {
    private final Session session;

    CopyCommand(Session session) {
        this.session = session;
    }

    StatementResult execute(SqlCopy copy, Consumer<dev.columba.planner.copy.CopyProgress> progress) {
        if (!copy.isFrom()) {
            return new CopyToCommand(session).execute(copy);
        }
        Database database = session.database();
        Transaction transaction = session.writeTransaction();
        boolean succeeded = false;
        long rows;
        try {
            IoCounters counters = transaction.systemCounters();
            String name = copy.table().names.get(copy.table().names.size() - 1);
            CatalogEntry.Table table = database.catalog().byName(transaction.writes(), name, counters)
                    .filter(entry -> entry instanceof CatalogEntry.Table).map(entry -> (CatalogEntry.Table) entry)
                    .filter(found -> !dev.columba.planner.schema.PartitionOptions.partition(found))
                    .orElseThrow(() -> new ColumbaException(ErrorCode.OBJECT_NOT_FOUND, "table " + name + " does not exist"));
            TableSchema schema = table.schema();
            // A partitioned table's rows go to its partitions, each row to the one its value routes it to.
            dev.columba.planner.schema.TablePartitions partitions =
                    dev.columba.planner.schema.PartitionOptions.partitioned(table)
                    ? dev.columba.planner.schema.PartitionOptions.read(table,
                            new dev.columba.storage.table.Tables(database).list(transaction.writes(), counters))
                    : null;
            // As INSERT: without a column list the file holds the columns that are not generated (IDENTITY,
            // computed), in order; naming a generated column is an error; COPY fills them itself.
            GeneratedColumns generated = GeneratedColumns.of(schema, table.options());
            int[] targets = copy.columns().isEmpty()
                    ? java.util.stream.IntStream.range(0, schema.size()).filter(column -> !generated.isGenerated(column))
                            .toArray()
                    : new int[copy.columns().size()];
            for (int field = 0; field < targets.length && !copy.columns().isEmpty(); field++) {
                targets[field] = schema.indexOf(copy.columns().get(field).getSimple());
                if (targets[field] < 0) {
                    throw new ColumbaException(ErrorCode.UNDEFINED_COLUMN, "column " + copy.columns().get(field).getSimple()
                            + " does not exist in " + name);
                }
                if (generated.isGenerated(targets[field])) {
                    throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "cannot COPY into "
                            + (targets[field] == generated.identity() ? "identity" : "computed") + " column '"
                            + schema.column(targets[field]).name() + "' of table '" + name + "': its values are generated");
                }
                for (int earlier = 0; earlier < field; earlier++) {
                    if (targets[earlier] == targets[field]) {
                        throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "column " + schema.column(targets[field])
                                .name() + " is named twice in COPY " + name);
                    }
                }
            }
            CopyOptions options = CopyOptions.of(copy.options(), Runtime.getRuntime().availableProcessors(), copy.file());
            Path file;
            try {
                file = Path.of(copy.file());
            } catch (InvalidPathException e) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "COPY " + name + " FROM: '" + copy.file().replace("\0", "\\0")
                        + "' is not a file name: " + e.getReason());
            }
            RowConstraints constraints = RowConstraints.of(session, table, targets);
            if (constraints != null && options.fileFormat() != CopyOptions.FileFormat.CSV) {
                throw new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "COPY " + name + " FROM a "
                        + options.fileFormat() + " file: table " + name + " has CHECK constraints, IDENTITY or computed"
                        + " columns, or defaults for columns the file does not fill, which COPY applies for CSV files"
                        + " only; load a CSV file or INSERT ... SELECT from a staging table");
            }
            // Another encoding than UTF-8 is read through a UTF-8 copy (Transcoding).
            Path readable = options.fileFormat() != CopyOptions.FileFormat.CSV
                    || options.encoding().equals(java.nio.charset.StandardCharsets.UTF_8) ? file
                    : Transcoding.toUtf8(file, file.toString(), options.encoding(),
                            database.directory().resolve(DatabaseLayout.TEMP_DIRECTORY));
            try {
                if (constraints != null) {
                    try (CsvReader csv = new CsvReader(readable, file.toString(), options, constraints.parseSchema(), name,
                            targets, progress)) {
                        rows = copyCheckedRows(csv, constraints, table, partitions, transaction, counters);
                    }
                } else if (options.fileFormat() != CopyOptions.FileFormat.CSV) {
                    rows = importFile(CopyFileFormats.of(options.fileFormat()), file, copy, table, schema, options, transaction,
                            counters);
                } else try (CsvReader csv = new CsvReader(readable, file.toString(), options, schema, name, targets, progress)) {
                    if (table.organization() == CatalogEntry.Organization.COLUMNSTORE) {
                        rows = ColumnstoreTable.open(database, table).bulkInsertBatches(transaction, csv.batches(),
                                options.maxDop());
                    } else {
                        TableStore store = new TableStore(table, database.catalog().indexesOf(transaction.writes(),
                                table.objectId(), counters));
                        rows = 0;
                        // An unpartitioned table may be built bottom up (TableStore.bulkInserter); each partition
                        // gets an inserter of its own, so rows in key order skip the descent from the root.
                        try (TableStore.BulkInserter bulk = partitions == null ? bulkInserter(store, transaction, counters)
                                : null) {
                            Map<Integer, TableStore.RowInserter> inserters = new HashMap<>();
                            while (csv.hasNext()) {
                                // An unpartitioned load encodes each row from the parsed columns, no Java value per field.
                                ColumnBatch batch = bulk != null ? csv.nextInBatch() : null;
                                Object[] row = bulk != null ? null : csv.next();
                                try {
                                    if (bulk != null) {
                                        bulk.insert(transaction, batch, csv.lastRowInBatch(), counters);
                                    } else {
                                        TableStore target = partitions.store(partitions.partitionOf(row[partitions.column()]));
                                        inserters.computeIfAbsent(target.definition().objectId(), ignored -> target.inserter())
                                                .insert(transaction, row, counters);
                                    }
                                } catch (ColumbaException e) {
                                    throw csv.atLastRow(e);
                                }
                                rows++;
                            }
                            if (bulk != null) {
                                finish(bulk, transaction, counters, name, file);
                            }
                        }
                    }
                }
            } finally {
                if (readable != file) {
                    Transcoding.deleteQuietly(readable);
                }
            }
            succeeded = true;
        } finally {
            session.finishWrite(transaction, succeeded);
        }
        session.engine().gatherColumnstoreStatistics(session.reader(), copy.table().names.getLast());
        return new StatementResult.Update(rows, List.of(String.format(Locale.ROOT, "COPY %d", rows)),
                StatementStatistics.NONE);
    }

    /**
     * The CHECK constraints, defaults and generated columns of a COPY's target: a table that has CHECK
     * constraints, IDENTITY or computed columns, or defaults for columns the COPY leaves out, takes the
     * row path ({@link #copyCheckedRows}).
     *
     * @param parseSchema the table's schema with each defaulted column the COPY leaves out nullable, so
     *                    that the CSV parser lets it through to get its default; NOT NULL is
     *                    checked again once the defaults are in
     */
    private record RowConstraints(QueryPlanner.CompiledConstraints compiled, int[] defaulted, Expr[] defaults,
                                  TableSchema schema, TableSchema parseSchema, EvaluationContext evaluation) {
        /** The constraints a COPY of {@code targets} must apply, or null if it need not look at its rows. */
        static RowConstraints of(Session session, CatalogEntry.Table table, int[] targets) {
            TableConstraints declared = TableConstraints.of(table.schema(), table.options());
            GeneratedColumns generated = GeneratedColumns.of(table.schema(), table.options());
            boolean[] targeted = new boolean[table.schema().size()];
            for (int target : targets) {
                targeted[target] = true;
            }
            boolean defaultsNeeded = declared.defaults().keySet().stream().anyMatch(column -> !targeted[column]);
            if (declared.checks().isEmpty() && !defaultsNeeded && !generated.any()) {
                return null;
            }
            QueryPlanner.CompiledConstraints compiled = new QueryPlanner(new SessionCatalog(session), session.settings())
                    .compileConstraints(table.name());
            int[] defaulted = compiled.defaults().keySet().stream().mapToInt(Integer::intValue)
                    .filter(column -> !targeted[column]).toArray();
            Expr[] defaults = new Expr[defaulted.length];
            List<Column> parseColumns = new java.util.ArrayList<>(table.schema().columns());
            for (int index = 0; index < defaulted.length; index++) {
                defaults[index] = compiled.defaults().get(defaulted[index]);
                Column column = parseColumns.get(defaulted[index]);
                parseColumns.set(defaulted[index], new Column(column.name(), column.type(), true));
            }
            for (int index = 0; index < parseColumns.size(); index++) {
                if (generated.isGenerated(index)) {
                    Column column = parseColumns.get(index);
                    parseColumns.set(index, new Column(column.name(), column.type(), true));
                }
            }
            return new RowConstraints(compiled, defaulted, defaults, table.schema(), new TableSchema(parseColumns),
                    EvaluationContext.startingNow(java.time.Clock.systemUTC()));
        }

        /**
         * {@code row} (its identity value already given) with its defaults and then its computed
         * columns filled, checked for NOT NULL and against the CHECK constraints.
         */
        Object[] apply(Object[] row, String table) {
            for (int index = 0; index < defaulted.length; index++) {
                row[defaulted[index]] = evaluate(defaults[index], defaulted[index], row, table);
            }
            for (Map.Entry<Integer, Expr> computed : compiled.computed().entrySet()) {
                row[computed.getKey()] = evaluate(computed.getValue(), computed.getKey(), row, table);
            }
            StoreAssignment.checkNotNull(row, schema, table, "COPY");
            List<TableModifyOperator.Check> checks = compiled.checks();
            for (int index = 0; index < checks.size(); index++) {
                checks.get(index).enforce(row, evaluation, "COPY", table);
            }
            return row;
        }

        private Object evaluate(Expr expression, int target, Object[] row, String table) {
            Object value = Evaluator.evaluate(expression, row, evaluation);
            Column column = schema.column(target);
            return value == null || expression.type().equals(column.type()) ? value
                    : StoreAssignment.convert(value, expression.type(), column, table);
        }
    }

    /**
     * A CSV file into a table with CHECK constraints, defaults to fill, or IDENTITY or computed
     * columns: row by row, each row numbered, completed and checked before it is written (a
     * columnstore table's rows still go through its bulk path). The first failing row fails the
     * COPY, naming its line; the transaction then leaves the table as it was.
     */
    private long copyCheckedRows(CsvReader csv, RowConstraints constraints, CatalogEntry.Table table,
                                 dev.columba.planner.schema.TablePartitions partitions, Transaction transaction,
                                 IoCounters counters) {
        Iterator<Object[]> parsed = new Iterator<>() {
            @Override
            public boolean hasNext() {
                return csv.hasNext();
            }

            @Override
            public Object[] next() {
                return csv.next();
            }
        };
        IdentityFill identity = IdentityFill.of(session.database(), transaction, table.objectId());
        Iterator<Object[]> numbered = identity == null ? parsed : identity.fill(parsed);
        Iterator<Object[]> rows = new Iterator<>() {
            @Override
            public boolean hasNext() {
                return numbered.hasNext();
            }

            @Override
            public Object[] next() {
                Object[] row = numbered.next();
                try {
                    return constraints.apply(row, table.name());
                } catch (ColumbaException e) {
                    throw csv.atLastRow(e);
                }
            }
        };
        long count = copyRows(rows, csv, table, partitions, transaction, counters);
        if (identity != null) {
            identity.record(transaction);
        }
        return count;
    }

    private long copyRows(Iterator<Object[]> rows, CsvReader csv, CatalogEntry.Table table,
                          dev.columba.planner.schema.TablePartitions partitions, Transaction transaction,
                          IoCounters counters) {
        if (table.organization() == CatalogEntry.Organization.COLUMNSTORE) {
            return ColumnstoreTable.open(session.database(), table).bulkInsert(transaction, rows);
        }
        TableStore store = new TableStore(table, session.database().catalog().indexesOf(transaction.writes(),
                table.objectId(), counters));
        Map<Integer, TableStore.RowInserter> inserters = new HashMap<>();
        long count = 0;
        while (rows.hasNext()) {
            Object[] row = rows.next();
            TableStore target = partitions == null ? store : partitions.store(partitions.partitionOf(row[partitions.column()]));
            try {
                inserters.computeIfAbsent(target.definition().objectId(), ignored -> target.inserter())
                        .insert(transaction, row, counters);
            } catch (ColumbaException e) {
                throw csv.atLastRow(e);
            }
            count++;
        }
        return count;
    }

    /** A self-describing file (Arrow, Parquet) into the table, its columns mapped by name. */
    private long importFile(CopyFileFormat format, Path file, SqlCopy copy, CatalogEntry.Table table, TableSchema schema,
                            CopyOptions options, Transaction transaction, IoCounters counters) {
        ImportTarget target = new ImportTarget(schema, table.name(),
                copy.columns().stream().map(SqlIdentifier::getSimple).toList());
        try (BufferAllocator allocator = session.engine().memory().child("COPY " + table.name(), Long.MAX_VALUE);
             ImportReader reader = format.open(file, file.toString(), target, options.maxDop(), allocator)) {
            Iterator<ColumnBatch> batches = reader.batches();
            if (table.organization() == CatalogEntry.Organization.COLUMNSTORE) {
                return ColumnstoreTable.open(session.database(), table).bulkInsertBatches(transaction, batches,
                        options.maxDop());
            }
            TableStore store = new TableStore(table, session.database().catalog().indexesOf(transaction.writes(),
                    table.objectId(), counters));
            try (TableStore.BulkInserter inserter = bulkInserter(store, transaction, counters)) {
                long rows = 0;
                while (batches.hasNext()) {
                    ColumnBatch batch = batches.next();
                    for (int row = 0; row < batch.rows(); row++) {
                        try {
                            inserter.insert(transaction, batch, row, counters);
                        } catch (ColumbaException e) {
                            throw new ColumbaException(e.errorCode(), "COPY " + table.name() + " FROM " + file + ", row "
                                    + (rows + row + 1) + ": " + e.detail(), e);
                        }
                    }
                    rows += batch.rows();
                }
                finish(inserter, transaction, counters, table.name(), file);
                return rows;
            }
        }
    }

    /** A rowstore load's inserter: its sorts spill to the database's temporary directory. */
    private TableStore.BulkInserter bulkInserter(TableStore store, Transaction transaction, IoCounters counters) {
        TableStore.BulkInserter inserter = store.bulkInserter(transaction,
                session.database().directory().resolve(DatabaseLayout.TEMP_DIRECTORY), TableStore.defaultSortMemory(),
                counters);
        // A load into an empty tree writes its new pages once, to the data file, instead of logging them.
        if ((inserter.building() || inserter.sortedIndexes() > 0)
                && session.settings().get(StandardSettings.MINIMAL_LOGGING)) {
            transaction.logNewPagesMinimally();
        }
        return inserter;
    }

    /** Ends a rowstore load: an error found by its sorts (a duplicate key) names the file, not a line. */
    private static void finish(TableStore.BulkInserter inserter, Transaction transaction, IoCounters counters, String table,
                               Path file) {
        try {
            inserter.finish(transaction, counters);
        } catch (ColumbaException e) {
            throw new ColumbaException(e.errorCode(), "COPY " + table + " FROM " + file + ": " + e.detail(), e);
        }
    }
}
