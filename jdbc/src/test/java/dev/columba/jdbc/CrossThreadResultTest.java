package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ErrorCode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A result opened on one thread and read, closed or finished on another (issue 15): JDBC lets a
 * connection's objects be used from any thread, one at a time. The query of an open result holds
 * its tables shared until it ends; those holds were a {@code ReentrantReadWriteLock}'s read locks,
 * owned by the thread that ran the query, so finishing the query elsewhere failed with
 * IllegalMonitorStateException (XX000) and left the table held: the next commit into it waited
 * for ever. Each test ends with a commit into the table from a third connection, bounded by a
 * timeout, which proves the hold was given back.
 *
 * <p>Every thread here is a separate single-thread executor, so "thread A" and "thread B" are
 * never the same thread; each step is run to its end before the next starts (one at a time, as
 * JDBC asks), except where the test says it overlaps two.
 */
class CrossThreadResultTest {
    private static final int ROWS = 20_000;
    private static final long WAIT_SECONDS = 60;

    private String url;
    private Connection reading;
    private Connection writing;
    private ExecutorService threadA;
    private ExecutorService threadB;

    @BeforeEach
    void open() {
        url = "jdbc:columba:mem:cross-result-" + System.nanoTime();
        threadA = Executors.newSingleThreadExecutor(task -> new Thread(task, "thread-A"));
        threadB = Executors.newSingleThreadExecutor(task -> new Thread(task, "thread-B"));
    }

