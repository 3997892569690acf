package dev.columba.bench.storage;

import dev.columba.bench.harness.BenchDirectories;
import dev.columba.bench.harness.IterationMetrics;
import dev.columba.bench.harness.Metric;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoStats;
import dev.columba.storage.page.PageFormat;
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
 * Seed 004 as Linchi Shea ran it: {@code SELECT max(dt) FROM test} as a clustered index scan of a
 * table much larger than the buffer pool ({@link ScanTable}, 1 GB by default, against a 256 MB
 * pool), with read-ahead on and off ({@code DBCC TRACEON(652)}), so that every scan, cold or warm,
 * reads the table from storage. The score is the time of one whole scan; the secondary results are
 * the scan's I/O counters, average bytes per read, MB/s from storage, read-ahead pages per second
 * (the article's "Readahead pages/sec"), the pages it found already in the pool, and the bytes
 * {@code /proc/self/io} says the process read.
 *
 * <p><b>Cold</b>: before every measured scan, a checkpoint and {@code DBCC DROPCLEANBUFFERS} (the
 * pool emptied, the data file dropped from the operating system's page cache), as in the article.
 * <b>Warm</b>: the scan follows another scan of the whole table in the same pool (the previous
 * measured one, or the check scan before the first), so the pool holds what a scan leaves behind;
 * only the operating system's page cache of the data file is dropped ({@code POSIX_FADV_DONTNEED},
 * what {@code DROPCLEANBUFFERS} does below the pool), because SQL Server reads unbuffered and a page
 * cache the size of this machine's memory would otherwise serve the whole table. The table is at
 * least four times the pool (checked), so the pool cannot keep it: a warm scan that did not read at
 * least the pages the pool cannot hold from storage fails the run. Both fixtures run outside the
 * timed call ({@code Level.Invocation}; see {@link RowstoreScanBenchmark}).
 *
 * <p><b>Read-ahead off</b> is one synchronous 8 KB read per page (the data file is opened with
 * {@code POSIX_FADV_RANDOM}, so the kernel adds none of its own). <b>On</b>: asynchronous reads of
 * up to {@code readAheadMaxPagesPerIo} contiguous pages, kept {@code readAheadDepthPages} ahead.
 * Every scan's result is checked before measuring and after each measured scan.
 *
 * <p>Caveats: the article's rows are 5,000 bytes, one per page, in a 16,000 MB table; Columba's rows
 * hold at most a quarter page, so four 1,800-byte rows fill each page and the table has as many
 * pages per MB. The scan is row-at-a-time on one thread ({@link RowstoreScanBenchmark}'s caveats).
 * The disk is shared and noisy: compare the on/off ratios of one run, never absolute numbers.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@Fork(1)
public class LargeTableScanBenchmark {

    /** Where the pages are when a measured scan starts. */
    public enum Cache {
        /** Nowhere: the pool emptied and the data file dropped from the operating system's cache. */
        COLD,
        /** In the pool as the previous scan left it; the data file dropped from the operating system's cache. */
        WARM
    }

    /** How many times the buffer pool the table must be at least. */
    public static final int TABLE_TO_POOL = 4;

    /** Rows the scan visited (checked against the table's before they are recorded). */
    public static final Metric ROWS = new Metric("rows", "rows");
    /** Read-ahead pages per second of the scan: the article's "SQL Server Readahead pages/sec". */
    public static final Metric READ_AHEAD_RATE = new Metric("readAheadPagesPerSecond", "pages/s");
    /**
     * Pages the scan found already in the buffer pool: logical reads less physical reads less pages
     * it read ahead and then used.
     */
    public static final Metric POOL_HITS = new Metric("poolHits", "pages");

    /** Table size in MB (2^20 bytes). */
    @Param("1024")
    public int sizeMb;

    /** Buffer pool size in MB; the table must be at least {@link #TABLE_TO_POOL} times as large. */
    @Param("256")
    public int bufferPoolMb;

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
    private MeasuredTableScan scan;

    @Setup(Level.Trial)
    public void openTable() {
        table = ScanTable.prepare(BenchDirectories.data(dataDirectory), sizeMb, System.out);
        long poolBytes = (long) bufferPoolMb << 20;
        if (table.pages() * PageFormat.PAGE_SIZE < TABLE_TO_POOL * poolBytes) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, String.format(Locale.ROOT,
                    "the table of %,d pages (%,d MB) is less than %d times the buffer pool of %d MB, which could keep "
                            + "too much of it: raise --size-mb or lower -p bufferPoolMb", table.pages(),
                    table.pages() * PageFormat.PAGE_SIZE >> 20, TABLE_TO_POOL, bufferPoolMb));
        }
        scan = MeasuredTableScan.open(table, bufferPoolMb + "MB", readAhead, readAheadDepthPages, readAheadMaxPagesPerIo,
                cache.name().toLowerCase(Locale.ROOT));
    }

    @Setup(Level.Invocation)
    public void startScan() {
        switch (cache) {
            case COLD -> scan.makeCold();
            case WARM -> scan.database().dataFile().dropOsCache();
        }
        scan.start();
    }

    @Benchmark
    public ScanResult scan() {
        return scan.scan();
    }

    @TearDown(Level.Invocation)
    public void recordScan() {
        MeasuredTableScan.Finished finished = scan.finish();
        IoStats stats = finished.stats();
        long poolPages = ((long) bufferPoolMb << 20) / PageFormat.PAGE_SIZE;
        if (stats.pagesFromStorage() < table.leafPages() - poolPages) {
            throw new ColumbaException(ErrorCode.INTERNAL, String.format(Locale.ROOT,
                    "a %s scan read %,d pages from storage, fewer than the %,d leaf pages a pool of %,d pages cannot "
                            + "hold", scan.description(), stats.pagesFromStorage(), table.leafPages(), poolPages));
        }
        IterationMetrics.record(ROWS, finished.result().rows());
        IterationMetrics.record(READ_AHEAD_RATE, stats.readAheadReads() / finished.seconds());
        IterationMetrics.record(POOL_HITS, stats.logicalReads() - stats.physicalReads() - stats.readAheadUsed());
    }

    @TearDown(Level.Trial)
    public void closeTable() {
        if (scan != null) {
            scan.close();
        }
    }
}
