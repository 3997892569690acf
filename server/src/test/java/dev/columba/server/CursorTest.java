package dev.columba.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Server-side cursors ({@code DECLARE}, {@code FETCH}, {@code MOVE}, {@code CLOSE}) driven by pgJDBC, which sends
 * them through the extended protocol (Parse/Bind/Describe/Execute) as any statement: their rows, tags, lifetimes
 * and errors as PostgreSQL has them, rows read from the open result as they are fetched, and nothing left behind
 * by a client that goes away with cursors open.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CursorTest {
    private static final int BIG_ROWS = 200_000;

    @TempDir
    static Path directory;
    private static PgServer server;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void startServer() throws Exception {
        server = PgServer.start(ServerConfig.of(directory.resolve("cursors")).withPort(0).withMetricsPort(0));
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, name VARCHAR(20))");
            statement.execute("INSERT INTO t SELECT generate_series, 'n' || CAST(generate_series AS VARCHAR(10))"
                    + " FROM generate_series(1, 10)");
            statement.execute("CREATE TABLE big (id INT NOT NULL PRIMARY KEY, payload VARCHAR(100))");
            statement.execute("INSERT INTO big SELECT generate_series, 'payload of some length to fill the pages'"
                    + " FROM generate_series(1, " + BIG_ROWS + ")");
        }
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/cursors", "tester", "");
    }

    @Test
    void fetchAndMoveReadTheResultForwardWithPostgresTags() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            statement.execute("DECLARE c CURSOR FOR SELECT id, name FROM t ORDER BY id");
            assertEquals(List.of("1:n1", "2:n2", "3:n3"), rows(statement, "FETCH 3 FROM c"));
            assertEquals(List.of("4:n4"), rows(statement, "FETCH NEXT FROM c"));
            assertEquals(List.of("5:n5"), rows(statement, "FETCH c"));
            statement.execute("MOVE FORWARD 2 IN c");
            assertEquals(2, statement.getUpdateCount(), "MOVE 2");
            assertEquals(List.of("8:n8"), rows(statement, "FETCH RELATIVE 1 FROM c"));
            assertEquals(List.of("10:n10"), rows(statement, "FETCH ABSOLUTE 10 FROM c"));
            assertEquals(List.of(), rows(statement, "FETCH FORWARD ALL FROM c"));
            assertEquals(List.of(), rows(statement, "FETCH 5 FROM c"));
            statement.execute("CLOSE c");
            assertSqlState("34000", () -> statement.execute("FETCH 1 FROM c"));
            connection.rollback();
        }
    }

    @Test
    void theTagsCountTheRows() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            statement.execute("DECLARE c CURSOR FOR SELECT id FROM t ORDER BY id");
            // pgJDBC reads a MOVE's count from its tag as the update count.
            assertEquals(4, statement.executeUpdate("MOVE 4 FROM c"));
            assertEquals(6, statement.executeUpdate("MOVE ALL FROM c"));
            assertEquals(0, statement.executeUpdate("MOVE NEXT FROM c"));
            connection.rollback();
        }
    }

    @Test
    void parametersBindIntoTheCursorsQuery() throws SQLException {
        try (Connection connection = connect()) {
            connection.setAutoCommit(false);
            try (PreparedStatement declare = connection.prepareStatement(
                    "DECLARE p CURSOR FOR SELECT id, name FROM t WHERE id > ? AND name <> ? ORDER BY id")) {
                declare.setInt(1, 6);
                declare.setString(2, "n8");
                declare.execute();
            }
            try (Statement statement = connection.createStatement()) {
                assertEquals(List.of("7:n7", "9:n9", "10:n10"), rows(statement, "FETCH ALL FROM p"));
            }
            connection.rollback();
        }
    }

    @Test
    void aCursorWithoutHoldNeedsATransactionBlockAndEndsWithIt() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertSqlState("25P01", () -> statement.execute("DECLARE c CURSOR FOR SELECT 1"));
            connection.setAutoCommit(false);
            statement.execute("DECLARE c CURSOR FOR SELECT id FROM t ORDER BY id");
            assertEquals(List.of("1"), rows(statement, "FETCH 1 FROM c"));
            connection.commit();
            assertSqlState("34000", () -> statement.execute("FETCH 1 FROM c"));
            connection.rollback();
            statement.execute("DECLARE c CURSOR FOR SELECT id FROM t ORDER BY id");
            connection.rollback();
            assertSqlState("34000", () -> statement.execute("FETCH 1 FROM c"));
            connection.rollback();
        }
    }

    @Test
    void aCursorWithHoldOutlivesItsCommitButNotItsRollback() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            // Outside a block: a transaction of its own, committed at once.
            statement.execute("DECLARE outside CURSOR WITH HOLD FOR SELECT id FROM t ORDER BY id");
            assertEquals(List.of("1", "2"), rows(statement, "FETCH 2 FROM outside"));
            connection.setAutoCommit(false);
            statement.execute("DECLARE held CURSOR WITH HOLD FOR SELECT id FROM t WHERE id > 8 ORDER BY id");
            assertEquals(List.of("9"), rows(statement, "FETCH 1 FROM held"));
            statement.execute("DECLARE lost CURSOR WITH HOLD FOR SELECT id FROM t");
            connection.commit();
            assertEquals(List.of("10"), rows(statement, "FETCH ALL FROM held"));
            statement.execute("DECLARE declaredThenRolledBack CURSOR WITH HOLD FOR SELECT id FROM t");
            connection.rollback();
            assertSqlState("34000", () -> statement.execute("FETCH 1 FROM declaredThenRolledBack"));
            connection.rollback();
            // Held cursors of earlier, committed blocks survive a later rollback.
            assertEquals(List.of("3"), rows(statement, "FETCH 1 FROM outside"));
            assertEquals(1, rows(statement, "FETCH 1 FROM lost").size(), "a held cursor reads from its start");
            connection.commit();
            connection.setAutoCommit(true);
            assertEquals(List.of("4", "5", "6", "7", "8", "9", "10"), rows(statement, "FETCH ALL FROM outside"));
            statement.execute("CLOSE ALL");
            assertSqlState("34000", () -> statement.execute("CLOSE outside"));
        }
    }

    @Test
    void errorsCarryPostgresSqlStates() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            statement.execute("DECLARE c CURSOR FOR SELECT id FROM t ORDER BY id");
            assertSqlState("42P03", () -> statement.execute("DECLARE c CURSOR FOR SELECT 2"));
            connection.rollback();
            assertSqlState("34000", () -> statement.execute("FETCH NEXT FROM nowhere"));
            connection.rollback();
            assertSqlState("34000", () -> statement.execute("MOVE 1 IN nowhere"));
            connection.rollback();
            assertSqlState("34000", () -> statement.execute("CLOSE nowhere"));
            connection.rollback();
            statement.execute("DECLARE c CURSOR FOR SELECT id FROM t ORDER BY id");
            assertEquals(List.of("1", "2"), rows(statement, "FETCH 2 FROM c"));
            assertSqlState("55000", () -> statement.execute("FETCH PRIOR FROM c"));
            assertSqlState("25P02", () -> statement.execute("FETCH NEXT FROM c"));
            connection.rollback();
            statement.execute("DECLARE c CURSOR FOR SELECT id FROM t ORDER BY id");
            assertSqlState("55000", () -> statement.execute("FETCH BACKWARD 1 FROM c"));
            connection.rollback();
            assertSqlState("42601", () -> statement.execute("DECLARE d CURSOR FOR INSERT INTO t VALUES (99, 'x')"));
            connection.rollback();
            assertSqlState("42601", () -> statement.execute("FETCH 1 FROM"));
            connection.rollback();
            assertSqlState("42P01", () -> statement.execute("DECLARE e CURSOR FOR SELECT * FROM missing"));
            connection.rollback();
            assertEquals(List.of("10"), rows(statement, "SELECT COUNT(*) FROM t"), "the table is untouched");
            connection.rollback();
        }
    }

    /** A SCROLL cursor moves as PostgreSQL's does (the expected rows are PostgreSQL 15's for the same statements). */
    @Test
    void aScrollCursorGoesBackwardAndJumps() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            statement.execute("DECLARE s SCROLL CURSOR FOR SELECT id FROM t ORDER BY id");
            assertEquals(List.of("1", "2", "3"), rows(statement, "FETCH 3 FROM s"));
            assertEquals(List.of("2"), rows(statement, "FETCH PRIOR FROM s"));
            assertEquals(List.of("1"), rows(statement, "FETCH BACKWARD 5 FROM s"), "stops before the first row");
            assertEquals(List.of(), rows(statement, "FETCH PRIOR FROM s"));
            assertEquals(List.of("1"), rows(statement, "FETCH NEXT FROM s"));
            assertEquals(List.of("10"), rows(statement, "FETCH LAST FROM s"));
            assertEquals(List.of(), rows(statement, "FETCH NEXT FROM s"));
            assertEquals(List.of("10"), rows(statement, "FETCH PRIOR FROM s"), "from after the last row");
            assertEquals(List.of("4"), rows(statement, "FETCH ABSOLUTE 4 FROM s"));
            assertEquals(List.of("2"), rows(statement, "FETCH RELATIVE -2 FROM s"));
            assertEquals(List.of("2"), rows(statement, "FETCH RELATIVE 0 FROM s"), "the current row again");
            assertEquals(List.of("2"), rows(statement, "FETCH 0 FROM s"));
            assertEquals(List.of("8"), rows(statement, "FETCH ABSOLUTE -3 FROM s"));
            assertEquals(List.of("1"), rows(statement, "FETCH FIRST FROM s"));
            assertEquals(List.of(), rows(statement, "FETCH ABSOLUTE 0 FROM s"));
            assertEquals(List.of(), rows(statement, "FETCH ABSOLUTE 20 FROM s"));
            assertEquals(List.of("10", "9", "8", "7", "6", "5", "4", "3", "2", "1"),
                    rows(statement, "FETCH BACKWARD ALL FROM s"));
            assertEquals(3, statement.executeUpdate("MOVE FORWARD 3 IN s"));
            assertEquals(List.of("2", "1"), rows(statement, "FETCH BACKWARD ALL FROM s"));
            assertEquals(1, statement.executeUpdate("MOVE LAST IN s"));
            assertEquals(List.of("9", "8"), rows(statement, "FETCH BACKWARD 2 FROM s"));
            assertEquals(List.of("s:t"), rows(statement, "SELECT name, is_scrollable FROM pg_catalog.pg_cursors"));
            statement.execute("DECLARE n NO SCROLL CURSOR FOR SELECT id FROM t ORDER BY id");
            assertEquals(List.of("1"), rows(statement, "FETCH NEXT FROM n"));
            assertSqlState("55000", () -> statement.execute("FETCH PRIOR FROM n"));
            connection.rollback();
        }
        // A SCROLL cursor WITH HOLD keeps its rows after the commit that ends its block.
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            statement.execute("DECLARE held SCROLL CURSOR WITH HOLD FOR SELECT id FROM t ORDER BY id");
            assertEquals(List.of("1", "2"), rows(statement, "FETCH 2 FROM held"));
            connection.commit();
            assertEquals(List.of("10"), rows(statement, "FETCH LAST FROM held"));
            assertEquals(List.of("1"), rows(statement, "FETCH FIRST FROM held"));
            statement.execute("CLOSE held");
            connection.commit();
        }
    }

    @Test
    void pgCursorsListsTheSessionsCursors() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            statement.execute("DECLARE \"Mixed Case\" CURSOR FOR SELECT id FROM t");
            statement.execute("DECLARE h BINARY CURSOR WITH HOLD FOR SELECT id FROM t");
            assertEquals(List.of("Mixed Case:f:f", "h:t:t"),
                    rows(statement, "SELECT name, is_holdable, is_binary FROM pg_catalog.pg_cursors"));
            assertEquals(List.of("1"), rows(statement, "SELECT 1 FROM pg_catalog.pg_cursors WHERE name = 'h'"));
            assertEquals(List.of(), rows(statement, "SELECT 1 FROM pg_catalog.pg_cursors WHERE name = 'x'"));
            connection.rollback();
        }
    }

    /**
     * The cursor reads its result as it is fetched: the engine's logical page reads (all sessions', seen through the
     * metrics endpoint) grow by a little for a FETCH of ten rows of a 200,000-row table and by the rest for FETCH
     * ALL.
     */
    @Test
    void rowsAreReadFromTheOpenResultAsTheyAreFetched() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            double start = logicalReads();
            statement.execute("DECLARE big_cursor CURSOR FOR SELECT id, payload FROM big");
            List<String> first = rows(statement, "FETCH 10 FROM big_cursor");
            assertEquals(10, first.size());
            double afterTen = logicalReads();
            int rest = 0;
            try (ResultSet rows = statement.executeQuery("FETCH ALL FROM big_cursor")) {
                while (rows.next()) {
                    rest++;
                }
            }
            double afterAll = logicalReads();
            assertEquals(BIG_ROWS - 10, rest);
            double firstReads = afterTen - start;
            double restReads = afterAll - afterTen;
            assertTrue(restReads > 20 * firstReads, "a FETCH of 10 rows read " + firstReads
                    + " pages, the rest " + restReads);
            connection.rollback();
        }
    }

    /**
     * A client that goes away (its socket closed, no Terminate) with cursors open leaves nothing: its session
     * closes, the engine's session count returns, and a statement that needs the table alone runs.
     */
    @Test
    void aClientThatDisconnectsWithOpenCursorsLeavesNothingBehind() throws Exception {
        try (Connection other = connect(); Statement statement = other.createStatement()) {
            statement.execute("CREATE TABLE gone (id INT NOT NULL PRIMARY KEY)");
            statement.execute("INSERT INTO gone SELECT generate_series FROM generate_series(1, 5000)");
            double engineSessions = engineSessions();
            int serverSessions = server.sessionCount();
            Connection leaving = connect();
            try (Statement leavingStatement = leaving.createStatement()) {
                leaving.setAutoCommit(false);
                leavingStatement.execute("DECLARE a CURSOR FOR SELECT id FROM gone");
                leavingStatement.execute("DECLARE b CURSOR WITH HOLD FOR SELECT id FROM gone");
                assertEquals(1, rows(leavingStatement, "FETCH 1 FROM a").size());
                assertEquals(1, rows(leavingStatement, "FETCH 1 FROM b").size());
            }
            assertEquals(serverSessions + 1, server.sessionCount());
            ExecutorService executor = Executors.newSingleThreadExecutor();
            try {
                leaving.abort(executor);
            } finally {
                executor.shutdown();
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (server.sessionCount() > serverSessions && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertEquals(serverSessions, server.sessionCount(), "the session ended");
            assertEquals(engineSessions, engineSessions(), "its engine session closed");
            statement.setQueryTimeout(60);
            statement.execute("DROP TABLE gone");
        }
    }

    /** The rows of {@code sql}, each as its values joined by ':'. */
    private static List<String> rows(Statement statement, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                StringBuilder row = new StringBuilder();
                for (int column = 1; column <= columns; column++) {
                    row.append(column > 1 ? ":" : "").append(result.getString(column));
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }

    private interface SqlAction {
        void run() throws SQLException;
    }

    private static void assertSqlState(String expected, SqlAction action) {
        SQLException failure = assertThrows(SQLException.class, action::run);
        assertEquals(expected, failure.getSQLState(), failure.getMessage());
    }

    private static double logicalReads() throws IOException, InterruptedException {
        return metric("columba_pages_read_pages_total{database=\"cursors\",kind=\"logical\"}");
    }

    private static double engineSessions() throws IOException, InterruptedException {
        return metric("columba_sessions{database=\"cursors\"}");
    }

    private static double metric(String series) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + server.metricsPort().orElseThrow() + MetricsEndpoint.PATH)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        Matcher matcher = Pattern.compile("(?m)^" + Pattern.quote(series) + " ([0-9.eE+-]+)$").matcher(response.body());
        assertTrue(matcher.find(), series + " in\n" + response.body());
        double value = Double.parseDouble(matcher.group(1));
        assertFalse(matcher.find(), "one " + series);
        return value;
    }
}
