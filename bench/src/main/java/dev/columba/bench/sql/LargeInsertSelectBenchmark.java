package dev.columba.bench.sql;

import dev.columba.bench.harness.BenchDirectories;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.nio.file.Path;
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
 * One rowstore {@code INSERT INTO dst SELECT id, payload FROM src} of {@code rows} rows of about
 * 290 bytes (a clustered primary key), in one transaction, with the given buffer pool: the cost of
 * a write transaction larger than its share of the pool (issue 12). With the default 256 MB pool a
 * transaction may hold 128 MB: 300,000 rows (about 11,000 pages) fit, 1,200,000 (about 44,000
 * pages) spill. Builds before the spill file fail the second with {@code TRANSACTION_TOO_LARGE}.
 *
 * <p>The score is the statement's elapsed time, commit included (the log forced). Each run inserts
 * into a new, empty {@code dst}, created and the database checkpointed before it, dropped and
 * checkpointed after it, outside the timed call. Caveat: the spill file lives in the database
 * directory, so with a machine's RAM much larger than the transaction its pages stay in the
 * operating system's page cache; the score then counts the system calls and copies of spilling,
 * not device reads.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@Fork(1)
public class LargeInsertSelectBenchmark {
    private static final String PAYLOAD = "REPEAT('payload ', 30 + MOD(n, 7)) || CAST(n AS VARCHAR(10))";
    private static final int LOAD_BATCH = 20_000;

    @Param({"300000", "1200000"})
    public int rows;

    @Param("256MB")
    public String bufferPool;

    /** Parent of the benchmark databases; empty for {@code bench/target/data}. */
    @Param("")
    public String dataDirectory;

    private Path directory;
    private SqlDatabase database;

    @Setup(Level.Trial)
    public void open() {
        directory = BenchDirectories.data(dataDirectory).resolve("large-insert-select-" + rows + "-" + bufferPool);
        BenchDirectories.deleteRecursively(directory);
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", bufferPool);
        database = SqlDatabase.open(directory, settings);
        database.execute("CREATE TABLE src (id INT NOT NULL PRIMARY KEY, payload VARCHAR(400) NOT NULL)");
        for (int start = 1; start <= rows; start += LOAD_BATCH) {
            database.execute("INSERT INTO src SELECT n, " + PAYLOAD + " FROM generate_series(" + start + ", "
                    + Math.min(rows, start + LOAD_BATCH - 1) + ") AS g(n)");
        }
        database.execute("CHECKPOINT");
    }

    @Setup(Level.Invocation)
    public void createTarget() {
        database.execute("CREATE TABLE dst (id INT NOT NULL PRIMARY KEY, payload VARCHAR(400) NOT NULL)");
        database.execute("CHECKPOINT");
    }

    @Benchmark
    public long insertSelect() {
        return database.execute("INSERT INTO dst SELECT id, payload FROM src").rows();
    }

    @TearDown(Level.Invocation)
    public void dropTarget() {
        long copied = database.execute("SELECT COUNT(*) FROM dst").sumOfFirstColumn();
        if (copied != rows) {
            throw new ColumbaException(ErrorCode.INTERNAL, "dst holds " + copied + " rows after copying " + rows);
        }
        database.execute("DROP TABLE dst");
        database.execute("CHECKPOINT");
    }

    @TearDown(Level.Trial)
    public void close() {
        if (database != null) {
            database.close();
        }
        BenchDirectories.deleteRecursively(directory);
    }
}
