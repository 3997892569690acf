package dev.columba.planner.plan;

import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.core.context.QueryContext;
import dev.columba.core.exec.ExecutionContext;
import dev.columba.core.exec.Operator;
import dev.columba.core.exec.RowCursor;
import dev.columba.core.expr.EvaluationContext;
import dev.columba.core.memory.Memory;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.settings.SettingValues;
import dev.columba.core.stats.IoCounters;
import dev.columba.planner.parser.ColumbaSqlParser;
import dev.columba.planner.schema.ColumbaTable;
import dev.columba.planner.schema.ColumnstoreTableAdapter;
import dev.columba.planner.schema.RowstoreTable;
import dev.columba.planner.schema.StatisticsStore;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.table.Tables;
import dev.columba.storage.txn.ObjectLocks;
import dev.columba.storage.txn.Transaction;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A real database for planner tests, with what a session would give the planner: a catalog of its
 * tables (read afresh for each statement), statement environments (the committed pool, or a write
 * transaction for DML), shared locks on what a statement reads, one statistics store. It stands
 * in for the session the engine builds; the components under it are real.
 */
final class TestDatabase implements AutoCloseable {
    private final Database database;
    private final Tables tables;
    private final StatisticsStore statistics = new StatisticsStore();
    private final Memory memory = new Memory(1L << 30);
    private SettingValues settings = SettingValues.defaults();
    private QueryContext lastContext;

    TestDatabase(Path directory) {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "64MB");
        database = Database.open(directory, properties, NativeFilesFacade.INSTANCE);
        tables = new Tables(database);
    }

    Database database() {
        return database;
    }

    Tables tables() {
        return tables;
    }

    StatisticsStore statistics() {
        return statistics;
    }

    void settings(SettingValues values) {
        settings = values;
    }

    /** The statistics of the last statement run. */
    QueryContext lastContext() {
        return lastContext;
    }

    PlannerCatalog catalog(PageReader reader) {
        IoCounters counters = new IoCounters();
        List<ColumbaTable> all = new ArrayList<>();
        for (CatalogEntry.Table entry : tables.list(reader, counters)) {
            if (entry.organization() == CatalogEntry.Organization.COLUMNSTORE) {
                all.add(new ColumnstoreTableAdapter(ColumnstoreTable.open(database, entry)));
            } else {
                all.add(new RowstoreTable(tables.table(reader, entry.name(), counters), statistics));
            }
        }
        return new PlannerCatalog() {
            @Override
            public Optional<ColumbaTable> table(String name) {
                return all.stream().filter(table -> table.name().equalsIgnoreCase(name)).findFirst();
            }

            @Override
            public Optional<ColumbaTable> systemView(String name) {
                return Optional.empty();
            }

            @Override
            public Collection<ColumbaTable> tables() {
                return all;
            }

            @Override
            public Collection<ColumbaTable> systemViews() {
                return List.of();
            }

            @Override
            public Collection<dev.columba.planner.schema.ViewTable> views() {
                return List.of();
            }
        };
    }

    PreparedStatementPlan plan(String sql) {
        return new QueryPlanner(catalog(database.bufferPool()), settings).plan(ColumbaSqlParser.parse(sql));
    }

    /** Plans with {@code cancel}, the cost-based phase asking {@code costBasedHandlers} for metadata. */
    PreparedStatementPlan plan(String sql, org.apache.calcite.util.CancelFlag cancel,
                               org.apache.calcite.rel.metadata.MetadataHandlerProvider costBasedHandlers) {
        return new QueryPlanner(catalog(database.bufferPool()), settings, cancel, costBasedHandlers)
                .plan(ColumbaSqlParser.parse(sql));
    }

    String explain(String sql) {
        return plan(sql).explain();
    }

    /** Runs a query; rows as lists of Java values. */
    @SuppressWarnings("try")
    List<List<Object>> query(String sql, Object... parameters) {
        PreparedStatementPlan plan = plan(sql);
        try (ObjectLocks.Lease ignored = database.locks().shared(plan.objectIds())) {
            return run(plan, database.bufferPool(), null, parameters);
        }
    }

    /** Runs a modification in its own transaction, committed; the count of rows changed. */
    long update(String sql, Object... parameters) {
        try (Transaction transaction = database.begin()) {
            PreparedStatementPlan plan = new QueryPlanner(catalog(transaction.writes()), settings).plan(ColumbaSqlParser.parse(sql));
            List<List<Object>> rows = run(plan, transaction.writes(), transaction, parameters);
            transaction.commit();
            return (Long) rows.getFirst().getFirst();
        }
    }

    private List<List<Object>> run(PreparedStatementPlan plan, PageReader reader, Transaction transaction, Object... parameters) {
        QueryContext context = new QueryContext(settings);
        lastContext = context;
        BufferAllocator allocator = memory.child("statement", 512L << 20);
        EvaluationContext evaluation = new EvaluationContext(LocalDateTime.of(2024, 3, 15, 10, 30));
        StatementEnvironment environment = new StatementEnvironment() {
            @Override
            public Database database() {
                return database;
            }

            @Override
            public PageReader reader() {
                return reader;
            }

            @Override
            public Transaction transaction() {
                return transaction;
            }

            @Override
            public QueryContext query() {
                return context;
            }

            @Override
            public BufferAllocator allocator() {
                return allocator;
            }

            @Override
            public EvaluationContext evaluation() {
                return evaluation;
            }

            @Override
            public int batchSize() {
                return 1000;
            }
        };
        try (allocator) {
            Operator root = plan.instantiate(environment, java.util.Arrays.asList(parameters));
            List<List<Object>> rows = new ArrayList<>();
            try (RowCursor cursor = new RowCursor(root, new ExecutionContext(context, allocator, environment.batchSize(), evaluation))) {
                TableSchema schema = cursor.schema();
                while (cursor.next()) {
                    List<Object> row = new ArrayList<>();
                    for (int column = 0; column < schema.size(); column++) {
                        row.add(cursor.getObject(column));
                    }
                    rows.add(row);
                }
            }
            return rows;
        }
    }

    /** Creates a rowstore table (clustered on {@code key}, unique, or a heap when empty). */
    void createRowstore(String name, TableSchema schema, List<Integer> key, boolean unique) {
        try (Transaction transaction = database.begin()) {
            tables.createTable(transaction, name, schema, key, unique, Map.of());
            transaction.commit();
        }
    }

    void createIndex(String table, String index, List<Integer> columns, boolean unique) {
        try (Transaction transaction = database.begin()) {
            tables.createIndex(transaction, table, index, columns, unique);
            transaction.commit();
        }
    }

    void createColumnstore(String name, TableSchema schema) {
        try (Transaction transaction = database.begin()) {
            ColumnstoreTable.create(database, transaction, name, schema, Map.of());
            transaction.commit();
        }
    }

    static String lower(String text) {
        return text.toLowerCase(Locale.ROOT);
    }

    @Override
    public void close() {
        try {
            database.close();
        } finally {
            memory.close();
        }
    }
}
