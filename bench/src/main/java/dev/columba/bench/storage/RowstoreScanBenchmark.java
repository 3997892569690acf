package dev.columba.bench.storage;

import dev.columba.bench.harness.BenchDirectories;
import dev.columba.bench.harness.IterationMetrics;
import dev.columba.bench.harness.Metric;
import dev.columba.bench.harness.ScanIoMetrics;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.stats.IoStats;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.io.ProcSelfIo;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import java.util.Locale;
import java.util.Properties;
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
 * Seed 004 on Columba: {@code SELECT max(dt) FROM test} as a clustered index scan (key order, along
 * the leaf chain) of the {@link ScanTable} (1 GB by default), with read-ahead on and off, cold and
 * warm. The score is the time of one whole scan; the secondary results are the scan's I/O
 * counters, its rates, and the bytes {@code /proc/self/io} says the process read, per scan.
 *
 * <p><b>Cold</b>: before every measured scan, a checkpoint and {@code DBCC DROPCLEANBUFFERS}
 * ({@link Database#dropCleanBuffers()}: the buffer pool emptied and the data file dropped from the
 * operating system's page cache), so every page comes from the device. This is a
 * {@code @Setup(Level.Invocation)} in {@code SingleShotTime} mode: JMH calls invocation fixtures
 * outside the timed call and leaves them out of the score, and, unlike an iteration fixture, it
 * keeps each scan cold even if the batch size is raised above one. JMH's warning about
 * {@code Level.Invocation} (timestamps around each call) matters for calls far shorter than a
 * millisecond; a scan takes from milliseconds to seconds. <b>Warm</b>: the buffer pool is sized to
 * hold the table and filled by the check scan before measuring; a warm scan that touches storage
 * fails the run. Both use the same pool size, so only the cache state differs.
 *
 * <p><b>Read-ahead off</b> means one synchronous 8 KB read per page, as trace flag 652 does: the
 * data file is opened with {@code POSIX_FADV_RANDOM}, so the kernel adds none of its own.
 * <b>On</b>: asynchronous reads of up to {@code readAheadMaxPagesPerIo} contiguous pages, kept
 * {@code readAheadDepthPages} ahead of the scan.
 *
 * <p>Every scan's result (row count, sum of {@code j}, max of {@code dt}) is checked against the
 * expected value, once before measuring and after each measured scan; a wrong scan fails the run.
 *
 * <p>Caveats: the scan runs on one thread through the row-at-a-time {@code TableCursor} API (two
 * boxed values per row), so the warm figure measures the buffer pool, the leaf walk and row
 * decoding, not a batch-mode operator. Cold figures depend on the device, which on the reference
 * machine is a shared virtual disk that varies up to 2x between runs seconds apart: compare the on/off
 * ratio and the share of {@link DeviceSequentialReadBenchmark}'s bandwidth measured in the same
 * run, never absolute numbers across runs. {@code /proc/self/io} counts the whole process; other
 * threads reading from storage during a scan would show up in the ratio (nothing else in the fork
 * does). A host-side cache under the virtual disk, if any, cannot be dropped without root.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@Fork(1)
public class RowstoreScanBenchmark {

    /** Where the pages are when a measured scan starts. */
    public enum Cache { COLD, WARM }

    /** The scan's I/O figures, named as every scan benchmark names them ({@link ScanIoMetrics}). */
    public static final Metric LOGICAL_READS = ScanIoMetrics.LOGICAL_READS;
    public static final Metric PHYSICAL_READS = ScanIoMetrics.PHYSICAL_READS;
    public static final Metric READ_AHEAD_READS = ScanIoMetrics.READ_AHEAD_READS;
    public static final Metric READ_AHEAD_USED = ScanIoMetrics.READ_AHEAD_USED;
    public static final Metric READ_AHEAD_WASTED = ScanIoMetrics.READ_AHEAD_WASTED;
    public static final Metric READ_IOS = ScanIoMetrics.READ_IOS;
    public static final Metric BYTES_PER_IO = ScanIoMetrics.BYTES_PER_IO;
    public static final Metric PAGE_IO_WAIT = ScanIoMetrics.PAGE_IO_WAIT;
    public static final Metric SCAN_RATE = ScanIoMetrics.SCAN_RATE;
    public static final Metric STORAGE_RATE = ScanIoMetrics.STORAGE_RATE;
    public static final Metric PROCESS_READ = ScanIoMetrics.PROCESS_READ;
    public static final Metric COUNTERS_TO_PROCESS = ScanIoMetrics.COUNTERS_TO_PROCESS;

    static final double MEGABYTE = ScanIoMetrics.MEGABYTE;

    /** Table size in MB (2^20 bytes). */
    @Param("1024")
    public int sizeMb;

    @Param({"true", "false"})
    public boolean readAhead;

    @Param({"COLD", "WARM"})
    public Cache cache;

    @Param("500")
    public int readAheadDepthPages;

    @Param("64")
    public int readAheadMaxPagesPerIo;

    /** Parent of the benchmark databases; empty for {@code bench/target/data}. */
    @Param("")
    public String dataDirectory;

    private ScanTable.Description table;
    private Database database;
    private TableStore store;
    private ReadAheadOptions options;
    private IoCounters counters;
    private ProcSelfIo processBefore;
    private long startNanos;
    private ScanResult result;

    @Setup(Level.Trial)
    public void openTable() {
        table = ScanTable.prepare(BenchDirectories.data(dataDirectory), sizeMb, System.out);
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", table.bufferPoolHoldingTable());
        database = Database.open(table.directory(), settings, NativeFilesFacade.INSTANCE);
        store = new Tables(database).table(database.bufferPool(), ScanTable.TABLE_NAME, new IoCounters());
        ReadAheadOptions on = new ReadAheadOptions(true, readAheadDepthPages, readAheadMaxPagesPerIo);
        options = readAhead ? on : ReadAheadOptions.OFF;
        // Check the result before measuring; for a warm run this scan also fills the pool.
        ScanTable.check(ScanTable.scan(store, database.bufferPool(), on, new IoCounters()), table.rows(),
                "the check scan before measuring");
    }

    @Setup(Level.Invocation)
    public void startScan() {
        if (cache == Cache.COLD) {
            database.checkpoint();
            database.dropCleanBuffers();
        }
        counters = new IoCounters();
        processBefore = ProcSelfIo.available() ? ProcSelfIo.read() : null;
        startNanos = System.nanoTime();
    }

    @Benchmark
    public ScanResult scan() {
        result = ScanTable.scan(store, database.bufferPool(), options, counters);
        return result;
    }

    @TearDown(Level.Invocation)
    public void recordScan() {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        ProcSelfIo process = processBefore == null ? null : ProcSelfIo.read().minus(processBefore);
        ScanTable.check(result, table.rows(), "a measured " + describe() + " scan");
        IoStats stats = counters.snapshot();
        if (cache == Cache.WARM && stats.pagesFromStorage() > 0) {
            throw new ColumbaException(ErrorCode.INTERNAL, "a warm scan read " + stats.pagesFromStorage()
                    + " pages from storage: the buffer pool (" + table.bufferPoolHoldingTable() + ") does not hold the "
                    + table.pages() + " pages of the table");
        }
        ScanIoMetrics.record(stats, process, seconds);
    }

    @TearDown(Level.Trial)
    public void closeTable() {
        if (database != null) {
            database.close();
        }
    }

    private String describe() {
        return cache.name().toLowerCase(Locale.ROOT) + (readAhead ? " read-ahead" : " no-read-ahead");
    }
}
