package dev.columba.planner.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.planner.plan.QueryPlanner;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which SQL statements are minimally logged (docs/design/storage.md, "Minimally logged bulk loads"):
 * INSERT ... SELECT into an empty clustered table, CREATE TABLE AS (a new heap) and CREATE INDEX log only their
 * allocations;
 * into a table with rows, or with {@code minimal_logging} off, they log every page. The table reads
 * back the same either way, also after reopening. Measured by the log's end LSN ({@code sys.log_stats}).
 * COPY is covered by {@code CopyCrashTest} and storage's {@code MinimalLoggingTest}.
 */
class MinimalLoggingSqlTest {
    private static final int ROWS = 20_000;
    /** About what the table's leaves hold: 20,000 rows of some 200 bytes. */
    private static final long TABLE_BYTES = ROWS * 200L;
    private static final String SELECT = "SELECT x, repeat('p', 180 + CAST(x % 7 AS INT)) FROM generate_series(1, " + ROWS + ") AS g (x)";

    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = open(directory);
        session = engine.openSession();
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    private static Engine open(Path directory) {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "16MB");
        return Engine.open(directory, properties, (catalog, settings, statement) ->
                new QueryPlanner(catalog, settings).plan(statement));
    }

    private long logBytes(String sql) {
        long before = endLsn();
        session.execute(sql);
        return endLsn() - before;
    }

    private long endLsn() {
        return (Long) SessionRows.query(session, "SELECT end_lsn FROM sys.log_stats").getFirst().getFirst();
    }

    @Test
    void insertSelectIntoAnEmptyTableLogsOnlyItsAllocations() {
        session.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, s VARCHAR(200) NOT NULL)");
        long empty = logBytes("INSERT INTO t " + SELECT);
        assertTrue(empty < TABLE_BYTES / 10, "into an empty table: " + empty + " log bytes");
        long more = logBytes("INSERT INTO t SELECT x + " + ROWS + ", repeat('q', 180) FROM generate_series(1, " + ROWS
                + ") AS g (x)");
        assertTrue(more > TABLE_BYTES, "into a table with rows every page is logged: " + more + " log bytes");
        assertRows("t", 2 * ROWS);
        session.close();
        engine.close();
        engine = open(directory);
        session = engine.openSession();
        assertRows("t", 2 * ROWS);
        assertEquals(List.of(List.of(1L, 181)), SessionRows.query(session, "SELECT id, length(s) FROM t WHERE id = 1"));
    }

    @Test
    void createTableAsAndCreateIndexLogOnlyTheirAllocationsUnlessMinimalLoggingIsOff() {
        session.execute("CREATE TABLE src (id BIGINT PRIMARY KEY, s VARCHAR(200) NOT NULL)");
        session.execute("INSERT INTO src " + SELECT);
        long minimal = logBytes("CREATE TABLE copy1 AS SELECT * FROM src");
        long index = logBytes("CREATE INDEX src_s ON src (s)");
        assertTrue(index < TABLE_BYTES / 10, "CREATE INDEX: " + index + " log bytes");
        assertEquals(List.of(List.of(6L, 186)), SessionRows.query(session,
                "SELECT id, length(s) FROM src WHERE s = repeat('p', 186) AND id < 10"));
        session.execute("ALTER SYSTEM SET minimal_logging = off");
        long full = logBytes("CREATE TABLE copy2 AS SELECT * FROM src");
        assertTrue(minimal < TABLE_BYTES / 10, "minimally logged: " + minimal + " log bytes");
        assertTrue(full > TABLE_BYTES, "minimal_logging = off: " + full + " log bytes");
        assertRows("copy1", ROWS);
        assertRows("copy2", ROWS);
    }

    private void assertRows(String table, long rows) {
        assertEquals(List.of(List.of(rows, rows)), SessionRows.query(session, "SELECT COUNT(*), COUNT(DISTINCT id) FROM "
                + table));
    }
}
