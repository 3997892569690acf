package dev.columba.bench.storage;

import dev.columba.bench.harness.ScanIoMetrics;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.stats.IoStats;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.io.ProcSelfIo;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import java.util.Properties;

/**
 * Seed 004's query on an open {@link ScanTable} database, as its benchmarks measure it: the check
 * scan before measuring, and around each measured scan the counters, the {@code /proc/self/io}
 * difference and the time, then the result checked and the figures recorded
 * ({@link ScanIoMetrics}). {@link RowstoreScanBenchmark} (a buffer pool that holds the table) and
 * {@link LargeTableScanBenchmark} (a pool a quarter of the table or less) both measure through it,
 * so they scan, check and count alike and differ only in their pool and in what a warm scan means.
 *
 * <p>Lifetime: opened in a trial fixture, closed in the trial's tear-down; {@link #start} and
 * {@link #finish} bracket each measured {@link #scan}, from invocation fixtures. One thread.
 */
final class MeasuredTableScan implements AutoCloseable {
    private final ScanTable.Description table;
    private final Database database;
    private final TableStore store;
    private final ReadAheadOptions readAhead;
    private final String description;
    private IoCounters counters;
    private ProcSelfIo processBefore;
    private long startNanos;
    private ScanResult result;

    private MeasuredTableScan(ScanTable.Description table, Database database, ReadAheadOptions readAhead,
                              String description) {
        this.table = table;
        this.database = database;
        this.readAhead = readAhead;
        this.description = description;
        this.store = new Tables(database).table(database.bufferPool(), ScanTable.TABLE_NAME, new IoCounters());
    }

    /**
     * Opens {@code table}'s database with a buffer pool of {@code bufferPoolSize} (a
     * {@code buffer_pool_size} value such as {@code 256MB}) and checks the result of a scan with
     * read-ahead on before anything is measured; that scan also leaves the buffer pool as a scan
     * leaves it, which is where a warm scan starts.
     *
     * @param readAhead          whether measured scans read ahead
     * @param depthPages         how far ahead read-ahead keeps ({@code readAheadDepthPages})
     * @param largestIoPages     the largest read-ahead I/O ({@code readAheadMaxPagesPerIo})
     * @param cache              where the pages are when a measured scan starts, for messages ("cold", "warm")
     */
    static MeasuredTableScan open(ScanTable.Description table, String bufferPoolSize, boolean readAhead,
                                  int depthPages, int largestIoPages, String cache) {
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", bufferPoolSize);
        Database database = Database.open(table.directory(), settings, NativeFilesFacade.INSTANCE);
        try {
            ReadAheadOptions on = new ReadAheadOptions(true, depthPages, largestIoPages);
            MeasuredTableScan scan = new MeasuredTableScan(table, database, readAhead ? on : ReadAheadOptions.OFF,
                    cache + (readAhead ? " read-ahead" : " no-read-ahead"));
            ScanTable.check(ScanTable.scan(scan.store, database.bufferPool(), on, new IoCounters()), table.rows(),
                    "the check scan before measuring");
            return scan;
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
    }

    Database database() {
        return database;
    }

    /** What the measured scans are, for messages: e.g. "cold read-ahead". */
    String description() {
        return description;
    }

    /** Empties the buffer pool and the operating system's cache of the table: checkpoint, then {@code DBCC DROPCLEANBUFFERS}. */
    void makeCold() {
        database.checkpoint();
        database.dropCleanBuffers();
    }

    /** Starts the window of a measured scan; call last in the invocation's set-up. */
    void start() {
        counters = new IoCounters();
        processBefore = ProcSelfIo.available() ? ProcSelfIo.read() : null;
        startNanos = System.nanoTime();
    }

    /** The measured scan. */
    ScanResult scan() {
        result = ScanTable.scan(store, database.bufferPool(), readAhead, counters);
        return result;
    }

    /**
     * Ends the window: checks the scan's result, records its figures and returns its counters, for
     * the benchmark's own checks and figures.
     */
    Finished finish() {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        ProcSelfIo process = processBefore == null ? null : ProcSelfIo.read().minus(processBefore);
        ScanTable.check(result, table.rows(), "a measured " + description + " scan");
        IoStats stats = counters.snapshot();
        ScanIoMetrics.record(stats, process, seconds);
        return new Finished(result, stats, seconds);
    }

    /** A measured scan's (checked) result, its counters and its elapsed time. */
    record Finished(ScanResult result, IoStats stats, double seconds) {
    }

    @Override
    public void close() {
        database.close();
    }
}
