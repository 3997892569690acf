package dev.columba.bench.sql;

import dev.columba.bench.harness.IterationMetrics;
import dev.columba.bench.harness.ScanIoMetrics;
import dev.columba.core.stats.IoStats;
import dev.columba.storage.io.ProcSelfIo;
import java.nio.file.Path;
import java.util.Properties;

/**
 * One of seed 000's queries measured as the article measures it: cold (checkpoint and
 * {@code DBCC DROPCLEANBUFFERS} before it), optionally beside {@link BackgroundReads}, timed from
 * the statement's start to its last row, with the statement's I/O statistics recorded as
 * {@link ScanIoMetrics} (all tables added up) and checked against {@code /proc/self/io} when
 * nothing else reads beside it.
 *
 * <p>Lifetime: opened in a trial fixture, closed in its tear-down; {@link #start} and
 * {@link #finish} bracket each measured {@link #run}, from invocation fixtures. One thread.
 */
final class ColdQuery implements AutoCloseable {
    private final SqlDatabase database;
    private final Path scratchFile;
    private final int backgroundThreads;
    private BackgroundReads background;
    private ProcSelfIo processBefore;
    private long startNanos;
    private SqlDatabase.Executed executed;

    private ColdQuery(SqlDatabase database, Path scratchFile, int backgroundThreads) {
        this.database = database;
        this.scratchFile = scratchFile;
        this.backgroundThreads = backgroundThreads;
    }

    /**
     * Opens the database in {@code directory} with a buffer pool of {@code bufferPoolMb}; with
     * background threads, also the scratch file of {@code backgroundFileMb} in {@code dataDirectory}.
     */
    static ColdQuery open(Path directory, int bufferPoolMb, Path dataDirectory, int backgroundThreads,
                          int backgroundFileMb) {
        Path scratch = backgroundThreads > 0 ? BackgroundReads.prepareFile(dataDirectory, backgroundFileMb) : null;
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", bufferPoolMb + "MB");
        return new ColdQuery(SqlDatabase.open(directory, settings), scratch, backgroundThreads);
    }

    SqlDatabase database() {
        return database;
    }

    /** Empties the buffer pool and the page cache, starts the background load, opens the measuring window. */
    void start() {
        database.dropCleanBuffers();
        background = BackgroundReads.start(scratchFile, backgroundThreads);
        processBefore = ProcSelfIo.available() ? ProcSelfIo.read() : null;
        startNanos = System.nanoTime();
    }

    /** The measured statement. */
    SqlDatabase.Executed run(String sql) {
        executed = database.execute(sql);
        return executed;
    }

    /** Closes the window: stops the background, records the figures, returns the statement's result. */
    SqlDatabase.Executed finish() {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        ProcSelfIo process = processBefore == null ? null : ProcSelfIo.read().minus(processBefore);
        BackgroundReads.Done done = background.stop();
        IoStats stats = executed.statistics().total();
        // The background's reads are the process's too: the check against read_bytes is made without them.
        ScanIoMetrics.record(stats, backgroundThreads > 0 ? null : process, seconds);
        if (backgroundThreads > 0) {
            IterationMetrics.record(BackgroundReads.BACKGROUND_RATE, done.bytes() / ScanIoMetrics.MEGABYTE / done.seconds());
            IterationMetrics.record(BackgroundReads.BACKGROUND_IOPS, done.reads() / done.seconds());
        }
        return executed;
    }

    @Override
    public void close() {
        database.close();
    }
}
