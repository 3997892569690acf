package dev.columba.planner.session;

import dev.columba.core.context.QueryContext;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.exec.ExecutionContext;
import dev.columba.core.exec.Operator;
import dev.columba.core.exec.ReusableBatches;
import dev.columba.core.expr.EvaluationContext;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.settings.CommitDurability;
import dev.columba.core.settings.Setting;
import dev.columba.core.settings.SettingValues;
import dev.columba.core.settings.StandardSettings;
import dev.columba.core.settings.TraceFlags;
import dev.columba.core.stats.IoStats;
import dev.columba.core.type.SqlType;
import dev.columba.planner.parser.ColumbaSqlParser;
import dev.columba.planner.parser.SqlCheckpoint;
import dev.columba.planner.parser.SqlCreateTable;
import dev.columba.planner.parser.SqlDbcc;
import dev.columba.planner.parser.SqlExecuteProcedure;
import dev.columba.planner.parser.SqlPrint;
import dev.columba.planner.parser.SqlSetStatistics;
import dev.columba.planner.parser.SqlQueryHint;
import dev.columba.planner.parser.SqlQueryOption;
import dev.columba.planner.plan.PointLookup;
import dev.columba.planner.plan.PreparedStatementPlan;
import dev.columba.planner.plan.QueryPlanner;
import dev.columba.planner.plan.StatementEnvironment;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.db.Database;
import dev.columba.storage.txn.ObjectLocks;
import dev.columba.storage.txn.Transaction;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSetOption;
import org.apache.calcite.util.NlsString;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.util.CancelFlag;

/**
 * A connection's state and the statement loop: settings (session values over the engine's global
 * ones), STATISTICS IO / TIME, trace flags, and the transaction. Statements run one at a time on the
 * caller's thread; a session is not shared between threads (its {@link #cancel()} excepted).
 *
 * <p>Transactions: in autocommit mode (the default) every statement that writes runs in its own
 * write transaction, committed when it ends. Otherwise the first writing statement begins one,
 * which {@link #commit()} or {@link #rollback()} ends; reads then go through it and see its changes.
 * Reads outside a transaction take the tables they read shared for the statement's duration, so
 * they see each table as of one commit (see {@code ObjectLocks}). A commit is as durable as the
 * session's {@code delayed_durability} setting says when it ends (full by default; delayed commits
 * return before the log is synced, docs/design/storage.md, "Delayed durability").
 */
public final class Session implements AutoCloseable {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Engine engine;
    private final Map<Setting<?>, String> sessionValues = new LinkedHashMap<>();
    private final DdlExecutor ddl;
    private boolean statisticsIo;
    private boolean statisticsTime;
    private boolean autoCommit = true;
    private Transaction transaction;
    private volatile ExecutionContext running;
    /**
     * Cancels the statement being parsed or planned now: {@link #cancel()} sets it, the parser and
     * the planner check it. A new one for each statement, so that a cancel meant for one never
     * reaches the next.
     */
    private volatile CancelFlag compiling = new CancelFlag(new AtomicBoolean());
    /**
     * Whether {@link #beginStatement} made {@link #compiling} for the statement about to start, which
     * must then keep it (with any cancel it already holds). Read and written only by the thread that
     * runs the session's statements.
     */
    private boolean compilingAnnounced;
    private java.util.function.Consumer<dev.columba.planner.copy.CopyProgress> copyProgress = progress -> { };
    private boolean closed;
    /** Whether the open transaction ran DDL: until it ends, this session's schema is not the committed one. */
    private boolean transactionHasDdl;
    /** {@link #settings()} as last computed, and the global values it was computed from. */
    private SettingValues settings;
    private SettingValues settingsFromGlobals;
    /** The values of the settings that change plans, as of {@link #settings}: part of a plan's cache key. */
    private List<String> planSettings;
    /** The key {@link #planKey} made last. */
    private PlanCache.Key lastKey;
    /** {@code direct_lookups} of {@link #settings}, read when they are computed (once per SET, not per statement). */
    private boolean directLookups;
    /**
     * Small output batches of scans kept from one statement to the next (a point select's one row
     * allocates no vector when it runs again), in an allocator of the session's; freed at close.
     */
    private final ReusableBatches reusableBatches;
    /** The empty allocator of the last statement, which the next one takes (see {@link #statementAllocator}). */
    private final KeptAllocator keptAllocator;
    /** The text last normalized for the plan cache (compared by identity), and its normal form. */
    private String lastText;
    private String lastNormalized;

    /** The login the wire server authenticated this session as; null: the database's owner (embedded use). */
    private volatile String login;

    Session(Engine engine) {
        this.engine = engine;
        this.ddl = new DdlExecutor(this);
        this.reusableBatches = engine.reusableBatches();
        this.keptAllocator = engine.keptAllocator();
    }

    public Engine engine() {
        return engine;
    }

    /**
     * Marks this session as run for {@code login}, whom the wire server authenticated: from now on it may do
     * what that login may (managing logins takes sysadmin), checked against the catalog at each statement. A
     * session not so marked is the database's owner's (an embedded connection opened the files). Once only.
     */
    public void authenticatedAs(String login) {
        java.util.Objects.requireNonNull(login, "login");
        if (this.login != null) {
            throw new IllegalStateException("session already runs for login " + this.login);
        }
        this.login = login;
    }

    /** The login this session runs for, or null for the database's owner. */
    public String login() {
        return login;
    }

    /** The allocator this session keeps for its next statement, still kept; null if none (for tests). */
    BufferAllocator keptStatementAllocator() {
        return keptAllocator.peek();
    }

    /** The output batches this session keeps between statements (for tests). */
    ReusableBatches reusableBatches() {
        return reusableBatches;
    }

    Database database() {
        return engine.database();
    }

    /**
     * The settings a statement started now would run with: computed again only after a SET in this
     * session or a change of the global values.
     */
    public SettingValues settings() {
        SettingValues globals = engine.globalSettings();
        if (settings == null || settingsFromGlobals != globals) {
            SettingValues values = globals.child();
            for (Map.Entry<Setting<?>, String> entry : sessionValues.entrySet()) {
                values = values.withSessionValue(entry.getKey(), entry.getValue());
            }
            settings = values;
            settingsFromGlobals = globals;
            List<String> planValues = new ArrayList<>(QueryPlanner.PLAN_SETTINGS.size());
            for (Setting<?> setting : QueryPlanner.PLAN_SETTINGS) {
                planValues.add(String.valueOf(values.get(setting)));
            }
            planSettings = List.copyOf(planValues);
            directLookups = values.get(StandardSettings.DIRECT_LOOKUPS);
        }
        return settings;
    }

