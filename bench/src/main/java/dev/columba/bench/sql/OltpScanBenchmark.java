package dev.columba.bench.sql;

import dev.columba.bench.harness.BenchDirectories;
import dev.columba.bench.harness.IterationMetrics;
import dev.columba.bench.harness.Metric;
import dev.columba.bench.harness.ScanIoMetrics;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.io.ProcSelfIo;
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
 * Seed 003's other case, where prefetch helps ("a query that does a full table scan ... was 35%
 * slower with prefetch disabled"): {@code SELECT COUNT(*), SUM(balance) FROM accounts}, cold
 * (checkpoint and {@code DBCC DROPCLEANBUFFERS} before each run, outside the timed call), on the
 * same table, pool and {@code O_DIRECT} files as {@link OltpWorkloadBenchmark}, read-ahead on and
 * off. Secondary results: the scan's I/O statistics ({@code ScanIoMetrics}). The row count is checked.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@Fork(1)
public class OltpScanBenchmark {
    public static final Metric ROWS = new Metric("rows", "rows");
    static final String SCAN = "SELECT COUNT(*), SUM(balance) FROM accounts";

    @Param("2000000")
    public long rows;

    @Param("64")
    public int bufferPoolMb;

    @Param({"true", "false"})
    public boolean readAhead;

    @Param("500")
    public int readAheadDepthPages;

    /** Parent of the benchmark databases; empty for {@code bench/target/data}. */
    @Param("")
    public String dataDirectory;

    private SqlDatabase database;
    private SqlDatabase.Executed executed;
    private ProcSelfIo processBefore;
    private long startNanos;

    @Setup(Level.Trial)
    public void open() {
        AccountsTable.Description table = AccountsTable.prepare(BenchDirectories.data(dataDirectory), rows, System.out);
        database = AccountsTable.open(table, bufferPoolMb, readAhead, readAheadDepthPages);
    }

    @Setup(Level.Invocation)
    public void start() {
        database.dropCleanBuffers();
        processBefore = ProcSelfIo.available() ? ProcSelfIo.read() : null;
        startNanos = System.nanoTime();
    }

    @Benchmark
    public SqlDatabase.Executed scan() {
        executed = database.execute(SCAN);
        return executed;
    }

    @TearDown(Level.Invocation)
    public void record() {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        ProcSelfIo process = processBefore == null ? null : ProcSelfIo.read().minus(processBefore);
        if (executed.rows() != 1 || executed.sumOfFirstColumn() != rows) {
            throw new ColumbaException(ErrorCode.INTERNAL, "the scan of " + AccountsTable.TABLE_NAME + " counted "
                    + executed.sumOfFirstColumn() + " rows, expected " + rows);
        }
        ScanIoMetrics.record(executed.statistics().total(), process, seconds);
        IterationMetrics.record(ROWS, executed.sumOfFirstColumn());
    }

    @TearDown(Level.Trial)
    public void close() {
        if (database != null) {
            database.close();
        }
    }
}
