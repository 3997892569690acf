package dev.columba.bench.sql;

import dev.columba.bench.harness.BenchDirectories;
import dev.columba.bench.harness.IterationMetrics;
import dev.columba.bench.harness.Metric;
import dev.columba.bench.harness.ScanIoMetrics;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.WaitType;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.io.ProcSelfIo;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
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
 * Seed 002's test 3a–3c through SQL: a cold {@code SELECT COUNT(*)} of LineItem (a) in one file,
 * (b) in two files of one filegroup, (c) hash-partitioned over several filegroups, at {@code OPTION
 * (MAXDOP n)} (0: one worker per available processor), with checkpoint and {@code DBCC
 * DROPCLEANBUFFERS} before each scan (outside the timed call); and, as {@code DEVICE}, the device's
 * sequential read speed in the same run: (a)'s file read whole with 1 MB {@code O_DIRECT} reads. The
 * score is the elapsed time of one scan (or read); secondary results are the scan's I/O statistics
 * ({@link ScanIoMetrics}: pages read, MB/s from storage, {@code /proc/self/io} read_bytes and the
 * counters against it) and the waits {@code sys.wait_stats} gained during the scan, a count and a
 * time per wait type ({@link #WAIT_COUNTS}, {@link #WAIT_MS}). Every scan's count is checked.
 *
 * <p>Caveats: (a) and (b) are scans of one object, which Columba runs on one worker whatever the
 * MAXDOP (rowstore page ranges are not morsels yet), where SQL Server scanned them in parallel; only
 * (c) and (d) divide their partitions among workers. This machine has one virtual disk: several files and
 * filegroups spread I/O over files, not over devices. {@code sys.wait_stats} is the database's:
 * the waits of every thread during the scan, the I/O threads' latch waits included. Compare ratios
 * within a run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(1)
public class Seed002ScanBenchmark {
    /** What is read. */
    public enum Layout {
        /** The device: (a)'s file read sequentially in 1 MB O_DIRECT reads. */
        DEVICE(null),
        /** Test 3a: LineItem in one file. */
        ONE_FILE(Seed002Tables.ONE_FILE),
        /** Test 3b: LineItem in two files of one filegroup. */
        TWO_FILES(Seed002Tables.TWO_FILES),
        /** Test 3c: LineItem hash-partitioned over several filegroups. */
        HASH_PARTITIONED(Seed002Tables.HASH_PARTITIONED),
        /** Test 3d: 3c with DATA_COMPRESSION = PAGE. */
        PAGE_COMPRESSED(Seed002Tables.PAGE_COMPRESSED);

        private final String table;

        Layout(String table) {
            this.table = table;
        }

        public String table() {
            return table;
        }
    }

    public static final Metric ROWS = new Metric("rows", "rows");
    /** MB/s of the device read (DEVICE only). */
    public static final Metric DEVICE_RATE = new Metric("deviceMBps", "MB/s");
    /** Per wait type, the waits sys.wait_stats gained during the scan. */
    public static final Map<WaitType, Metric> WAIT_COUNTS = waitMetrics("Waits", "waits");
    /** Per wait type, the milliseconds sys.wait_stats gained during the scan. */
    public static final Map<WaitType, Metric> WAIT_MS = waitMetrics("Ms", "ms");
    /** sys.wait_stats' PAGEIOLATCH_SH waits and their time during the scan. */
    public static final Metric PAGE_IO_LATCH_WAITS = WAIT_COUNTS.get(WaitType.PAGEIOLATCH_SH);
    public static final Metric PAGE_IO_LATCH_MS = WAIT_MS.get(WaitType.PAGEIOLATCH_SH);
    /** Workers of the scan: MAXDOP as run (1 for the device read). */
    public static final Metric DEGREE = new Metric("maxdop", "workers");
    private static final int DEVICE_IO_BYTES = 1 << 20;

    @Param("1")
    public double scaleFactor;

    @Param("128")
    public int bufferPoolMb;

    @Param({"DEVICE", "ONE_FILE", "TWO_FILES", "HASH_PARTITIONED", "PAGE_COMPRESSED"})
    public Layout layout;

    /** OPTION (MAXDOP n) of every scan; 0 for one worker per available processor. */
    @Param("0")
    public int maxdop;

    /** Partitions of (c) and the filegroups they are spread over; 0 for two per processor / one per processor. */
    @Param("0")
    public int partitions;

    @Param("0")
    public int filegroups;

    /** Parent of the benchmark databases; empty for {@code bench/target/data}. */
    @Param("")
    public String dataDirectory;

    private Seed002Tables.Description tables;
    private SqlDatabase database;
    private SqlDatabase.Executed executed;
    private FileHandle deviceFile;
    private Arena arena;
    private MemorySegment buffer;
    private long deviceBytes;
    private Map<WaitType, double[]> waitsBefore;
    private ProcSelfIo processBefore;
    private long startNanos;
    private int degree;

    /** Partitions of (c) when the parameter is 0: two per processor. */
    public static int partitionsFor(int parameter) {
        return parameter > 0 ? parameter : 2 * Runtime.getRuntime().availableProcessors();
    }

    /** Filegroups of (c) when the parameter is 0: one per processor. */
    public static int filegroupsFor(int parameter) {
        return parameter > 0 ? parameter : Runtime.getRuntime().availableProcessors();
    }

    @Setup(Level.Trial)
    public void open() {
        tables = Seed002Tables.prepare(BenchDirectories.data(dataDirectory), scaleFactor, partitionsFor(partitions),
                filegroupsFor(filegroups), System.out);
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", bufferPoolMb + "MB");
        database = SqlDatabase.open(tables.directory(), settings);
        degree = maxdop > 0 ? maxdop : Runtime.getRuntime().availableProcessors();
        if (layout == Layout.DEVICE) {
            deviceFile = NativeFilesFacade.INSTANCE.open(tables.oneFile(), FilesFacade.OpenMode.READ, true);
            arena = Arena.ofShared();
            buffer = arena.allocate(DEVICE_IO_BYTES, FilesFacade.DIRECT_IO_ALIGNMENT);
        } else {
            // (d) is (c) compressed: its size follows from (c)'s, which the check covers.
            long pages = pagesOf(layout == Layout.PAGE_COMPRESSED ? Layout.HASH_PARTITIONED : layout);
            if (pages < 4L * bufferPoolMb * 128) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, layout.table() + " has " + pages + " pages, less than"
                        + " four times the " + bufferPoolMb + " MB buffer pool: lower bufferPoolMb or raise scaleFactor");
            }
        }
    }

    private long pagesOf(Layout scanned) {
        return switch (scanned) {
            case DEVICE -> 0;
            case ONE_FILE -> tables.pagesOneFile();
            case TWO_FILES -> tables.pagesTwoFiles();
            case HASH_PARTITIONED -> tables.pagesHash();
            case PAGE_COMPRESSED -> tables.pagesPage();
        };
    }

    @Setup(Level.Invocation)
    public void start() {
        database.dropCleanBuffers();
        if (deviceFile != null) {
            deviceFile.advise(0, 0, FileHandle.Advice.DONTNEED);
        }
        waitsBefore = waits();
        processBefore = ProcSelfIo.available() ? ProcSelfIo.read() : null;
        startNanos = System.nanoTime();
    }

    /** The scan (or the device read); returns its row count (or bytes). */
    @Benchmark
    public long scan() {
        if (layout == Layout.DEVICE) {
            long length = deviceFile.size();
            long total = 0;
            for (long offset = 0; offset < length; offset += DEVICE_IO_BYTES) {
                total += deviceFile.read(offset, length - offset >= DEVICE_IO_BYTES ? buffer : buffer.asSlice(0,
                        (length - offset + FilesFacade.DIRECT_IO_ALIGNMENT - 1) / FilesFacade.DIRECT_IO_ALIGNMENT
                                * FilesFacade.DIRECT_IO_ALIGNMENT));
            }
            deviceBytes = total;
            return total;
        }
        executed = database.execute("SELECT COUNT(*) FROM " + layout.table() + " OPTION (MAXDOP " + degree + ")");
        return executed.sumOfFirstColumn();
    }

    @TearDown(Level.Invocation)
    public void record() {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        ProcSelfIo process = processBefore == null ? null : ProcSelfIo.read().minus(processBefore);
        Map<WaitType, double[]> waits = waits();
        for (WaitType type : WaitType.values()) {
            IterationMetrics.record(WAIT_COUNTS.get(type), waits.get(type)[0] - waitsBefore.get(type)[0]);
            IterationMetrics.record(WAIT_MS.get(type), waits.get(type)[1] - waitsBefore.get(type)[1]);
        }
        if (layout == Layout.DEVICE) {
            IterationMetrics.record(DEVICE_RATE, deviceBytes / ScanIoMetrics.MEGABYTE / seconds);
            IterationMetrics.record(DEGREE, 1);
            if (process != null) {
                IterationMetrics.record(ScanIoMetrics.PROCESS_READ, process.readBytes() / ScanIoMetrics.MEGABYTE);
            }
            return;
        }
        if (executed.rows() != 1 || executed.sumOfFirstColumn() != tables.rows()) {
            throw new ColumbaException(ErrorCode.INTERNAL, "the scan of " + layout.table() + " counted "
                    + executed.sumOfFirstColumn() + " rows, expected " + tables.rows());
        }
        ScanIoMetrics.record(executed.statistics().total(), process, seconds);
        IterationMetrics.record(ROWS, executed.sumOfFirstColumn());
        IterationMetrics.record(DEGREE, layout == Layout.HASH_PARTITIONED || layout == Layout.PAGE_COMPRESSED ? degree : 1);
    }

    /** sys.wait_stats per measured wait type: waits and milliseconds so far. */
    private Map<WaitType, double[]> waits() {
        Map<WaitType, double[]> waits = new EnumMap<>(WaitType.class);
        for (WaitType type : WaitType.values()) {
            List<Object> row = database.row("SELECT waits, wait_time_ms FROM sys.wait_stats WHERE wait_type = '"
                    + type.name() + "'");
            waits.put(type, new double[] {((Number) row.get(0)).doubleValue(), ((Number) row.get(1)).doubleValue()});
        }
        return waits;
    }

    /** A metric per wait type, named after it ({@code latchExWaits}, {@code cxConsumerMs}, ...). */
    private static Map<WaitType, Metric> waitMetrics(String suffix, String unit) {
        Map<WaitType, Metric> metrics = new EnumMap<>(WaitType.class);
        for (WaitType type : WaitType.values()) {
            String stem = switch (type) {
                case PAGEIOLATCH_SH -> "pageIoLatchSh";
                case LATCH_EX -> "latchEx";
                case CXPACKET -> "cxPacket";
                case CXCONSUMER -> "cxConsumer";
                case HTBUILD -> "htBuild";
            };
            metrics.put(type, new Metric(stem + suffix, unit));
        }
        return Collections.unmodifiableMap(metrics);
    }

    @TearDown(Level.Trial)
    public void close() {
        if (deviceFile != null) {
            deviceFile.close();
            arena.close();
        }
        if (database != null) {
            database.close();
        }
    }
}