    private void sessionValuesChanged() {
        settings = null;
    }

    /**
     * Receives a running {@code COPY ... FROM} a CSV file's progress every million rows (rows, bytes
     * read, the file's size), on the thread running the COPY; a shell prints it. Replaces the
     * previous listener.
     */
    public void setCopyProgress(java.util.function.Consumer<dev.columba.planner.copy.CopyProgress> listener) {
        this.copyProgress = java.util.Objects.requireNonNull(listener, "listener");
    }

    public boolean statisticsIo() {
        return statisticsIo;
    }

    public boolean statisticsTime() {
        return statisticsTime;
    }

    // ---- transactions -------------------------------------------------------------------------

    public boolean autoCommit() {
        return autoCommit;
    }

    /** Switching autocommit on commits an open transaction, as JDBC asks. */
    public void setAutoCommit(boolean enabled) {
        checkOpen();
        if (enabled && !autoCommit) {
            commit();
        }
        autoCommit = enabled;
    }

    /** Commits the open transaction, if any. */
    public void commit() {
        checkOpen();
        if (transaction != null) {
            Transaction ending = transaction;
            transaction = null;
            try {
                ending.commit(transactionHasDdl ? CommitDurability.FULL : commitDurability());
                wakeTupleMoverFor(ending);
            } finally {
                transactionEnded();
            }
        }
    }

    /** After the open transaction ended: its DDL, if any, is now everyone's schema, or undone. */
    private void transactionEnded() {
        if (transactionHasDdl) {
            transactionHasDdl = false;
            engine.schemaChanged();
        }
    }

    /** After DDL ran (or failed): committed now in autocommit mode, else when the transaction ends. */
    private void schemaChanged() {
        if (transaction != null) {
            transactionHasDdl = true;
        } else {
            engine.schemaChanged();
        }
    }

    /** Rolls the open transaction back, if any. */
    public void rollback() {
        checkOpen();
        if (transaction != null) {
            Transaction ending = transaction;
            transaction = null;
            try {
                ending.rollback();
            } finally {
                transactionEnded();
            }
        }
    }

    /** Whether a transaction is open (after a write with autocommit off). */
    public boolean inTransaction() {
        return transaction != null;
    }

    /** The write transaction a writing statement runs in: the open one, or a new one. */
    /** What the session reads through: its open transaction's pages, or the buffer pool. */
    PageReader reader() {
        return transaction != null ? transaction.writes() : database().bufferPool();
    }

    Transaction writeTransaction() {
        if (transaction != null) {
            return transaction;
        }
        Transaction begun = database().begin();
        if (!autoCommit) {
            transaction = begun;
        }
        return begun;
    }

    /**
     * How a transaction without DDL commits: as the session's {@code delayed_durability} says. DDL always
     * commits with full durability: files are deleted after a DDL commit (a dropped table's, a
     * rebuilt columnstore's), which must not outlive a commit a crash could still take back.
     */
    private CommitDurability commitDurability() {
        return settings().get(StandardSettings.DELAYED_DURABILITY) ? CommitDurability.DELAYED : CommitDurability.FULL;
    }

    /** Ends a statement's write transaction: commits it in autocommit mode, or on failure rolls it back. */
    void finishWrite(Transaction used, boolean succeeded) {
        finishWrite(used, succeeded, commitDurability());
    }

    /** Ends a DDL statement's write transaction, as {@link #finishWrite(Transaction, boolean)} with full durability. */
    void finishDdl(Transaction used, boolean succeeded) {
        finishWrite(used, succeeded, CommitDurability.FULL);
    }

    private void finishWrite(Transaction used, boolean succeeded, CommitDurability durability) {
        if (used == transaction) {
            if (!succeeded) {
                // A failed statement inside an explicit transaction rolls the whole transaction back:
                // its private pages may be half changed.
                transaction = null;
                try {
                    used.rollback();
                } finally {
                    transactionEnded();
                }
            }
            return;
        }
        if (succeeded) {
            used.commit(durability);
            database().checkpointIfDue();
            wakeTupleMoverFor(used);
        } else {
            used.rollback();
        }
    }

    /**
     * Wakes the tuple mover after a commit that closed a delta rowgroup, and only then: a round
     * reads the whole catalog and every columnstore table's rowgroup directory, work a commit
     * that closed none (every other insert, update or delete, rowstore ones included) made for it
     * in another thread. Rowgroups closed otherwise wait for its periodic round.
     */
    private void wakeTupleMoverFor(Transaction committed) {
        if (committed.closedDeltaRowgroup() && engine.tupleMover() != null) {
            engine.tupleMover().wake();
        }
    }

    // ---- statements ---------------------------------------------------------------------------

    /** Executes one statement without parameters. */
    public StatementResult execute(String sql) {
        return execute(sql, List.of());
    }

    /**
     * Executes one statement.
     *
     * @param parameters values of the statement's {@code ?} markers, in their Java representation
     * @throws ColumbaException with the error's code (SQLSTATE) and a message naming the problem
     */
    public StatementResult execute(String sql, List<Object> parameters) {
        return counted(() -> executeText(sql, parameters));
    }

    /**
     * Runs one statement's work, counting it in the engine's {@link StatementCounters}: executed,
     * and failed if it throws (an error while a query's rows are read later is not counted).
     */
    private <T> T counted(java.util.function.Supplier<T> statement) {
        StatementCounters counters = engine.statementCounters();
        counters.countExecuted();
        try {
            return statement.get();
        } catch (RuntimeException | Error e) {
            counters.countFailed();
            throw e;
        }
    }

    private StatementResult executeText(String sql, List<Object> parameters) {
        checkOpen();
        startCompiling();
        long start = System.nanoTime();
        // The thread's CPU clock is read only once a lookup missed (a system call, worth avoiding
        // on the hit path): the compile CPU time leaves out the microseconds of the lookup.
        if (parameters.isEmpty() && planCacheUsable()) {
            Optional<SimpleParameterization.Parameterized> parameterized = SimpleParameterization.parameterize(sql);
            if (parameterized.isPresent()) {
                StatementResult result = executeParameterized(parameterized.get(), start);
                if (result != null) {
                    return result;
                }
            }
        }
        PlanCache.Key key = planKey(normalized(sql), false);
        if (planCacheUsable()) {
            PlanCache.Entry cached = engine.planCache().find(key);
            if (cached != null) {
                return run(cached.plan(), parameters, CompileTime.CACHED);
            }
        }
        long cpuStart = THREADS.getCurrentThreadCpuTime();
        Compilation compilation = new Compilation(key, cpuStart, start);
        SqlNode statement = ColumbaSqlParser.parse(sql, compiling);
        return execute(statement, parameters, compilation);
    }

