package dev.columba.integration.seed000;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.datagen.Seed000Sql;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 000 ("SQL Server Read Ahead Reads Example") through the JDBC driver, as a user would run it:
 * the seed's TestTable (identity ID as clustered key, computed IDvarchar) filled by INSERT ...
 * SELECT FROM generate_series, Testtable2 copied from it and clustered on IDvarchar, then the
 * seed's queries, cold ({@code CHECKPOINT; DBCC DROPCLEANBUFFERS}) and warm. Every assertion reads
 * the STATISTICS IO lines the driver returns as SQLWarnings, in SQL Server's format.
 *
 * <p>30,000 rows instead of the seed's 6.5 million: enough that the tables span hundreds of pages
 * and the loop join's 26 probes land on different leaves of Testtable2. Each test opens its own
 * connection, so trace flags set with {@code DBCC TRACEON} (session-scoped) end with it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class Seed000Test {
    private static final int ROWS = 30_000;

    private Path directory;
    private Connection loader;

    /** The seed's loop join with {@code ID < below}: 27 puts the outer side above the prefetch threshold (25 rows), 26 at it. */
    private static String loopJoin(int below) {
        return """
                SELECT *
                FROM TestTable t1
                WHERE IDvarchar IN
                   (SELECT IDvarchar
                    FROM testtable2 t2)
                AND ID < %d
                OPTION (loop join)""".formatted(below);
    }

    @BeforeAll
    void load(@TempDir Path temporary) throws SQLException {
        directory = temporary;
        // The first connection opens the engine and keeps it open for the class; the tests join it.
        loader = connect();
        try (Statement statement = loader.createStatement()) {
            statement.execute(Seed000Sql.TEST_TABLE);
            assertEquals(ROWS, statement.executeUpdate(Seed000Sql.fill(1, ROWS)));
            statement.execute(Seed000Sql.TEST_TABLE_2);
            assertEquals(ROWS, statement.executeUpdate(Seed000Sql.copy(1, ROWS)));
            for (String index : Seed000Sql.TEST_TABLE_2_INDEXES) {
                statement.execute(index);
            }
        }
    }

    @AfterAll
    void close() throws SQLException {
        loader.close();
    }

    private Connection connect() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "64MB");
        return DriverManager.getConnection("jdbc:columba:" + directory, properties);
    }

    /** Empties the buffer pool of the database's pages, as the seed does before each cold run (after a CHECKPOINT, as its readers advised). */
    private static void dropCleanBuffers(Statement statement) throws SQLException {
        statement.execute("CHECKPOINT");
        statement.execute("DBCC DROPCLEANBUFFERS");
    }

    /** Runs a query to its last row; its STATISTICS IO lines by table, parsed from the statement's warnings. */
    private static Map<String, StatisticsIoLine> statisticsIo(Statement statement, String query, int expectedRows)
            throws SQLException {
        int rows = 0;
        try (ResultSet result = statement.executeQuery(query)) {
            while (result.next()) {
                rows++;
            }
        }
        assertEquals(expectedRows, rows, query);
        List<String> messages = new ArrayList<>();
        for (SQLWarning warning = statement.getWarnings(); warning != null; warning = warning.getNextWarning()) {
            assertEquals("01000", warning.getSQLState(), warning.getMessage());
            messages.add(warning.getMessage());
        }
        return StatisticsIoLine.byTable(messages);
    }

    private static String explain(Statement statement, String query) throws SQLException {
        StringBuilder plan = new StringBuilder();
        try (ResultSet result = statement.executeQuery("EXPLAIN " + query)) {
            while (result.next()) {
                plan.append(result.getString(1)).append('\n');
            }
        }
        return plan.toString();
    }

    @Test
    void coldRangeReadsAheadAndWarmRangeReadsNothingFromStorage() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET STATISTICS IO ON");
            dropCleanBuffers(statement);
            StatisticsIoLine cold = statisticsIo(statement, Seed000Sql.SMALL_RANGE, 299).get("TestTable");
            assertNotNull(cold, "a STATISTICS IO line for TestTable");
            assertEquals(1, cold.scanCount(), cold.toString());
            assertTrue(cold.readAheadReads() > 0, "cold: read-ahead brings pages in: " + cold);
            assertTrue(cold.physicalReads() + cold.readAheadReads() <= cold.logicalReads(), cold.toString());

            StatisticsIoLine warm = statisticsIo(statement, Seed000Sql.SMALL_RANGE, 299).get("TestTable");
            assertEquals(0, warm.physicalReads(), "warm: every page is in the buffer pool: " + warm);
            assertEquals(0, warm.readAheadReads(), "warm: nothing to read ahead: " + warm);
            assertEquals(cold.logicalReads(), warm.logicalReads(), "the same pages either way");
        }
    }

    @Test
    void traceFlag652TurnsReadAheadOff() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET STATISTICS IO ON");
            statement.execute("DBCC TRACEON (652)");
            dropCleanBuffers(statement);
            StatisticsIoLine off = statisticsIo(statement, "SELECT * FROM TestTable WHERE ID < 20000", 19_999)
                    .get("TestTable");
            assertEquals(0, off.readAheadReads(), "trace flag 652: no read-ahead: " + off);
            assertTrue(off.physicalReads() > 100, "every page waited for, one at a time: " + off);

            statement.execute("DBCC TRACEOFF (652)");
            dropCleanBuffers(statement);
            StatisticsIoLine on = statisticsIo(statement, "SELECT * FROM TestTable WHERE ID < 20000", 19_999)
                    .get("TestTable");
            assertTrue(on.readAheadReads() > on.physicalReads(), "read-ahead back on: most pages read ahead: " + on);
        }
    }

    @Test
    void loopJoinAboveThePrefetchThresholdPrefetchesTheInnerTable() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            String plan = explain(statement, loopJoin(27));
            assertTrue(plan.contains("IndexNestedLoopJoin") && plan.contains("WithUnorderedPrefetch"), plan);
            assertTrue(plan.contains("estimated rows 26"), "the outer side is estimated at 26 rows: " + plan);

            statement.execute("SET STATISTICS IO ON");
            dropCleanBuffers(statement);
            Map<String, StatisticsIoLine> lines = statisticsIo(statement, loopJoin(27), 26);
            StatisticsIoLine inner = lines.get("Testtable2");
            assertNotNull(inner, "a STATISTICS IO line for the inner table: " + lines);
            assertEquals(0, inner.scanCount(), "unique clustered probes count no scan, as in SQL Server: " + inner);
            assertTrue(inner.readAheadReads() > 0, "the inner table's pages are prefetched: " + inner);
        }
    }

    @Test
    void loopJoinAtThePrefetchThresholdDoesNotPrefetch() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            String plan = explain(statement, loopJoin(26));
            assertTrue(plan.contains("IndexNestedLoopJoin"), plan);
            assertFalse(plan.contains("Prefetch"), "25 estimated outer rows are not above the threshold: " + plan);

            statement.execute("SET STATISTICS IO ON");
            dropCleanBuffers(statement);
            Map<String, StatisticsIoLine> lines = statisticsIo(statement, loopJoin(26), 25);
            StatisticsIoLine inner = lines.get("Testtable2");
            assertEquals(0, inner.readAheadReads(), "no prefetch: " + inner);
            assertTrue(inner.physicalReads() > 0, "each probe waits for its page: " + inner);
        }
    }

    @Test
    void traceFlag8744TurnsPrefetchOff() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("DBCC TRACEON (8744)");
            statement.execute("SET STATISTICS IO ON");
            dropCleanBuffers(statement);
            StatisticsIoLine inner = statisticsIo(statement, loopJoin(27), 26).get("Testtable2");
            assertEquals(0, inner.readAheadReads(), "trace flag 8744: no prefetch: " + inner);
            assertTrue(inner.physicalReads() > 0, inner.toString());
            assertFalse(explain(statement, loopJoin(27)).contains("Prefetch"), "EXPLAIN agrees with the session's setting");
        }
    }
}
