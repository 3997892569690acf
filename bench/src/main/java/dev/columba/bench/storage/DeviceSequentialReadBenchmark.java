package dev.columba.bench.storage;

import dev.columba.bench.harness.BenchDirectories;
import dev.columba.bench.harness.IterationMetrics;
import dev.columba.bench.harness.Metric;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.io.OsPageCache;
import dev.columba.storage.io.ProcSelfIo;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
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
 * The device's sequential read bandwidth, measured on the very file {@link RowstoreScanBenchmark}
 * scans: the {@link ScanTable}'s data file read cold from start to end in large synchronous
 * {@code pread}s on one thread, so a report can state the scans as a share of what the device
 * gives. The score is the time of one pass; secondary results are the rate and the bytes
 * {@code /proc/self/io} says the process read.
 *
 * <p>{@code DIRECT}: {@code O_DIRECT} reads of {@code ioSizeKb}, straight from the device into an
 * aligned buffer. {@code BUFFERED}: reads through the page cache with {@code POSIX_FADV_SEQUENTIAL},
 * the kernel's own read-ahead on top (what {@code cat} or {@code dd} get). Before every pass the
 * file is dropped from the page cache ({@code fdatasync} + {@code POSIX_FADV_DONTNEED}), in an
 * invocation fixture outside the timed call (see {@link RowstoreScanBenchmark} on
 * {@code Level.Invocation}).
 *
 * <p>Caveats: one request in flight at a time (the kernel splits it into several device requests),
 * so a scan whose read-ahead keeps several I/Os in flight can exceed this figure. The whole file is
 * read, a few extents beyond the table included; ranges the file reserved but never wrote read as
 * zeros without touching the device, which the bytes-to-{@code read_bytes} ratio would show. The
 * disk is shared and noisy: compare within one run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@Fork(1)
public class DeviceSequentialReadBenchmark {

    /** How the file is read. */
    public enum Access { DIRECT, BUFFERED }

    /** Bytes read per second of the pass. */
    public static final Metric DEVICE_RATE = new Metric("deviceMBps", "MB/s");
    /** {@code read_bytes} of {@code /proc/self/io} during the pass. */
    public static final Metric PROCESS_READ = new Metric("procReadMB", "MB");
    /** Bytes the reads returned over {@code read_bytes}; absent when the process read nothing. */
    public static final Metric BYTES_TO_PROCESS = new Metric("bytesToProcRatio", "ratio");

    /** Size in MB of the table whose data file is read (the same database as the scan's). */
    @Param("1024")
    public int sizeMb;

    @Param({"DIRECT", "BUFFERED"})
    public Access access;

    @Param("1024")
    public int ioSizeKb;

    /** Parent of the benchmark databases; empty for {@code bench/target/data}. */
    @Param("")
    public String dataDirectory;

    private Database database;
    private FileHandle file;
    private Arena arena;
    private MemorySegment buffer;
    private long length;
    private ProcSelfIo processBefore;
    private long startNanos;
    private long bytesRead;

    @Setup(Level.Trial)
    public void openFile() {
        ScanTable.Description table = ScanTable.prepare(BenchDirectories.data(dataDirectory), sizeMb, System.out);
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", "16MB");
        // Held open for its lock: nothing else may change the file while it is measured.
        database = Database.open(table.directory(), settings, NativeFilesFacade.INSTANCE);
        boolean direct = access == Access.DIRECT;
        file = NativeFilesFacade.INSTANCE.open(database.dataFile().path(), FilesFacade.OpenMode.READ, direct);
        if (!direct) {
            file.advise(0, 0, FileHandle.Advice.SEQUENTIAL);
        }
        length = file.size();
        arena = Arena.ofShared();
        buffer = arena.allocate((long) ioSizeKb << 10, FilesFacade.DIRECT_IO_ALIGNMENT);
    }

    @Setup(Level.Invocation)
    public void dropFile() {
        OsPageCache.dropFromPageCache(file);
        processBefore = ProcSelfIo.available() ? ProcSelfIo.read() : null;
        startNanos = System.nanoTime();
    }

    /** Reads the whole file once; returns the bytes read. */
    @Benchmark
    public long read() {
        long total = 0;
        long ioSize = buffer.byteSize();
        for (long offset = 0; offset < length; offset += ioSize) {
            MemorySegment target = length - offset >= ioSize ? buffer : buffer.asSlice(0, length - offset);
            total += file.read(offset, target);
        }
        bytesRead = total;
        return total;
    }

    @TearDown(Level.Invocation)
    public void recordPass() {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        ProcSelfIo process = processBefore == null ? null : ProcSelfIo.read().minus(processBefore);
        IterationMetrics.record(DEVICE_RATE, bytesRead / RowstoreScanBenchmark.MEGABYTE / seconds);
        if (process != null) {
            IterationMetrics.record(PROCESS_READ, process.readBytes() / RowstoreScanBenchmark.MEGABYTE);
            if (process.readBytes() > 0) {
                IterationMetrics.record(BYTES_TO_PROCESS, (double) bytesRead / process.readBytes());
            }
        }
    }

    @TearDown(Level.Trial)
    public void closeFile() {
        try {
            if (file != null) {
                file.close();
            }
            if (arena != null) {
                arena.close();
            }
        } finally {
            if (database != null) {
                database.close();
            }
        }
    }
}
