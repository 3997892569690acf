package dev.columba.bench.oltp;

import dev.columba.bench.harness.BenchDirectories;
import dev.columba.bench.harness.IterationMetrics;
import dev.columba.bench.harness.Metric;
import dev.columba.server.PgServer;
import dev.columba.server.ServerConfig;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.duckdb.DuckDBConnection;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One engine's database ({@link OltpDatabases}) for one workload, shared by the clients of a
 * trial: opened and checked when the trial starts, its connections closed when it ends. It also
 * collects what the clients measured in an iteration and reports it when the iteration
 * ends: statements and rows per second (all clients together) and latency percentiles.
 */
@State(Scope.Benchmark)
public class OltpDatabase {
    /** All clients' statements per second: each client's count over its own elapsed time, added up. */
    public static final Metric STATEMENTS_PER_SECOND = new Metric("statementsPerSecond", "statements/s");
    /** Rows read or written per second: statements per second times the workload's rows per statement. */
    public static final Metric ROWS_PER_SECOND = new Metric("rowsPerSecond", "rows/s");
    /** Median latency of a statement, from executing it to having read its last row. */
    public static final Metric LATENCY_P50 = new Metric("latencyP50", "µs");
    /** 99th percentile of the latency. */
    public static final Metric LATENCY_P99 = new Metric("latencyP99", "µs");
    /** Mean latency. */
    public static final Metric LATENCY_MEAN = new Metric("latencyMean", "µs");
    /**
     * Columba only, for workloads that write: commits over syncs of the log in the iteration
     * ({@code sys.log_stats}), how many commits a sync served (the tuple mover's and checkpoints'
     * included; none run here unless a checkpoint falls due).
     */
    public static final Metric COMMITS_PER_SYNC = new Metric("commitsPerSync", "commits/sync");

    /** The full run's table, as in issue 11; short runs use {@value #SHORT_ROWS}. */
    public static final String FULL_ROWS = "300000";
    public static final String SHORT_ROWS = "2000";

    @Param({"COLUMBA", "H2", "SQLITE", "DUCKDB", "COLUMBA_WIRE"})
    public OltpEngine engine;

    @Param({"POINT_PREPARED", "POINT_AD_HOC", "INSERT_PREPARED", "INSERT_DELAYED", "INSERT_BATCH",
            "INSERT_BATCH_DELAYED", "APPEND", "RANGE_100",
            "UPDATE_BY_KEY"})
    public OltpWorkload workload;

    /** Rows of {@code t}. */
    @Param(FULL_ROWS)
    public long rows;

    /** How long each client runs statements in one iteration (a JMH single shot), in milliseconds. */
    @Param("2000")
    public int millis;

    /** Parent of the benchmark databases; empty means bench/target/data. */
    @Param("")
    public String dataDirectory;

    private Path directory;
    private Connection owner;
    /** Columba over pgwire: the server this trial's clients connect to; null for the other engines. */
    private PgServer server;
    private final AtomicLong nextInsertKey = new AtomicLong(1);
    private final List<Measured> measured = new ArrayList<>();
    /** Columba's log when the iteration started, for {@link #COMMITS_PER_SYNC}; null if not measured. */
    private LogCounters logAtStart;
    /** The clients' connections, closed with the database: JMH may end one client's trial after this state's. */
    private final List<Connection> clients = new ArrayList<>();

    /** What one client measured in one iteration. */
    record Measured(long statements, long elapsedNanos, long[] latencyNanos) {
    }

    @Setup(Level.Trial)
    public void open() throws SQLException {
        Path data = BenchDirectories.data(dataDirectory);
        if (!OltpDatabases.loaded(data, rows, engine)) {
            OltpDatabases.prepare(data, rows, System.out);
        }
        directory = OltpDatabases.directory(data, rows, engine);
        if (engine == OltpEngine.COLUMBA_WIRE) {
            try {
                server = PgServer.start(ServerConfig.of(directory).withPort(0));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted while starting the server", e);
            }
        }
        owner = DriverManager.getConnection(clientUrl(), engine.properties());
        OltpDatabases.checkRows(engine, owner, rows);
        try (Statement statement = owner.createStatement();
             ResultSet inserted = statement.executeQuery("SELECT MAX(id) FROM ins")) {
            inserted.next();
            nextInsertKey.set(inserted.getLong(1) + 1);
        }
    }

