package dev.columba.bench.sql;

import dev.columba.bench.harness.BenchDirectories;
import dev.columba.bench.harness.IterationMetrics;
import dev.columba.bench.harness.Metric;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoStats;
import dev.columba.datagen.Seed000Sql;
import java.util.List;
import java.util.Locale;
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
 * Seed 000's random prefetch test: the semi-join of TestTable's {@code ID < 1000} rows with
 * Testtable2 on {@code IDvarchar}, {@code OPTION (RECOMPILE, LOOP JOIN, MAXDOP 1)}, cold, with
 * prefetch on and off ({@code DBCC TRACEON (8744)}), optionally beside random background reads.
 * Each outer row probes Testtable2's clustered index by {@code IDvarchar}, whose text order scatters
 * the probes over the whole table: the random reads that prefetch issues many at a time. The plan
 * is checked before measuring ({@code WithUnorderedPrefetch} exactly when prefetch is on), and
 * every run's result (the outer rows, the sum of their IDs).
 *
 * <p>Secondary results: the statement's I/O over both tables ({@code ScanIoMetrics}), and the inner
 * table's own physical and read-ahead (prefetch) reads. Fixtures as in {@link RangeScanBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@Fork(1)
public class PrefetchJoinBenchmark {
    public static final Metric ROWS = new Metric("rows", "rows");
    public static final Metric INNER_LOGICAL_READS = new Metric("innerLogicalReads", "pages");
    public static final Metric INNER_PHYSICAL_READS = new Metric("innerPhysicalReads", "pages");
    public static final Metric INNER_READ_AHEAD_READS = new Metric("innerReadAheadReads", "pages");

    /** Rows of TestTable and Testtable2. */
    @Param("6250000")
    public long rows;

    /** The query's bound on the outer side: {@code ID < joinBelow}. */
    @Param("1000")
    public long joinBelow;

    @Param({"true", "false"})
    public boolean prefetch;

    /** The buffer pool: it holds what one run reads, which is all it must do, the run being cold. */
    @Param("256")
    public int bufferPoolMb;

    /** Threads reading random 8 KB blocks of a scratch file while the query runs; 0 for none. */
    @Param("0")
    public int backgroundThreads;

    @Param("512")
    public int backgroundFileMb;

    /** Parent of the benchmark databases; empty for {@code bench/target/data}. */
    @Param("")
    public String dataDirectory;

    private ColdQuery query;
    private String sql;

    /** The article's query with bound {@code joinBelow}. */
    public static String sql(long joinBelow) {
        return Seed000Sql.loopJoin(joinBelow);
    }

    @Setup(Level.Trial)
    public void open() {
        Seed000Tables.Description tables = Seed000Tables.prepare(BenchDirectories.data(dataDirectory), rows, System.out);
        query = ColdQuery.open(tables.directory(), bufferPoolMb, BenchDirectories.data(dataDirectory), backgroundThreads,
                backgroundFileMb);
        sql = sql(joinBelow);
        if (!prefetch) {
            query.database().execute("DBCC TRACEON (8744)");
        }
        List<String> plan = query.database().explain(sql);
        String text = String.join("\n", plan);
        if (!text.contains("IndexNestedLoopJoin") || text.contains("WithUnorderedPrefetch") != prefetch) {
            throw new ColumbaException(ErrorCode.INTERNAL, "the join's plan with prefetch " + (prefetch ? "on" : "off")
                    + " is not an index nested-loop join " + (prefetch ? "with" : "without") + " prefetch:\n" + text);
        }
        check(query.database().execute(sql), "the check run before measuring");
    }

    @Setup(Level.Invocation)
    public void start() {
        query.start();
    }

    @Benchmark
    public SqlDatabase.Executed join() {
        return query.run(sql);
    }

    @TearDown(Level.Invocation)
    public void record() {
        SqlDatabase.Executed executed = query.finish();
        check(executed, "a measured run");
        IterationMetrics.record(ROWS, executed.rows());
        IoStats inner = executed.statistics().tables().getOrDefault(Seed000Tables.TEST_TABLE_2, IoStats.ZERO);
        IterationMetrics.record(INNER_LOGICAL_READS, inner.logicalReads());
        IterationMetrics.record(INNER_PHYSICAL_READS, inner.physicalReads());
        IterationMetrics.record(INNER_READ_AHEAD_READS, inner.readAheadReads());
    }

    private void check(SqlDatabase.Executed executed, String run) {
        long expectedRows = Math.min(rows, joinBelow - 1);
        long expectedSum = expectedRows * (expectedRows + 1) / 2;
        if (executed.rows() != expectedRows || executed.sumOfFirstColumn() != expectedSum) {
            throw new ColumbaException(ErrorCode.INTERNAL, String.format(Locale.ROOT,
                    "%s of the join gave %,d rows with IDs summing to %,d; expected %,d rows summing to %,d", run,
                    executed.rows(), executed.sumOfFirstColumn(), expectedRows, expectedSum));
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        if (query != null) {
            query.close();
        }
    }
}
