package dev.columba.bench.sql;

import dev.columba.bench.harness.BenchDirectories;
import dev.columba.bench.harness.IterationMetrics;
import dev.columba.bench.harness.Metric;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.datagen.Seed000Sql;
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
 * Seed 000's sequential read-ahead test: {@code SELECT * FROM TestTable WHERE ID < 300000}, a range
 * seek of the clustered index, cold, with read-ahead on and off ({@code DBCC TRACEON (652)} in the
 * benchmark's session, as the article turns it off), optionally beside random background reads
 * ({@code backgroundThreads}, the article's diskspd run). The score is the statement's time from
 * its start to its last row; the secondary results are its I/O statistics ({@code ScanIoMetrics}:
 * logical, physical and read-ahead reads, read-ahead used and wasted, bytes per I/O, MB/s).
 *
 * <p>Before every measured run, outside the timed call: {@code CHECKPOINT} and
 * {@code DBCC DROPCLEANBUFFERS} (Level.Invocation fixtures: one run is a second or less, far above
 * what JMH's per-invocation fixtures cost). The result is checked: every row below the bound, the
 * sum of their IDs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@Fork(1)
public class RangeScanBenchmark {
    public static final Metric ROWS = new Metric("rows", "rows");

    /** Rows of TestTable and Testtable2. */
    @Param("6250000")
    public long rows;

    /** The query's bound: {@code ID < scanBelow}. */
    @Param("300000")
    public long scanBelow;

    @Param({"true", "false"})
    public boolean readAhead;

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

    /** The article's query with bound {@code scanBelow}. */
    public static String sql(long scanBelow) {
        return Seed000Sql.largeRange(scanBelow);
    }

    @Setup(Level.Trial)
    public void open() {
        Seed000Tables.Description tables = Seed000Tables.prepare(BenchDirectories.data(dataDirectory), rows, System.out);
        query = ColdQuery.open(tables.directory(), bufferPoolMb, BenchDirectories.data(dataDirectory), backgroundThreads,
                backgroundFileMb);
        sql = sql(scanBelow);
        if (!readAhead) {
            query.database().execute("DBCC TRACEON (652)");
        }
        check(query.database().execute(sql), "the check run before measuring");
    }

    @Setup(Level.Invocation)
    public void start() {
        query.start();
    }

    @Benchmark
    public SqlDatabase.Executed scan() {
        return query.run(sql);
    }

    @TearDown(Level.Invocation)
    public void record() {
        SqlDatabase.Executed executed = query.finish();
        check(executed, "a measured run");
        IterationMetrics.record(ROWS, executed.rows());
    }

    private void check(SqlDatabase.Executed executed, String run) {
        long expectedRows = Math.min(rows, scanBelow - 1);
        long expectedSum = expectedRows * (expectedRows + 1) / 2;
        if (executed.rows() != expectedRows || executed.sumOfFirstColumn() != expectedSum) {
            throw new ColumbaException(ErrorCode.INTERNAL, String.format(Locale.ROOT,
                    "%s of '%s' gave %,d rows with IDs summing to %,d; expected %,d rows summing to %,d", run, sql,
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