    /**
     * A connection for one client: its own session (DuckDB: a duplicate of the owner's, same
     * database). The database closes it when the trial ends.
     */
    Connection connect() throws SQLException {
        Connection connection = engine == OltpEngine.DUCKDB ? owner.unwrap(DuckDBConnection.class).duplicate()
                : DriverManager.getConnection(clientUrl(), engine.properties());
        synchronized (clients) {
            clients.add(connection);
        }
        return connection;
    }

    /** Where clients connect: the engine's database, or for Columba over pgwire the trial's server (pgJDBC). */
    private String clientUrl() {
        return server == null ? engine.url(directory) : "jdbc:postgresql://127.0.0.1:" + server.port() + "/columba";
    }

    /** A key for {@code ins} no other insert used. */
    long nextInsertKey() {
        return nextInsertKey.getAndIncrement();
    }

    /** The next {@code count} keys for {@code ins}, the first returned. */
    long nextInsertKeys(int count) {
        return nextInsertKey.getAndAdd(count);
    }

    void add(Measured client) {
        synchronized (measured) {
            measured.add(client);
        }
    }

    @Setup(Level.Iteration)
    public void startIteration() throws SQLException {
        synchronized (measured) {
            measured.clear();
        }
        logAtStart = logCounters();
    }

    /** Commits (full and delayed) and syncs of Columba's log since the database opened ({@code sys.log_stats}). */
    record LogCounters(long commits, long syncs) {
    }

    /** Columba's log counters now, or null for another engine or a workload that does not write. */
    private LogCounters logCounters() throws SQLException {
        if (!engine.columba() || !workload.writes()) {
            return null;
        }
        try (Statement statement = owner.createStatement();
             ResultSet log = statement.executeQuery("SELECT full_commits + delayed_commits, log_syncs FROM sys.log_stats")) {
            log.next();
            return new LogCounters(log.getLong(1), log.getLong(2));
        }
    }

    /** Longest wait at an iteration's end for the log to sync commits the iteration made but did not sync itself. */
    private static final long SYNC_WAIT_NANOS = 2_000_000_000L;

    @TearDown(Level.Iteration)
    public void recordIteration() throws SQLException {
        LogCounters logAtEnd = logCounters();
        // Delayed commits are synced by the log's flusher within milliseconds, but a short iteration
        // on a busy machine can end before its first sync: wait for it rather than report nothing.
        long waitUntil = System.nanoTime() + SYNC_WAIT_NANOS;
        while (logAtEnd != null && logAtStart != null && logAtEnd.commits() > logAtStart.commits()
                && logAtEnd.syncs() == logAtStart.syncs() && System.nanoTime() < waitUntil) {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            logAtEnd = logCounters();
        }
        if (logAtEnd != null && logAtStart != null && logAtEnd.syncs() > logAtStart.syncs()) {
            IterationMetrics.record(COMMITS_PER_SYNC, (double) (logAtEnd.commits() - logAtStart.commits())
                    / (logAtEnd.syncs() - logAtStart.syncs()));
        }
        synchronized (measured) {
            double statementsPerSecond = 0;
            int samples = 0;
            for (Measured client : measured) {
                statementsPerSecond += client.statements() / (client.elapsedNanos() / 1e9);
                samples += client.latencyNanos().length;
            }
            long[] latencies = new long[samples];
            int at = 0;
            double sum = 0;
            for (Measured client : measured) {
                System.arraycopy(client.latencyNanos(), 0, latencies, at, client.latencyNanos().length);
                at += client.latencyNanos().length;
                for (long latency : client.latencyNanos()) {
                    sum += latency;
                }
            }
            if (samples == 0) {
                throw new IllegalStateException(engine.label() + " " + workload + ": no statement finished in the iteration");
            }
            Arrays.sort(latencies);
            IterationMetrics.record(STATEMENTS_PER_SECOND, statementsPerSecond);
            IterationMetrics.record(ROWS_PER_SECOND, statementsPerSecond * workload.rowsPerStatement());
            IterationMetrics.record(LATENCY_P50, percentile(latencies, 0.50) / 1e3);
            IterationMetrics.record(LATENCY_P99, percentile(latencies, 0.99) / 1e3);
            IterationMetrics.record(LATENCY_MEAN, sum / samples / 1e3);
        }
    }

    /** The nearest-rank percentile of sorted values. */
    static long percentile(long[] sorted, double fraction) {
        int rank = (int) Math.ceil(fraction * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    @TearDown(Level.Trial)
    public void close() throws SQLException {
        synchronized (clients) {
            for (Connection client : clients) {
                client.close();
            }
            clients.clear();
        }
        if (owner != null) {
            owner.close();
        }
        if (server != null) {
            server.close();
            server = null;
        }
    }
}
