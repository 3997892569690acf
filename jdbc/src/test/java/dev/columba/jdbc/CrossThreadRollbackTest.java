package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ErrorCode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code Connection.rollback()} called on another thread while a statement of the connection runs
 * (issue 15: it ended as XX000): the statement is cancelled with 57014 saying why, the transaction
 * is rolled back once it stopped, its changes and the statement's included, and the connection goes on.
 */
class CrossThreadRollbackTest {
    /** Seconds of parsing and planning: a statement certain to be running when the rollback comes. */
    private static final String LONG_TO_COMPILE = CompileCancellationTest.rowOfNumbers(400_000);

    private Connection connection;
    private Statement statement;

    @BeforeEach
    void open() throws SQLException {
        connection = DriverManager.getConnection("jdbc:columba:mem:cross-rollback-" + System.nanoTime(), DriverTest.small());
        statement = connection.createStatement();
        statement.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
        statement.execute("INSERT INTO t VALUES (1, 1)");
        connection.setAutoCommit(false);
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    private long rows() throws SQLException {
        try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM t")) {
            assertTrue(rows.next());
            return rows.getLong(1);
        }
    }

    @Test
    void aRollbackOnAnotherThreadCancelsTheRunningStatementAndRollsBackTheTransaction() throws Exception {
        statement.execute("INSERT INTO t VALUES (2, 2)");
        CompletableFuture<SQLException> running = CompletableFuture.supplyAsync(() -> {
            try (Statement other = connection.createStatement()) {
                other.execute(LONG_TO_COMPILE);
                return null;
            } catch (SQLException e) {
                return e;
            }
        });
        // A rollback before the statement started waits for nothing and rolls back row 2 early;
        // one while it runs cancels it. The statement runs for seconds, so one of them lands in it.
        while (!running.isDone()) {
            connection.rollback();
            Thread.onSpinWait();
        }
        SQLException cancelled = running.get();
        assertNotNull(cancelled, "the statement was cancelled by the rollback, not run to its end");
        assertEquals(ErrorCode.QUERY_CANCELLED.sqlState(), cancelled.getSQLState(), cancelled::getMessage);
        assertTrue(cancelled.getMessage().contains("Connection.rollback()"), cancelled.getMessage());
        connection.rollback();
        assertEquals(1, rows(), "row 2 and anything the statement did are rolled back");
        statement.execute("INSERT INTO t VALUES (3, 3)");
        connection.commit();
        assertEquals(2, rows(), "the connection goes on");
    }

    /**
     * The interleaving the test above meets by chance, forced: a rollback on another thread looked
     * for a running statement before there was one and waits for the connection's lock; a statement
     * takes the lock first (here this thread, which holds it throughout). The waiting rollback
     * cancels that statement instead of waiting for its end. It waited for it: issue 11's metadata
     * change made the spinning test meet this nearly every time, and it failed with the statement's
     * own error (0A000) after seconds.
     */
    @Test
    void aRollbackWaitingForTheLockCancelsTheStatementThatTakesItFirst() throws Exception {
        statement.execute("INSERT INTO t VALUES (2, 2)");
        EmbeddedConnection embedded = (EmbeddedConnection) connection;
        CompletableFuture<SQLException> rollback = new CompletableFuture<>();
        Thread rollingBack = new Thread(() -> {
            try {
                connection.rollback();
                rollback.complete(null);
            } catch (SQLException e) {
                rollback.complete(e);
            }
        }, "rollback");
        SQLException cancelled;
        synchronized (embedded.lock) {
            rollingBack.start();
            // BLOCKED: on the connection's lock, the one monitor rollback() takes; it looked for a statement before.
            while (rollingBack.getState() != Thread.State.BLOCKED) {
                Thread.onSpinWait();
            }
            cancelled = assertThrows(SQLException.class, () -> statement.execute(LONG_TO_COMPILE));
        }
        rollingBack.join();
        assertNull(rollback.get(), "the rollback itself succeeds");
        assertEquals(ErrorCode.QUERY_CANCELLED.sqlState(), cancelled.getSQLState(), cancelled::getMessage);
        assertTrue(cancelled.getMessage().contains("Connection.rollback()"), cancelled.getMessage());
        assertEquals(1, rows(), "row 2 is rolled back");
        statement.execute("INSERT INTO t VALUES (3, 3)");
        connection.commit();
        assertEquals(2, rows(), "the connection goes on");
    }

    /**
     * A query whose rows are still being read holds its tables shared: a rollback on another thread
     * moves its unread rows to the heap there, which ends the query and gives the tables back, and
     * the first thread reads on. It was refused with 25000 (and before that was XX000 and left the
     * tables held), because the holds belonged to the thread that ran the query.
     */
    @Test
    void aRollbackOnAnotherThreadWhileAResultOfThisThreadIsOpenGoesThrough() throws Exception {
        statement.execute("INSERT INTO t SELECT CAST(generate_series AS INT) + 10, 0 FROM generate_series(1, 5000)");
        connection.commit();
        try (Statement reading = connection.createStatement(); ResultSet rows = reading.executeQuery("SELECT id FROM t")) {
            assertTrue(rows.next());
            CompletableFuture.runAsync(() -> {
                try {
                    connection.rollback();
                } catch (SQLException e) {
                    throw new AssertionError(e);
                }
            }).get();
            long count = 1;
            while (rows.next()) {
                count++;
            }
            assertEquals(5001, count, "the result reads on, every row there");
        }
        statement.execute("INSERT INTO t VALUES (2, 2)");
        connection.commit();
        assertEquals(5002, rows(), "the connection goes on");
    }
}
