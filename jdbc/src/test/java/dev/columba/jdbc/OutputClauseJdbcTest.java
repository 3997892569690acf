package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OUTPUT and RETURNING through the driver: {@code execute} and {@code executeQuery} give the changed
 * rows as a ResultSet, described before they run; {@code executeUpdate} refuses them once they ran,
 * batches before; a failed statement leaves the table as it was.
 */
class OutputClauseJdbcTest {
    @TempDir
    Path directory;

    private Connection connection;
    private Statement statement;

    @BeforeEach
    void open() throws SQLException {
        connection = DriverManager.getConnection("jdbc:columba:" + directory, DriverTest.small());
        statement = connection.createStatement();
        statement.execute("CREATE TABLE t (id INT IDENTITY(1, 1) NOT NULL PRIMARY KEY, name VARCHAR(10), n INT)");
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    private int count() throws SQLException {
        try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM t")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    @Test
    void executeGivesTheRowsAsAResultSet() throws SQLException {
        assertTrue(statement.execute("INSERT INTO t (name, n) OUTPUT inserted.id, inserted.name VALUES ('a', 1), ('b', NULL)"));
        assertEquals(-1, statement.getUpdateCount());
        try (ResultSet rows = statement.getResultSet()) {
            assertTrue(rows.next());
            assertEquals(1, rows.getInt("id"));
            assertEquals("a", rows.getString("name"));
            assertTrue(rows.next());
            assertEquals(2, rows.getInt(1));
            assertFalse(rows.next());
        }
        try (PreparedStatement update = connection.prepareStatement(
                "UPDATE t SET n = ? WHERE id = ? RETURNING id, n AS new_n")) {
            ResultSetMetaData described = update.getMetaData();
            assertEquals(2, described.getColumnCount());
            assertEquals("new_n", described.getColumnLabel(2));
            assertEquals(Types.INTEGER, described.getColumnType(2));
            update.setInt(1, 7);
            update.setInt(2, 2);
            try (ResultSet rows = update.executeQuery()) {
                assertTrue(rows.next());
                assertEquals(2, rows.getInt(1));
                assertEquals(7, rows.getInt(2));
                assertFalse(rows.next());
            }
        }
        try (ResultSet rows = statement.executeQuery("DELETE FROM t OUTPUT deleted.name WHERE n IS NULL")) {
            assertFalse(rows.next());
        }
        assertEquals(2, count());
    }

    @Test
    void updatesAndBatchesRefuseRowsAndFailuresChangeNothing() throws SQLException {
        statement.execute("INSERT INTO t (name, n) VALUES ('a', 1), ('b', 0)");
        SQLException update = assertThrows(SQLException.class,
                () -> statement.executeUpdate("DELETE FROM t OUTPUT deleted.id"));
        assertTrue(update.getMessage().contains("produced rows"), update.getMessage());
        // As with SQL Server's and PostgreSQL's drivers, the statement ran (in autocommit mode,
        // committed) before the driver saw that it produced rows.
        assertEquals(0, count());
        statement.execute("INSERT INTO t (name, n) VALUES ('a', 1), ('b', 0)");
        PreparedStatement batch = connection.prepareStatement("INSERT INTO t (name) VALUES (?) RETURNING id");
        batch.setString(1, "c");
        batch.addBatch();
        assertThrows(SQLException.class, batch::executeBatch);
        SQLException divided = assertThrows(SQLException.class,
                () -> statement.executeQuery("DELETE FROM t OUTPUT 10 / deleted.n"));
        assertEquals("22012", divided.getSQLState());
        try (ResultSet rows = statement.executeQuery("SELECT name FROM t ORDER BY id")) {
            assertTrue(rows.next());
            assertEquals("a", rows.getString(1));
            assertTrue(rows.next());
            assertEquals("b", rows.getString(1));
            assertFalse(rows.next());
        }
        // No OUTPUT: an update count, as before.
        assertEquals(1, statement.executeUpdate("UPDATE t SET n = NULL WHERE name = 'a'"));
        try (ResultSet rows = statement.executeQuery("SELECT n FROM t WHERE name = 'a'")) {
            assertTrue(rows.next());
            rows.getInt(1);
            assertTrue(rows.wasNull());
        }
        assertNull(connection.prepareStatement("UPDATE t SET n = 1").getMetaData());
    }
}
