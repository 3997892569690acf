package dev.columba.jdbc;

import dev.columba.core.error.ErrorCode;
import dev.columba.core.settings.Setting;
import dev.columba.planner.session.Engine;
import dev.columba.planner.session.EngineMetrics;
import dev.columba.planner.session.BatchResult;
import dev.columba.planner.session.Session;
import dev.columba.planner.session.StatementResult;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.ClientInfoStatus;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Struct;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A JDBC connection: one planner {@link Session} on a shared {@link Engine}.
 *
 * <p>Threads: the session runs one statement at a time, so every use of it (executing, reading
 * rows, commit) holds the connection's {@link #lock}; only cancelling does not. Any thread may do
 * any of it, one at a time, as JDBC allows: a result opened on one thread may be read, closed or
 * moved to the heap on another (the shared holds of its query belong to the query, not to a thread).
 *
 * <p>Open results: a query's result holds shared locks on what it reads until its rows are read
 * or it is closed, and a commit on the same thread would wait for them forever. So before this
 * connection executes a statement, commits or rolls back, the unread rows of its open results move
 * to the heap and their queries finish (as SQL Server's driver buffers a pending result when the
 * application runs another statement). Results therefore also survive commit:
 * holdability is {@link ResultSet#HOLD_CURSORS_OVER_COMMIT}.
 *
 * <p>Isolation: {@link Connection#TRANSACTION_READ_COMMITTED}, the truth of the engine: each
 * statement reads every table as of one commit, writes stay private until commit, and there is one
 * writer at a time; a transaction's reads are not repeatable before its first write. READ
 * UNCOMMITTED is raised to READ COMMITTED (with a warning, as JDBC allows); REPEATABLE READ and
 * SERIALIZABLE are refused.
 */
final class EmbeddedConnection implements Connection, ColumbaConnection {
    private final String url;
    private final EngineRegistry.Lease lease;
    private final Session session;
    /** Orders every use of the session; see the class comment. */
    final Object lock = new Object();
    /** Orders cancels against the end of a statement; see {@link StatementRun}. */
    final Object cancelLock = new Object();
    /**
     * The statement inside {@link #execute} or {@link #executeBatch} now (it holds {@link #lock}), or
     * null: what {@link #rollback()} on another thread cancels before it waits for the lock.
     */
    private volatile StatementRun executing;
    /**
     * Rollbacks on other threads that have not yet taken {@link #lock}. A rollback reads
     * {@link #executing} before it waits for the lock; a statement that takes the lock after that
     * read would run to its end with the rollback waiting behind it (issue 11's revert: the test's
     * spinning rollbacks met this nearly every time). So a statement reads this count after it set
     * {@code executing}, and one rollback's increment before its read of {@code executing}: of the
     * two, at least one sees the other, and the statement is cancelled either way.
     */
    private final AtomicInteger rollbacksWaiting = new AtomicInteger();
    private final Set<EmbeddedStatement> statements = Collections.newSetFromMap(new IdentityHashMap<>());
    /**
     * Results whose queries still run, in the order they were opened: rarely more than one, so a
     * list searched by identity (result sets keep Object's equals), not an identity hash set, whose
     * table and identity hash of every new result were 4% of a point select.
     */
    private final List<EmbeddedResultSet> unfinishedResults = new ArrayList<>();
    private final Properties clientInfo = new Properties();
    private volatile boolean closed;
    private boolean readOnly;
    private SQLWarning warnings;
    private EmbeddedDatabaseMetaData metaData;

    private EmbeddedConnection(String url, EngineRegistry.Lease lease, Session session) {
        this.url = url;
        this.lease = lease;
        this.session = session;
    }

    /** Opens a connection on the engine the lease shares, with the session values the lease asks for. */
    static EmbeddedConnection open(String url, EngineRegistry.Lease lease) throws SQLException {
        Session session;
        try {
            session = lease.engine().openSession();
        } catch (RuntimeException | Error e) {
            EngineRegistry.INSTANCE.release(lease);
            throw Errors.translate(e);
        }
        EmbeddedConnection connection = new EmbeddedConnection(url, lease, session);
        try {
            for (Map.Entry<Setting<?>, String> value : lease.sessionValues().entrySet()) {
                session.execute("SET " + value.getKey().name() + " = '" + value.getValue().replace("'", "''") + "'");
            }
        } catch (RuntimeException | Error e) {
            connection.close();
            throw Errors.translate(e);
        }
        return connection;
    }

    String url() {
        return url;
    }

    Engine engine() {
        return lease.engine();
    }

    Session session() {
        return session;
    }

    void checkOpen() throws SQLException {
        if (closed) {
            throw Errors.closed("connection");
        }
    }

    // ---- statements ---------------------------------------------------------------------------

    /**
     * Runs one statement in the session, after moving the unread rows of the connection's open
     * results to the heap (see the class comment).
     */
    StatementResult execute(String sql, List<Object> parameters, StatementRun run) throws SQLException {
        synchronized (lock) {
            checkOpen();
            detachUnfinishedResults();
            executing = run;
            if (rollbacksWaiting.get() > 0) {
                run.cancelForRollback();
            }
            try {
                return session.execute(sql, parameters);
            } catch (RuntimeException | Error e) {
                throw Errors.translate(e);
            } finally {
                executing = null;
            }
        }
    }

    /** What {@code sql} returns and takes, planned without running ({@link Session#describe}). */
    Optional<Session.Description> describe(String sql) throws SQLException {
        synchronized (lock) {
            checkOpen();
            try {
                return session.describe(sql);
            } catch (RuntimeException | Error e) {
                throw Errors.translate(e);
            }
        }
    }

    /** Runs {@code sql} once per parameter set as one statement ({@link Session#executeBatch}). */
    BatchResult executeBatch(String sql, List<List<Object>> parameterSets, StatementRun run) throws SQLException {
        synchronized (lock) {
            checkOpen();
            detachUnfinishedResults();
            executing = run;
            if (rollbacksWaiting.get() > 0) {
                run.cancelForRollback();
            }
            try {
                return session.executeBatch(sql, parameterSets);
            } catch (RuntimeException | Error e) {
                throw Errors.translate(e);
            } finally {
                executing = null;
            }
        }
    }

    @Override
    public void bindMetrics(MeterRegistry registry, String name) throws SQLException {
        if (registry == null || name == null) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "bindMetrics needs a registry and a database name");
        }
        checkOpen();
        EngineMetrics.bind(session.engine(), name, registry);
    }

    @Override
    public java.util.Optional<String> loginVerifier(String name) throws SQLException {
        if (name == null) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "loginVerifier needs a login name");
        }
        synchronized (lock) {
            checkOpen();
            try {
                return session.loginVerifier(name);
            } catch (RuntimeException e) {
                throw Errors.translate(e);
            }
        }
    }

    @Override
    public void authenticatedAs(String name) throws SQLException {
        if (name == null) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "authenticatedAs needs a login name");
        }
        synchronized (lock) {
            checkOpen();
            if (session.login() != null) {
                throw Errors.of(ErrorCode.INVALID_ARGUMENT, "the connection already runs for login " + session.login());
            }
            session.authenticatedAs(name);
        }
    }

    @Override
    public int loginCount() throws SQLException {
        synchronized (lock) {
            checkOpen();
            try {
                return session.loginCount();
            } catch (RuntimeException e) {
                throw Errors.translate(e);
            }
        }
    }

    @Override
    public void setCopyProgress(java.util.function.Consumer<dev.columba.planner.copy.CopyProgress> listener)
            throws SQLException {
        if (listener == null) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "the COPY progress listener is null");
        }
        synchronized (lock) {
            checkOpen();
            session.setCopyProgress(listener);
        }
    }

    @Override
    public ColumbaAppender appender(String table) throws SQLException {
        if (table == null) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "the table to append to is null");
        }
        synchronized (lock) {
            checkOpen();
            try {
                return new EmbeddedAppender(this, table, session.insertableColumns(table));
            } catch (RuntimeException | Error e) {
                throw Errors.translate(e);
            }
        }
    }

    /** A query's result whose rows are still being read. */
    void resultOpened(EmbeddedResultSet result) {
        synchronized (lock) {
            unfinishedResults.add(result);
        }
    }

    void resultFinished(EmbeddedResultSet result) {
        synchronized (lock) {
            unfinishedResults.remove(result);
        }
    }

    private void detachUnfinishedResults() throws SQLException {
        if (unfinishedResults.isEmpty()) {
            return;
        }
        for (EmbeddedResultSet result : List.copyOf(unfinishedResults)) {
            result.detach();
        }
    }

    void statementClosed(EmbeddedStatement statement) {
        synchronized (lock) {
            statements.remove(statement);
        }
    }

    private <T extends EmbeddedStatement> T register(T statement) {
        synchronized (lock) {
            statements.add(statement);
        }
        return statement;
    }

    @Override
    public Statement createStatement() throws SQLException {
        checkOpen();
        return register(new EmbeddedStatement(this));
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency) throws SQLException {
        checkResultSetKind(resultSetType, resultSetConcurrency, ResultSet.HOLD_CURSORS_OVER_COMMIT);
        return createStatement();
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency, int resultSetHoldability)
            throws SQLException {
        checkResultSetKind(resultSetType, resultSetConcurrency, resultSetHoldability);
        return createStatement();
    }

    @Override
    public PreparedStatement prepareStatement(String sql) throws SQLException {
        checkOpen();
        return register(new EmbeddedPreparedStatement(this, sql));
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency) throws SQLException {
        checkResultSetKind(resultSetType, resultSetConcurrency, ResultSet.HOLD_CURSORS_OVER_COMMIT);
        return prepareStatement(sql);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency,
                                              int resultSetHoldability) throws SQLException {
        checkResultSetKind(resultSetType, resultSetConcurrency, resultSetHoldability);
        return prepareStatement(sql);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
        EmbeddedStatement.checkGeneratedKeysArgument(autoGeneratedKeys);
        return prepareStatement(sql);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
        return prepareStatement(sql);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
        return prepareStatement(sql);
    }

    @Override
    public CallableStatement prepareCall(String sql) throws SQLException {
        throw Errors.notSupported("CallableStatement (Columba has no stored procedures)");
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency) throws SQLException {
        throw Errors.notSupported("CallableStatement (Columba has no stored procedures)");
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency,
                                         int resultSetHoldability) throws SQLException {
        throw Errors.notSupported("CallableStatement (Columba has no stored procedures)");
    }

    private void checkResultSetKind(int type, int concurrency, int holdability) throws SQLException {
        checkOpen();
        if (type != ResultSet.TYPE_FORWARD_ONLY) {
            throw Errors.notSupported("result set type " + type + " (Columba's result sets are TYPE_FORWARD_ONLY)");
        }
        if (concurrency != ResultSet.CONCUR_READ_ONLY) {
            throw Errors.notSupported("result set concurrency " + concurrency + " (Columba's are CONCUR_READ_ONLY)");
        }
        checkHoldability(holdability);
    }

    private static void checkHoldability(int holdability) throws SQLException {
        if (holdability != ResultSet.HOLD_CURSORS_OVER_COMMIT && holdability != ResultSet.CLOSE_CURSORS_AT_COMMIT) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "unknown result set holdability " + holdability);
        }
        if (holdability == ResultSet.CLOSE_CURSORS_AT_COMMIT) {
            throw Errors.notSupported("CLOSE_CURSORS_AT_COMMIT (Columba's results survive commit)");
        }
    }

    @Override
    public String nativeSQL(String sql) throws SQLException {
        checkOpen();
        // Columba runs SQL as written: JDBC escape syntax ({fn ...}, {d '...'}) is not rewritten.
        return sql;
    }

    // ---- transactions ---------------------------------------------------------------------------

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        synchronized (lock) {
            checkOpen();
            if (autoCommit == session.autoCommit()) {
                return;
            }
            detachUnfinishedResults();
            try {
                session.setAutoCommit(autoCommit);
            } catch (RuntimeException | Error e) {
                throw Errors.translate(e);
            }
        }
    }

    @Override
    public boolean getAutoCommit() throws SQLException {
        checkOpen();
        return session.autoCommit();
    }

    @Override
    public void commit() throws SQLException {
        synchronized (lock) {
            checkExplicitTransactions("commit");
            detachUnfinishedResults();
            try {
                session.commit();
            } catch (RuntimeException | Error e) {
                throw Errors.translate(e);
            }
        }
    }

    /**
     * Rolls the transaction back. Called on another thread while a statement of this connection
     * runs, it first cancels that statement (which fails with 57014 saying the rollback stopped it),
     * then rolls back once it has stopped, the statement's changes included: a transaction manager
     * rolling back a timed-out transaction wants the work stopped, not waited for (pgJDBC issue
     * 3253 asks the same of pgJDBC; pgJDBC and H2 today wait for the statement to end).
     */
    @Override
    public void rollback() throws SQLException {
        // Counted as waiting from before it looks for the running statement until it holds the
        // lock, after which no statement runs (see rollbacksWaiting).
        boolean waiting = !Thread.holdsLock(lock);
        if (waiting) {
            rollbacksWaiting.incrementAndGet();
        }
        try {
            StatementRun running = executing;
            if (waiting && running != null) {
                running.cancelForRollback();
            }
            synchronized (lock) {
                if (waiting) {
                    rollbacksWaiting.decrementAndGet();
                    waiting = false;
                }
                checkExplicitTransactions("roll back");
                detachUnfinishedResults();
                try {
                    session.rollback();
                } catch (RuntimeException | Error e) {
                    throw Errors.translate(e);
                }
            }
        } finally {
            if (waiting) {
                rollbacksWaiting.decrementAndGet();
            }
        }
    }

    private void checkExplicitTransactions(String action) throws SQLException {
        checkOpen();
        if (session.autoCommit()) {
            throw Errors.of(ErrorCode.TRANSACTION_STATE, "cannot " + action + " in autocommit mode: each statement"
                    + " commits by itself (call setAutoCommit(false) first)");
        }
    }

    @Override
    public void setTransactionIsolation(int level) throws SQLException {
        checkOpen();
        switch (level) {
            case TRANSACTION_READ_COMMITTED -> {
            }
            case TRANSACTION_READ_UNCOMMITTED -> addWarning(new SQLWarning("READ UNCOMMITTED is raised to READ COMMITTED:"
                    + " Columba statements never see uncommitted changes of other transactions", "01000"));
            case TRANSACTION_REPEATABLE_READ, TRANSACTION_SERIALIZABLE -> throw Errors.notSupported("isolation level "
                    + (level == TRANSACTION_SERIALIZABLE ? "SERIALIZABLE" : "REPEATABLE READ") + " (Columba reads each"
                    + " statement as of one commit: READ COMMITTED)");
            default -> throw Errors.of(ErrorCode.INVALID_ARGUMENT, "unknown transaction isolation level " + level);
        }
    }

    @Override
    public int getTransactionIsolation() throws SQLException {
        checkOpen();
        return TRANSACTION_READ_COMMITTED;
    }

    @Override
    public Savepoint setSavepoint() throws SQLException {
        throw Errors.notSupported("savepoints");
    }

    @Override
    public Savepoint setSavepoint(String name) throws SQLException {
        throw Errors.notSupported("savepoints");
    }

    @Override
    public void rollback(Savepoint savepoint) throws SQLException {
        throw Errors.notSupported("savepoints");
    }

    @Override
    public void releaseSavepoint(Savepoint savepoint) throws SQLException {
        throw Errors.notSupported("savepoints");
    }

    @Override
    public void setHoldability(int holdability) throws SQLException {
        checkOpen();
        checkHoldability(holdability);
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    // ---- state ----------------------------------------------------------------------------------

    @Override
    public DatabaseMetaData getMetaData() throws SQLException {
        checkOpen();
        synchronized (lock) {
            if (metaData == null) {
                metaData = new EmbeddedDatabaseMetaData(this);
            }
            return metaData;
        }
    }

    /** A hint, as JDBC defines it: Columba records it but does not refuse writes because of it. */
    @Override
    public void setReadOnly(boolean readOnly) throws SQLException {
        checkOpen();
        this.readOnly = readOnly;
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        checkOpen();
        return readOnly;
    }

    /** Columba has no catalogs; JDBC asks a driver without them to ignore this. */
    @Override
    public void setCatalog(String catalog) throws SQLException {
        checkOpen();
    }

    @Override
    public String getCatalog() throws SQLException {
        checkOpen();
        return null;
    }

    /** User tables live in one unnamed namespace (system views in {@code sys}); there is no current schema to set. */
    @Override
    public void setSchema(String schema) throws SQLException {
        checkOpen();
    }

    @Override
    public String getSchema() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        synchronized (lock) {
            return warnings;
        }
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
        synchronized (lock) {
            warnings = null;
        }
    }

    private void addWarning(SQLWarning warning) {
        synchronized (lock) {
            if (warnings == null) {
                warnings = warning;
            } else {
                warnings.setNextWarning(warning);
            }
        }
    }

    @Override
    public Map<String, Class<?>> getTypeMap() throws SQLException {
        checkOpen();
        return Map.of();
    }

    @Override
    public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
        throw Errors.notSupported("type maps (Columba has no user-defined types)");
    }

    @Override
    public Clob createClob() throws SQLException {
        throw Errors.notSupported("Clob values");
    }

    @Override
    public Blob createBlob() throws SQLException {
        throw Errors.notSupported("Blob values");
    }

    @Override
    public NClob createNClob() throws SQLException {
        throw Errors.notSupported("NClob values");
    }

    @Override
    public SQLXML createSQLXML() throws SQLException {
        throw Errors.notSupported("SQLXML values");
    }

    @Override
    public Array createArrayOf(String typeName, Object[] elements) throws SQLException {
        throw Errors.notSupported("array values");
    }

    @Override
    public Struct createStruct(String typeName, Object[] attributes) throws SQLException {
        throw Errors.notSupported("structured values");
    }

    /** Open and not closed: an embedded engine has no link to lose. */
    @Override
    public boolean isValid(int timeout) throws SQLException {
        if (timeout < 0) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "isValid needs a timeout of 0 or more seconds, got " + timeout);
        }
        return !closed;
    }

    @Override
    public void setClientInfo(String name, String value) throws SQLClientInfoException {
        if (closed) {
            throw new SQLClientInfoException("the connection is closed", "08003", Map.of(name, ClientInfoStatus.REASON_UNKNOWN));
        }
        synchronized (clientInfo) {
            if (value == null) {
                clientInfo.remove(name);
            } else {
                clientInfo.setProperty(name, value);
            }
        }
    }

    @Override
    public void setClientInfo(Properties properties) throws SQLClientInfoException {
        if (closed) {
            throw new SQLClientInfoException("the connection is closed", "08003", Map.of());
        }
        synchronized (clientInfo) {
            clientInfo.clear();
            clientInfo.putAll(properties);
        }
    }

    @Override
    public String getClientInfo(String name) throws SQLException {
        checkOpen();
        synchronized (clientInfo) {
            return clientInfo.getProperty(name);
        }
    }

    @Override
    public Properties getClientInfo() throws SQLException {
        checkOpen();
        synchronized (clientInfo) {
            Properties copy = new Properties();
            copy.putAll(clientInfo);
            return copy;
        }
    }

    /** There is no network: accepted and without effect. */
    @Override
    public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
        checkOpen();
        if (milliseconds < 0) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "network timeout must be 0 or more milliseconds, got " + milliseconds);
        }
    }

    @Override
    public int getNetworkTimeout() throws SQLException {
        checkOpen();
        return 0;
    }

    // ---- closing --------------------------------------------------------------------------------

    @Override
    public boolean isClosed() {
        return closed;
    }

    /**
     * Stops a statement another thread runs, closes the statements, rolls back an open transaction
     * (as the session does on close) and gives the engine back: the last connection to a database
     * closes it.
     */
    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        session.cancel();
        SQLException failure = null;
        synchronized (lock) {
            if (closed) {
                return;
            }
            for (EmbeddedStatement statement : new ArrayList<>(statements)) {
                try {
                    statement.close();
                } catch (SQLException e) {
                    failure = chain(failure, e);
                }
            }
            closed = true;
            try {
                session.close();
            } catch (RuntimeException | Error e) {
                failure = chain(failure, Errors.translate(e));
            }
        }
        try {
            EngineRegistry.INSTANCE.release(lease);
        } catch (SQLException e) {
            failure = chain(failure, e);
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static SQLException chain(SQLException first, SQLException next) {
        if (first == null) {
            return next;
        }
        first.setNextException(next);
        return first;
    }

    /** Stops the running statement at once and closes the connection through {@code executor}. */
    @Override
    public void abort(Executor executor) throws SQLException {
        if (executor == null) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "abort needs an executor");
        }
        if (closed) {
            return;
        }
        session.cancel();
        executor.execute(() -> {
            try {
                close();
            } catch (SQLException ignored) {
                // Abort promises only that the connection ends; a failure closing it has no one to go to.
            }
        });
    }

    // ---- wrapping -------------------------------------------------------------------------------

    /** Unwraps to the planner's {@link Session} or {@link Engine} for typed access to what JDBC does not say. */
    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        if (type == Session.class) {
            return type.cast(session);
        }
        if (type == Engine.class) {
            return type.cast(lease.engine());
        }
        throw Errors.of(ErrorCode.INVALID_ARGUMENT, "a Columba connection does not wrap a " + type.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return type.isInstance(this) || type == Session.class || type == Engine.class;
    }
}
