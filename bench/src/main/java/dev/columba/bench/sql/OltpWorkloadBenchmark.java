package dev.columba.bench.sql;

import dev.columba.bench.harness.BenchDirectories;
import dev.columba.bench.harness.IterationMetrics;
import dev.columba.bench.harness.Metric;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoStats;
import java.util.Locale;
import java.util.SplittableRandom;
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
 * Seed 003's IO-bound OLTP benchmark, on Columba: {@code operations} statements in one session on
 * the {@link AccountsTable} (several times the buffer pool, data files read with {@code O_DIRECT}),
 * with read-ahead on and off. The statements, drawn from a seeded random stream that is the same
 * for every configuration:
 * <ul>
 *   <li>point read through the secondary index: {@code SELECT id, balance FROM accounts WHERE email = ?};</li>
 *   <li>small update through it: {@code UPDATE accounts SET balance = balance + 1 WHERE email = ?};</li>
 *   <li>{@code RANGE} mix only, one statement in ten: a short range read of the clustered index,
 *       keyset pagination's {@code SELECT id, balance FROM accounts WHERE id > ? LIMIT 10}: the
 *       query whose declared scan reads ahead far past the ten rows it returns.</li>
 * </ul>
 * The score is the time of all {@code operations}; the secondary results are operations per
 * second and, per operation, the pages read (logical, physical, read ahead) and the read-ahead pages
 * used and wasted: the figure InnoDB could not give seed 003. Each statement's result is checked
 * (the one row of the email, one row updated, ten consecutive ids).
 *
 * <p>The buffer pool is emptied once per trial; the warm-up iteration then fills it, so measured
 * iterations run against a pool in its steady state, as a long benchmark does. The updates commit
 * one by one (autocommit), each a log flush.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@Fork(1)
public class OltpWorkloadBenchmark {

    /** Which statements the workload runs. */
    public enum Mix {
        /** Point reads and updates through the secondary index, half each. */
        POINT,
        /** 45% point reads, 45% updates, 10% short range reads of the clustered index. */
        RANGE
    }

    public static final Metric OPERATIONS_PER_SECOND = new Metric("operationsPerSecond", "ops/s");
    public static final Metric LOGICAL_READS_PER_OPERATION = new Metric("logicalReadsPerOp", "pages");
    public static final Metric PHYSICAL_READS_PER_OPERATION = new Metric("physicalReadsPerOp", "pages");
    public static final Metric READ_AHEAD_READS_PER_OPERATION = new Metric("readAheadReadsPerOp", "pages");
    public static final Metric READ_AHEAD_USED_PER_OPERATION = new Metric("readAheadUsedPerOp", "pages");
    public static final Metric READ_AHEAD_WASTED_PER_OPERATION = new Metric("readAheadWastedPerOp", "pages");
    /** Physical and read-ahead reads: every page the operation brought from storage. */
    public static final Metric PAGES_FROM_STORAGE_PER_OPERATION = new Metric("pagesFromStoragePerOp", "pages");
    public static final Metric READ_IOS_PER_OPERATION = new Metric("readIosPerOp", "I/Os");
    /** Range reads among the operations (0 in the POINT mix). */
    public static final Metric RANGE_READS = new Metric("rangeReads", "statements");

    static final long SEED = 3;
    static final String POINT_READ = "SELECT id, balance FROM accounts WHERE email = ?";
    static final String UPDATE = "UPDATE accounts SET balance = balance + 1 WHERE email = ?";
    static final String RANGE_READ = "SELECT id, balance FROM accounts WHERE id > ? LIMIT 10";
    static final int RANGE_ROWS = 10;

    @Param("2000000")
    public long rows;

    @Param("64")
    public int bufferPoolMb;

    @Param({"true", "false"})
    public boolean readAhead;

    @Param({"POINT", "RANGE"})
    public Mix mix;

    /** Statements per measured call. */
    @Param("250")
    public int operations;

