package dev.columba.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.PGConnection;
import org.postgresql.PGStatement;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyManager;

/**
 * The server driven by the real PostgreSQL JDBC driver (pgJDBC, default settings: extended protocol,
 * prepareThreshold 5, binary transfer) over a socket on 127.0.0.1.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PgJdbcTest {
    @TempDir
    static Path directory;
    private static PgServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = PgServer.start(ServerConfig.of(directory.resolve("db")).withPort(0));
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/columba", "tester", "");
    }

    @Test
    void returningGivesTheChangedRowsTheChangesTagAndGeneratedKeys() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE returned (id INT IDENTITY(1, 1) NOT NULL PRIMARY KEY, name VARCHAR(10))");
            try (ResultSet rows = statement.executeQuery("INSERT INTO returned (name) VALUES ('a'), (NULL) RETURNING id, name")) {
                assertEquals("id", rows.getMetaData().getColumnLabel(1));
                assertTrue(rows.next());
                assertEquals(1, rows.getInt(1));
                assertEquals("a", rows.getString(2));
                assertTrue(rows.next());
                assertEquals(2, rows.getInt(1));
                assertNull(rows.getString(2));
                assertFalse(rows.next());
            }
            // PgJDBC appends RETURNING * and reads the count from the tag (INSERT 0 1), the keys from the rows.
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO returned (name) VALUES (?)",
                    Statement.RETURN_GENERATED_KEYS)) {
                insert.setString(1, "c");
                assertEquals(1, insert.executeUpdate());
                try (ResultSet keys = insert.getGeneratedKeys()) {
                    assertTrue(keys.next());
                    assertEquals(3, keys.getInt("id"));
                    assertEquals("c", keys.getString("name"));
                    assertFalse(keys.next());
                }
            }
            try (PreparedStatement update = connection.prepareStatement("UPDATE returned SET name = ? WHERE id >= ?",
                    new String[] {"id"})) {
                update.setString(1, "z");
                update.setInt(2, 2);
                assertEquals(2, update.executeUpdate());
                List<Integer> ids = new ArrayList<>();
                try (ResultSet keys = update.getGeneratedKeys()) {
                    while (keys.next()) {
                        ids.add(keys.getInt(1));
                    }
                }
                ids.sort(null);
                assertEquals(List.of(2, 3), ids);
            }
            try (ResultSet rows = statement.executeQuery("DELETE FROM returned WHERE id > 100 RETURNING *")) {
                assertEquals(2, rows.getMetaData().getColumnCount());
                assertFalse(rows.next());
            }
            try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM returned WHERE name = 'z'")) {
                assertTrue(rows.next());
                assertEquals(2, rows.getInt(1));
            }
        }
    }

    @Test
    void connectsAndAnswersAQuery() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT 1 + 1 AS two, 'text' AS word")) {
            assertTrue(rows.next());
            assertEquals(2, rows.getInt("two"));
            assertEquals("text", rows.getString("word"));
            assertFalse(rows.next());
            assertTrue(connection.getMetaData().getDatabaseProductVersion().startsWith("15.0"));
        }
    }

    @Test
    void insertsEveryParameterTypeAndReadsItBack() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE typed (id INT, big BIGINT, ratio DOUBLE, price DECIMAL(10, 2),"
                    + " name VARCHAR(40), code CHAR(3), flag BOOLEAN, born DATE, moment TIMESTAMP)");
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO typed VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                insert.setInt(1, 1);
                insert.setLong(2, 9_000_000_000L);
                insert.setDouble(3, 0.1);
                insert.setBigDecimal(4, new BigDecimal("12345678.90"));
                insert.setString(5, "first");
                insert.setString(6, "abc");
                insert.setBoolean(7, true);
                insert.setDate(8, Date.valueOf("2024-02-29"));
                insert.setTimestamp(9, Timestamp.valueOf("2024-02-29 23:59:58.123456"));
                assertEquals(1, insert.executeUpdate());
                insert.setInt(1, 2);
                for (int parameter = 2; parameter <= 9; parameter++) {
                    insert.setNull(parameter, Types.NULL);
                }
                assertEquals(1, insert.executeUpdate());
                insert.setInt(1, 3);
                insert.setLong(2, Long.MIN_VALUE);
                insert.setDouble(3, -1.5e300);
                insert.setBigDecimal(4, new BigDecimal("-0.01"));
                insert.setString(5, "");
                insert.setString(6, "x");
                insert.setBoolean(7, false);
                insert.setObject(8, LocalDate.of(1999, 12, 31));
                insert.setObject(9, LocalDateTime.of(2000, 1, 1, 0, 0));
                assertEquals(1, insert.executeUpdate());
            }
            try (ResultSet rows = statement.executeQuery("SELECT * FROM typed ORDER BY id")) {
                ResultSetMetaData metadata = rows.getMetaData();
                assertEquals(List.of("int4", "int8", "float8", "numeric", "varchar", "bpchar", "bool", "date", "timestamp"),
                        typeNames(metadata));
                assertEquals(10, metadata.getPrecision(4));
                assertEquals(2, metadata.getScale(4));
                assertEquals(40, metadata.getPrecision(5));
                assertTrue(rows.next());
                assertEquals(1, rows.getInt("id"));
                assertEquals(9_000_000_000L, rows.getLong("big"));
                assertEquals(0.1, rows.getDouble("ratio"));
                assertEquals(new BigDecimal("12345678.90"), rows.getBigDecimal("price"));
                assertEquals("first", rows.getString("name"));
                assertEquals("abc", rows.getString("code"));
                assertTrue(rows.getBoolean("flag"));
                assertEquals(LocalDate.of(2024, 2, 29), rows.getObject("born", LocalDate.class));
                assertEquals(LocalDateTime.of(2024, 2, 29, 23, 59, 58, 123_456_000),
                        rows.getObject("moment", LocalDateTime.class));
                assertTrue(rows.next());
                assertEquals(2, rows.getInt("id"));
                for (int column = 2; column <= 9; column++) {
                    assertNull(rows.getObject(column), "column " + column);
                }
                assertTrue(rows.next());
                assertEquals(Long.MIN_VALUE, rows.getLong("big"));
                assertEquals(-1.5e300, rows.getDouble("ratio"));
                assertEquals(new BigDecimal("-0.01"), rows.getBigDecimal("price"));
                assertEquals("", rows.getString("name"));
                assertEquals("x  ", rows.getString("code"));
                assertFalse(rows.getBoolean("flag"));
                assertEquals(LocalDate.of(1999, 12, 31), rows.getObject("born", LocalDate.class));
                assertEquals(LocalDateTime.of(2000, 1, 1, 0, 0), rows.getObject("moment", LocalDateTime.class));
                assertFalse(rows.next());
            }
        }
    }

    private static List<String> typeNames(ResultSetMetaData metadata) throws SQLException {
        List<String> names = new ArrayList<>();
        for (int column = 1; column <= metadata.getColumnCount(); column++) {
            names.add(metadata.getColumnTypeName(column));
        }
        return names;
    }

    /** pgJDBC binds a {@code java.util.UUID} as a binary uuid (OID 2950); Columba keeps its text in a VARCHAR. */
    @Test
    void uuidParametersBindAsTheirText() throws SQLException {
        java.util.UUID id = java.util.UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE tokens (token VARCHAR(36) NOT NULL, owner VARCHAR(20))");
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO tokens VALUES (?, ?)")) {
                insert.setObject(1, id);
                insert.setString(2, "ann");
                assertEquals(1, insert.executeUpdate());
            }
            try (PreparedStatement select = connection.prepareStatement("SELECT owner, token FROM tokens WHERE token = ?")) {
                // Past prepareThreshold too, where pgJDBC binds in binary for sure.
                for (int round = 0; round < 6; round++) {
                    select.setObject(1, id);
                    try (ResultSet rows = select.executeQuery()) {
                        assertTrue(rows.next());
                        assertEquals("ann", rows.getString(1));
                        assertEquals(id.toString(), rows.getString(2));
                        assertFalse(rows.next());
                    }
                }
            }
        }
    }

    /**
     * VARBINARY and UUID columns go out as bytea (OID 17) and uuid (OID 2950), in text and, past
     * pgJDBC's prepareThreshold, in binary; bytea parameters bind in both forms too.
     */
    @Test
    void byteaAndUuidColumnsKeepTheirTypes() throws SQLException {
        java.util.UUID id = java.util.UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
        byte[] bytes = {0, 1, (byte) 0xfe, (byte) 0xff};
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE blobs (id UUID NOT NULL PRIMARY KEY, data VARBINARY(16))");
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO blobs VALUES (?, ?)")) {
                insert.setObject(1, id);
                insert.setBytes(2, bytes);
                assertEquals(1, insert.executeUpdate());
            }
            try (PreparedStatement select = connection.prepareStatement("SELECT id, data FROM blobs WHERE data = ?")) {
                for (int round = 0; round < 6; round++) {
                    select.setBytes(1, bytes);
                    try (ResultSet rows = select.executeQuery()) {
                        assertEquals("uuid", rows.getMetaData().getColumnTypeName(1));
                        assertEquals("bytea", rows.getMetaData().getColumnTypeName(2));
                        assertTrue(rows.next(), "round " + round);
                        assertEquals(id, rows.getObject(1, java.util.UUID.class));
                        org.junit.jupiter.api.Assertions.assertArrayEquals(bytes, rows.getBytes(2));
                        assertFalse(rows.next());
                    }
                }
            }
            try (ResultSet rows = statement.executeQuery("SELECT CAST(data AS VARCHAR(32)), id FROM blobs")) {
                assertTrue(rows.next());
                assertEquals("0001feff", rows.getString(1));
                assertEquals(id.toString(), rows.getString(2));
            }
        }
    }

    @Test
    void preparedStatementsAreReusedAsNamedServerStatements() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE reuse (id INT, born DATE, amount DECIMAL(12, 3))");
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO reuse VALUES (?, ?, ?)");
                 PreparedStatement select = connection.prepareStatement(
                         "SELECT id, born, amount FROM reuse WHERE id <= ? AND born >= ? ORDER BY id")) {
                for (int execution = 1; execution <= 12; execution++) {
                    insert.setInt(1, execution);
                    insert.setDate(2, Date.valueOf(LocalDate.of(2024, 1, execution)));
                    insert.setBigDecimal(3, new BigDecimal(execution + ".125"));
                    assertEquals(1, insert.executeUpdate());

                    select.setInt(1, execution);
                    select.setDate(2, Date.valueOf(LocalDate.of(2024, 1, 1)));
                    try (ResultSet rows = select.executeQuery()) {
                        for (int id = 1; id <= execution; id++) {
                            assertTrue(rows.next(), "execution " + execution + " row " + id);
                            assertEquals(id, rows.getInt(1));
                            assertEquals(LocalDate.of(2024, 1, id), rows.getObject(2, LocalDate.class));
                            assertEquals(new BigDecimal(id + ".125"), rows.getBigDecimal(3));
                        }
                        assertFalse(rows.next());
                    }
                }
                // Past prepareThreshold (5) pgJDBC has switched both to named server-side statements.
                assertTrue(insert.unwrap(PGStatement.class).isUseServerPrepare());
                assertTrue(select.unwrap(PGStatement.class).isUseServerPrepare());
            }
        }
    }

    @Test
    void deallocateClosesServerStatementsAndPgJdbcPreparesThemAgain() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE dealloc (id INT)");
            statement.executeUpdate("INSERT INTO dealloc VALUES (1), (2), (3)");
            try (PreparedStatement select = connection.prepareStatement("SELECT count(*) FROM dealloc WHERE id >= ?")) {
                for (int execution = 0; execution < 6; execution++) {
                    assertEquals(2, countFrom(select, 2));
                }
                assertTrue(select.unwrap(PGStatement.class).isUseServerPrepare());
                // pgJDBC reads the tag DEALLOCATE ALL, forgets its named statements and parses them again: a
                // server that dropped them without that tag (or kept answering from them) fails here.
                assertFalse(statement.execute("DEALLOCATE ALL"));
                assertEquals(3, countFrom(select, 1));
                assertEquals(1, countFrom(select, 3));
            }
            SQLException missing = assertThrows(SQLException.class, () -> statement.execute("DEALLOCATE PREPARE no_such"));
            assertEquals("26000", missing.getSQLState());
            assertTrue(missing.getMessage().contains("no_such"), missing.getMessage());
            assertEquals(3, count(statement, "dealloc"));
        }
    }

    private static int countFrom(PreparedStatement select, int from) throws SQLException {
        select.setInt(1, from);
        try (ResultSet rows = select.executeQuery()) {
            assertTrue(rows.next());
            return rows.getInt(1);
        }
    }

    @Test
    void copyFromStdinAndToStdoutRoundTripTextAndCsv() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE wire_copy (id INT, s VARCHAR(100), p DECIMAL(10, 2), d DATE)");
            CopyManager copy = connection.unwrap(PGConnection.class).getCopyAPI();
            // PostgreSQL's text format: tab-separated, backslash escapes, \N for NULL, \. as an old end marker.
            String text = "1\tplain\t1.25\t2024-01-01\n"
                    + "2\ttab\\there\t\\N\t\\N\n"
                    + "3\tnew\\nline and \\\\ backslash\t-3.50\t1999-12-31\n"
                    + "4\t\t0.00\t2000-02-29\n"
                    + "5\t\\N\t\\N\t\\N\n"
                    + "\\.\n";
            assertEquals(5, copy.copyIn("COPY wire_copy FROM STDIN", new StringReader(text)));
            // CSV with a header whose names PostgreSQL ignores, quoted fields, and "" as the empty string.
            String csv = "a,b,c,d\n6,\"quote \"\" and, comma\",9.99,2024-06-30\n7,\"\",1.00,\n";
            assertEquals(2, copy.copyIn("COPY wire_copy (id, s, p, d) FROM STDIN WITH (FORMAT csv, HEADER)",
                    new StringReader(csv)));
            try (ResultSet rows = statement.executeQuery("SELECT id, s, p, d FROM wire_copy ORDER BY id")) {
                assertRow(rows, 1, "plain", "1.25", "2024-01-01");
                assertRow(rows, 2, "tab\there", null, null);
                assertRow(rows, 3, "new\nline and \\ backslash", "-3.50", "1999-12-31");
                assertRow(rows, 4, "", "0.00", "2000-02-29");
                assertRow(rows, 5, null, null, null);
                assertRow(rows, 6, "quote \" and, comma", "9.99", "2024-06-30");
                assertRow(rows, 7, "", "1.00", null);
                assertFalse(rows.next());
            }
            StringWriter textOut = new StringWriter();
            assertEquals(6, copy.copyOut("COPY (SELECT id, s FROM wire_copy WHERE id <= 5 OR id = 7 ORDER BY id) TO STDOUT",
                    textOut));
            assertEquals("1\tplain\n2\ttab\\there\n3\tnew\\nline and \\\\ backslash\n4\t\n5\t\\N\n7\t\n",
                    textOut.toString());
            StringWriter csvOut = new StringWriter();
            assertEquals(3, copy.copyOut("COPY (SELECT id, s FROM wire_copy WHERE id IN (4, 5, 6) ORDER BY id) TO STDOUT"
                    + " (FORMAT csv, HEADER)", csvOut));
            assertEquals("id,s\n4,\"\"\n5,\n6,\"quote \"\" and, comma\"\n", csvOut.toString());
        }
    }

    @Test
    void copyFromStdinFailuresLoadNothingAndKeepTheConnection() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE wire_copy_bad (id INT, p DECIMAL(10, 2))");
            CopyManager copy = connection.unwrap(PGConnection.class).getCopyAPI();
            SQLException missing = assertThrows(SQLException.class,
                    () -> copy.copyIn("COPY no_such_table FROM STDIN", new StringReader("1\n")));
            assertEquals("42P01", missing.getSQLState());
            SQLException badValue = assertThrows(SQLException.class,
                    () -> copy.copyIn("COPY wire_copy_bad FROM STDIN", new StringReader("1\t2.5\n2\tnot a number\n")));
            assertEquals("22018", badValue.getSQLState());
            assertTrue(badValue.getMessage().contains("STDIN line 2"), badValue.getMessage());
            CopyIn abandoned = copy.copyIn("COPY wire_copy_bad FROM STDIN");
            byte[] row = "3\t1.5\n".getBytes(StandardCharsets.UTF_8);
            abandoned.writeToCopy(row, 0, row.length);
            abandoned.cancelCopy();
            SQLException binary = assertThrows(SQLException.class,
                    () -> copy.copyIn("COPY wire_copy_bad FROM STDIN (FORMAT binary)", new StringReader("")));
            assertEquals("0A000", binary.getSQLState());
            connection.setAutoCommit(false);
            assertEquals(1, copy.copyIn("COPY wire_copy_bad FROM STDIN", new StringReader("4\t4.5\n")));
            connection.rollback();
            connection.setAutoCommit(true);
            assertEquals(0, count(statement, "wire_copy_bad"));
            assertEquals(1, copy.copyIn("COPY wire_copy_bad FROM STDIN", new StringReader("5\t5.5\n")));
            assertEquals(1, count(statement, "wire_copy_bad"));
        }
    }

    private static void assertRow(ResultSet rows, int id, String s, String p, String d) throws SQLException {
        assertTrue(rows.next(), "row " + id);
        assertEquals(id, rows.getInt(1));
        assertEquals(s, rows.getString(2), "s of row " + id);
        assertEquals(p == null ? null : new BigDecimal(p), rows.getBigDecimal(3), "p of row " + id);
        assertEquals(d == null ? null : LocalDate.parse(d), rows.getObject(4, LocalDate.class), "d of row " + id);
    }

    @Test
    void showAndIsolationLevelsAsPgJdbcAndPoolsAskForThem() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            // pgJDBC asks the server with SHOW TRANSACTION ISOLATION LEVEL and sets it with SET SESSION CHARACTERISTICS.
            assertEquals(Connection.TRANSACTION_READ_COMMITTED, connection.getTransactionIsolation());
            connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            SQLException serializable = assertThrows(SQLException.class,
                    () -> connection.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE));
            assertEquals("0A000", serializable.getSQLState());
            try (ResultSet rows = statement.executeQuery("SHOW server_encoding")) {
                assertEquals("server_encoding", rows.getMetaData().getColumnLabel(1));
                assertTrue(rows.next());
                assertEquals("UTF8", rows.getString(1));
                assertFalse(rows.next());
            }
            try (PreparedStatement show = connection.prepareStatement("SHOW TRANSACTION ISOLATION LEVEL")) {
                try (ResultSet rows = show.executeQuery()) {
                    assertEquals("transaction_isolation", rows.getMetaData().getColumnLabel(1));
                    assertTrue(rows.next());
                    assertEquals("read committed", rows.getString(1));
                }
            }
            SQLException unknown = assertThrows(SQLException.class, () -> statement.executeQuery("SHOW no_such_parameter"));
            assertEquals("42704", unknown.getSQLState());
        }
    }

    @Test
    void transactionsCommitAndRollBack() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE ledger (id INT)");
            connection.setAutoCommit(false);
            statement.executeUpdate("INSERT INTO ledger VALUES (1)");
            statement.executeUpdate("INSERT INTO ledger VALUES (2)");
            assertEquals(2, count(statement, "ledger"));
            connection.rollback();
            assertEquals(0, count(statement, "ledger"));
            statement.executeUpdate("INSERT INTO ledger VALUES (3)");
            connection.commit();
            connection.setAutoCommit(true);
            assertEquals(1, count(statement, "ledger"));
            try (Connection other = connect(); Statement otherStatement = other.createStatement()) {
                assertEquals(1, count(otherStatement, "ledger"));
            }
        }
    }

    @Test
    void errorsCarryTheirSqlStateAndTheConnectionStaysUsable() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertSqlState("42P01", () -> statement.executeQuery("SELECT * FROM no_such_table"));
            assertSqlState("42601", () -> statement.executeQuery("SELEC 1"));
            assertSqlState("22012", () -> statement.executeQuery("SELECT 1 / 0"));
            try (PreparedStatement prepared = connection.prepareStatement("SELECT ? / 0")) {
                prepared.setInt(1, 5);
                assertSqlState("22012", prepared::executeQuery);
            }
            assertEquals(1, scalar(statement, "SELECT 1"));

            statement.execute("CREATE TABLE failing (id INT)");
            connection.setAutoCommit(false);
            statement.executeUpdate("INSERT INTO failing VALUES (1)");
            assertSqlState("42P01", () -> statement.executeQuery("SELECT * FROM missing"));
            assertSqlState("25P02", () -> statement.executeQuery("SELECT 1"));
            connection.rollback();
            assertEquals(0, count(statement, "failing"));
            connection.setAutoCommit(true);
            assertEquals(1, scalar(statement, "SELECT 1"));
        }
    }

    /** Text outside Latin-1 as parameters and as a literal in the SQL text, both ways through the wire. */
    @Test
    void unicodeTextRoundTrips() throws SQLException {
        String text = "héllo wörld ✓ 日本語 🎉 Ω";
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE words (id INT, word VARCHAR(100))");
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO words VALUES (?, ?)")) {
                for (int id = 1; id <= 2; id++) {
                    insert.setInt(1, id);
                    insert.setString(2, text);
                    insert.executeUpdate();
                }
            }
            assertEquals(1, statement.executeUpdate("INSERT INTO words VALUES (3, '" + text + "')"));
            try (ResultSet rows = statement.executeQuery("SELECT word, CHAR_LENGTH(word) FROM words ORDER BY id")) {
                for (int row = 0; row < 3; row++) {
                    assertTrue(rows.next());
                    assertEquals(text, rows.getString(1));
                    assertEquals(text.codePointCount(0, text.length()), rows.getInt(2));
                }
            }
        }
    }

    @Test
    void fetchSizeStreamsThroughPortalSuspension() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            statement.setFetchSize(7);
            long sum = 0;
            int rowCount = 0;
            try (ResultSet rows = statement.executeQuery("SELECT * FROM generate_series(1, 100)")) {
                while (rows.next()) {
                    sum += rows.getLong(1);
                    rowCount++;
                }
            }
            connection.commit();
            assertEquals(100, rowCount);
            assertEquals(5050, sum);
        }
    }

    @Test
    void aQueryTimeoutCancelsTheRunningQuery() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(1);
            assertSqlState("57014", () -> statement.executeQuery(LONG_QUERY));
            statement.setQueryTimeout(0);
            assertEquals(1, scalar(statement, "SELECT 1"));
        }
    }

    @Test
    void cancelFromAnotherThreadStopsTheQuery() throws Exception {
        ExecutorService runner = Executors.newSingleThreadExecutor();
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            Future<SQLException> outcome = runner.submit(() -> {
                try {
                    statement.executeQuery(LONG_QUERY);
                    return null;
                } catch (SQLException e) {
                    return e;
                }
            });
            // A cancel that arrives before the query starts cancels nothing, so cancel until the query ends.
            SQLException failure = null;
            while (failure == null) {
                statement.cancel();
                try {
                    failure = outcome.get(200, TimeUnit.MILLISECONDS);
                    assertTrue(failure != null, "the query finished instead of being cancelled");
                } catch (TimeoutException stillRunning) {
                    // Not cancelled yet: send another CancelRequest.
                }
            }
            assertEquals("57014", failure.getSQLState(), failure.getMessage());
            assertEquals(1, scalar(statement, "SELECT 1"));
        } finally {
            runner.shutdownNow();
        }
    }

    @Test
    void concurrentClientsEachGetTheirOwnSession() throws Exception {
        try (Connection setup = connect(); Statement statement = setup.createStatement()) {
            statement.execute("CREATE TABLE shared (client INT, n INT)");
        }
        int clients = 8;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<Long>> sums = new ArrayList<>();
            for (int client = 0; client < clients; client++) {
                int id = client;
                sums.add(pool.submit(() -> {
                    try (Connection connection = connect();
                         PreparedStatement insert = connection.prepareStatement("INSERT INTO shared VALUES (?, ?)");
                         PreparedStatement sum = connection.prepareStatement("SELECT SUM(n) FROM shared WHERE client = ?")) {
                        for (int n = 1; n <= 20; n++) {
                            insert.setInt(1, id);
                            insert.setInt(2, n);
                            insert.executeUpdate();
                        }
                        sum.setInt(1, id);
                        try (ResultSet rows = sum.executeQuery()) {
                            rows.next();
                            return rows.getLong(1);
                        }
                    }
                }));
            }
            for (Future<Long> sum : sums) {
                assertEquals(210L, sum.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aPasswordServerRefusesAWrongPasswordWith28P01() throws Exception {
        try (PgServer guarded = PgServer.start(ServerConfig.of(directory.resolve("guarded")).withPort(0)
                .withPassword("s3cret"))) {
            String url = "jdbc:postgresql://127.0.0.1:" + guarded.port() + "/columba";
            SQLException refused = assertThrows(SQLException.class, () -> DriverManager.getConnection(url, "u", "wrong"));
            assertEquals("28P01", refused.getSQLState(), refused.getMessage());
            Properties properties = new Properties();
            properties.setProperty("user", "u");
            properties.setProperty("password", "s3cret");
            try (Connection connection = DriverManager.getConnection(url, properties);
                 Statement statement = connection.createStatement()) {
                assertEquals(1, scalar(statement, "SELECT 1"));
            }
        }
    }

    /** A query that runs for minutes unless cancelled: a count over 10^10 joined rows. */
    private static final String LONG_QUERY =
            "SELECT COUNT(*) FROM generate_series(1, 100000) AS a (x) CROSS JOIN generate_series(1, 100000) AS b (y)";

    private interface SqlAction {
        Object run() throws SQLException;
    }

    private static void assertSqlState(String expected, SqlAction action) {
        SQLException failure = assertThrows(SQLException.class, action::run);
        assertEquals(expected, failure.getSQLState(), failure.getMessage());
    }

    private static long count(Statement statement, String table) throws SQLException {
        return scalar(statement, "SELECT COUNT(*) FROM " + table);
    }

    private static long scalar(Statement statement, String sql) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            assertTrue(rows.next());
            return rows.getLong(1);
        }
    }
}