    /**
     * What a statement returns and what its parameters are, as a JDBC {@code PreparedStatement}'s
     * metadata reports them before it runs.
     *
     * @param columns        the result's columns; null for a statement that returns an update count
     * @param parameterTypes the types of its {@code ?} markers, in order, as the planner inferred them
     * @param identityColumns the result columns that are a table's IDENTITY column as stored
     * @param columnLabels   the result columns' labels as the query wrote them (may repeat); null with {@code columns}
     */
    public record Description(TableSchema columns, List<SqlType> parameterTypes, java.util.BitSet identityColumns,
                              List<String> columnLabels) {
        public Description {
            identityColumns = (java.util.BitSet) identityColumns.clone();
            columnLabels = columnLabels == null ? null : List.copyOf(columnLabels);
        }

        @Override
        public java.util.BitSet identityColumns() {
            return (java.util.BitSet) identityColumns.clone();
        }
    }

    /**
     * Plans {@code sql} as {@link #execute(String, List)} would, without running it, and says what it
     * returns and takes. The plan is kept in the plan cache like an executed one, so that the
     * execution which usually follows finds it. Empty for statements that are not planned (DDL,
     * COPY, session commands): what they take and return is known only when they run.
     *
     * @throws ColumbaException for SQL that does not parse or plan, as executing it would
     */
    public Optional<Description> describe(String sql) {
        checkOpen();
        startCompiling();
        PlanCache.Key key = planKey(normalized(sql), false);
        PlanCache.Entry cached = planCacheUsable() ? engine.planCache().find(key) : null;
        PreparedStatementPlan plan;
        if (cached != null) {
            plan = cached.plan();
        } else {
            long cpuStart = THREADS.getCurrentThreadCpuTime();
            SqlNode statement = ColumbaSqlParser.parse(sql, compiling);
            if (!QueryPlanner.plans(statement)) {
                return Optional.empty();
            }
            plan = plan(statement, new Compilation(key, cpuStart, System.nanoTime())).plan();
        }
        return Optional.of(new Description(plan.returnsRows() ? plan.schema() : null, plan.parameterTypes(),
                plan.identityColumns(), plan.returnsRows() ? plan.columnLabels() : null));
    }

    /**
     * A statement's way through parsing and planning: the key its plan is cached under (taken
     * before parsing, so that DDL or statistics that change meanwhile leave the plan under an
     * older version, never found) and when compiling started.
     */
    private record Compilation(PlanCache.Key key, long cpuStart, long start) {
    }

    /** The parse and compile time STATISTICS TIME reports; a cached plan's is zero. */
    record CompileTime(long cpuNanos, long elapsedNanos) {
        static final CompileTime CACHED = new CompileTime(0, 0);
    }

    /**
     * {@link PlanCache#normalize} of {@code sql}, remembered for the last text: a prepared
     * statement passes the same string every execution, and normalizing it was a few percent of a
     * point select.
     */
    private String normalized(String sql) {
        if (sql != lastText) {
            lastNormalized = PlanCache.normalize(sql);
            lastText = sql;
        }
        return lastNormalized;
    }

    /**
     * The plan cache's key of {@code text} now. The last key made is kept and given again while
     * nothing in it changed (a prepared statement's executions): a new key per execution copied
     * and hashed the settings list each time.
     */
    private PlanCache.Key planKey(String text, boolean parameterized) {
        settings();
        long schemaVersion = engine.schemaVersion();
        long statisticsVersion = engine.statistics().version();
        PlanCache.Key last = lastKey;
        if (last != null && last.sameAs(text, parameterized, planSettings, schemaVersion, statisticsVersion)) {
            return last;
        }
        last = new PlanCache.Key(text, parameterized, planSettings, schemaVersion, statisticsVersion);
        lastKey = last;
        return last;
    }

    /**
     * Runs an ad hoc statement through the plan of its parameterized text (see
     * {@link SimpleParameterization}): found in the cache, or planned now from the text with
     * markers and kept. Null when that plan cannot run it — the text is not simple, or a literal
     * does not bind exactly — and the statement is then planned with its literals as written.
     */
    private StatementResult executeParameterized(SimpleParameterization.Parameterized parameterized, long start) {
        PlanCache planCache = engine.planCache();
        PlanCache.Key key = planKey(parameterized.text(), true);
        PlanCache.Entry cached = planCache.peek(key);
        if (cached != null) {
            Optional<List<Object>> values = SimpleParameterization.bind(parameterized.literals(),
                    cached.plan().parameterTypes(), cached.bindings());
            if (values.isEmpty()) {
                return null;
            }
            cached.used(System.currentTimeMillis());
            return run(cached.plan(), values.get(), CompileTime.CACHED);
        }
        if (planCache.isNotParameterizable(key)) {
            return null;
        }
        long cpuStart = THREADS.getCurrentThreadCpuTime();
        SqlNode statement;
        Optional<List<SimpleParameterization.Binding>> bindings;
        PreparedStatementPlan plan;
        try {
            statement = ColumbaSqlParser.parse(parameterized.text(), compiling);
            bindings = SimpleParameterization.bindings(statement, parameterized.literals().size());
            plan = bindings.isEmpty() ? null
                    : engine.planner().plan(new SessionCatalog(this), settings(), statement, compiling);
        } catch (ColumbaException e) {
            if (e.errorCode() == ErrorCode.QUERY_CANCELLED) {
                throw e;
            }
            // The text with markers does not parse or plan (a marker where SQL wants a literal, a
            // marker whose type nothing gives); the text with its literals says what is wrong, if anything.
            plan = null;
            statement = null;
            bindings = Optional.empty();
        }
        if (plan == null || !plan.reusable() || plan.parameterTypes().size() != parameterized.literals().size()) {
            planCache.notParameterizable(key);
            return null;
        }
        long planningNanos = System.nanoTime() - start;
        CompileTime compile = new CompileTime(THREADS.getCurrentThreadCpuTime() - cpuStart, planningNanos);
        PlanCache.Entry entry = new PlanCache.Entry(key, plan, bindings.get(), planningNanos, Instant.now());
        planCache.put(entry);
        Optional<List<Object>> values = SimpleParameterization.bind(parameterized.literals(), plan.parameterTypes(),
                bindings.get());
        return values.isEmpty() ? null : run(plan, values.get(), compile);
    }

