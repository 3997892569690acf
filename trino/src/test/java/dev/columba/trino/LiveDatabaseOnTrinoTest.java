package dev.columba.trino;

import static dev.columba.trino.TrinoQueries.cluster;
import static dev.columba.trino.TrinoQueries.rows;
import static dev.columba.trino.TrinoQueries.scanNodes;
import static dev.columba.trino.TrinoQueries.tableScan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.datagen.ResultComparison;
import io.trino.execution.QueryInfo;
import io.trino.operator.OperatorStats;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryRunner;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A database the embedded engine has open (through Columba's driver, for the whole class) read by a
 * Trino cluster in the same JVM (a coordinator that schedules no splits and three workers): the
 * connector reads through the engine's opening ({@code Database.openInThisProcess}) while the engine
 * goes on writing.
 *
 * <p>Rowstore tables (a heap, a heap with page compression, a clustered B+tree) of every type with
 * NULLs are split by page ranges and read as the driver reads them. A columnstore table written by
 * the engine (inserts, deletes, and its tuple mover compressing the delta rowgroups they fill) while
 * Trino queries it: every answer is made of whole rows, each once, as many as were committed between
 * the query's start and end; a query whose planned rowgroup the tuple mover compressed before its split
 * opened fails with COLUMBA_TABLE_CHANGED and is run again.
 *
 * <p>The same cluster has a second catalog, {@code written}, in {@code columba.access-mode = snapshot}
 * over a database that a child JVM (the engine through the driver, {@link SnapshotWriter}) has open and
 * writes: each query reads one committed state of it ({@link #snapshotsBesideAWriterProcess}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LiveDatabaseOnTrinoTest {
    private static final int WORKERS = 3;
    /** Pages per rowstore split: the tables' few hundred pages make tens of splits, spread over the workers. */
    private static final int PAGES_PER_SPLIT = 16;
    private static final int ROWSTORE_ROWS = 12_000;
    private static final String COLUMNS = "id BIGINT NOT NULL, flag BOOLEAN, small INT, big BIGINT, ratio DOUBLE, "
            + "price DECIMAL(12,2), wide DECIMAL(30,4), name VARCHAR(40), code CHAR(4), day DATE, moment TIMESTAMP";
    private static final String ROWSTORE_ROWS_SQL = """
            SELECT n,
              CASE WHEN MOD(n, 7) = 3 THEN NULL ELSE MOD(n, 2) = 0 END,
              CASE WHEN MOD(n, 7) = 4 THEN NULL ELSE CAST(MOD(n * 31, 100000) - 50000 AS INT) END,
              CASE WHEN MOD(n, 7) = 5 THEN NULL ELSE n * 1000003 END,
              CASE WHEN MOD(n, 7) = 6 THEN NULL ELSE CAST(n AS DOUBLE) / 7 END,
              CASE WHEN MOD(n, 7) = 2 THEN NULL ELSE CAST(n AS DECIMAL(12,2)) / 4 END,
              CASE WHEN MOD(n, 7) = 3 THEN NULL ELSE CAST(n AS DECIMAL(30,4)) * 1000000000000000 END,
              CASE WHEN MOD(n, 7) = 4 THEN NULL ELSE 'name ' || CAST(n AS VARCHAR(10)) || ' ünïcode' END,
              CASE WHEN MOD(n, 7) = 5 THEN NULL ELSE CAST(CAST(MOD(n, 100) AS VARCHAR(3)) AS CHAR(4)) END,
              CASE WHEN MOD(n, 7) = 6 THEN NULL ELSE DATE '1992-01-01' + MOD(n * 37, 2500) * INTERVAL '1' DAY END,
              CASE WHEN MOD(n, 7) = 1 THEN NULL ELSE CAST(DATE '1992-01-01' + MOD(n, 900) * INTERVAL '1' DAY AS TIMESTAMP) END
            FROM generate_series(CAST(1 AS BIGINT), %d) AS g(n)""".formatted(ROWSTORE_ROWS);
    private static final String ALL_COLUMNS = "id, flag, small, big, ratio, price, wide, name, code, day, moment";

    /** Rows the writer inserts per statement into the columnstore table. */
    private static final int INSERT_ROWS = 64;
    /** Ids one of the writer's deletes targets. */
    private static final int DELETE_ROWS = 10;
    private static final int LIVE_QUERIES = 8;
    /** Runs of a query, on average, before the test gives up: each failed run is a tuple move between planning and a split. */
    private static final int ATTEMPTS = 30;
    private static final String LIVE_QUERY = "SELECT count(*), count(DISTINCT id), "
            + "count_if(v <> id * 7 OR note <> 'row ' || CAST(id AS varchar)) FROM live";

    /** Snapshot queries while the writer process writes, each checked against the states it committed. */
    private static final int SNAPSHOT_QUERIES = 8;
    private static final String SNAPSHOT_QUERY = "SELECT t, count(*), count(DISTINCT id), sum(id),"
            + " count_if(v <> id * 7 OR note <> 'row ' || CAST(id AS varchar)) FROM ("
            + " SELECT 'live' AS t, * FROM written.written.live UNION ALL SELECT 'heap_live', * FROM written.written.heap_live"
            + " UNION ALL SELECT 'clustered_live', * FROM written.written.clustered_live) GROUP BY t";

    private Path database;
    /** The database the writer process writes, read by the catalog {@code written} in snapshot mode. */
    private Path written;
    /** Where that catalog copies its snapshots. */
    private Path snapshots;
    private Connection engine;
    private DistributedQueryRunner trino;

    @BeforeAll
    void openAndStart(@TempDir Path directory) throws Exception {
        written = directory.resolve("written");
        snapshots = Files.createDirectories(directory.resolve("snapshots"));
        try (Connection creator = DriverManager.getConnection("jdbc:columba:" + written);
             Statement statement = creator.createStatement()) {
            for (String table : SnapshotWriter.TABLES.split(";")) {
                statement.execute(table);
            }
        }
        database = directory.resolve("live");
        engine = DriverManager.getConnection("jdbc:columba:" + database);
        try (Statement statement = engine.createStatement()) {
            statement.execute("CREATE TABLE heap_rows (" + COLUMNS + ")");
            statement.execute("CREATE TABLE compressed_rows (" + COLUMNS + ") WITH (DATA_COMPRESSION = PAGE)");
            statement.execute("CREATE TABLE clustered_rows (" + COLUMNS + ", PRIMARY KEY CLUSTERED (id))");
            for (String table : List.of("heap_rows", "compressed_rows", "clustered_rows")) {
                assertEquals(ROWSTORE_ROWS, statement.executeUpdate("INSERT INTO " + table + " " + ROWSTORE_ROWS_SQL), table);
            }
            // Every insert goes to a delta rowgroup (bulk_min_rows above any insert); each 2,048 rows close one,
            // which wakes the engine's tuple mover to compress it.
            statement.execute("CREATE TABLE live (id BIGINT NOT NULL, v BIGINT NOT NULL, note VARCHAR(40) NOT NULL)"
                    + " WITH (storage = columnstore, rowgroup_max_rows = 2048, bulk_min_rows = 1000000)");
        }
        trino = cluster(WORKERS, "live", Map.of(ColumbaConfig.DATABASE_DIRECTORY, database.toString(),
                ColumbaConfig.ROWSTORE_PAGES_PER_SPLIT, Integer.toString(PAGES_PER_SPLIT),
                ColumbaConfig.DYNAMIC_FILTER_WAIT_TIMEOUT, "0s"));
        trino.createCatalog("written", "columba", Map.of(ColumbaConfig.DATABASE_DIRECTORY, written.toString(),
                ColumbaConfig.ACCESS_MODE, "snapshot", ColumbaConfig.SNAPSHOT_DIRECTORY, snapshots.toString(),
                ColumbaConfig.ROWSTORE_PAGES_PER_SPLIT, "4", ColumbaConfig.DYNAMIC_FILTER_WAIT_TIMEOUT, "0s"));
    }

    @AfterAll
    void stop() throws SQLException {
        try {
            if (trino != null) {
                trino.close();
            }
        } finally {
            if (engine != null) {
                engine.close();
            }
        }
    }

    /** Every type, NULLs, long decimals, CHAR padding: the rows equal the driver's, value for value. */
    @ParameterizedTest
    @ValueSource(strings = {"heap_rows", "compressed_rows", "clustered_rows"})
    void rowstoreTablesReadAsColumbaReadsThem(String table) throws SQLException {
        String query = "SELECT " + ALL_COLUMNS + " FROM " + table + " ORDER BY id";
        List<List<Object>> expected;
        try (Statement statement = engine.createStatement()) {
            expected = rows(statement, query);
        }
        assertEquals(ROWSTORE_ROWS, expected.size());
        assertNull(ResultComparison.difference(expected, rows(trino.execute(query).getMaterializedRows()), new int[] {0}),
                table);
    }

    /**
     * A rowstore scan has one split per range of 16 pages, each row read once, spread over the workers
     * and not the coordinator; its aggregate is the driver's; its row count comes from the catalog.
     */
    @ParameterizedTest
    @ValueSource(strings = {"heap_rows", "compressed_rows", "clustered_rows"})
    void rowstoreScansSplitByPageRanges(String table) throws SQLException {
        String query = "SELECT count(*), sum(big), count(name), max(day) FROM " + table;
        List<List<Object>> expected;
        try (Statement statement = engine.createStatement()) {
            expected = rows(statement, query);
        }
        QueryRunner.MaterializedResultWithPlan result = trino.executeWithPlan(trino.getDefaultSession(), query);
        assertNull(ResultComparison.difference(expected, rows(result.result().getMaterializedRows()), new int[] {}), query);
        QueryInfo info = trino.getCoordinator().getQueryManager().getFullQueryInfo(result.queryId());
        OperatorStats scan = tableScan(info);
        // 12,000 rows of about 100 bytes (40 compressed) are 60 to 200 pages: 4 to 13 splits of 16 pages.
        assertTrue(scan.getTotalDrivers() >= 3, scan.getTotalDrivers() + " splits of " + table);
        assertEquals(ROWSTORE_ROWS, scan.getPhysicalInputPositions(), "each row read once");
        assertTrue(scan.getPhysicalInputDataSize().toBytes() >= 8192L * scan.getTotalDrivers(),
                scan.getPhysicalInputDataSize() + " read: each split reads at least a page");
        Set<String> nodes = scanNodes(info);
        assertTrue(nodes.size() > 1, "scan tasks ran on " + nodes);
        assertFalse(nodes.contains(trino.getCoordinator().getCurrentNode().getNodeIdentifier()), "the coordinator scheduled no split");

        List<Object> summary = rows(trino.execute("SHOW STATS FOR " + table).getMaterializedRows()).stream()
                .filter(row -> row.get(0) == null).findFirst().orElseThrow();
        assertEquals((double) ROWSTORE_ROWS, summary.get(4), "row count in " + summary);
    }

    /**
     * The engine inserts, deletes and compresses (its tuple mover, woken as inserts close delta
     * rowgroups) while Trino queries the same table. Each answer is whole rows, each once, and counts
     * between the rows committed before the query and after it; a run may fail only with
     * COLUMBA_TABLE_CHANGED (a planned delta rowgroup compressed before its split opened), and is run
     * again. The writer goes on committing throughout. At the end, with the writer stopped, Trino's
     * answer is the driver's.
     */
    @Test
    void queriesWhileTheEngineWrites() throws Exception {
        AtomicLong insertsStarted = new AtomicLong();
        AtomicLong insertedRows = new AtomicLong();
        AtomicLong deletesStarted = new AtomicLong();
        AtomicLong deletedRows = new AtomicLong();
        AtomicLong statements = new AtomicLong();
        AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        AtomicBoolean stopping = new AtomicBoolean();
        // Some rowgroups to read before the first query: four deltas' worth of rows.
        CountDownLatch started = new CountDownLatch(4 * 2048 / INSERT_ROWS);
        long compressedBefore = compressedRowgroups();
        Thread writer = Thread.ofPlatform().name("columba-writer").start(() -> {
            try (Connection connection = DriverManager.getConnection("jdbc:columba:" + database);
                 Statement statement = connection.createStatement()) {
                long next = 1;
                for (long round = 0; !stopping.get(); round++) {
                    insertsStarted.addAndGet(INSERT_ROWS);
                    insertedRows.addAndGet(statement.executeUpdate("INSERT INTO live SELECT n, n * 7, 'row ' || CAST(n AS VARCHAR(20))"
                            + " FROM generate_series(CAST(" + next + " AS BIGINT), " + (next + INSERT_ROWS - 1) + ") AS g(n)"));
                    next += INSERT_ROWS;
                    statements.incrementAndGet();
                    started.countDown();
                    if (round % 3 == 2) {
                        // Ten ids of an older insert, by now in a compressed rowgroup or a delta one.
                        long first = Math.max(1, next - 40 * INSERT_ROWS + round % INSERT_ROWS);
                        deletesStarted.addAndGet(DELETE_ROWS);
                        deletedRows.addAndGet(statement.executeUpdate("DELETE FROM live WHERE id BETWEEN " + first + " AND "
                                + (first + DELETE_ROWS - 1)));
                        statements.incrementAndGet();
                    }
                }
            } catch (Throwable e) {
                writerFailure.set(e);
            } finally {
                while (started.getCount() > 0) {
                    started.countDown();
                }
            }
        });
        int tableChanged = 0;
        long statementsWhileQuerying;
        try {
            started.await();
            long statementsBefore = statements.get();
            for (int query = 0; query < LIVE_QUERIES && writerFailure.get() == null; query++) {
                while (true) {
                    long insertedBefore = insertedRows.get();
                    long deletedBefore = deletedRows.get();
                    Optional<MaterializedResult> result = runUnlessTableChanged(LIVE_QUERY);
                    if (result.isEmpty()) {
                        assertTrue(++tableChanged < ATTEMPTS * LIVE_QUERIES, tableChanged + " runs failed as the table changed");
                        continue;
                    }
                    long low = insertedBefore - deletesStarted.get();
                    long high = insertsStarted.get() - deletedBefore;
                    List<Object> row = result.get().getMaterializedRows().getFirst().getFields();
                    long count = (Long) row.get(0);
                    assertEquals(count, row.get(1), "each row once: " + row);
                    assertEquals(0L, row.get(2), "whole rows only: " + row);
                    assertTrue(count >= low && count <= high, count + " rows, committed between " + low + " and " + high);
                    break;
                }
            }
            statementsWhileQuerying = statements.get() - statementsBefore;
        } finally {
            stopping.set(true);
            writer.join();
        }
        assertNull(writerFailure.get(), () -> "the writer failed: " + writerFailure.get());
        assertTrue(statementsWhileQuerying > LIVE_QUERIES, "the writer committed " + statementsWhileQuerying
                + " statements while Trino ran " + LIVE_QUERIES + " queries");
        long compressedAfter = compressedRowgroups();
        assertTrue(compressedAfter > compressedBefore, "the tuple mover compressed rowgroups meanwhile: "
                + compressedBefore + " then " + compressedAfter);
        System.out.printf("live table: %d writer statements while Trino ran %d queries, %d runs failed as the table changed,"
                + " %d rowgroups compressed%n", statementsWhileQuerying, LIVE_QUERIES, tableChanged, compressedAfter - compressedBefore);

        // The writer has stopped (the tuple mover may still be compressing, which changes no answer).
        String total = "SELECT count(*), count(DISTINCT id), sum(v) FROM live";
        List<List<Object>> expected;
        try (Statement statement = engine.createStatement()) {
            expected = rows(statement, total);
        }
        assertEquals(insertedRows.get() - deletedRows.get(), ((Number) expected.getFirst().getFirst()).longValue());
        Optional<MaterializedResult> actual = Optional.empty();
        for (int attempt = 0; attempt < ATTEMPTS && actual.isEmpty(); attempt++) {
            actual = runUnlessTableChanged(total);
        }
        assertNull(ResultComparison.difference(expected, rows(actual.orElseThrow().getMaterializedRows()), new int[] {}));
    }

    /**
     * {@code columba.access-mode = snapshot}: another process (a child JVM, the embedded engine through
     * the driver) writes a columnstore table, a heap and a clustered table, the same rows in each
     * transaction (inserts, deletes, its tuple mover compressing, REORGANIZE merging), while Trino
     * queries all three in one statement. Each query reads one committed state: whole rows, each
     * once, the three tables holding the same rows (across tables and splits), as many as one of the
     * states the writer committed between the query's start and end. No query fails or is retried.
     * The writer commits throughout, is never refused or slowed into failure, and exits cleanly; its
     * database then opens with every row it committed, and no snapshot copy is left.
     */
    @Test
    void snapshotsBesideAWriterProcess() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process writer = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED",
                "--add-opens=java.base/java.nio=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
                "-Darrow.enable_unsafe_memory_access=false", "-Xmx512m",
                "-cp", System.getProperty("java.class.path"), SnapshotWriter.class.getName(), written.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<Long> states = new CopyOnWriteArrayList<>();
        AtomicLong reorganized = new AtomicLong();
        AtomicReference<String> closed = new AtomicReference<>();
        List<String> other = new CopyOnWriteArrayList<>();
        Thread reader = Thread.ofPlatform().name("writer-output").start(() -> {
            try (BufferedReader lines = writer.inputReader(StandardCharsets.UTF_8)) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    String[] words = line.split(" ");
                    switch (words[0]) {
                        case "state" -> states.add(Long.parseLong(words[2]));
                        case "reorganized" -> reorganized.incrementAndGet();
                        case "closed" -> closed.set(words[1]);
                        default -> other.add(line);
                    }
                }
            } catch (IOException e) {
                other.add(e.toString());
            }
        });
        int statesWhileQuerying;
        long reorganizedWhileQuerying;
        try {
            // A few rowgroups before the first query, one of them compressed (2,048 rows close a delta).
            waitFor(() -> states.size() >= 50 || !writer.isAlive(), "the writer's first 50 commits");
            assertTrue(writer.isAlive(), () -> "the writer stopped: " + other);
            int statesBefore = states.size();
            long reorganizedBefore = reorganized.get();
            for (int query = 0; query < SNAPSHOT_QUERIES; query++) {
                // The state the query's snapshot holds is at least the last one printed before it starts
                // (printed after its commit) and at most the first one printed after it ends.
                int first = states.size() - 1;
                MaterializedResult result = trino.execute(SNAPSHOT_QUERY);
                int ended = states.size();
                waitFor(() -> states.size() > ended || !writer.isAlive(), "a commit after the query");
                List<Long> possible = states.subList(first, states.size());
                Map<Object, List<Object>> byTable = new java.util.HashMap<>();
                for (List<Object> row : rows(result.getMaterializedRows())) {
                    byTable.put(row.getFirst(), row.subList(1, row.size()));
                }
                assertEquals(Set.copyOf(SnapshotWriter.WRITTEN), byTable.keySet(), "every table in " + byTable);
                List<Object> live = byTable.get("live");
                long count = (Long) live.getFirst();
                assertEquals(count, live.get(1), "each row once: " + byTable);
                assertEquals(0L, live.get(3), "whole rows only: " + byTable);
                assertEquals(live, byTable.get("heap_live"), "one committed state across tables: " + byTable);
                assertEquals(live, byTable.get("clustered_live"), "one committed state across tables: " + byTable);
                assertTrue(possible.contains(count), count + " rows, not a state committed during the query: " + possible);
            }
            statesWhileQuerying = states.size() - statesBefore;
            reorganizedWhileQuerying = reorganized.get() - reorganizedBefore;
        } finally {
            writer.getOutputStream().close();
            assertTrue(writer.waitFor(5, TimeUnit.MINUTES), "the writer ends when told");
            reader.join();
        }
        assertEquals(0, writer.exitValue(), () -> "the writer failed: " + other);
        assertTrue(statesWhileQuerying > SNAPSHOT_QUERIES, "the writer committed " + statesWhileQuerying
                + " times while Trino ran " + SNAPSHOT_QUERIES + " queries");
        System.out.printf("snapshots: %d writer commits and %d REORGANIZEs while Trino ran %d queries%n", statesWhileQuerying,
                reorganizedWhileQuerying, SNAPSHOT_QUERIES);
        try (Stream<Path> left = Files.list(snapshots)) {
            assertEquals(List.of(), left.toList(), "every snapshot copy is deleted when its transaction ends");
        }
        try (Connection reopened = DriverManager.getConnection("jdbc:columba:" + written);
             Statement statement = reopened.createStatement()) {
            for (String table : SnapshotWriter.WRITTEN) {
                assertEquals(Long.parseLong(closed.get()), ((Number) rows(statement, "SELECT count(*) FROM " + table)
                        .getFirst().getFirst()).longValue(), table + " holds every row the writer committed");
            }
            assertTrue(((Number) rows(statement, "SELECT count(*) FROM sys.column_store_row_groups"
                    + " WHERE UPPER(table_name) = 'LIVE' AND state = 'COMPRESSED'").getFirst().getFirst()).longValue() > 0,
                    "the writer's tuple mover compressed rowgroups");
        }
    }

    private static void waitFor(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "waited 5 minutes for " + what);
            Thread.sleep(20);
        }
    }

    /** The query's result, or empty when it failed because a rowgroup it planned to read was compressed first; any other failure fails the test. */
    private Optional<MaterializedResult> runUnlessTableChanged(String sql) {
        try {
            return Optional.of(trino.execute(sql));
        } catch (RuntimeException e) {
            assertTrue(String.valueOf(e.getMessage()).contains("compressed, merged or dropped by the engine"),
                    () -> "a query failed otherwise than by a table change: " + e);
            return Optional.empty();
        }
    }

    private long compressedRowgroups() throws SQLException {
        try (Statement statement = engine.createStatement()) {
            return ((Number) rows(statement, "SELECT count(*) FROM sys.column_store_row_groups WHERE UPPER(table_name) = 'LIVE'"
                    + " AND state = 'COMPRESSED'").getFirst().getFirst()).longValue();
        }
    }

}
