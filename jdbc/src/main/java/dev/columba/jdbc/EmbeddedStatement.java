package dev.columba.jdbc;

import dev.columba.core.context.GeneratedKeys;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.planner.session.BatchResult;
import dev.columba.planner.session.StatementResult;
import dev.columba.planner.session.StatementStatistics;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * A statement: runs SQL in its connection's session and holds the current result (a result set or
 * an update count), the messages of the last execution as a SQLWarning chain, and its typed
 * statistics ({@link ColumbaStatement}). Executing again closes the previous result set.
 *
 * <p>Messages arrive when the statement finished: at once for updates, DDL and session commands;
 * for a query when its result set reached its end, was closed or was buffered.
 */
class EmbeddedStatement implements Statement, ColumbaStatement {
    /** SQLSTATE of executeQuery on a statement that produced no rows (as PostgreSQL's driver reports it). */
    private static final String NO_RESULT_STATE = "02000";
    /** SQLSTATE of executeUpdate on a statement that produced rows (as PostgreSQL's driver reports it). */
    private static final String UNEXPECTED_RESULT_STATE = "0100E";

    final EmbeddedConnection connection;
    private final List<String> batch = new ArrayList<>();
    private boolean closed;
    private boolean closeOnCompletion;
    private long maxRows;
    private int maxFieldSize;
    private int queryTimeoutSeconds;
    private int fetchSize;
    private EmbeddedResultSet resultSet;
    private long updateCount = -1;
    /** The identity values the last statement's inserts handed out ({@link #getGeneratedKeys}). */
    private List<GeneratedKeys> generatedKeys = List.of();
    private volatile StatementRun currentRun;
    private SQLWarning warnings;
    private List<String> messages = List.of();
    /**
     * The last statement's statistics, made when asked for: a query's result makes them from its
     * counters on first request, which most statements never see.
     */
    private Supplier<StatementStatistics> statistics = NO_STATISTICS;

    private static final Supplier<StatementStatistics> NO_STATISTICS = () -> StatementStatistics.NONE;

    EmbeddedStatement(EmbeddedConnection connection) {
        this.connection = connection;
    }

    void checkOpen() throws SQLException {
        if (closed) {
            throw Errors.closed("statement");
        }
        connection.checkOpen();
    }

    // ---- executing ------------------------------------------------------------------------------

    /** Closes the previous result, clears what it left (warnings, messages, statistics, count) and starts a run. */
    private StatementRun startRun() throws SQLException {
        closeCurrentResult();
        synchronized (connection.lock) {
            warnings = null;
            messages = List.of();
            statistics = NO_STATISTICS;
            updateCount = -1;
            generatedKeys = List.of();
        }
        StatementRun started = new StatementRun(connection.session(), connection.cancelLock, queryTimeoutSeconds);
        currentRun = started;
        return started;
    }

