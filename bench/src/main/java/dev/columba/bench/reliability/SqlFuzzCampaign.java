package dev.columba.bench.reliability;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs mutated statements ({@link SqlMutator}) against a fresh in-memory database through JDBC and
 * counts how each ended, by SQLSTATE ({@code 00000} for success). A failure is a statement that
 * ended as an internal error ({@code XX000}), a syntax error whose message is a Java exception's
 * (the parser broke rather than refused), anything that escaped the driver other than a
 * SQLException, or a statement that ran past its timeout by more than {@link #GRACE_SECONDS}. Each
 * failure is listed with the run's seed and the statement's index, which replay it.
 *
 * <p>Every statement runs in a transaction that is rolled back, so each one sees the corpus's rows
 * as set up, whatever ran before it: a statement's outcome depends only on its seed and index.
 */
final class SqlFuzzCampaign {
    /** How much longer than its timeout a statement may take before it counts as hung. */
    static final int GRACE_SECONDS = 10;
    /** Rows read of a result at most: the fuzzer looks for failures, not for results. */
    private static final int MAX_ROWS = 1000;
    private static final int FAILURE_TEXT_LENGTH = 300;

    /** A statement that failed the campaign, and what replays it. */
    record Failure(long seed, long index, String kind, String sqlState, String message, String sql) {
        String line() {
            return "seed " + seed + " index " + index + ": " + kind + " " + sqlState + " " + shortened(message) + " | "
                    + shortened(sql);
        }
    }

    /** What a run found: statements by outcome, and the failures. */
    record Result(long seed, long statements, Map<String, Long> bySqlState, List<Failure> failures, long elapsedNanos) {
        long count(String sqlState) {
            return bySqlState.getOrDefault(sqlState, 0L);
        }
    }

    private final long seed;
    private final int timeoutSeconds;
    private final PrintStream progress;
    private ExecutorService worker;
    private Connection connection;
    private int databases;
    /** Set on the worker thread when a rollback failed, read on the campaign's after the statement. */
    private volatile boolean rollbackFailed;

    SqlFuzzCampaign(long seed, int timeoutSeconds, PrintStream progress) {
        this.seed = seed;
        this.timeoutSeconds = timeoutSeconds;
        this.progress = progress;
    }

    /** Runs statements {@code first} to {@code first + count - 1} of the seed's sequence. */
    Result run(long first, long count) throws SQLException {
        long start = System.nanoTime();
        Map<String, Long> bySqlState = new TreeMap<>();
        List<Failure> failures = new ArrayList<>();
        open();
        try {
            for (long index = first; index < first + count; index++) {
                String sql = SqlMutator.statement(seed, index);
                Failure failure = runOne(index, sql, bySqlState);
                if (failure != null) {
                    failures.add(failure);
                    progress.println("  FAILURE " + failure.line());
                }
                if ((index - first + 1) % 10_000 == 0) {
                    progress.println("  " + (index - first + 1) + " statements, " + failures.size() + " failures");
                }
            }
        } finally {
            close();
        }
        return new Result(seed, count, bySqlState, failures, System.nanoTime() - start);
    }

    private Failure runOne(long index, String sql, Map<String, Long> bySqlState) throws SQLException {
        Connection current = connection;
        // The rollback runs on the thread that ran the statement: a transaction's locks belong to
        // the thread that took them.
        Future<String> outcome = worker.submit(() -> {
            try {
                return execute(current, sql);
            } finally {
                rollback(current);
            }
        });
        long start = System.nanoTime();
        String sqlState;
        Throwable escaped = null;
        String message = "";
        try {
            sqlState = outcome.get(timeoutSeconds + GRACE_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException hung) {
            outcome.cancel(true);
            bySqlState.merge("hang", 1L, Long::sum);
            // The worker may never come back: leave it and its database, and go on with new ones.
            worker.shutdownNow();
            open();
            return new Failure(seed, index, "hang", "-", "still running " + (timeoutSeconds + GRACE_SECONDS)
                    + " s after it started (timeout " + timeoutSeconds + " s)", sql);
        } catch (ExecutionException e) {
            escaped = e.getCause();
            sqlState = null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted", e);
        }
        long elapsedSeconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        if (escaped instanceof SQLException failure) {
            sqlState = failure.getSQLState() == null ? "null" : failure.getSQLState();
            message = failure.getMessage() == null ? "" : failure.getMessage();
            escaped = null;
        }
        if (rollbackFailed) {
            rollbackFailed = false;
            open();
        }
        if (escaped != null) {
            bySqlState.merge("escaped", 1L, Long::sum);
            return new Failure(seed, index, "escaped", "-", escaped.toString(), sql);
        }
        bySqlState.merge(sqlState, 1L, Long::sum);
        if (sqlState.equals("XX000") || sqlState.equals("null")) {
            return new Failure(seed, index, "internal error", sqlState, message, sql);
        }
        if (sqlState.equals("42601") && (message.contains("Exception") || message.contains("out of bounds"))) {
            return new Failure(seed, index, "parser broke", sqlState, message, sql);
        }
        if (elapsedSeconds > timeoutSeconds + GRACE_SECONDS) {
            return new Failure(seed, index, "overran its timeout", sqlState, elapsedSeconds + " s", sql);
        }
        return null;
    }

    /** Runs one statement and reads its rows; its SQLSTATE, {@code 00000} if it succeeded. */
    private String execute(Connection current, String sql) throws SQLException {
        if (sql.contains("?")) {
            try (PreparedStatement prepared = current.prepareStatement(sql)) {
                prepared.setQueryTimeout(timeoutSeconds);
                prepared.setMaxRows(MAX_ROWS);
                ParameterMetaData parameters = prepared.getParameterMetaData();
                for (int parameter = 1; parameter <= parameters.getParameterCount(); parameter++) {
                    prepared.setObject(parameter, parameter % 2 == 0 ? "1" : 1);
                }
                if (prepared.execute()) {
                    drain(prepared.getResultSet());
                }
            }
        } else {
            try (Statement statement = current.createStatement()) {
                statement.setQueryTimeout(timeoutSeconds);
                statement.setMaxRows(MAX_ROWS);
                if (statement.execute(sql)) {
                    drain(statement.getResultSet());
                }
            }
        }
        return "00000";
    }

    private static void drain(ResultSet rows) throws SQLException {
        try (rows) {
            int columns = rows.getMetaData().getColumnCount();
            while (rows.next()) {
                for (int column = 1; column <= columns; column++) {
                    rows.getObject(column);
                }
            }
        }
    }

    private void rollback(Connection current) {
        try {
            current.rollback();
        } catch (SQLException e) {
            // A statement that broke the session: go on with a new database, as a user would reconnect.
            progress.println("  the session could not roll back (" + e.getSQLState() + " " + shortened(e.getMessage())
                    + "); opening a new database");
            rollbackFailed = true;
        }
    }

    private void open() throws SQLException {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException | RuntimeException e) {
                progress.println("  closing the previous database failed: " + e);
            }
        }
        worker = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "sql-fuzz");
            thread.setDaemon(true);
            return thread;
        });
        connection = DriverManager.getConnection("jdbc:columba:mem:sql-fuzz-" + seed + "-" + (databases++));
        try (Statement setup = connection.createStatement()) {
            for (String sql : FuzzCorpus.SETUP) {
                setup.execute(sql);
            }
        }
        connection.setAutoCommit(false);
    }

    private void close() throws SQLException {
        worker.shutdownNow();
        connection.close();
    }

    private static String shortened(String text) {
        String oneLine = text.replace('\n', ' ');
        return oneLine.length() <= FAILURE_TEXT_LENGTH ? oneLine : oneLine.substring(0, FAILURE_TEXT_LENGTH) + "...";
    }
}
