package dev.columba.bench.load;

import dev.columba.bench.harness.BenchDirectories;
import dev.columba.bench.harness.IterationMetrics;
import dev.columba.bench.harness.Metric;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
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
 * One {@code COPY lineitem FROM 'lineitem.csv'} ({@link LineitemCsv}, with its header line) or
 * {@code FROM 'lineitem.parquet'} ({@link LineitemParquet}, the same rows as DuckDB writes Parquet)
 * into an empty table of a new database, through the engine's JDBC driver: a Columba columnstore table, a
 * Columba rowstore table clustered on {@code (l_orderkey, l_linenumber)} (the file's order) or on {@code
 * (l_partkey, l_orderkey, l_linenumber)} (not the file's order: the load sorts), or a DuckDB table. The
 * score is the time of the statement, commit included (both engines commit a COPY in autocommit);
 * the secondary results are rows per second, file megabytes per second and the process's CPU time.
 * Every load's row count is checked.
 *
 * <p>{@code threads}: 1, or 0 for all available processors. Columba: the COPY option
 * {@code MAXDOP} (parsing workers); DuckDB: {@code SET threads}. Every column is NOT NULL in both
 * engines (the generator's schema). Columba runs with a 2 GB buffer pool, DuckDB with a 2 GB memory
 * limit. Each iteration gets a fresh database (created outside the timed call) and deletes it after.
 *
 * <p>Caveats: the CSV file sits in the operating system's page cache after the first load, for
 * both engines alike; the timed statement includes each engine's durability work at commit
 * (Columba syncs its rowgroup files and log, DuckDB its WAL/checkpoint), which depends on the disk.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(1)
public class CopyLoadBenchmark {
    public static final Metric ROWS_PER_SECOND = new Metric("rowsPerSecond", "rows/s");
    public static final Metric MEGABYTES_PER_SECOND = new Metric("csvMBps", "MB/s");
    public static final Metric PROCESS_CPU = new Metric("processCpuMs", "ms");
    static final String TABLE = "lineitem";

    /** TPC-H scale factor of the file: 0.1 (600,572 rows), 0.01 in short runs. */
    @Param("0.1")
    public double scaleFactor;

    @Param({"COLUMBA_COLUMNSTORE", "COLUMBA_ROWSTORE", "COLUMBA_ROWSTORE_UNSORTED", "DUCKDB"})
    public LoadTarget target;

    /** The file read: CSV, or Parquet. */
    @Param({"CSV", "PARQUET"})
    public LoadFormat format;

    /** Threads the engine may use for the COPY: 1, or 0 for every available processor. */
    @Param({"1", "0"})
    public int threads;

    /** Parent of the benchmark data; empty means bench/target/data. */
    @Param("")
    public String dataDirectory;

    private final com.sun.management.OperatingSystemMXBean system =
            ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class);
    private LineitemCsv.Description csv;
    private LineitemParquet.Description parquet;
    private Path databaseDirectory;
    private Connection connection;
    private long loaded;
    private long startNanos;
    private long cpuBefore;
    private long endNanos;
    private long cpuAfter;

    @Setup(Level.Trial)
    public void prepareFile() {
        csv = LineitemCsv.prepare(BenchDirectories.data(dataDirectory), scaleFactor, System.out);
        if (format == LoadFormat.PARQUET) {
            parquet = LineitemParquet.prepare(csv, System.out);
        }
    }

    @Setup(Level.Iteration)
    public void createTable() throws SQLException {
        databaseDirectory = BenchDirectories.data(dataDirectory).resolve("load-work").resolve(target.name());
        BenchDirectories.deleteRecursively(databaseDirectory);
        createDirectories(databaseDirectory);
        connection = connect();
        try (Statement statement = connection.createStatement()) {
            if (target == LoadTarget.DUCKDB) {
                statement.execute("SET threads = " + effectiveThreads());
            }
            statement.execute(createTable(csv.schema()));
        }
    }

    @Benchmark
    public long load() throws SQLException {
        cpuBefore = system.getProcessCpuTime();
        startNanos = System.nanoTime();
        try (Statement statement = connection.createStatement()) {
            loaded = statement.executeLargeUpdate(copy());
        }
        endNanos = System.nanoTime();
        cpuAfter = system.getProcessCpuTime();
        return loaded;
    }

    @TearDown(Level.Iteration)
    public void checkAndDrop() throws SQLException {
        double seconds = (endNanos - startNanos) / 1e9;
        long cpu = cpuAfter - cpuBefore;
        try {
            if (loaded != csv.rows()) {
                throw new ColumbaException(ErrorCode.INTERNAL, target.label() + " loaded " + loaded + " rows of "
                        + csv.rows());
            }
            try (Statement statement = connection.createStatement();
                 var result = statement.executeQuery("SELECT count(*) FROM " + TABLE)) {
                result.next();
                long counted = result.getLong(1);
                if (counted != csv.rows()) {
                    throw new ColumbaException(ErrorCode.INTERNAL, target.label() + " counts " + counted + " rows of "
                            + csv.rows() + " after the load");
                }
            }
        } finally {
            connection.close();
            BenchDirectories.deleteRecursively(databaseDirectory);
        }
        IterationMetrics.record(ROWS_PER_SECOND, csv.rows() / seconds);
        IterationMetrics.record(MEGABYTES_PER_SECOND, (format == LoadFormat.CSV ? csv.bytes() : parquet.bytes())
                / (double) (1 << 20) / seconds);
        IterationMetrics.record(PROCESS_CPU, cpu / 1e6);
    }

    private int effectiveThreads() {
        return threads == 0 ? Runtime.getRuntime().availableProcessors() : threads;
    }

    private Connection connect() throws SQLException {
        Properties properties = new Properties();
        if (target == LoadTarget.DUCKDB) {
            properties.setProperty("memory_limit", "2GB");
            return DriverManager.getConnection("jdbc:duckdb:" + databaseDirectory.toAbsolutePath().resolve("load.duckdb"),
                    properties);
        }
        properties.setProperty("buffer_pool_size", "2GB");
        return DriverManager.getConnection("jdbc:columba:" + databaseDirectory.toAbsolutePath(), properties);
    }

    private String copy() {
        if (format == LoadFormat.PARQUET) {
            String file = parquet.file().toAbsolutePath().toString().replace("'", "''");
            return switch (target) {
                case COLUMBA_COLUMNSTORE, COLUMBA_ROWSTORE, COLUMBA_ROWSTORE_UNSORTED -> "COPY " + TABLE + " FROM '" + file
                        + "' WITH (FORMAT parquet, MAXDOP = " + effectiveThreads() + ")";
                case DUCKDB -> "COPY " + TABLE + " FROM '" + file + "' (FORMAT parquet)";
            };
        }
        String file = csv.file().toAbsolutePath().toString().replace("'", "''");
        return switch (target) {
            case COLUMBA_COLUMNSTORE, COLUMBA_ROWSTORE, COLUMBA_ROWSTORE_UNSORTED -> "COPY " + TABLE + " FROM '" + file
                    + "' WITH (HEADER, MAXDOP = "
                    + effectiveThreads() + ")";
            case DUCKDB -> "COPY " + TABLE + " FROM '" + file + "' (HEADER)";
        };
    }

    private String createTable(TableSchema schema) {
        List<String> columns = new ArrayList<>();
        for (Column column : schema.columns()) {
            columns.add(column.name() + " " + column.type().sqlName() + (column.nullable() ? "" : " NOT NULL"));
        }
        String body = String.join(", ", columns);
        return switch (target) {
            case COLUMBA_COLUMNSTORE -> "CREATE TABLE " + TABLE + " (" + body + ") WITH (storage = columnstore)";
            case COLUMBA_ROWSTORE -> "CREATE TABLE " + TABLE + " (" + body + ", PRIMARY KEY (l_orderkey, l_linenumber))";
            case COLUMBA_ROWSTORE_UNSORTED -> "CREATE TABLE " + TABLE + " (" + body
                    + ", PRIMARY KEY (l_partkey, l_orderkey, l_linenumber))";
            case DUCKDB -> "CREATE TABLE " + TABLE + " (" + body + ")";
        };
    }

    private static void createDirectories(Path directory) {
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot create " + directory + ": " + e.getMessage(), e);
        }
    }
}
