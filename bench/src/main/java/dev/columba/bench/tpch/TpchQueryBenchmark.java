package dev.columba.bench.tpch;

import dev.columba.bench.harness.BenchDirectories;
import dev.columba.bench.harness.IterationMetrics;
import dev.columba.bench.harness.Metric;
import dev.columba.bench.peers.LineitemDatabases;
import dev.columba.bench.peers.Peer;
import dev.columba.bench.peers.PeerConnection;
import dev.columba.bench.peers.PeerQueryBenchmark;
import dev.columba.bench.peers.QueryResult;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One TPC-H query ({@link TpchText}) on Columba's columnstore or DuckDB, through its JDBC driver,
 * warm or cold, over the tables {@link TpchDatabases} loaded. The score is the time from executing
 * the query to having read its last row. DuckDB always runs the verbatim text; Columba runs the
 * configuration's text, which for an adapted query is the adapted one.
 *
 * <p>Before measuring, in this order: the first planning time, the elapsed time of
 * {@code EXPLAIN <query>} the first time the connection sees the query (Columba plans, and
 * instantiates the plan without opening it; DuckDB plans); then one run whose answer must agree
 * with the one recorded by the suite's check, which also warms the code and, for warm runs, the
 * caches; then the warm planning time, the median elapsed time of {@value #WARM_PLANNINGS} more
 * {@code EXPLAIN}s. Both are recorded as secondary results. Every measured answer is checked too.
 *
 * <p>The two planning times answer different questions. With forks (the suite's default), each
 * configuration runs in a JVM of its own whose first planned statement is that first
 * {@code EXPLAIN}: its time is what a program's first statement costs, Calcite's and Columba's
 * classes loaded and their code run by the interpreter before the JIT compiles it. The forked JVM
 * has no start-up cache ({@code ./columba} gives its shell one; bench/results/plan11c-20261127.md
 * measures the first statement with one trained on this workload). The warm time is planning once
 * the JVM has compiled that code: what every later statement of a long-running program costs.
 *
 * <p><b>Cold</b> and <b>warm</b> mean what they mean in the peers suite ({@link PeerConnection}):
 * cold, Columba drops its clean buffers and the database's files from the page cache; DuckDB's
 * database is closed, its files dropped, and reopened. Both run on one thread: Columba's queries
 * do, and DuckDB's connection has {@code threads = 1} ({@link Peer#properties}).
 *
 * <p>Caveats: the JVM's compiled code stays warm in cold runs; the disk and the two cores are
 * shared with other processes, so compare ratios within one run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 3)
@Fork(1)
public class TpchQueryBenchmark {
    /**
     * The elapsed time of {@code EXPLAIN} of the query, the first time the connection planned it: with
     * forks, the JVM's first planned statement.
     */
    public static final Metric PLANNING = new Metric("planningMs", "ms");
    /** The median elapsed time of {@value #WARM_PLANNINGS} {@code EXPLAIN}s of the query after its check run. */
    public static final Metric PLANNING_WARM = new Metric("planningWarmMs", "ms");
    /** How many times the warm planning time plans the query (odd: the median is one of them). */
    static final int WARM_PLANNINGS = 9;

    /** TPC-H scale factor: 1 (lineitem 6,001,215 rows), 10 by parameter, 0.01 in short runs. */
    @Param(LineitemDatabases.FULL_SCALE_FACTOR)
    public double scaleFactor;

    @Param({"COLUMBA_COLUMNSTORE", "DUCKDB"})
    public Peer engine;

    /** Every text; the suite passes those its check found measurable. */
    @Param({"Q1", "Q2", "Q3", "Q4", "Q5", "Q6", "Q7", "Q8", "Q9", "Q10", "Q11", "Q12", "Q13", "Q14", "Q15", "Q16",
            "Q17", "Q18", "Q19", "Q20", "Q21", "Q22"})
    public TpchText query;

    @Param({"COLD", "WARM"})
    public PeerQueryBenchmark.Cache cache;

    /** Threads each engine may use for a query: Columba's max_dop, DuckDB's threads. */
    @Param("1")
    public int threads;

    /** Parent of the benchmark databases; empty means bench/target/data. */
    @Param("")
    public String dataDirectory;

    private PeerConnection connection;
    private String sql;
    private QueryResult expected;
    private double planningMs;
    private double planningWarmMs;
    private QueryResult result;

    @Setup(Level.Trial)
    public void connect() {
        TpchDatabases.Description databases = TpchDatabases.prepare(BenchDirectories.data(dataDirectory), scaleFactor,
                System.out);
        TpchDatabases.Check check = databases.checks().get(query);
        if (check.verdict() != TpchDatabases.Verdict.AGREED) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, query.title() + " is not measured: its last check"
                    + " found it " + check.verdict() + (check.detail().isEmpty() ? "" : " (" + check.detail() + ")"));
        }
        if (!TpchDatabases.ENGINES.contains(engine)) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "the tpch suite measures " + TpchDatabases.ENGINES
                    + ", not " + engine);
        }
        expected = databases.expected().get(query);
        sql = engine == Peer.DUCKDB ? query.original().sql() : query.sql();
        connection = new PeerConnection(engine, databases.directory(), TpchDatabases.NAME);
        connection.useThreads(threads);
        long start = System.nanoTime();
        connection.run(query.title() + " (EXPLAIN)", "EXPLAIN " + sql);
        planningMs = (System.nanoTime() - start) / 1e6;
        check(connection.run(query.title(), sql), "in the check run before measuring");
        double[] warm = new double[WARM_PLANNINGS];
        for (int planning = 0; planning < WARM_PLANNINGS; planning++) {
            long warmStart = System.nanoTime();
            connection.run(query.title() + " (EXPLAIN)", "EXPLAIN " + sql);
            warm[planning] = (System.nanoTime() - warmStart) / 1e6;
        }
        Arrays.sort(warm);
        planningWarmMs = warm[WARM_PLANNINGS / 2];
    }

    @Setup(Level.Invocation)
    public void startQuery() {
        if (cache == PeerQueryBenchmark.Cache.COLD) {
            connection.dropCaches();
        }
    }

    @Benchmark
    public QueryResult run() {
        result = connection.run(query.title(), sql);
        return result;
    }

    @TearDown(Level.Invocation)
    public void recordQuery() {
        check(result, "in a measured run (" + cache + ")");
        IterationMetrics.record(PLANNING, planningMs);
        IterationMetrics.record(PLANNING_WARM, planningWarmMs);
    }

    @TearDown(Level.Trial)
    public void disconnect() {
        if (connection != null) {
            connection.close();
        }
    }

    private void check(QueryResult actual, String when) {
        Optional<String> difference = actual.difference(expected);
        if (difference.isPresent()) {
            throw new ColumbaException(ErrorCode.INTERNAL, engine.label() + " computed " + query.title() + " " + when
                    + " differently from the checked answer: " + difference.get());
        }
    }
}
