package dev.columba.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL's implicit transactions, through pgJDBC: outside a block, the statements between two Syncs (an
 * {@code executeBatch}) and the statements of one multi-statement simple Query commit together or not at all.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ImplicitTransactionTest {
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

    private static Connection connect(String options) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/columba" + options,
                "tester", "");
    }

    @BeforeEach
    void emptyTable() throws SQLException {
        try (Connection connection = connect(""); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS k");
            statement.execute("CREATE TABLE k (id INT PRIMARY KEY, s VARCHAR(10))");
            statement.execute("INSERT INTO k VALUES (1, 'one')");
        }
    }

    private static long rows(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet count = statement.executeQuery("SELECT count(*) FROM k")) {
            count.next();
            return count.getLong(1);
        }
    }

    @Test
    void aBatchWithAFailingRowChangesNothing() throws SQLException {
        try (Connection connection = connect(""); PreparedStatement insert = connection.prepareStatement("INSERT INTO k VALUES (?, ?)")) {
            for (int id : new int[] {2, 3, 1, 4}) {
                insert.setInt(1, id);
                insert.setString(2, "row " + id);
                insert.addBatch();
            }
            BatchUpdateException failed = assertThrows(BatchUpdateException.class, insert::executeBatch);
            assertEquals("23505", failed.getNextException() != null ? failed.getNextException().getSQLState()
                    : failed.getSQLState(), failed.getMessage());
            assertEquals(1, rows(connection), "rows 2 and 3 went with the batch they were in");
            for (int id = 10; id < 60; id++) {
                insert.setInt(1, id);
                insert.setString(2, "row " + id);
                insert.addBatch();
            }
            assertEquals(50, insert.executeBatch().length);
            assertEquals(51, rows(connection), "a batch that succeeds commits whole");
        }
    }

    @Test
    void aBatchOfUpdatesAndDeletesAnswersEachRowsCount() throws SQLException {
        try (Connection connection = connect(""); Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO k VALUES (2, 'x'), (3, 'x'), (4, 'y')");
            try (PreparedStatement update = connection.prepareStatement("UPDATE k SET s = ? WHERE s = ?")) {
                for (String[] change : new String[][] {{"z", "x"}, {"w", "none"}, {"v", "y"}, {"u", "z"}}) {
                    update.setString(1, change[0]);
                    update.setString(2, change[1]);
                    update.addBatch();
                }
                // Each row of the batch sees the rows before it changed: x -> z (2 rows), none, y -> v, z -> u (2).
                assertEquals(java.util.List.of(2, 0, 1, 2), java.util.Arrays.stream(update.executeBatch()).boxed().toList());
            }
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM k WHERE s = ?")) {
                for (String value : new String[] {"u", "one", "u"}) {
                    delete.setString(1, value);
                    delete.addBatch();
                }
                assertEquals(java.util.List.of(2, 1, 0), java.util.Arrays.stream(delete.executeBatch()).boxed().toList());
            }
            assertEquals(1, rows(connection), "only row 4 is left");
        }
    }

    @Test
    void aSimpleQueryOfSeveralStatementsIsOneTransaction() throws SQLException {
        // preferQueryMode=simple sends the text as one Query message, as psql -c does.
        try (Connection connection = connect("?preferQueryMode=simple"); Statement statement = connection.createStatement()) {
            SQLException duplicate = assertThrows(SQLException.class,
                    () -> statement.execute("INSERT INTO k VALUES (2, 'two'); INSERT INTO k VALUES (1, 'again')"));
            assertEquals("23505", duplicate.getSQLState(), duplicate.getMessage());
            assertEquals(1, rows(connection), "the first INSERT went with the second");
            statement.execute("INSERT INTO k VALUES (2, 'two'); INSERT INTO k VALUES (3, 'three')");
            assertEquals(3, rows(connection));
            // A ROLLBACK among them ends their transaction, and the statements after it run on their own.
            statement.execute("INSERT INTO k VALUES (4, 'four'); ROLLBACK; INSERT INTO k VALUES (5, 'five')");
            assertEquals(4, rows(connection), "4 rolled back, 5 committed");
            // A BEGIN among them opens a block that takes in what ran before it.
            statement.execute("INSERT INTO k VALUES (6, 'six'); BEGIN; INSERT INTO k VALUES (7, 'seven')");
            statement.execute("ROLLBACK");
            assertEquals(4, rows(connection), "6 and 7 were in the block the ROLLBACK ended");
        }
        try (Connection other = connect("")) {
            assertEquals(4, rows(other), "what the connection committed, another sees");
        }
    }

    @Test
    void aSingleStatementStillCommitsAtOnceAndAnExplicitBlockIsUnchanged() throws SQLException {
        try (Connection connection = connect(""); Connection other = connect("");
             Statement statement = connection.createStatement()) {
            statement.executeUpdate("INSERT INTO k VALUES (2, 'two')");
            assertEquals(2, rows(other));
            connection.setAutoCommit(false);
            statement.executeUpdate("INSERT INTO k VALUES (3, 'three')");
            assertEquals(2, rows(other), "not committed yet");
            connection.commit();
            assertEquals(3, rows(other));
            assertTrue(connection.isValid(1));
        }
    }
}
