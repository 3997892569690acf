package dev.columba.bench.peers;

import dev.columba.bench.harness.BenchDirectories;
import dev.columba.bench.harness.IterationMetrics;
import dev.columba.bench.harness.Metric;
import dev.columba.bench.harness.ScanIoMetrics;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.io.ProcSelfIo;
import java.lang.management.ManagementFactory;
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
 * One {@link TpchQuery} over lineitem on one {@link Peer}, through its JDBC driver, warm or cold.
 * The score is the time from executing the query to having read its last row; the secondary
 * results are the bytes the process read from storage meanwhile ({@code /proc/self/io}
 * {@code read_bytes}, which counts every thread, DuckDB's native ones included: the same referee
 * for all four engines in this one JVM), that per second, the process's CPU time, how much of the
 * engine's files the operating system's page cache held when the query started, the database's
 * size, and for Columba its own I/O counters ({@link ScanIoMetrics}).
 *
 * <p><b>Cold</b>: before every measured query, {@link PeerConnection#dropCaches()}: for Columba
 * {@code DBCC DROPCLEANBUFFERS}; for DuckDB and H2 the database closed, its files dropped from the
 * page cache, reopened, and dropped again. <b>Warm</b>: the query follows the same query on the same
 * connection (the check run before the first, the previous one after), so each engine's cache
 * ({@value Peer#CACHE} each) and the page cache hold what that query reads. Both fixtures run
 * outside the timed call ({@code Level.Invocation}). Every result is checked against the result all
 * four engines agreed on, before measuring and after every measured query.
 *
 * <p>Caveats: DuckDB runs one thread, as the others run a query on one; its compressed format and
 * vectorized engine are what Columba's columnstore aims at, H2 is a row store that evaluates row by
 * row. The JVM's compiled code stays warm in cold runs. The disk is shared and noisy: compare
 * ratios within one run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 3)
@Fork(1)
public class PeerQueryBenchmark {

    /** Where the data is when a measured query starts. */
    public enum Cache {
        /** Nowhere in memory: the engine's cache and the page cache emptied (see {@link PeerConnection}). */
        COLD,
        /** Wherever the same query just before left it. */
        WARM
    }

    /** {@code read_bytes} of {@code /proc/self/io} per second of the query. */
    public static final Metric PROCESS_READ_RATE = new Metric("procReadMBps", "MB/s");
    /** CPU time of the whole process during the query (every thread, DuckDB's too). */
    public static final Metric PROCESS_CPU = new Metric("processCpuMs", "ms");
    /** Bytes of the engine's files in the operating system's page cache when the query started. */
    public static final Metric RESIDENT_BEFORE = new Metric("residentBeforeMB", "MB");
    /** Bytes of the engine's database files. */
    public static final Metric DATABASE_SIZE = new Metric("databaseMB", "MB");

    /** TPC-H scale factor: 1 (6,001,215 rows), 10 by parameter, 0.01 in short runs. */
    @Param(LineitemDatabases.FULL_SCALE_FACTOR)
    public double scaleFactor;

    @Param({"COLUMBA_COLUMNSTORE", "COLUMBA_ROWSTORE", "DUCKDB", "H2"})
    public Peer engine;

    @Param({"Q1", "Q6", "SCAN", "SCAN_FILTERED"})
    public TpchQuery query;

    @Param({"COLD", "WARM"})
    public Cache cache;

    /** Threads each engine may use for a query: Columba's max_dop, DuckDB's threads (H2: 1 only). */
    @Param("1")
    public int threads;

    /** Parent of the benchmark databases; empty means bench/target/data. */
    @Param("")
    public String dataDirectory;

    private final com.sun.management.OperatingSystemMXBean system =
            ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class);
    private PeerConnection connection;
    private QueryResult expected;
    private double databaseMb;
    private QueryResult result;
    private long residentBefore;
    private ProcSelfIo processBefore;
    private long processCpuBefore;
    private long startNanos;

    @Setup(Level.Trial)
    public void connect() {
        if (!ProcSelfIo.available()) {
            throw new ColumbaException(ErrorCode.INTERNAL, "the peers suite needs /proc/self/io to measure every"
                    + " engine's reads alike");
        }
        LineitemDatabases.Description databases = LineitemDatabases.prepare(BenchDirectories.data(dataDirectory),
                scaleFactor, System.out);
        expected = databases.expected().get(query);
        connection = new PeerConnection(engine, databases.directory());
        connection.useThreads(threads);
        databaseMb = connection.databaseBytes() / ScanIoMetrics.MEGABYTE;
        LineitemDatabases.check(connection.run(query), expected, engine, query, "in the check run before measuring");
    }

    @Setup(Level.Invocation)
    public void startQuery() {
        if (cache == Cache.COLD) {
            connection.dropCaches();
        }
        residentBefore = connection.residentBytes();
        processBefore = ProcSelfIo.read();
        processCpuBefore = system.getProcessCpuTime();
        startNanos = System.nanoTime();
    }

    @Benchmark
    public QueryResult run() {
        result = connection.run(query);
        return result;
    }

    @TearDown(Level.Invocation)
    public void recordQuery() {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        long processCpu = system.getProcessCpuTime() - processCpuBefore;
        ProcSelfIo process = ProcSelfIo.read().minus(processBefore);
        LineitemDatabases.check(result, expected, engine, query, "in a measured run (" + cache + ")");
        if (engine.isColumba()) {
            ScanIoMetrics.record(connection.lastStatistics(), process, seconds);
        } else {
            IterationMetrics.record(ScanIoMetrics.PROCESS_READ, process.readBytes() / ScanIoMetrics.MEGABYTE);
        }
        IterationMetrics.record(PROCESS_READ_RATE, process.readBytes() / ScanIoMetrics.MEGABYTE / seconds);
        IterationMetrics.record(PROCESS_CPU, processCpu / 1e6);
        IterationMetrics.record(RESIDENT_BEFORE, residentBefore / ScanIoMetrics.MEGABYTE);
        IterationMetrics.record(DATABASE_SIZE, databaseMb);
    }

    @TearDown(Level.Trial)
    public void disconnect() {
        if (connection != null) {
            connection.close();
        }
    }
}
