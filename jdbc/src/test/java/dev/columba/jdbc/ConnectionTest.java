package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.settings.StandardSettings;
import dev.columba.planner.session.Session;
import java.nio.file.Path;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DDL, session commands and transactions through a connection; closed objects. */
class ConnectionTest {
    @TempDir
    Path directory;

    private String url;
    private Connection connection;

    @BeforeEach
    void open() throws SQLException {
        url = "jdbc:columba:" + directory;
        connection = DriverManager.getConnection(url, DriverTest.small());
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    private boolean tableExists(Connection on, String name) throws SQLException {
        try (ResultSet tables = on.getMetaData().getTables(null, null, name, null)) {
            return tables.next();
        }
    }

    private static List<String> messages(SQLWarning chain) {
        List<String> messages = new ArrayList<>();
        for (SQLWarning warning = chain; warning != null; warning = warning.getNextWarning()) {
            messages.add(warning.getMessage());
            assertEquals("01000", warning.getSQLState());
        }
        return messages;
    }

    @Test
    void ddlAndCommandsReturnNoRowsAndAnUpdateCountOfZero() throws SQLException {
        try (Statement statement = connection.createStatement()) {
            assertFalse(statement.execute("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, name VARCHAR(20))"));
            assertEquals(0, statement.getUpdateCount());
            assertNull(statement.getResultSet());
            assertFalse(statement.getMoreResults());
            assertEquals(-1, statement.getUpdateCount(), "no more results");
            assertEquals(0, statement.executeUpdate("CREATE INDEX ix_name ON t (name)"));
            assertEquals(0L, statement.executeLargeUpdate("CHECKPOINT"));
            SQLException notAQuery = assertThrows(SQLException.class, () -> statement.executeQuery("DROP INDEX ix_name ON t"));
            assertEquals("02000", notAQuery.getSQLState());
            assertTrue(tableExists(connection, "t"));
        }
    }

    @Test
    void sessionCommandsChangeTheSessionAndTheirMessagesAreWarnings() throws SQLException {
        Session session = connection.unwrap(Session.class);
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET STATISTICS IO ON");
            assertTrue(session.statisticsIo());
            assertNull(statement.getWarnings());
            statement.execute("SET read_ahead = OFF");
            assertEquals(false, session.settings().get(StandardSettings.READ_AHEAD));
            statement.execute("DBCC TRACEOFF(652)");
            assertEquals(true, session.settings().get(StandardSettings.READ_AHEAD));
            assertEquals(List.of("DBCC execution completed. If DBCC printed error messages, contact your system"
                    + " administrator."), messages(statement.getWarnings()));
            statement.execute("PRINT 'hello, world'");
            assertEquals(List.of("hello, world"), messages(statement.getWarnings()), "each execution has its own warnings");
            assertEquals(List.of("hello, world"), statement.unwrap(ColumbaStatement.class).messages());
            statement.clearWarnings();
            assertNull(statement.getWarnings());
            statement.execute("DBCC DROPCLEANBUFFERS");
        }
    }

    @Test
    void rollbackUndoesDdlAndCommitKeepsIt() throws SQLException {
        connection.setAutoCommit(false);
        assertFalse(connection.getAutoCommit());
        try (Statement statement = connection.createStatement();
             Connection other = DriverManager.getConnection(url)) {
            statement.execute("CREATE TABLE undone (id INT)");
            assertTrue(connection.unwrap(Session.class).inTransaction());
            assertFalse(tableExists(other, "undone"), "other connections do not see uncommitted DDL");
            connection.rollback();
            assertFalse(tableExists(connection, "undone"));

            statement.execute("CREATE TABLE kept (id INT)");
            connection.commit();
            assertTrue(tableExists(other, "kept"));

            statement.execute("CREATE TABLE by_autocommit (id INT)");
            connection.setAutoCommit(true);
            assertFalse(connection.unwrap(Session.class).inTransaction(), "switching autocommit on commits");
            assertTrue(tableExists(other, "by_autocommit"));
        }
    }

    @Test
    void closingAConnectionRollsItsTransactionBack() throws SQLException {
        try (Connection writer = DriverManager.getConnection(url)) {
            writer.setAutoCommit(false);
            writer.createStatement().execute("CREATE TABLE abandoned (id INT)");
        }
        assertFalse(tableExists(connection, "abandoned"));
    }

    @Test
    void commitAndRollbackNeedAutocommitOff() {
        SQLException commit = assertThrows(SQLException.class, connection::commit);
        assertEquals("25000", commit.getSQLState());
        SQLException rollback = assertThrows(SQLException.class, connection::rollback);
        assertEquals("25000", rollback.getSQLState());
    }