    /** Plans are kept and reused unless this session's open transaction changed the schema. */
    private boolean planCacheUsable() {
        return !transactionHasDdl;
    }

    /** Whether the statement asks to be planned afresh, and its plan not kept: {@code OPTION (RECOMPILE)}. */
    private static boolean recompiles(SqlNode statement) {
        SqlNode node = statement instanceof SqlExplain explain ? explain.getExplicandum() : statement;
        return node instanceof SqlQueryOption option && option.has(SqlQueryHint.Kind.RECOMPILE);
    }

    /**
     * Executes one statement once for each parameter set, as one statement: planned once (or found
     * in the plan cache), all sets in one write transaction, which in autocommit mode commits once
     * at the end. An INSERT of one row of values and parameters inserts the rows of every set
     * through one operator tree ({@link PreparedStatementPlan#instantiateBatch}: a columnstore
     * table's bulk path, one pass of a rowstore table's insert); UPDATE, DELETE and other inserts
     * run the one plan once per set. A failure rolls back every set, as a failed statement rolls
     * back its changes (inside an explicit transaction, the transaction with it), and its message
     * names the parameter set. Statements that are not planned (DDL, session commands) run once per
     * set, each on its own, as {@link #execute(String, List)} runs them.
     *
     * @throws ColumbaException with the failing set's error code; INVALID_STATEMENT for a query
     */
    public BatchResult executeBatch(String sql, List<List<Object>> parameterSets) {
        return counted(() -> executeBatchOnce(sql, parameterSets));
    }