    @Param("500")
    public int readAheadDepthPages;

    /**
     * {@code delayed_durability} for the workload's session: false (the default) makes every
     * autocommitted update wait for its log flush, which on a disk without a fast flush bounds the
     * workload by write I/O; true leaves the flushes to the background flusher, so the reads the
     * article is about are the I/O measured.
     */
    @Param("false")
    public boolean delayedDurability;

    /** Parent of the benchmark databases; empty for {@code bench/target/data}. */
    @Param("")
    public String dataDirectory;

    private SqlDatabase database;
    private SplittableRandom random;
    private IoStats total;
    private long ranges;
    private long startNanos;

    @Setup(Level.Trial)
    public void open() {
        AccountsTable.Description table = AccountsTable.prepare(BenchDirectories.data(dataDirectory), rows, System.out);
        database = AccountsTable.open(table, bufferPoolMb, readAhead, readAheadDepthPages);
        if (delayedDurability) {
            database.execute("SET delayed_durability = on");
        }
        database.dropCleanBuffers();
        random = new SplittableRandom(SEED);
    }

    @Setup(Level.Invocation)
    public void start() {
        total = IoStats.ZERO;
        ranges = 0;
        startNanos = System.nanoTime();
    }

    @Benchmark
    public long workload() {
        for (int operation = 0; operation < operations; operation++) {
            int draw = random.nextInt(100);
            if (mix == Mix.RANGE && draw < 10) {
                long after = random.nextLong(rows - RANGE_ROWS);
                SqlDatabase.Executed read = database.execute(RANGE_READ, after);
                // ids after+1 .. after+10
                check(read.rows() == RANGE_ROWS && read.sumOfFirstColumn() == RANGE_ROWS * after + 55, RANGE_READ, after,
                        read);
                total = total.plus(read.statistics().total());
                ranges++;
                continue;
            }
            long id = random.nextLong(rows);
            boolean update = mix == Mix.POINT ? draw < 50 : draw < 55;
            SqlDatabase.Executed executed = database.execute(update ? UPDATE : POINT_READ, AccountsTable.email(id));
            check(executed.rows() == 1 && (update || executed.sumOfFirstColumn() == id), update ? UPDATE : POINT_READ, id,
                    executed);
            total = total.plus(executed.statistics().total());
        }
        return total.logicalReads();
    }

    private static void check(boolean right, String sql, long value, SqlDatabase.Executed executed) {
        if (!right) {
            throw new ColumbaException(ErrorCode.INTERNAL, String.format(Locale.ROOT,
                    "'%s' with %d gave %,d rows (first column summing to %,d)", sql, value, executed.rows(),
                    executed.sumOfFirstColumn()));
        }
    }

    @TearDown(Level.Invocation)
    public void record() {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        IterationMetrics.record(OPERATIONS_PER_SECOND, operations / seconds);
        IterationMetrics.record(LOGICAL_READS_PER_OPERATION, (double) total.logicalReads() / operations);
        IterationMetrics.record(PHYSICAL_READS_PER_OPERATION, (double) total.physicalReads() / operations);
        IterationMetrics.record(READ_AHEAD_READS_PER_OPERATION, (double) total.readAheadReads() / operations);
        IterationMetrics.record(READ_AHEAD_USED_PER_OPERATION, (double) total.readAheadUsed() / operations);
        IterationMetrics.record(READ_AHEAD_WASTED_PER_OPERATION, (double) total.readAheadWasted() / operations);
        IterationMetrics.record(PAGES_FROM_STORAGE_PER_OPERATION, (double) total.pagesFromStorage() / operations);
        IterationMetrics.record(READ_IOS_PER_OPERATION, (double) total.readIos() / operations);
        IterationMetrics.record(RANGE_READS, ranges);
    }

    @TearDown(Level.Trial)
    public void close() {
        if (database != null) {
            database.close();
        }
    }
}
