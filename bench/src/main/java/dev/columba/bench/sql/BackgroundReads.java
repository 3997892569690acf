package dev.columba.bench.sql;

import dev.columba.bench.harness.Metric;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import dev.columba.storage.io.NativeFilesFacade;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Disk pressure beside a measured statement, as seed 000 ran {@code diskspd.exe} beside its
 * queries: threads that each read random 8 KB blocks of a scratch file, one at a time, with
 * {@code O_DIRECT} (so the page cache serves none of them), for as long as the statement runs.
 * The scratch file lives beside the benchmark databases and is written once with real bytes (a
 * file the size of reserved but never written extents would read as zeros without touching the
 * device).
 *
 * <p>Bounded in time twice: {@link #stop()} ends the reads when the measured statement ends, and
 * every thread also stops by itself after {@link #LONGEST_RUN_MINUTES}, should a benchmark fail
 * between start and stop. Started and stopped by one thread.
 */
public final class BackgroundReads {
    /** Background reads per second while the measured statement ran, in MB/s; recorded only with background threads. */
    public static final Metric BACKGROUND_RATE = new Metric("backgroundMBps", "MB/s");
    /** Background 8 KB reads per second while the measured statement ran. */
    public static final Metric BACKGROUND_IOPS = new Metric("backgroundIops", "I/Os per second");

    static final int BLOCK_BYTES = 8192;
    static final int LONGEST_RUN_MINUTES = 15;
    private static final int WRITE_CHUNK = 1 << 20;

    private final Path file;
    private final int threads;
    private final AtomicLong reads = new AtomicLong();
    private volatile boolean stopping;
    /** The first failure of a reader, rethrown by {@link #stop()}. */
    private volatile RuntimeException failure;
    private final List<Thread> running = new ArrayList<>();
    private long startNanos;

    /** What the background did while it ran. */
    record Done(long reads, double seconds) {
        long bytes() {
            return reads * BLOCK_BYTES;
        }
    }

    private BackgroundReads(Path file, int threads) {
        this.file = file;
        this.threads = threads;
    }

    /**
     * The scratch file of {@code sizeMb} megabytes in {@code dataDirectory}, written if it is not
     * there yet.
     *
     * @throws ColumbaException IO_ERROR naming the file if it cannot be written
     */
    static Path prepareFile(Path dataDirectory, int sizeMb) {
        Path path = dataDirectory.resolve("background-reads-" + sizeMb + "mb.scratch");
        long length = (long) sizeMb << 20;
        try {
            if (Files.isRegularFile(path) && Files.size(path) == length) {
                return path;
            }
            Files.createDirectories(dataDirectory);
            Path temporary = path.resolveSibling(path.getFileName() + ".tmp");
            Files.deleteIfExists(temporary);
            try (Arena arena = Arena.ofConfined();
                 FileHandle handle = NativeFilesFacade.INSTANCE.open(temporary, FilesFacade.OpenMode.CREATE_NEW, false)) {
                MemorySegment chunk = arena.allocate(WRITE_CHUNK);
                SplittableRandom random = new SplittableRandom(sizeMb);
                for (long offset = 0; offset < length; offset += WRITE_CHUNK) {
                    for (long word = 0; word < WRITE_CHUNK; word += Long.BYTES) {
                        chunk.set(ValueLayout.JAVA_LONG_UNALIGNED, word, random.nextLong());
                    }
                    handle.write(offset, chunk);
                }
                handle.force(false);
            }
            Files.move(temporary, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return path;
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot write the scratch file " + path + ": " + e.getMessage(), e);
        }
    }

    /** Starts {@code threads} readers of {@code file}; with 0 threads nothing runs and {@link #stop()} reports nothing. */
    static BackgroundReads start(Path file, int threads) {
        BackgroundReads background = new BackgroundReads(file, threads);
        background.startThreads();
        return background;
    }

    private void startThreads() {
        startNanos = System.nanoTime();
        long deadline = startNanos + TimeUnit.MINUTES.toNanos(LONGEST_RUN_MINUTES);
        for (int index = 0; index < threads; index++) {
            long seed = index;
            Thread thread = Thread.ofPlatform().daemon().name("background-reads-" + index).start(() -> readUntilStopped(seed, deadline));
            running.add(thread);
        }
    }

    private void readUntilStopped(long seed, long deadline) {
        try {
            readBlocks(seed, deadline);
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    private void readBlocks(long seed, long deadline) {
        try (Arena arena = Arena.ofConfined();
             FileHandle handle = NativeFilesFacade.INSTANCE.open(file, FilesFacade.OpenMode.READ, true)) {
            MemorySegment block = arena.allocate(BLOCK_BYTES, FilesFacade.DIRECT_IO_ALIGNMENT);
            long blocks = handle.size() / BLOCK_BYTES;
            SplittableRandom random = new SplittableRandom(seed);
            while (!stopping && System.nanoTime() < deadline) {
                handle.read(random.nextLong(blocks) * BLOCK_BYTES, block);
                reads.incrementAndGet();
            }
        }
    }

    /** Stops the readers, waits for them, and says what they did. */
    Done stop() {
        stopping = true;
        for (Thread thread : running) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ColumbaException(ErrorCode.INTERNAL, "interrupted while stopping the background reads", e);
            }
        }
        if (failure != null) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "background reads of " + file + " failed: "
                    + failure.getMessage(), failure);
        }
        return new Done(reads.get(), (System.nanoTime() - startNanos) / 1e9);
    }
}