    @Test
    void isolationIsReadCommittedAndHigherLevelsAreRefused() throws SQLException {
        assertEquals(Connection.TRANSACTION_READ_COMMITTED, connection.getTransactionIsolation());
        assertEquals(Connection.TRANSACTION_READ_COMMITTED, connection.getMetaData().getDefaultTransactionIsolation());
        connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        assertNull(connection.getWarnings());
        connection.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
        assertTrue(connection.getWarnings().getMessage().startsWith("READ UNCOMMITTED is raised to READ COMMITTED"));
        assertEquals(Connection.TRANSACTION_READ_COMMITTED, connection.getTransactionIsolation());
        connection.clearWarnings();
        assertNull(connection.getWarnings());
        assertThrows(SQLFeatureNotSupportedException.class,
                () -> connection.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE));
        assertThrows(SQLFeatureNotSupportedException.class,
                () -> connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ));
        assertEquals("22023", assertThrows(SQLException.class, () -> connection.setTransactionIsolation(42)).getSQLState());
        assertTrue(connection.getMetaData().supportsTransactionIsolationLevel(Connection.TRANSACTION_READ_COMMITTED));
        assertFalse(connection.getMetaData().supportsTransactionIsolationLevel(Connection.TRANSACTION_SERIALIZABLE));
    }

    @Test
    void aBatchOfDdlReportsCountsAndStopsAtTheFirstFailure() throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.addBatch("CREATE TABLE a (id INT)");
            statement.addBatch("CREATE TABLE b (id INT)");
            assertArrayEquals(new int[] {0, 0}, statement.executeBatch());
            assertArrayEquals(new int[0], statement.executeBatch(), "executing a batch empties it");
            statement.addBatch("CREATE TABLE c (id INT)");
            statement.addBatch("CREATE TABLE a (id INT)");
            statement.addBatch("CREATE TABLE d (id INT)");
            BatchUpdateException failure = assertThrows(BatchUpdateException.class, statement::executeBatch);
            assertEquals("42P07", failure.getSQLState());
            assertEquals(1, failure.getLargeUpdateCounts().length, "one statement succeeded before the failure");
            assertTrue(tableExists(connection, "c"));
            assertFalse(tableExists(connection, "d"));
        }
    }

    @Test
    void nativeSqlAndUnwrapping() throws SQLException {
        assertEquals("SELECT {fn NOW()}", connection.nativeSQL("SELECT {fn NOW()}"));
        assertTrue(connection.isWrapperFor(Session.class));
        assertSame(connection.unwrap(Session.class), connection.unwrap(Session.class));
        Statement statement = connection.createStatement();
        assertInstanceOf(ColumbaStatement.class, statement.unwrap(ColumbaStatement.class));
        assertEquals("22023", assertThrows(SQLException.class, () -> connection.unwrap(String.class)).getSQLState());
        assertEquals(ResultSet.HOLD_CURSORS_OVER_COMMIT, connection.getHoldability());
        assertThrows(SQLFeatureNotSupportedException.class, connection::setSavepoint);
        assertThrows(SQLFeatureNotSupportedException.class, () -> connection.prepareCall("CALL x()"));
        assertThrows(SQLFeatureNotSupportedException.class,
                () -> connection.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY));
    }

    @Test
    void closedObjectsSay08003() throws SQLException {
        Connection closing = DriverManager.getConnection(url);
        Statement statement = closing.createStatement();
        PreparedStatement prepared = closing.prepareStatement("PRINT 'x'");
        Statement closedStatement = closing.createStatement();
        closedStatement.close();
        assertEquals("08003", assertThrows(SQLException.class, () -> closedStatement.execute("PRINT 'x'")).getSQLState());
        closing.close();
        closing.close();
        assertTrue(statement.isClosed(), "closing a connection closes its statements");
        assertTrue(prepared.isClosed());
        assertFalse(closing.isValid(0));
        assertEquals("08003", assertThrows(SQLException.class, closing::createStatement).getSQLState());
        assertEquals("08003", assertThrows(SQLException.class, () -> statement.execute("PRINT 'x'")).getSQLState());
        assertEquals("08003", assertThrows(SQLException.class, prepared::execute).getSQLState());
        assertEquals("08003", assertThrows(SQLException.class, closing::getMetaData).getSQLState());
        assertEquals("08003", assertThrows(SQLException.class, () -> closing.setAutoCommit(false)).getSQLState());
    }
}
