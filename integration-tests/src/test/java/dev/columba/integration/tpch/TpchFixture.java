package dev.columba.integration.tpch;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.datagen.RowCursor;
import dev.columba.datagen.TpchGenerator;
import dev.columba.planner.plan.QueryPlanner;
import dev.columba.planner.session.Engine;
import dev.columba.planner.session.Session;
import dev.columba.planner.session.StatementResult;
import java.io.BufferedWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.StringJoiner;

/**
 * The TPC-H tables at one scale factor in three places: a Columba database of rowstore tables
 * (clustered primary keys and a few secondary indexes), a Columba database of columnstore tables,
 * and an in-memory DuckDB database. All three load the same CSV files, written once from the
 * generator, so every engine sees the same rows. Two Columba databases rather than one lets the
 * queries name the tables as the specification does.
 */
final class TpchFixture implements AutoCloseable {
    /** How a Columba copy stores its tables. */
    enum Storage { ROWSTORE, COLUMNSTORE }

    /** Workers of the parallel session of each copy: more than this machine's cores, so workers contend. */
    static final int PARALLEL_DEGREE = 3;

    /** Clustered primary keys: the specification's keys (clause 1.4.2.2). */
    private static final Map<TpchGenerator.Table, String> PRIMARY_KEYS = new EnumMap<>(Map.of(
            TpchGenerator.Table.REGION, "r_regionkey",
            TpchGenerator.Table.NATION, "n_nationkey",
            TpchGenerator.Table.PART, "p_partkey",
            TpchGenerator.Table.SUPPLIER, "s_suppkey",
            TpchGenerator.Table.PARTSUPP, "ps_partkey, ps_suppkey",
            TpchGenerator.Table.CUSTOMER, "c_custkey",
            TpchGenerator.Table.ORDERS, "o_orderkey",
            TpchGenerator.Table.LINEITEM, "l_orderkey, l_linenumber"));

    /** Secondary indexes on the foreign keys the queries join on most. */
    private static final List<String> ROWSTORE_INDEXES = List.of(
            "CREATE INDEX ix_lineitem_partkey ON lineitem (l_partkey, l_suppkey)",
            "CREATE INDEX ix_orders_custkey ON orders (o_custkey)",
            "CREATE INDEX ix_partsupp_suppkey ON partsupp (ps_suppkey)",
            "CREATE INDEX ix_customer_nationkey ON customer (c_nationkey)",
            "CREATE INDEX ix_supplier_nationkey ON supplier (s_nationkey)");

    private final Map<Storage, Engine> engines = new EnumMap<>(Storage.class);
    private final Map<Storage, Session> sessions = new EnumMap<>(Storage.class);
    /** Sessions with every fragment that can run in parallel on {@link #PARALLEL_DEGREE} workers. */
    private final Map<Storage, Session> parallelSessions = new EnumMap<>(Storage.class);
    private final Connection duckdb;

    private TpchFixture(Connection duckdb) {
        this.duckdb = duckdb;
    }