    private BatchResult executeBatchOnce(String sql, List<List<Object>> parameterSets) {
        checkOpen();
        startCompiling();
        if (parameterSets.isEmpty()) {
            return new BatchResult(new long[0], List.of(), StatementStatistics.NONE, List.of());
        }
        long start = System.nanoTime();
        PlanCache.Key key = planKey(PlanCache.normalize(sql), false);
        PlanCache.Entry cached = planCacheUsable() ? engine.planCache().find(key) : null;
        Planned planned;
        if (cached != null) {
            planned = new Planned(cached.plan(), CompileTime.CACHED);
        } else {
            long cpuStart = THREADS.getCurrentThreadCpuTime();
            SqlNode statement = ColumbaSqlParser.parse(sql, compiling);
            if (!planned(statement)) {
                return executeEach(statement, parameterSets);
            }
            planned = plan(statement, new Compilation(key, cpuStart, start));
        }
        countCompile(planned.compile());
        PreparedStatementPlan plan = planned.plan();
        if (plan.returnsRows()) {
            throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "a batch runs INSERT, UPDATE, DELETE and MERGE"
                    + " statements; this statement produces rows (run it as a query)");
        }
        QueryContext query = newQuery(settings());
        long cpuStart = statementCpuStart();
        long runStart = System.nanoTime();
        long[] counts = new long[parameterSets.size()];
        Transaction used = writeTransaction();
        boolean succeeded = false;
        try {
            // A statement without parameters has no parameter rows to insert from: each set runs it once.
            if (plan.insertsOneRowPerParameterSet() && !plan.parameterTypes().isEmpty()) {
                try (Execution execution = new Execution(plan, environment -> plan.instantiateBatch(environment, parameterSets),
                        query, used.writes(), used)) {
                    long inserted = count(execution.operator.next());
                    if (inserted != parameterSets.size()) {
                        throw new ColumbaException(ErrorCode.INTERNAL, "a batch of " + parameterSets.size()
                                + " one-row inserts inserted " + inserted + " rows");
                    }
                }
                Arrays.fill(counts, 1);
            } else {
                for (int setIndex = 0; setIndex < parameterSets.size(); setIndex++) {
                    List<Object> parameters = parameterSets.get(setIndex);
                    try (Execution execution = new Execution(plan, environment -> plan.instantiate(environment, parameters),
                            query, used.writes(), used)) {
                        counts[setIndex] = count(execution.operator.next());
                    } catch (ColumbaException e) {
                        throw new ColumbaException(e.errorCode(), "parameter set " + (setIndex + 1) + " of "
                                + parameterSets.size() + ": " + e.detail(), e);
                    }
                }
            }
            succeeded = true;
        } finally {
            finishWrite(used, succeeded);
        }
        gatherWrittenColumnstore(planned.plan());
        Finished finished = finished(query, planned.compile(), cpuStart, runStart);
        return new BatchResult(counts, finished.messages(), finished.statistics(), query.generatedKeys());
    }

    /**
     * The columns of {@code table} an INSERT may give values to, in table order: all but its
     * IDENTITY and computed columns, which INSERT fills itself. As this session sees the catalog
     * now (its own uncommitted DDL included).
     *
     * @throws ColumbaException OBJECT_NOT_FOUND (42P01) if there is no such table
     */
    public List<dev.columba.core.schema.Column> insertableColumns(String table) {
        checkOpen();
        dev.columba.planner.schema.ColumbaTable found = new SessionCatalog(this).table(table)
                .orElseThrow(() -> new ColumbaException(ErrorCode.OBJECT_NOT_FOUND, "table " + table + " does not exist"));
        dev.columba.planner.schema.GeneratedColumns generated = found.generated();
        List<dev.columba.core.schema.Column> columns = new ArrayList<>();
        for (int index = 0; index < found.schema().size(); index++) {
            if (index != generated.identity() && !generated.computed().containsKey(index)) {
                columns.add(found.schema().column(index));
            }
        }
        return columns;
    }

    /** The rows-changed count a modification's operator produces as its one row. */
    private static long count(dev.columba.core.batch.Batch batch) {
        if (batch == null || batch.selectedCount() == 0) {
            return 0;
        }
        return ((org.apache.arrow.vector.BigIntVector) batch.column(0)).get(batch.selectedRow(0));
    }

    /** A batch of a statement the session runs itself (DDL, a command): once per set, each on its own. */
    private BatchResult executeEach(SqlNode statement, List<List<Object>> parameterSets) {
        long[] counts = new long[parameterSets.size()];
        List<String> messages = new ArrayList<>();
        List<dev.columba.core.context.GeneratedKeys> keys = new ArrayList<>();
        StatementStatistics statistics = StatementStatistics.NONE;
        for (int setIndex = 0; setIndex < parameterSets.size(); setIndex++) {
            StatementResult result = execute(statement, parameterSets.get(setIndex), null);
            switch (result) {
                case StatementResult.Update update -> {
                    counts[setIndex] = update.count();
                    keys.addAll(update.generatedKeys());
                }
                case StatementResult.Command ignored -> counts[setIndex] = 0;
                case StatementResult.Rows rows -> {
                    rows.close();
                    throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "a batch runs INSERT, UPDATE, DELETE and"
                            + " MERGE statements; this statement produces rows (run it as a query)");
                }
            }
            messages.addAll(result.messages());
            statistics = result.statistics();
        }
        return new BatchResult(counts, messages, statistics, keys);
    }

    /** Whether {@link #execute(SqlNode, List, Compilation)} plans the statement, rather than running it itself. */
    private static boolean planned(SqlNode statement) {
        return !(statement instanceof SqlSetStatistics || statement instanceof SqlSetOption || statement instanceof SqlDbcc
                || statement instanceof SqlCheckpoint || statement instanceof SqlExecuteProcedure
                || statement instanceof SqlPrint
                || statement instanceof dev.columba.planner.parser.SqlAlterDatabase
                || statement instanceof dev.columba.planner.parser.SqlCopy
                || statement instanceof SqlCreateTable create && create.query().isPresent()
                || DdlExecutor.handles(statement));
    }

    /**
     * The SCRAM-SHA-256 verifier of the login {@code name} (ignoring case) as committed, for the wire
     * server's authentication; empty if there is no such login.
     */
    public java.util.Optional<String> loginVerifier(String name) {
        checkOpen();
        Database database = database();
        try (dev.columba.storage.txn.ObjectLocks.Lease ignored = database.locks().shared(
                dev.columba.storage.catalog.Catalog.CATALOG_OBJECT_ID)) {
            return database.catalog().login(database.bufferPool(), name, database.systemCounters())
                    .map(dev.columba.storage.catalog.CatalogEntry.Login::verifier);
        }
    }

    /** How many logins the committed catalog holds. */
    public int loginCount() {
        checkOpen();
        Database database = database();
        try (dev.columba.storage.txn.ObjectLocks.Lease ignored = database.locks().shared(
                dev.columba.storage.catalog.Catalog.CATALOG_OBJECT_ID)) {
            return (int) database.catalog().entries(database.bufferPool(), database.systemCounters()).stream()
                    .filter(entry -> entry instanceof dev.columba.storage.catalog.CatalogEntry.Login).count();
        }
    }

    /** Executes every statement of a script (separated by semicolons), returning each result in order. */
    public List<StatementResult> executeScript(String sql) {
        checkOpen();
        List<StatementResult> results = new ArrayList<>();
        startCompiling();
        for (SqlNode statement : ColumbaSqlParser.parseStatements(sql, compiling)) {
            StatementResult result = counted(() -> execute(statement, List.of(), null));
            if (result instanceof StatementResult.Rows rows) {
                while (rows.next() != null) {
                    // A script's queries run to completion so their statistics are complete.
                }
                rows.close();
            }
            results.add(result);
        }
        return results;
    }

    /**
     * Executes a parsed statement; {@code compilation} says how its text's plan is cached, null when
     * it has no text of its own (a script's statement), which is then neither looked up nor kept.
     */
    StatementResult execute(SqlNode statement, List<Object> parameters, Compilation compilation) {
        switch (statement) {
            case SqlSetStatistics set -> {
                for (SqlSetStatistics.Kind kind : set.kinds()) {
                    switch (kind) {
                        case IO -> statisticsIo = set.on();
                        case TIME -> statisticsTime = set.on();
                    }
                }
                return command(List.of());
            }
            case SqlSetOption set -> {
                return setOption(set);
            }
            case SqlDbcc dbcc -> {
                return dbcc(dbcc);
            }
            case SqlCheckpoint ignored -> {
                database().checkpoint();
                return command(List.of());
            }
            case SqlExecuteProcedure procedure -> {
                return executeProcedure(procedure);
            }
            case SqlPrint print -> {
                return command(List.of(printText(print.message())));
            }
            case dev.columba.planner.parser.SqlAlterDatabase alter -> {
                try {
                    return new FilegroupCommand(this).execute(alter);
                } finally {
                    schemaChanged();
                }
            }

            case SqlCreateTable create when create.query().isPresent() -> {
                try {
                    return new CreateTableAsCommand(this, ddl).execute(create, parameters);
                } finally {
                    schemaChanged();
                }
            }
            case dev.columba.planner.parser.SqlCopy copy -> {
                return new CopyCommand(this).execute(copy, progress -> copyProgress.accept(progress));
            }
            default -> {
                if (DdlExecutor.handles(statement)) {
                    try {
                        return ddl.execute(statement);
                    } finally {
                        schemaChanged();
                    }
                }
                return executePlanned(statement, parameters, compilation);
            }
        }
    }

    /**
     * {@code EXEC sys.sp_flush_log} (also without the schema, as SQL Server resolves system
     * procedures): every commit so far, delayed ones included, is durable when it returns.
     */
    private StatementResult executeProcedure(SqlExecuteProcedure procedure) {
        String name = String.join(".", procedure.name().names).toLowerCase(Locale.ROOT);
        if (name.equals("sys.sp_flush_log") || name.equals("sp_flush_log")) {
            database().flushLog();
            return command(List.of());
        }
        throw new ColumbaException(ErrorCode.OBJECT_NOT_FOUND, "unknown procedure " + procedure.name()
                + "; Columba has sys.sp_flush_log");
    }

    private static String printText(SqlNode message) {
        if (message instanceof SqlLiteral literal) {
            Object value = literal.getValue();
            return value instanceof NlsString string ? string.getValue() : literal.toValue();
        }
        return message.toString();
    }

    private StatementResult.Command command(List<String> messages) {
        return new StatementResult.Command(messages, StatementStatistics.NONE);
    }

    private StatementResult setOption(SqlSetOption set) {
        String name = set.getName().toString();
        Setting<?> setting = StandardSettings.byName(name);
        SqlNode value = set.getValue();
        String scope = set.getScope() == null ? "SESSION" : set.getScope().toUpperCase(Locale.ROOT);
        if (scope.equals("SYSTEM")) {
            if (value == null) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "ALTER SYSTEM RESET is not supported; set a value");
            }
            SettingValues updated = engine.globalSettings().withParsed(setting, literalText(value));
            engine.setGlobalSettings(updated);
            DdlExecutor.persistGlobalSettings(database(), setting, literalText(value));
            return command(List.of());
        }
        sessionValuesChanged();
        if (value == null) {
            sessionValues.remove(setting);
        } else {
            String text = literalText(value);
            // Validate now, so the error comes from the SET and not from a later statement.
            engine.globalSettings().child().withSessionValue(setting, text);
            sessionValues.put(setting, text);
        }
        return command(List.of());
    }

    private static String literalText(SqlNode value) {
        if (value instanceof SqlLiteral literal) {
            Object raw = literal.getValue();
            if (raw instanceof NlsString string) {
                return string.getValue();
            }
            return literal.toValue() != null ? literal.toValue() : String.valueOf(raw);
        }
        return value.toString();
    }

    private StatementResult dbcc(SqlDbcc dbcc) {
        switch (dbcc.command()) {
            case DROPCLEANBUFFERS -> database().dropCleanBuffers();
            case TRACEON, TRACEOFF -> {
                boolean on = dbcc.command() == SqlDbcc.Command.TRACEON;
                for (int flag : dbcc.traceFlags()) {
                    if (dbcc.global()) {
                        engine.setGlobalSettings(TraceFlags.apply(engine.globalSettings(), flag, on));
                    } else {
                        SettingValues applied = TraceFlags.apply(settings(), flag, on);
                        sessionValuesChanged();
                        for (Setting<?> setting : List.of(StandardSettings.READ_AHEAD, StandardSettings.PREFETCH,
                                StandardSettings.TRIVIAL_PLANS)) {
                            sessionValues.put(setting, setting.formatObject(applied.get(setting)));
                        }
                    }
                }
            }
        }
        return command(List.of("DBCC execution completed. If DBCC printed error messages, contact your system administrator."));
    }

    // ---- queries and modifications --------------------------------------------------------------

    /**
     * Gathers again the rowgroup figures of the columnstore table {@code plan} wrote, if it wrote
     * one, as the planner reads no pages (see StatisticsStore). The plan says which table by its
     * object id (only DDL changes a table's organization or id, and no plan made before DDL runs
     * after it), so a write to a rowstore table looks nothing up in the catalog after it, and a
     * write to a columnstore one finds its table by one key, not by decoding every entry.
     */
    private void gatherWrittenColumnstore(PreparedStatementPlan plan) {
        java.util.OptionalInt written = plan.columnstoreWritten();
        if (written.isPresent()) {
            engine.gatherColumnstoreStatistics(reader(), written.getAsInt());
        }
    }

    private StatementResult executePlanned(SqlNode statement, List<Object> parameters, Compilation compilation) {
        Planned planned = plan(statement, compilation);
        return run(planned.plan(), parameters, planned.compile());
    }

    /** A statement's plan and what compiling it cost. */
    private record Planned(PreparedStatementPlan plan, CompileTime compile) {
    }

    /** Plans a statement, keeping the plan in the cache when it may be reused. */
    private Planned plan(SqlNode statement, Compilation compilation) {
        long cpuStart = compilation != null ? compilation.cpuStart() : THREADS.getCurrentThreadCpuTime();
        long start = compilation != null ? compilation.start() : System.nanoTime();
        PreparedStatementPlan plan = engine.planner().plan(new SessionCatalog(this), settings(), statement, compiling);
        long planningNanos = System.nanoTime() - start;
        CompileTime compile = new CompileTime(THREADS.getCurrentThreadCpuTime() - cpuStart, planningNanos);
        if (compilation != null && plan.reusable() && planCacheUsable() && !recompiles(statement)) {
            engine.planCache().put(new PlanCache.Entry(compilation.key(), plan, List.of(), planningNanos, Instant.now()));
        }
        return new Planned(plan, compile);
    }

    /** Counts a run of a cached plan, or a plan made for this run and what making it took. */
    private void countCompile(CompileTime compile) {
        if (compile == CompileTime.CACHED) {
            engine.statementCounters().countCachedPlanRun();
        } else {
            engine.statementCounters().countPlanned(compile.elapsedNanos());
        }
    }

    /** Executes a plan, new or cached, with {@code parameters} bound. */
    private StatementResult run(PreparedStatementPlan plan, List<Object> parameters, CompileTime compile) {
        countCompile(compile);
        SettingValues settings = settings();
        if (plan.parameterTypes().size() != parameters.size()) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "the statement has " + plan.parameterTypes().size()
                    + " parameters, " + parameters.size() + " values were given");
        }
        QueryContext query = newQuery(settings);
        long cpuStart = statementCpuStart();
        long start = System.nanoTime();
        if (plan.modifies() && plan.returnsRows()) {
            return runReturningRows(plan, parameters, query, compile, cpuStart, start);
        }
        if (plan.modifies()) {
            Transaction used = writeTransaction();
            boolean succeeded = false;
            long count = 0;
            try (Execution execution = new Execution(plan, parameters, query, used.writes(), used)) {
                var batch = execution.operator.next();
                if (batch != null && batch.selectedCount() > 0) {
                    count = ((org.apache.arrow.vector.BigIntVector) batch.column(0)).get(batch.selectedRow(0));
                }
                succeeded = true;
            } finally {
                finishWrite(used, succeeded);
            }
            gatherWrittenColumnstore(plan);
            Finished finished = finished(query, compile, cpuStart, start);
            return new StatementResult.Update(count, finished.messages(), finished.statistics(), query.generatedKeys());
        }
        Optional<PointLookup> point = plan.pointLookup();
        if (point.isPresent() && directLookups) {
            return lookUp(plan, point.get(), parameters, query, compile, cpuStart, start);
        }
        ObjectLocks.Lease lease = null;
        PageReader reader;
        if (transaction != null) {
            reader = transaction.writes();
        } else {
            lease = sharedLocks(plan);
            reader = database().bufferPool();
        }
        try {
            Execution execution = new Execution(plan, parameters, query, reader, transaction);
            return new RowsResult(execution, lease, new QueryFinish(this, query, compile, cpuStart, start));
        } catch (RuntimeException e) {
            if (lease != null) {
                lease.close();
            }
            throw e;
        }
    }

    /**
     * Runs a modification with an OUTPUT or RETURNING clause: every change is made and every row
     * computed before the write ends (committed in autocommit mode), so the rows are held on the
     * heap and handed out as a point lookup's are; a failure anywhere rolls the statement back.
     * The statement finishes, as a query, when its result is closed.
     */
    private StatementResult runReturningRows(PreparedStatementPlan plan, List<Object> parameters, QueryContext query,
                                             CompileTime compile, long cpuStart, long start) {
        Transaction used = writeTransaction();
        boolean succeeded = false;
        List<Object[]> rows = new ArrayList<>();
        TableSchema schema = plan.schema();
        try (Execution execution = new Execution(plan, parameters, query, used.writes(), used)) {
            for (var batch = execution.operator.next(); batch != null; batch = execution.operator.next()) {
                for (int index = 0; index < batch.selectedCount(); index++) {
                    int position = batch.selectedRow(index);
                    Object[] row = new Object[schema.size()];
                    for (int column = 0; column < row.length; column++) {
                        row[column] = dev.columba.core.batch.VectorValues.get(batch.column(column), position,
                                schema.column(column).type());
                    }
                    rows.add(row);
                }
            }
            succeeded = true;
        } finally {
            finishWrite(used, succeeded);
        }
        gatherWrittenColumnstore(plan);
        return new LookupResult(this, schema, plan.identityColumns(), plan.columnLabels(), rows,
                new QueryFinish(this, query, compile, cpuStart, start));
    }

    /**
     * Runs a point lookup: its row read at once through the reader and under the locks the
     * operator tree would have used, the locks released before returning (the row is on the heap).
     * The statement finishes, as any query, when its result is closed.
     */
    private StatementResult lookUp(PreparedStatementPlan plan, PointLookup point, List<Object> parameters,
                                   QueryContext query, CompileTime compile, long cpuStart, long start) {
        List<Object[]> rows;
        if (transaction != null) {
            rows = point.read(transaction.writes(), query, parameters);
        } else {
            try (ObjectLocks.Lease lease = sharedLocks(plan)) {
                rows = point.read(database().bufferPool(), query, parameters);
            }
        }
        return new LookupResult(this, plan.schema(), plan.identityColumns(), plan.columnLabels(), rows, new QueryFinish(this, query, compile, cpuStart, start));
    }

    /** The lock group of the plan this session ran last, kept together so that one read sees a matching pair. */
    private record PlanLocks(PreparedStatementPlan plan, ObjectLocks.Group group) {
    }

    /** The last plan's lock group: a cached plan runs again and again, and finding its locks anew each time cost as much as taking them. */
    private PlanLocks planLocks;

    /** Takes the objects {@code plan} reads shared. */
    private ObjectLocks.Lease sharedLocks(PreparedStatementPlan plan) {
        ObjectLocks locks = database().locks();
        PlanLocks last = planLocks;
        if (last == null || last.plan() != plan || !last.group().of(locks)) {
            last = new PlanLocks(plan, locks.group(plan.objectIds()));
            planLocks = last;
        }
        return last.group().shared();
    }

    /** One execution of a plan: its allocator, context and operator tree. */
    final class Execution implements AutoCloseable, StatementEnvironment {
        final PreparedStatementPlan plan;
        final Operator operator;
        final BufferAllocator allocator;
        final QueryContext query;
        final PageReader reader;
        final Transaction writer;
        final ExecutionContext context;
        final EvaluationContext evaluation;

        Execution(PreparedStatementPlan plan, List<Object> parameters, QueryContext query, PageReader reader,
                  Transaction writer) {
            this(plan, environment -> plan.instantiate(environment, parameters), query, reader, writer);
        }

        /** An execution whose operator tree {@code instantiation} builds (one set of parameters, or a batch of them). */
        Execution(PreparedStatementPlan plan, java.util.function.Function<StatementEnvironment, Operator> instantiation,
                  QueryContext query, PageReader reader, Transaction writer) {
            this.plan = plan;
            this.query = query;
            this.reader = reader;
            this.writer = writer;
            this.evaluation = EvaluationContext.startingNow(Clock.systemUTC());
            this.allocator = statementAllocator(query.settings().get(StandardSettings.QUERY_MEMORY_LIMIT));
            Operator built = null;
            try {
                built = instantiation.apply(this);
                this.context = new ExecutionContext(query, allocator, batchSize(), evaluation, reusableBatches);
                running = context;
                built.open(context);
            } catch (RuntimeException e) {
                if (built != null) {
                    built.close();
                }
                releaseStatementAllocator(allocator);
                running = null;
                throw e;
            }
            this.operator = built;
        }

        @Override
        public Database database() {
            return Session.this.database();
        }

        @Override
        public PageReader reader() {
            return reader;
        }

        @Override
        public Transaction transaction() {
            return writer;
        }

        @Override
        public QueryContext query() {
            return query;
        }

        @Override
        public BufferAllocator allocator() {
            return allocator;
        }

        @Override
        public EvaluationContext evaluation() {
            return evaluation;
        }

        @Override
        public int batchSize() {
            return query.settings().get(StandardSettings.BATCH_SIZE);
        }

        @Override
        public void close() {
            running = null;
            try {
                operator.close();
            } finally {
                releaseStatementAllocator(allocator);
            }
        }
    }

    /**
     * The allocator for a statement's memory, limited to {@code limitBytes}: the one the session's
     * previous statement left empty if its limit is the same, else a new one. Making an Arrow child
     * allocator (registered in its parent's synchronized map) and closing it again was 4% of a
     * prepared point select.
     */
    BufferAllocator statementAllocator(long limitBytes) {
        BufferAllocator idle = keptAllocator.take();
        if (idle != null) {
            if (idle.getLimit() == limitBytes) {
                return idle;
            }
            idle.close();
        }
        return engine.memory().child("statement", limitBytes);
    }

    /**
     * Ends a statement's use of its allocator: kept for the next statement if it holds nothing and
     * no child (what closing it would check), else closed, which reports what leaked.
     */
    void releaseStatementAllocator(BufferAllocator allocator) {
        if (closed || allocator.getAllocatedMemory() != 0 || !allocator.getChildAllocators().isEmpty()
                || !keptAllocator.keep(allocator)) {
            allocator.close();
        }
    }

    /**
     * The empty allocator a session keeps between statements. The engine closes it if it closes
     * before the session; the session's own thread takes and keeps it otherwise.
     */
    static final class KeptAllocator implements AutoCloseable {
        private BufferAllocator allocator;
        private boolean closed;

        synchronized BufferAllocator take() {
            BufferAllocator taken = allocator;
            allocator = null;
            return taken;
        }

        synchronized BufferAllocator peek() {
            return allocator;
        }

        /** Keeps {@code empty} unless one is kept already or this is closed; whether it was kept. */
        synchronized boolean keep(BufferAllocator empty) {
            if (closed || allocator != null) {
                return false;
            }
            allocator = empty;
            return true;
        }

        @Override
        public synchronized void close() {
            closed = true;
            if (allocator != null) {
                allocator.close();
                allocator = null;
            }
        }
    }

    /**
     * Announces the next statement before it is handed to the session: a {@link #cancel()} from now
     * on is for it, even one that lands before the statement reaches the parser. Without this, the
     * statement's own start makes the cancel flag, and a cancel between the client accepting the
     * statement and that point is lost (it went to the previous statement's flag). Clients that can
     * be cancelled from another thread (the JDBC driver's {@code Statement.cancel} and query
     * timeout) call it on the statement's thread; others need not.
     */
    public void beginStatement() {
        compiling = new CancelFlag(new AtomicBoolean());
        compilingAnnounced = true;
    }

    /** A statement starts: a cancel from now on is for it (from its announcement on, if it was announced). */
    private void startCompiling() {
        if (!compilingAnnounced) {
            compiling = new CancelFlag(new AtomicBoolean());
        }
        compilingAnnounced = false;
    }

    /** What cancels the statement being compiled now, for commands that plan a query (CREATE TABLE AS). */
    CancelFlag compiling() {
        return compiling;
    }

    /** A statement's context, its waits adding to the database's ({@code sys.wait_stats}). */
    QueryContext newQuery(SettingValues settings) {
        return new QueryContext(settings, database().waits());
    }

    /** Asks the running statement, if any, to stop, also while it is parsed or planned; it fails with QUERY_CANCELLED. */
    public void cancel() {
        compiling.requestCancel();
        ExecutionContext current = running;
        if (current != null) {
            current.cancel();
        }
    }

    // ---- statistics messages --------------------------------------------------------------------

    /**
     * What {@link #statementCpuStart} gives when STATISTICS TIME is off: the statement's CPU time is
     * then not measured. The thread's CPU clock is a system call (no vDSO), two of them were 2.5%
     * of a prepared point select, and only STATISTICS TIME shows the figure; elapsed time comes from
     * {@link System#nanoTime}, which is cheap, and is always measured.
     */
    static final long UNTIMED = Long.MIN_VALUE;

    /**
     * This thread's CPU clock at a statement's start when STATISTICS TIME is on, else
     * {@link #UNTIMED}: whether the statement is timed is decided when it starts, as SQL Server
     * decides it, so a SET between a query's start and its end changes nothing for it.
     */
    long statementCpuStart() {
        return statisticsTime ? THREADS.getCurrentThreadCpuTime() : UNTIMED;
    }

    /**
     * CPU time of the statement since {@code cpuStart}: this thread's and its parallel workers';
     * {@link StatementStatistics#NOT_MEASURED} if the statement is {@link #UNTIMED}.
     */
    long cpuNanosSince(QueryContext query, long cpuStart) {
        if (cpuStart == UNTIMED) {
            return StatementStatistics.NOT_MEASURED;
        }
        return THREADS.getCurrentThreadCpuTime() - cpuStart + query.statistics().workerCpuNanos();
    }

    /** A finished statement's statistics: its counters now, and the times measured when it finished. */
    StatementStatistics finishedStatistics(QueryContext query, long cpuNanos, long elapsedNanos) {
        return new StatementStatistics(query.statistics().snapshot(), cpuNanos, elapsedNanos,
                query.statistics().waits().snapshot());
    }

    /** The messages and statistics of a statement that finishes now (after {@code cpuStart} and {@code start}). */
    record Finished(List<String> messages, StatementStatistics statistics) {
    }

    Finished finished(QueryContext query, CompileTime compile, long cpuStart, long start) {
        long cpuNanos = cpuNanosSince(query, cpuStart);
        long elapsedNanos = System.nanoTime() - start;
        return new Finished(messages(query, compile, cpuNanos, elapsedNanos),
                finishedStatistics(query, cpuNanos, elapsedNanos));
    }

    /**
     * The messages SQL Server sends after a statement with STATISTICS IO / TIME on: the parse and
     * compile time (zero for a cached plan), a line per table, and for columnstore tables also their
     * segment reads and skips; the execution times. The time lines come when the statement was
     * timed (STATISTICS TIME on at its start: {@code cpuNanos} measured).
     */
    List<String> messages(QueryContext query, CompileTime compile, long cpuNanos, long elapsedNanos) {
        boolean timed = cpuNanos != StatementStatistics.NOT_MEASURED;
        if (!timed && !statisticsIo) {
            return List.of();
        }
        List<String> messages = new ArrayList<>();
        if (timed) {
            messages.add(String.format(Locale.ROOT, "SQL Server parse and compile time: %n   CPU time = %d ms, elapsed time = %d ms.",
                    compile.cpuNanos() / 1_000_000, compile.elapsedNanos() / 1_000_000));
        }
        if (statisticsIo) {
            for (Map.Entry<String, IoStats> table : query.statistics().snapshot().entrySet()) {
                IoStats stats = table.getValue();
                messages.add(stats.statisticsIoLine(table.getKey()));
                if (stats.segmentReads() > 0 || stats.segmentSkipped() > 0) {
                    messages.add(String.format(Locale.ROOT, "Table '%s'. Segment reads %d, segment skipped %d.",
                            table.getKey(), stats.segmentReads(), stats.segmentSkipped()));
                }
            }
        }
        if (timed) {
            // The session's thread and every worker of a parallel plan: above elapsed when workers ran at once.
            messages.add(String.format(Locale.ROOT, " SQL Server Execution Times:%n   CPU time = %d ms,  elapsed time = %d ms.",
                    cpuNanos / 1_000_000, elapsedNanos / 1_000_000));
        }
        return messages;
    }

    private void checkOpen() {
        if (closed) {
            throw new ColumbaException(ErrorCode.DATABASE_CLOSED, "the session is closed");
        }
    }

    /** Rolls back an open transaction and closes the session. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        try {
            if (transaction != null) {
                Transaction ending = transaction;
                transaction = null;
                try {
                    ending.rollback();
                } finally {
                    transactionEnded();
                }
            }
        } finally {
            closed = true;
            engine.sessionClosed(reusableBatches, keptAllocator);
        }
    }
}
