package dev.columba.bench.columnstore;

import dev.columba.bench.harness.BenchDirectories;
import dev.columba.bench.harness.IterationMetrics;
import dev.columba.bench.harness.Metric;
import dev.columba.bench.harness.ScanIoMetrics;
import dev.columba.columnstore.build.TrimReason;
import dev.columba.columnstore.encoding.FallbackReason;
import dev.columba.columnstore.encoding.SegmentMetadata;
import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.columnstore.views.ColumnstoreViews;
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
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAccumulator;
import org.apache.arrow.memory.RootAllocator;
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
 * Seed 001 on Columba: a cold full scan of the comments table ({@link CommentsTables}), every
 * column of every row, stored as a columnstore under {@code dictionary_overflow = trim} (SQL
 * Server's behaviour: the Text column's 16 MB dictionary cap cuts rowgroups short), as a columnstore
 * under the default {@code fallback} (rowgroups stay full; the Text segments give their dictionary
 * up), and as a rowstore clustered on {@code Id} — each with and without the Text column. The score
 * is the elapsed time of one scan; secondary results are the scan's CPU time, its I/O counters and
 * rates ({@link ScanIoMetrics}), what its read-ahead did, and the table's layout (rowgroups, their
 * average rows and size, trim reasons, Text dictionaries), recorded with every scan so that each
 * configuration's results are complete on their own.
 *
 * <p><b>Cold</b>: before every measured scan a checkpoint and {@code DBCC DROPCLEANBUFFERS}
 * ({@link Database#dropCleanBuffers()}: the buffer pool emptied, the data file and every columnstore
 * file dropped from the page cache), in an invocation fixture outside the timed call (see
 * {@code RowstoreScanBenchmark} on {@code Level.Invocation}). <b>Read-ahead on</b>: the columnstore
 * issues {@code MADV_WILLNEED} over a rowgroup's segments in requests of at most 8 MB, never past
 * the rowgroup's end, and keeps {@code readAheadDepth} bytes of them requested ahead across rowgroup
 * boundaries (its window; 0 reads ahead the current rowgroup only); the rowstore reads up to 64 contiguous pages per I/O, 500 pages ahead (the
 * settings' defaults). <b>Off</b>: page faults one OS page at a time (columnstore), one 8 KB read
 * per page (rowstore) — slow, so not in the default parameters.
 *
 * <p>CPU time: the scanning thread's ({@link ThreadMXBean}, what SQL Server's {@code STATISTICS TIME}
 * reports for a serial plan) and the whole process's, which adds the rowstore's read-ahead threads
 * (they read and verify pages) and the garbage collector. Every scan's result is checked against the
 * rows the tables were loaded with, before measuring and after each measured scan.
 *
 * <p>Caveats: the rowstore scan is row-at-a-time ({@code TableCursor}, boxed values, a String per
 * Text), the columnstore scan batch-mode into Arrow vectors: the CPU comparison is of the two
 * engines as they are, not of the storage formats alone. The columnstore reads a table's primary
 * dictionaries with ordinary reads when a scan first needs them, outside the lob counters (they show
 * in the counters-to-{@code /proc/self/io} ratio). Elapsed times depend on a shared, noisy virtual
 * disk: compare ratios within one run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@Fork(1)
public class CommentsScanBenchmark {

    /** Rows the scan produced. */
    public static final Metric ROWS = new Metric("rows", "rows");
    /** CPU time of the scanning thread during the scan. */
    public static final Metric THREAD_CPU = new Metric("threadCpuMs", "ms");
    /** CPU time of the whole process during the scan: every thread, the collector's included. */
    public static final Metric PROCESS_CPU = new Metric("processCpuMs", "ms");
    /**
     * Read-ahead requests that found something to read: columnstore {@code MADV_WILLNEED} calls,
     * rowstore asynchronous reads (I/Os less the synchronous one-page reads).
     */
    public static final Metric READ_AHEAD_REQUESTS = new Metric("readAheadRequests", "requests");
    /** Of the columnstore's read-ahead requests, those its window issued into rowgroups after the one being read. */
    public static final Metric READ_AHEAD_REQUESTS_AHEAD = new Metric("readAheadRequestsAhead", "requests");
    /** The largest read-ahead request (columnstore) or read I/O (rowstore). */
    public static final Metric LARGEST_READ_AHEAD = new Metric("largestReadAheadKB", "KB");
    /** Read-ahead pages of both kinds x 8 KB per read-ahead request. */
    public static final Metric READ_AHEAD_PER_REQUEST = new Metric("readAheadKBPerRequest", "KB");
    /** The {@code READ_BYTES} counter over {@code /proc/self/io} read_bytes: the check in bytes, no page rounding. */
    public static final Metric READ_BYTES_TO_PROCESS = new Metric("readBytesToProcRatio", "ratio");

    /** Bytes of the table: rowgroup and dictionary files, or B+tree pages. */
    public static final Metric TABLE_SIZE = new Metric("tableMB", "MB");
    public static final Metric ROWGROUPS = new Metric("rowgroups", "rowgroups");
    public static final Metric ROWS_PER_ROWGROUP = new Metric("rowsPerRowgroup", "rows");
    /** Average rowgroup file size (segments, secondary dictionaries, footer). */
    public static final Metric MB_PER_ROWGROUP = new Metric("mbPerRowgroup", "MB");
    /**
     * Average bytes per rowgroup of the segments other than Text's: what a rowgroup holds for a scan
     * that leaves Text out, and what SQL Server's rowgroup size shows when Text's values live in its
     * dictionaries, which a rowgroup's size does not include.
     */
    public static final Metric MB_PER_ROWGROUP_WITHOUT_TEXT = new Metric("mbPerRowgroupWithoutText", "MB");
    /** Text dictionaries, primary and secondary. */
    public static final Metric TEXT_DICTIONARIES = new Metric("textDictionaries", "dictionaries");
    public static final Metric TEXT_DICTIONARY_SIZE = new Metric("textDictionaryMB", "MB");
    public static final Metric TEXT_DICTIONARY_MAX_SIZE = new Metric("textDictionaryMaxMB", "MB");
    /** Text segments that use no dictionary at all. */
    public static final Metric TEXT_SEGMENTS_WITHOUT_DICTIONARY = new Metric("textSegmentsWithoutDictionary", "segments");
    /** Text segments that gave their dictionary up because it would overflow ({@code fallback}). */
    public static final Metric TEXT_FALLBACKS = new Metric("textFallbacks", "segments");
    private static final Map<TrimReason, Metric> TRIMS = new EnumMap<>(TrimReason.class);
    /**
     * The largest power of two a rowgroup's row count is binned under: rowgroups hold at most
     * 1,048,576 rows ({@link #rowgroupSizeBin}).
     */
    public static final int LARGEST_ROWGROUP_SIZE_BIN = 20;

    static {
        for (TrimReason reason : TrimReason.values()) {
            StringBuilder name = new StringBuilder("trim");
            for (String word : reason.name().toLowerCase(Locale.ROOT).split("_")) {
                name.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
            }
            TRIMS.put(reason, new Metric(name.toString(), "rowgroups"));
        }
    }

    /** {@code columnstore_read_ahead_depth}'s default, 128 MB, as a {@code @Param} value must be: a constant. */
    public static final String DEFAULT_READ_AHEAD_DEPTH = "134217728";

    private static final String TEXT_COLUMN = "Text";
    private static final double MEGABYTE = ScanIoMetrics.MEGABYTE;

    @Param({"COLUMNSTORE_TRIM", "COLUMNSTORE_FALLBACK", "ROWSTORE"})
    public CommentsTables.Layout layout;

    /** With the Text column (the article's Comments) or without (Comments_Modified). */
    @Param({"true", "false"})
    public boolean text;

    @Param("true")
    public boolean readAhead;

    /**
     * The columnstore's read-ahead window ({@code columnstore_read_ahead_depth}, bytes): how much it
     * keeps requested ahead across rowgroups; 0 reads ahead the current rowgroup only. The default
     * is the setting's (a test pins the two together); the rowstore ignores it.
     */
    @Param(DEFAULT_READ_AHEAD_DEPTH)
    public long readAheadDepth;

    /** Rows per table. */
    @Param(CommentsTables.FULL_ROWS)
    public int rows;

    @Param("FULL")
    public CommentsTables.RowgroupSize rowgroupSize;

    /** Parent of the benchmark databases; empty for {@code bench/target/data}. */
    @Param("")
    public String dataDirectory;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final com.sun.management.OperatingSystemMXBean system =
            ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class);
    private final LongAccumulator largestIo = new LongAccumulator(Math::max, 0);

    private CommentsTables.Description tables;
    private CommentsScanResult expected;
    private Database database;
    private RootAllocator allocator;
    private ColumnstoreTable columnstore;
    private TableStore rowstore;
    private ReadAheadOptions rowstoreReadAhead;
    private List<Map.Entry<Metric, Double>> layoutFigures;

    private IoCounters counters;
    private ProcSelfIo processBefore;
    private long threadCpuBefore;
    private long processCpuBefore;
    private long startNanos;
    private CommentsScanResult result;
    private long readAheadRequests;
    private long readAheadRequestsAhead;
    private long largestReadAheadBytes;

    /** The figure for the metric of trim reason {@code reason}. */
    public static Metric trimMetric(TrimReason reason) {
        return TRIMS.get(reason);
    }

    /**
     * The rowgroup-size distribution's bin {@code bin}: how many rowgroups hold more than
     * 2^(bin-1) and at most 2^bin rows (bin 0: at most one). Recorded only for bins that hold a rowgroup.
     */
    public static Metric rowgroupSizeBin(int bin) {
        if (bin < 0 || bin > LARGEST_ROWGROUP_SIZE_BIN) {
            throw new IllegalArgumentException("rowgroup size bin " + bin + " is not in 0.." + LARGEST_ROWGROUP_SIZE_BIN);
        }
        return new Metric("rowgroupsUpTo" + (1 << bin) + "Rows", "rowgroups");
    }

    /** The bin of {@link #rowgroupSizeBin} a rowgroup of {@code rows} rows falls in. */
    static int rowgroupSizeBinOf(long rows) {
        return rows <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(rows - 1);
    }

    @Setup(Level.Trial)
    public void openTable() {
        if (!threads.isCurrentThreadCpuTimeSupported()) {
            throw new ColumbaException(ErrorCode.INTERNAL, "this JVM cannot measure a thread's CPU time");
        }
        tables = CommentsTables.prepare(BenchDirectories.data(dataDirectory), rows, rowgroupSize, System.out);
        expected = tables.expected(text);
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", CommentsTables.scanBufferPool());
        database = Database.open(tables.directory(), settings, NativeFilesFacade.INSTANCE);
        database.bufferPool().setIoSizeListener(largestIo::accumulate);
        allocator = new RootAllocator();
        String name = layout.tableName(text);
        IoCounters setupCounters = new IoCounters();
        if (layout.isColumnstore()) {
            columnstore = ColumnstoreTable.find(database, database.bufferPool(), name, setupCounters)
                    .orElseThrow(() -> new ColumbaException(ErrorCode.INTERNAL, "columnstore table " + name
                            + " is missing from " + tables.directory()));
            layoutFigures = columnstoreLayout();
        } else {
            rowstore = new Tables(database).table(database.bufferPool(), name, setupCounters);
            rowstoreReadAhead = readAhead ? ReadAheadOptions.from(database.settings()) : ReadAheadOptions.OFF;
            layoutFigures = List.of(Map.entry(TABLE_SIZE, tables.table(layout, text).bytes() / MEGABYTE));
        }
        CommentsTables.check(scanOnce(new IoCounters()), expected, "the check scan of " + name + " before measuring");
    }

    /** The table's layout as the system views show it, as figures. */
    private List<Map.Entry<Metric, Double>> columnstoreLayout() {
        IoCounters setupCounters = new IoCounters();
        List<RowgroupEntry> rowgroups = columnstore.rowgroups(database.bufferPool(), setupCounters);
        List<Map.Entry<Metric, Double>> figures = new ArrayList<>();
        figures.add(Map.entry(TABLE_SIZE, tables.table(layout, text).bytes() / MEGABYTE));
        figures.add(Map.entry(ROWGROUPS, (double) rowgroups.size()));
        figures.add(Map.entry(ROWS_PER_ROWGROUP,
                rowgroups.stream().mapToLong(RowgroupEntry::totalRows).average().orElse(0)));
        figures.add(Map.entry(MB_PER_ROWGROUP,
                rowgroups.stream().mapToLong(RowgroupEntry::sizeBytes).average().orElse(0) / MEGABYTE));
        Map<TrimReason, Integer> reasons = new EnumMap<>(TrimReason.class);
        for (RowgroupEntry entry : rowgroups) {
            reasons.merge(entry.trimReason(), 1, Integer::sum);
        }
        for (Map.Entry<TrimReason, Integer> reason : reasons.entrySet()) {
            figures.add(Map.entry(trimMetric(reason.getKey()), (double) reason.getValue()));
        }
        int[] bins = new int[LARGEST_ROWGROUP_SIZE_BIN + 1];
        for (RowgroupEntry entry : rowgroups) {
            bins[rowgroupSizeBinOf(entry.totalRows())]++;
        }
        for (int bin = 0; bin < bins.length; bin++) {
            if (bins[bin] > 0) {
                figures.add(Map.entry(rowgroupSizeBin(bin), (double) bins[bin]));
            }
        }
        if (!text) {
            return figures;
        }
        List<ColumnstoreViews.DictionaryRow> dictionaries = ColumnstoreViews.dictionaries(columnstore,
                database.bufferPool(), setupCounters).stream()
                .filter(row -> row.columnName().equals(TEXT_COLUMN)).toList();
        figures.add(Map.entry(TEXT_DICTIONARIES, (double) dictionaries.size()));
        figures.add(Map.entry(TEXT_DICTIONARY_SIZE,
                dictionaries.stream().mapToLong(ColumnstoreViews.DictionaryRow::onDiskSize).average().orElse(0) / MEGABYTE));
        figures.add(Map.entry(TEXT_DICTIONARY_MAX_SIZE,
                dictionaries.stream().mapToLong(ColumnstoreViews.DictionaryRow::onDiskSize).max().orElse(0) / MEGABYTE));
        List<ColumnstoreViews.SegmentRow> allSegments = ColumnstoreViews.segments(columnstore, database.bufferPool(),
                setupCounters);
        figures.add(Map.entry(MB_PER_ROWGROUP_WITHOUT_TEXT, allSegments.stream()
                .filter(row -> !row.columnName().equals(TEXT_COLUMN))
                .mapToLong(ColumnstoreViews.SegmentRow::onDiskSize).sum() / MEGABYTE / rowgroups.size()));
        List<ColumnstoreViews.SegmentRow> segments = allSegments.stream()
                .filter(row -> row.columnName().equals(TEXT_COLUMN)).toList();
        figures.add(Map.entry(TEXT_SEGMENTS_WITHOUT_DICTIONARY, (double) segments.stream()
                .filter(row -> row.primaryDictionaryId() == SegmentMetadata.NO_DICTIONARY
                        && row.secondaryDictionaryId() == SegmentMetadata.NO_DICTIONARY).count()));
        figures.add(Map.entry(TEXT_FALLBACKS, (double) segments.stream()
                .filter(row -> row.fallbackReason() == FallbackReason.DICTIONARY_OVERFLOW).count()));
        return figures;
    }

    @Setup(Level.Invocation)
    public void startScan() {
        database.checkpoint();
        database.dropCleanBuffers();
        counters = new IoCounters();
        largestIo.reset();
        processBefore = ProcSelfIo.available() ? ProcSelfIo.read() : null;
        processCpuBefore = system.getProcessCpuTime();
        threadCpuBefore = threads.getCurrentThreadCpuTime();
        startNanos = System.nanoTime();
    }

    @Benchmark
    public CommentsScanResult scan() {
        result = scanOnce(counters);
        return result;
    }

    private CommentsScanResult scanOnce(IoCounters scanCounters) {
        if (columnstore == null) {
            return CommentsScans.rowstore(rowstore, database.bufferPool(), rowstoreReadAhead, scanCounters);
        }
        CommentsScans.ColumnstoreScanned scanned = CommentsScans.columnstore(columnstore, database.bufferPool(),
                readAhead, readAheadDepth, scanCounters, allocator);
        readAheadRequests = scanned.readAheadRequests();
        readAheadRequestsAhead = scanned.readAheadRequestsAhead();
        largestReadAheadBytes = scanned.largestReadAheadBytes();
        return scanned.result();
    }

    @TearDown(Level.Invocation)
    public void recordScan() {
        long threadCpu = threads.getCurrentThreadCpuTime() - threadCpuBefore;
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        long processCpu = system.getProcessCpuTime() - processCpuBefore;
        ProcSelfIo process = processBefore == null ? null : ProcSelfIo.read().minus(processBefore);
        CommentsTables.check(result, expected, "a measured scan of " + layout.tableName(text) + " ("
                + layout.description() + ", read-ahead " + (readAhead ? "on" : "off") + ")");
        IoStats stats = counters.snapshot();
        ScanIoMetrics.record(stats, process, seconds);
        IterationMetrics.record(ROWS, result.rows());
        IterationMetrics.record(THREAD_CPU, threadCpu / 1e6);
        IterationMetrics.record(PROCESS_CPU, processCpu / 1e6);
        long requests = columnstore != null ? readAheadRequests
                : stats.readIos() - stats.physicalReads() - stats.lobPhysicalReads();
        long largest = columnstore != null ? largestReadAheadBytes : largestIo.get();
        IterationMetrics.record(READ_AHEAD_REQUESTS, requests);
        if (columnstore != null) {
            IterationMetrics.record(READ_AHEAD_REQUESTS_AHEAD, readAheadRequestsAhead);
        }
        if (requests > 0) {
            IterationMetrics.record(LARGEST_READ_AHEAD, largest / 1024.0);
            IterationMetrics.record(READ_AHEAD_PER_REQUEST,
                    (stats.readAheadReads() + stats.lobReadAheadReads()) * (double) ScanIoMetrics.PAGE_BYTES / 1024
                            / requests);
        }
        if (process != null && process.readBytes() > 0) {
            IterationMetrics.record(READ_BYTES_TO_PROCESS, (double) stats.readBytes() / process.readBytes());
        }
        for (Map.Entry<Metric, Double> figure : layoutFigures) {
            IterationMetrics.record(figure.getKey(), figure.getValue());
        }
    }

    @TearDown(Level.Trial)
    public void closeTable() {
        try {
            if (database != null) {
                database.close();
            }
        } finally {
            if (allocator != null) {
                allocator.close();
            }
        }
    }
}