    /** Generates the tables at {@code scaleFactor} as CSV under {@code directory} and loads every copy. */
    static TpchFixture load(Path directory, double scaleFactor) throws IOException, SQLException {
        TpchFixture fixture = new TpchFixture(DriverManager.getConnection("jdbc:duckdb:"));
        try {
            Map<TpchGenerator.Table, Path> files = new EnumMap<>(TpchGenerator.Table.class);
            for (TpchGenerator generator : TpchGenerator.all(scaleFactor)) {
                Path file = directory.resolve(generator.tableName() + ".csv");
                writeCsv(generator, file);
                files.put(generator.table(), file);
            }
            for (Storage storage : Storage.values()) {
                Properties properties = new Properties();
                properties.setProperty("buffer_pool_size", "256MB");
                Engine engine = Engine.open(directory.resolve(storage.name().toLowerCase()), properties,
                        (catalog, settings, statement, cancel) -> new QueryPlanner(catalog, settings).plan(statement));
                fixture.engines.put(storage, engine);
                Session session = engine.openSession();
                fixture.sessions.put(storage, session);
                Session parallel = engine.openSession();
                parallel.execute("SET max_dop = " + PARALLEL_DEGREE).close();
                parallel.execute("SET parallelism_threshold_rows = 0").close();
                fixture.parallelSessions.put(storage, parallel);
                for (TpchGenerator generator : TpchGenerator.all(scaleFactor)) {
                    String create = "CREATE TABLE " + generator.tableName() + " (" + columns(generator.schema())
                            + (storage == Storage.ROWSTORE ? ", PRIMARY KEY CLUSTERED (" + PRIMARY_KEYS.get(generator.table()) + "))" : ")")
                            // Small rowgroups (lineitem has 8), so that parallel workers divide several.
                            + (storage == Storage.COLUMNSTORE
                                    ? " WITH (storage = columnstore, rowgroup_max_rows = 8192, bulk_min_rows = 1024)" : "");
                    session.execute(create).close();
                    long loaded = ((StatementResult.Update) session.execute(
                            "COPY " + generator.tableName() + " FROM '" + files.get(generator.table()) + "'")).count();
                    check(loaded == generator.rowCount(), generator.tableName() + ": COPY loaded " + loaded + " rows of "
                            + generator.rowCount());
                }
                if (storage == Storage.ROWSTORE) {
                    for (String index : ROWSTORE_INDEXES) {
                        session.execute(index).close();
                    }
                }
            }
            try (Statement statement = fixture.duckdb.createStatement()) {
                for (TpchGenerator generator : TpchGenerator.all(scaleFactor)) {
                    statement.execute("CREATE TABLE " + generator.tableName() + " (" + columns(generator.schema())
                            + ", PRIMARY KEY (" + PRIMARY_KEYS.get(generator.table()) + "))");
                    statement.execute("COPY " + generator.tableName() + " FROM '" + files.get(generator.table())
                            + "' (FORMAT csv, HEADER false, DELIMITER ',', QUOTE '\"', ESCAPE '\"')");
                    try (ResultSet count = statement.executeQuery("SELECT count(*) FROM " + generator.tableName())) {
                        count.next();
                        check(count.getLong(1) == generator.rowCount(), generator.tableName() + ": DuckDB loaded "
                                + count.getLong(1) + " rows of " + generator.rowCount());
                    }
                }
            }
            return fixture;
        } catch (IOException | SQLException | RuntimeException e) {
            fixture.close();
            throw e;
        }
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new IllegalStateException(message);
        }
    }

    private static String columns(TableSchema schema) {
        StringJoiner columns = new StringJoiner(", ");
        for (Column column : schema.columns()) {
            columns.add(column.name() + " " + column.type().sqlName() + (column.nullable() ? "" : " NOT NULL"));
        }
        return columns.toString();
    }

    /** RFC 4180: every text field quoted (comments hold commas), quotes doubled; no NULLs in TPC-H. */
    private static void writeCsv(TpchGenerator generator, Path file) throws IOException {
        try (BufferedWriter writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            RowCursor cursor = generator.cursor();
            StringBuilder line = new StringBuilder();
            while (cursor.next()) {
                line.setLength(0);
                Object[] row = cursor.row();
                for (int columnIndex = 0; columnIndex < row.length; columnIndex++) {
                    if (columnIndex > 0) {
                        line.append(',');
                    }
                    switch (row[columnIndex]) {
                        case String text -> line.append('"').append(text.replace("\"", "\"\"")).append('"');
                        case BigDecimal decimal -> line.append(decimal.toPlainString());
                        case Object value -> line.append(value);
                    }
                }
                writer.append(line).append('\n');
            }
        }
    }

    /** Runs a query on one Columba copy; rows as lists of Java values. */
    List<List<Object>> columba(Storage storage, String sql) {
        return rows(sessions.get(storage), sql);
    }

    /** Runs a query on one Columba copy with parallel plans wherever they can be made. */
    List<List<Object>> columbaParallel(Storage storage, String sql) {
        return rows(parallelSessions.get(storage), sql);
    }

    private static List<List<Object>> rows(Session session, String sql) {
        List<List<Object>> rows = new ArrayList<>();
        try (StatementResult.Rows result = (StatementResult.Rows) session.execute(sql)) {
            TableSchema schema = result.schema();
            Batch batch;
            while ((batch = result.next()) != null) {
                for (int live = 0; live < batch.selectedCount(); live++) {
                    int position = batch.selectedRow(live);
                    List<Object> row = new ArrayList<>(schema.size());
                    for (int columnIndex = 0; columnIndex < schema.size(); columnIndex++) {
                        row.add(VectorValues.get(batch.column(columnIndex), position, schema.column(columnIndex).type()));
                    }
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    /** The plan Columba chooses for a query on one copy. */
    String explain(Storage storage, String sql) {
        try {
            return String.valueOf(columba(storage, "EXPLAIN " + sql));
        } catch (RuntimeException e) {
            return "(no plan: " + e.getMessage() + ")";
        }
    }

    /** The parallel session's plan for a query on one copy. */
    String explainParallel(Storage storage, String sql) {
        try {
            return String.valueOf(columbaParallel(storage, "EXPLAIN " + sql));
        } catch (RuntimeException e) {
            return "(no plan: " + e.getMessage() + ")";
        }
    }

    /** Runs a query on DuckDB; rows as lists of JDBC objects. */
    List<List<Object>> duckdb(String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement statement = duckdb.createStatement(); ResultSet resultSet = statement.executeQuery(sql)) {
            ResultSetMetaData metaData = resultSet.getMetaData();
            while (resultSet.next()) {
                List<Object> row = new ArrayList<>(metaData.getColumnCount());
                for (int column = 1; column <= metaData.getColumnCount(); column++) {
                    row.add(resultSet.getObject(column));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    @Override
    public void close() throws SQLException {
        try {
            for (Session session : parallelSessions.values()) {
                session.close();
            }
            for (Session session : sessions.values()) {
                session.close();
            }
            for (Engine engine : engines.values()) {
                engine.close();
            }
        } finally {
            duckdb.close();
        }
    }
}
