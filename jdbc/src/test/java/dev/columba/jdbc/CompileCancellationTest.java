package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ErrorCode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A statement's timeout and {@code cancel()} reach it while it is parsed and planned, not only once
 * it runs (issue 15: a statement of 32,000 list items spent 8 s in the parser and could be stopped
 * by neither), and a statement text over the parser's limit is refused with 54000.
 */
class CompileCancellationTest {
    /** Far more work to parse and plan than one second holds: 400,000 row items, 3 MB of text. */
    private static final String LONG_TO_COMPILE = rowOfNumbers(400_000);

    private Connection connection;
    private Statement statement;

    @BeforeEach
    void open() throws SQLException {
        connection = DriverManager.getConnection("jdbc:columba:mem:compile-cancel-" + System.nanoTime(), DriverTest.small());
        statement = connection.createStatement();
        statement.execute("CREATE TABLE t (id INT)");
        statement.execute("INSERT INTO t VALUES (1)");
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    /** {@code SELECT (0, 1, ..., count - 1) FROM t}: seconds of parsing and planning that check for a cancel as they go. */
    static String rowOfNumbers(int count) {
        StringBuilder sql = new StringBuilder("SELECT (0");
        for (int number = 1; number < count; number++) {
            sql.append(", ").append(number);
        }
        return sql.append(") FROM t").toString();
    }

    private void assertSessionGoesOn() throws SQLException {
        statement.setQueryTimeout(0);
        try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM t")) {
            assertTrue(rows.next());
            assertEquals(1, rows.getLong(1));
        }
    }

    @Test
    void theQueryTimeoutStopsAStatementWhileItIsCompiled() throws SQLException {
        statement.setQueryTimeout(1);
        SQLException timedOut = assertThrows(SQLException.class, () -> statement.execute(LONG_TO_COMPILE));
        assertInstanceOf(SQLTimeoutException.class, timedOut, timedOut::getMessage);
        assertEquals(ErrorCode.QUERY_CANCELLED.sqlState(), timedOut.getSQLState());
        assertSessionGoesOn();
    }

    @Test
    void cancelFromAnotherThreadStopsAStatementWhileItIsCompiled() throws Exception {
        CompletableFuture<SQLException> outcome = CompletableFuture.supplyAsync(() -> {
            try {
                statement.execute(LONG_TO_COMPILE);
                return null;
            } catch (SQLException e) {
                return e;
            }
        });
        // A cancel before the statement started reaches nothing: ask until it has ended.
        while (!outcome.isDone()) {
            statement.cancel();
            Thread.onSpinWait();
        }
        SQLException cancelled = outcome.get();
        assertTrue(cancelled != null, "the statement was cancelled, not run to its end");
        assertEquals(ErrorCode.QUERY_CANCELLED.sqlState(), cancelled.getSQLState(), cancelled::getMessage);
        assertSessionGoesOn();
    }

    /**
     * A cancel that lands after the driver accepted a statement and before the statement reached the
     * parser: the run exists, the session has not started compiling. Issue 15 found it went to the
     * previous statement's flag and was lost; the run's announcement makes it the statement's.
     */
    @Test
    void aCancelBeforeTheStatementReachesTheParserStopsIt() throws SQLException {
        EmbeddedConnection embedded = (EmbeddedConnection) connection;
        StatementRun run = new StatementRun(embedded.session(), embedded.cancelLock, 0);
        run.cancel(false);
        SQLException cancelled = assertThrows(SQLException.class,
                () -> embedded.execute("SELECT COUNT(*) FROM t WHERE id > -17", java.util.List.of(), run));
        run.finish();
        assertEquals(ErrorCode.QUERY_CANCELLED.sqlState(), cancelled.getSQLState(), cancelled::getMessage);
        assertSessionGoesOn();
    }

    @Test
    void statementTextOverTheParsersLimitIs54000() throws SQLException, ExecutionException, InterruptedException {
        String tooLong = "PRINT '" + "x".repeat(16 << 20) + "'";
        SQLException refused = assertThrows(SQLException.class, () -> statement.execute(tooLong));
        assertEquals(ErrorCode.STATEMENT_TOO_LARGE.sqlState(), refused.getSQLState(), refused::getMessage);
        assertTrue(refused.getMessage().startsWith("[STATEMENT_TOO_LARGE] "), refused.getMessage());
        assertSessionGoesOn();
    }
}