    private void createTable(String storage) throws SQLException {
        writing = DriverManager.getConnection(url, DriverTest.small());
        reading = DriverManager.getConnection(url, DriverTest.small());
        try (Statement statement = writing.createStatement()) {
            statement.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT) WITH (storage = " + storage + ")");
            statement.execute("INSERT INTO t SELECT CAST(generate_series AS INT), 0 FROM generate_series(1, " + ROWS + ")");
        }
    }

    @AfterEach
    void close() throws SQLException {
        threadA.shutdownNow();
        threadB.shutdownNow();
        if (reading != null) {
            reading.close();
        }
        if (writing != null) {
            writing.close();
        }
    }

    /** Runs {@code step} on {@code thread} and waits for it; a failure (or a hang) fails the test. */
    private static <T> T on(ExecutorService thread, Step<T> step) throws Exception {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return step.run();
            } catch (Exception e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        }, thread).get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    /** Runs {@code query} on thread A and reads its first row there. */
    private ResultSet openOnThreadA(Statement statement, String query) throws Exception {
        return on(threadA, () -> {
            ResultSet opened = statement.executeQuery(query);
            assertTrue(opened.next());
            return opened;
        });
    }

    @FunctionalInterface
    private interface Step<T> {
        T run() throws Exception;
    }

    /**
     * A commit into the table from another connection: it waits until no query holds the table
     * shared, so it ends only if every hold was given back.
     */
    private void commitGoesThrough() throws Exception {
        try (Statement statement = writing.createStatement()) {
            CompletableFuture<Integer> update = CompletableFuture.supplyAsync(() -> {
                try {
                    return statement.executeUpdate("UPDATE t SET v = v + 1 WHERE id = 1");
                } catch (SQLException e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
            });
            assertEquals(1, update.get(WAIT_SECONDS, TimeUnit.SECONDS), "the commit into t went through");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "columnstore"})
    void aResultOpenedOnOneThreadIsReadToItsEndAndClosedOnAnother(String storage) throws Exception {
        createTable(storage);
        Statement statement = reading.createStatement();
        ResultSet rows = openOnThreadA(statement, "SELECT id FROM t");
        long read = on(threadB, () -> {
            long count = 1;
            while (rows.next()) {
                count++;
            }
            rows.close();
            statement.close();
            return count;
        });
        assertEquals(ROWS, read, "every row read on the second thread");
        commitGoesThrough();
    }

    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "columnstore"})
    void aResultOpenedOnOneThreadIsClosedUnreadOnAnother(String storage) throws Exception {
        createTable(storage);
        Statement statement = reading.createStatement();
        ResultSet rows = openOnThreadA(statement, "SELECT id, v FROM t");
        on(threadB, () -> {
            rows.close();
            return null;
        });
        assertTrue(rows.isClosed());
        commitGoesThrough();
        // The thread that opened it can still use the connection.
        long count = on(threadA, () -> {
            try (ResultSet again = statement.executeQuery("SELECT COUNT(*) FROM t")) {
                assertTrue(again.next());
                return again.getLong(1);
            }
        });
        assertEquals(ROWS, count);
    }

    /**
     * A statement, commit or rollback on another thread while a result of the connection is still
     * open: the result's unread rows move to the heap on that thread (which finishes its query and
     * gives its tables back), and the first thread reads on. This was refused with 25000.
     */
    @ParameterizedTest
    @ValueSource(strings = {"statement", "commit", "rollback"})
    void anotherThreadMovesOnWhileAResultOfTheFirstIsOpen(String next) throws Exception {
        createTable("rowstore");
        reading.setAutoCommit(!next.equals("commit") && !next.equals("rollback"));
        Statement statement = reading.createStatement();
        ResultSet rows = openOnThreadA(statement, "SELECT id FROM t");
        on(threadB, () -> {
            switch (next) {
                case "statement" -> {
                    try (Statement other = reading.createStatement(); ResultSet count = other.executeQuery("SELECT COUNT(*) FROM t")) {
                        assertTrue(count.next());
                        assertEquals(ROWS, count.getLong(1));
                    }
                }
                case "commit" -> reading.commit();
                case "rollback" -> reading.rollback();
                default -> throw new AssertionError(next);
            }
            return null;
        });
        commitGoesThrough();
        long read = on(threadA, () -> {
            long count = 1;
            while (rows.next()) {
                count++;
            }
            rows.close();
            return count;
        });
        assertEquals(ROWS, read, "the first thread read on, every row there");
    }

    /**
     * Inside a write transaction a query reads the transaction's own page copies (no shared holds):
     * its result is read on another thread, which then commits; the transaction's row is there
     * and the commit's locks are given back.
     */
    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "columnstore"})
    void aResultInsideAWriteTransactionIsReadOnAnotherThreadWhichCommits(String storage) throws Exception {
        createTable(storage);
        reading.setAutoCommit(false);
        Statement statement = reading.createStatement();
        long[] firstIsSeven = new long[1];
        ResultSet rows = on(threadA, () -> {
            statement.executeUpdate("INSERT INTO t VALUES (" + (ROWS + 1) + ", 7)");
            ResultSet opened = statement.executeQuery("SELECT id, v FROM t");
            assertTrue(opened.next());
            firstIsSeven[0] = opened.getInt(2) == 7 ? 1 : 0;
            return opened;
        });
        long[] read = on(threadB, () -> {
            long count = 1;
            long sevens = firstIsSeven[0];
            while (rows.next()) {
                count++;
                sevens += rows.getInt(2) == 7 ? 1 : 0;
            }
            rows.close();
            reading.commit();
            return new long[] {count, sevens};
        });
        assertEquals(ROWS + 1, read[0], "every row, the transaction's own included");
        assertEquals(1, read[1]);
        commitGoesThrough();
    }

    /**
     * The connection closed on thread B while thread A iterates one of its results: A's reading ends
     * with a proper SQLException (the statement cancelled, 57014, or the result closed, 08003) and
     * nothing else; the table is given back.
     */
    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "columnstore"})
    void theConnectionClosedOnAnotherThreadWhileAResultIsIteratedEndsTheIterationCleanly(String storage) throws Exception {
        createTable(storage);
        CountDownLatch iterating = new CountDownLatch(1);
        CompletableFuture<Throwable> iteration = CompletableFuture.supplyAsync(() -> {
            try (Statement statement = reading.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT a.id FROM t a CROSS JOIN t b")) {
                while (rows.next()) {
                    iterating.countDown();
                }
                return null;
            } catch (Throwable e) {
                return e;
            }
        }, threadA);
        assertTrue(iterating.await(WAIT_SECONDS, TimeUnit.SECONDS), "thread A reads rows");
        on(threadB, () -> {
            reading.close();
            return null;
        });
        Throwable ended = iteration.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertNotNull(ended, "the iteration of 400 million rows ended because the connection closed");
        assertTrue(ended instanceof SQLException, () -> "a SQLException, not " + ended);
        String state = ((SQLException) ended).getSQLState();
        assertTrue(Set.of(ErrorCode.QUERY_CANCELLED.sqlState(), ErrorCode.DATABASE_CLOSED.sqlState()).contains(state),
                () -> state + " " + ended.getMessage());
        assertFalse(ended.getMessage().contains("IllegalMonitorState"), ended.getMessage());
        assertTrue(reading.isClosed());
        commitGoesThrough();
    }
}