    /** Runs {@code sql} with {@code parameters}; true if it produced rows (then {@link #getResultSet()} has them). */
    boolean executeStatement(String sql, List<Object> parameters) throws SQLException {
        checkOpen();
        if (sql == null) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "the SQL to execute is null");
        }
        StatementRun started = startRun();
        StatementResult result;
        try {
            result = connection.execute(sql, parameters, started);
        } catch (SQLException e) {
            started.finish();
            throw started.failure(e);
        }
        switch (result) {
            case StatementResult.Rows rows -> {
                started.executionStarted();
                EmbeddedResultSet opened = new EmbeddedResultSet(this, connection.lock, new RowSource.Batches(rows), started,
                        maxRows, maxFieldSize);
                synchronized (connection.lock) {
                    resultSet = opened;
                }
                connection.resultOpened(opened);
                return true;
            }
            case StatementResult.Update update -> {
                started.finish();
                finished(update.messages(), update::statistics);
                synchronized (connection.lock) {
                    updateCount = update.count();
                    generatedKeys = update.generatedKeys();
                }
                return false;
            }
            case StatementResult.Command command -> {
                started.finish();
                finished(command.messages(), command::statistics);
                synchronized (connection.lock) {
                    updateCount = 0;
                }
                return false;
            }
        }
    }

    /**
     * Runs {@code sql} once per parameter set as one statement of the session; the counts of the
     * sets. The messages and statistics are the batch's.
     */
    long[] executeBatchStatement(String sql, List<List<Object>> parameterSets) throws SQLException {
        checkOpen();
        StatementRun started = startRun();
        BatchResult result;
        try {
            result = connection.executeBatch(sql, parameterSets, started);
        } catch (SQLException e) {
            throw started.failure(e);
        } finally {
            started.finish();
        }
        finished(result.messages(), result::statistics);
        synchronized (connection.lock) {
            generatedKeys = result.generatedKeys();
        }
        return result.counts();
    }

    /** The statement's execution is over: its messages become warnings, its statistics readable. */
    void finished(List<String> finishedMessages, Supplier<StatementStatistics> finishedStatistics) {
        synchronized (connection.lock) {
            messages = finishedMessages;
            statistics = finishedStatistics;
            SQLWarning chain = warningsOf(finishedMessages);
            if (warnings == null) {
                warnings = chain;
            } else if (chain != null) {
                warnings.setNextWarning(chain);
            }
        }
    }

    /** The messages as a chain of SQLWarnings (SQLSTATE 01000), in order; null without messages. */
    static SQLWarning warningsOf(List<String> messages) {
        SQLWarning first = null;
        for (String message : messages) {
            SQLWarning warning = new SQLWarning(message, "01000", 0);
            if (first == null) {
                first = warning;
            } else {
                first.setNextWarning(warning);
            }
        }
        return first;
    }

    /** The result set closed: a statement that closes on completion closes now. */
    void resultSetClosed(EmbeddedResultSet closedResult) throws SQLException {
        boolean closeNow;
        synchronized (connection.lock) {
            if (resultSet == closedResult) {
                resultSet = null;
            }
            closeNow = closeOnCompletion && resultSet == null;
        }
        if (closeNow) {
            close();
        }
    }

    private void closeCurrentResult() throws SQLException {
        EmbeddedResultSet current;
        synchronized (connection.lock) {
            current = resultSet;
            resultSet = null;
        }
        if (current != null) {
            current.closeForStatement();
        }
    }

    @Override
    public boolean execute(String sql) throws SQLException {
        return executeStatement(sql, List.of());
    }

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        return query(executeStatement(sql, List.of()));
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        return clampToInt(update(executeStatement(sql, List.of())));
    }

    @Override
    public long executeLargeUpdate(String sql) throws SQLException {
        return update(executeStatement(sql, List.of()));
    }

    /** The rows of a statement executeQuery ran, which must have produced them. */
    ResultSet query(boolean producedRows) throws SQLException {
        if (!producedRows) {
            throw new SQLException("the statement produced no rows: run it with executeUpdate or execute",
                    NO_RESULT_STATE);
        }
        return resultSet;
    }

    /** The count of a statement executeUpdate ran, which must not have produced rows. */
    long update(boolean producedRows) throws SQLException {
        if (producedRows) {
            closeCurrentResult();
            throw new SQLException("the statement produced rows: run it with executeQuery or execute",
                    UNEXPECTED_RESULT_STATE);
        }
        return updateCount;
    }

    static int clampToInt(long count) {
        return (int) Math.min(count, Integer.MAX_VALUE);
    }

    @Override
    public boolean execute(String sql, int autoGeneratedKeys) throws SQLException {
        checkGeneratedKeysArgument(autoGeneratedKeys);
        return execute(sql);
    }

    @Override
    public boolean execute(String sql, int[] columnIndexes) throws SQLException {
        return execute(sql);
    }

    @Override
    public boolean execute(String sql, String[] columnNames) throws SQLException {
        return execute(sql);
    }

    @Override
    public int executeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        checkGeneratedKeysArgument(autoGeneratedKeys);
        return executeUpdate(sql);
    }

    @Override
    public int executeUpdate(String sql, int[] columnIndexes) throws SQLException {
        return executeUpdate(sql);
    }

    @Override
    public int executeUpdate(String sql, String[] columnNames) throws SQLException {
        return executeUpdate(sql);
    }

    @Override
    public long executeLargeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        checkGeneratedKeysArgument(autoGeneratedKeys);
        return executeLargeUpdate(sql);
    }

    @Override
    public long executeLargeUpdate(String sql, int[] columnIndexes) throws SQLException {
        return executeLargeUpdate(sql);
    }

    @Override
    public long executeLargeUpdate(String sql, String[] columnNames) throws SQLException {
        return executeLargeUpdate(sql);
    }

    /**
     * Checks an {@code autoGeneratedKeys} argument. Either value runs the statement the same way:
     * {@link #getGeneratedKeys} answers with the identity values an INSERT handed out whether they
     * were asked for or not, as JDBC allows.
     */
    static void checkGeneratedKeysArgument(int autoGeneratedKeys) throws SQLException {
        if (autoGeneratedKeys != NO_GENERATED_KEYS && autoGeneratedKeys != RETURN_GENERATED_KEYS) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "unknown autoGeneratedKeys value " + autoGeneratedKeys);
        }
    }

    /**
     * The identity values the last INSERT of this statement handed out, one row each, in one column
     * named as the table's identity column (INT or BIGINT); after {@code executeBatch}, those of
     * every INSERT of the batch in the order they ran. Empty for any other statement or a table
     * without an identity column. A batch whose inserts went to identity columns of different
     * names or types gives them in one column named as the first, BIGINT if any of them is.
     */
    @Override
    public ResultSet getGeneratedKeys() throws SQLException {
        checkOpen();
        List<GeneratedKeys> keys;
        synchronized (connection.lock) {
            keys = generatedKeys;
        }
        if (keys.isEmpty()) {
            return EmbeddedResultSet.ofRows(null, new TableSchema(List.of(Column.nullable("GENERATED_KEY", SqlType.BIGINT))),
                    List.of());
        }
        boolean bigint = keys.stream().anyMatch(GeneratedKeys::bigint);
        List<Object[]> rows = new ArrayList<>();
        for (GeneratedKeys run : keys) {
            for (long index = 0; index < run.count(); index++) {
                Object value = run.value(index);
                rows.add(new Object[] {bigint ? (Object) ((Number) value).longValue() : value});
            }
        }
        return EmbeddedResultSet.ofRows(null, new TableSchema(List.of(Column.notNull(keys.getFirst().column(),
                bigint ? SqlType.BIGINT : SqlType.INT))), rows);
    }

    // ---- batches --------------------------------------------------------------------------------

    @Override
    public void addBatch(String sql) throws SQLException {
        checkOpen();
        if (sql == null) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "the SQL to add to the batch is null");
        }
        batch.add(sql);
    }

    @Override
    public void clearBatch() throws SQLException {
        checkOpen();
        batch.clear();
    }

    @Override
    public int[] executeBatch() throws SQLException {
        long[] counts = executeLargeBatch();
        int[] narrowed = new int[counts.length];
        for (int index = 0; index < counts.length; index++) {
            narrowed[index] = clampToInt(counts[index]);
        }
        return narrowed;
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        checkOpen();
        List<String> statements = List.copyOf(batch);
        batch.clear();
        long[] counts = new long[statements.size()];
        // Each statement's run clears the last one's keys: the batch's are gathered here.
        List<GeneratedKeys> keys = new ArrayList<>();
        try {
            for (int index = 0; index < statements.size(); index++) {
                try {
                    counts[index] = batchUpdate(executeStatement(statements.get(index), List.of()));
                } catch (SQLException e) {
                    throw batchFailure(Arrays.copyOf(counts, index), e);
                }
                synchronized (connection.lock) {
                    keys.addAll(generatedKeys);
                }
            }
        } finally {
            // Also after a failure: the statements before it ran (and committed, in autocommit).
            synchronized (connection.lock) {
                generatedKeys = List.copyOf(keys);
            }
        }
        return counts;
    }

    /** One statement of a batch: it must produce an update count, not rows. */
    long batchUpdate(boolean producedRows) throws SQLException {
        if (producedRows) {
            closeCurrentResult();
            throw new SQLException("a statement of a batch produced rows; batches hold updates, DDL and commands",
                    UNEXPECTED_RESULT_STATE);
        }
        return updateCount;
    }

    static BatchUpdateException batchFailure(long[] countsSoFar, SQLException cause) {
        return new BatchUpdateException(cause.getMessage(), cause.getSQLState(), cause.getErrorCode(), countsSoFar, cause);
    }

    // ---- results --------------------------------------------------------------------------------

    @Override
    public ResultSet getResultSet() throws SQLException {
        checkOpen();
        synchronized (connection.lock) {
            return resultSet;
        }
    }

    @Override
    public int getUpdateCount() throws SQLException {
        return clampToInt(getLargeUpdateCount());
    }

    @Override
    public long getLargeUpdateCount() throws SQLException {
        checkOpen();
        synchronized (connection.lock) {
            return resultSet != null ? -1 : updateCount;
        }
    }

    /** Every statement has one result: this closes it and says there are no more. */
    @Override
    public boolean getMoreResults() throws SQLException {
        return getMoreResults(CLOSE_CURRENT_RESULT);
    }

    @Override
    public boolean getMoreResults(int current) throws SQLException {
        checkOpen();
        switch (current) {
            case CLOSE_CURRENT_RESULT, CLOSE_ALL_RESULTS -> closeCurrentResult();
            case KEEP_CURRENT_RESULT -> {
                synchronized (connection.lock) {
                    resultSet = null;
                }
            }
            default -> throw Errors.of(ErrorCode.INVALID_ARGUMENT, "unknown getMoreResults mode " + current);
        }
        synchronized (connection.lock) {
            updateCount = -1;
        }
        return false;
    }

    @Override
    public int getResultSetConcurrency() throws SQLException {
        checkOpen();
        return ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public int getResultSetType() throws SQLException {
        checkOpen();
        return ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public int getResultSetHoldability() throws SQLException {
        checkOpen();
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        synchronized (connection.lock) {
            return warnings;
        }
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
        synchronized (connection.lock) {
            warnings = null;
        }
    }

    @Override
    public StatementStatistics statistics() throws SQLException {
        checkOpen();
        synchronized (connection.lock) {
            return statistics.get();
        }
    }

    @Override
    public List<String> messages() throws SQLException {
        checkOpen();
        synchronized (connection.lock) {
            return messages;
        }
    }

    // ---- limits and hints -----------------------------------------------------------------------

    @Override
    public int getMaxFieldSize() throws SQLException {
        checkOpen();
        return maxFieldSize;
    }

    /** Character values longer than this many characters are cut short when read (0: no limit). */
    @Override
    public void setMaxFieldSize(int max) throws SQLException {
        checkOpen();
        if (max < 0) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "max field size must be 0 or more, got " + max);
        }
        maxFieldSize = max;
    }

    @Override
    public int getMaxRows() throws SQLException {
        return clampToInt(getLargeMaxRows());
    }

    @Override
    public void setMaxRows(int max) throws SQLException {
        setLargeMaxRows(max);
    }

    @Override
    public long getLargeMaxRows() throws SQLException {
        checkOpen();
        return maxRows;
    }

    /** Result sets stop after this many rows, and their query finishes there (0: no limit). */
    @Override
    public void setLargeMaxRows(long max) throws SQLException {
        checkOpen();
        if (max < 0) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "max rows must be 0 or more, got " + max);
        }
        maxRows = max;
    }

    @Override
    public int getQueryTimeout() throws SQLException {
        checkOpen();
        return queryTimeoutSeconds;
    }

    /**
     * Statements running longer than this many seconds (a query: until its rows were read) are
     * cancelled and fail with SQLTimeoutException (SQLSTATE 57014); 0 means no limit.
     */
    @Override
    public void setQueryTimeout(int seconds) throws SQLException {
        checkOpen();
        if (seconds < 0) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "query timeout must be 0 or more seconds, got " + seconds);
        }
        queryTimeoutSeconds = seconds;
    }

    /** Stops the statement running now, from any thread; it fails with SQLSTATE 57014. */
    @Override
    public void cancel() throws SQLException {
        checkOpen();
        StatementRun current = currentRun;
        if (current != null) {
            current.cancel(false);
        }
    }

    /** Columba runs SQL as written; JDBC escapes are not rewritten, whatever this says. */
    @Override
    public void setEscapeProcessing(boolean enable) throws SQLException {
        checkOpen();
    }

    @Override
    public void setCursorName(String name) throws SQLException {
        throw Errors.notSupported("named cursors (positioned UPDATE and DELETE)");
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != ResultSet.FETCH_FORWARD) {
            throw Errors.notSupported("fetch direction " + direction + " (Columba's result sets are forward-only)");
        }
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return ResultSet.FETCH_FORWARD;
    }

    /** A hint Columba does not need: rows arrive a batch at a time (the session's batch_size). */
    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "fetch size must be 0 or more, got " + rows);
        }
        fetchSize = rows;
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return fetchSize;
    }

    @Override
    public void setPoolable(boolean poolable) throws SQLException {
        checkOpen();
    }

    @Override
    public boolean isPoolable() throws SQLException {
        checkOpen();
        return false;
    }

    @Override
    public void closeOnCompletion() throws SQLException {
        checkOpen();
        closeOnCompletion = true;
    }

    @Override
    public boolean isCloseOnCompletion() throws SQLException {
        checkOpen();
        return closeOnCompletion;
    }

    @Override
    public Connection getConnection() throws SQLException {
        checkOpen();
        return connection;
    }

    // ---- closing --------------------------------------------------------------------------------

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            closeCurrentResult();
        } finally {
            connection.statementClosed(this);
        }
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        throw Errors.of(ErrorCode.INVALID_ARGUMENT, "a Columba statement does not wrap a " + type.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return type.isInstance(this);
    }
}
