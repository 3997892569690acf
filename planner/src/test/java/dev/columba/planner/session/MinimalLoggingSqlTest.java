package dev.columba.planner.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.planner.plan.QueryPlanner;
import dev.columba.storage.io.ProcSelfIo;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which SQL statements are minimally logged (docs/design/storage.md, "Minimally logged bulk loads"):
 * INSERT ... SELECT into an empty clustered table, CREATE TABLE AS (a new heap) and CREATE INDEX log only their
 * allocations;
 * into a table with rows, or with {@code minimal_logging} off, they log every page. The table reads
 * back the same either way, also after reopening. Measured by the log's end LSN ({@code sys.log_stats}).
 * COPY is covered by {@code CopyCrashTest} and storage's {@code MinimalLoggingTest}; its data-file
 * writes, as {@code sys.io_stats} counts them, are checked here against {@code /proc/self/io}.
 */
class MinimalLoggingSqlTest {
    private static final int ROWS = 20_000;
    /** About what the table's leaves hold: 20,000 rows of some 200 bytes. */
    private static final long TABLE_BYTES = ROWS * 200L;
    private static final String SELECT = "SELECT x, repeat('p', 180 + CAST(x % 7 AS INT)) FROM generate_series(1, " + ROWS + ") AS g (x)";

    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = open(directory);
        session = engine.openSession();
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    private static Engine open(Path directory) {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "16MB");
        return Engine.open(directory, properties, (catalog, settings, statement, cancel) ->
                new QueryPlanner(catalog, settings).plan(statement));
    }

    private long logBytes(String sql) {
        long before = endLsn();
        session.execute(sql);
        return endLsn() - before;
    }

    private long endLsn() {
        return (Long) SessionRows.query(session, "SELECT end_lsn FROM sys.log_stats").getFirst().getFirst();
    }

    @Test
    void insertSelectIntoAnEmptyTableLogsOnlyItsAllocations() {
        session.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, s VARCHAR(200) NOT NULL)");
        long empty = logBytes("INSERT INTO t " + SELECT);
        assertTrue(empty < TABLE_BYTES / 10, "into an empty table: " + empty + " log bytes");
        long more = logBytes("INSERT INTO t SELECT x + " + ROWS + ", repeat('q', 180) FROM generate_series(1, " + ROWS
                + ") AS g (x)");
        assertTrue(more > TABLE_BYTES, "into a table with rows every page is logged: " + more + " log bytes");
        assertRows("t", 2 * ROWS);
        session.close();
        engine.close();
        engine = open(directory);
        session = engine.openSession();
        assertRows("t", 2 * ROWS);
        assertEquals(List.of(List.of(1L, 181)), SessionRows.query(session, "SELECT id, length(s) FROM t WHERE id = 1"));
    }

    @Test
    void createTableAsAndCreateIndexLogOnlyTheirAllocationsUnlessMinimalLoggingIsOff() {
        session.execute("CREATE TABLE src (id BIGINT PRIMARY KEY, s VARCHAR(200) NOT NULL)");
        session.execute("INSERT INTO src " + SELECT);
        long minimal = logBytes("CREATE TABLE copy1 AS SELECT * FROM src");
        long index = logBytes("CREATE INDEX src_s ON src (s)");
        assertTrue(index < TABLE_BYTES / 10, "CREATE INDEX: " + index + " log bytes");
        assertEquals(List.of(List.of(6L, 186)), SessionRows.query(session,
                "SELECT id, length(s) FROM src WHERE s = repeat('p', 186) AND id < 10"));
        session.execute("ALTER SYSTEM SET minimal_logging = off");
        long full = logBytes("CREATE TABLE copy2 AS SELECT * FROM src");
        assertTrue(minimal < TABLE_BYTES / 10, "minimally logged: " + minimal + " log bytes");
        assertTrue(full > TABLE_BYTES, "minimal_logging = off: " + full + " log bytes");
        assertRows("copy1", ROWS);
        assertRows("copy2", ROWS);
    }

    /**
     * A minimally logged COPY's data-file writes are counted in {@code sys.io_stats} and agree with
     * the operating system: {@code write_bytes} of {@code /proc/self/io} (bytes this process caused
     * to be written, counted when a page-cache page is dirtied) grows by the data-file pages counted
     * plus what the log appended, rounded up to whole OS pages. Like the read tests (storage's
     * {@code IoStatisticsTest}), it relies on nothing else in the JVM writing to storage meanwhile,
     * and allows 64 KB for the JVM's own (its {@code hsperfdata} file).
     */
    @Test
    void aMinimallyLoggedCopyWritesWhatSysIoStatsCounts() throws IOException {
        Assumptions.assumeTrue(ProcSelfIo.available(), "needs /proc/self/io");
        // tmpfs pages are never written back, so write_bytes does not count them.
        Assumptions.assumeFalse("tmpfs".equals(Files.getFileStore(directory).type()), "needs a disk-backed directory");
        // Four times the 16 MB pool, in key order (no sort runs, whose I/O is not counted).
        int rows = 200_000;
        Path csv = directory.resolve("load.csv");
        try (BufferedWriter writer = Files.newBufferedWriter(csv)) {
            writer.write("id,s\n");
            for (int row = 1; row <= rows; row++) {
                writer.write(row + "," + "v".repeat(300 + row % 11) + "\n");
            }
        }
        session.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, s VARCHAR(400) NOT NULL)");
        session.execute("CHECKPOINT");
        List<Object> before = ioStats();
        long logBefore = logBytesAppended();
        ProcSelfIo osBefore = ProcSelfIo.read();
        session.execute("COPY t FROM '" + csv + "' WITH (HEADER, MAXDOP 1)");
        long writeBytes = ProcSelfIo.read().minus(osBefore).writeBytes();
        List<Object> after = ioStats();
        long logBytes = logBytesAppended() - logBefore;

        long pagesWritten = (Long) after.get(0) - (Long) before.get(0);
        long minimallyLogged = (Long) after.get(1) - (Long) before.get(1);
        long spilled = (Long) after.get(2) - (Long) before.get(2);
        assertTrue(minimallyLogged * 8192L > 4 * 16L << 20, "the load wrote its table minimally logged: "
                + minimallyLogged + " pages");
        assertEquals(pagesWritten, minimallyLogged, "no checkpoint or eviction wrote during the load");
        long counted = (pagesWritten + spilled) * 8192L;
        // The log's bytes dirty whole 4 KB pages: its first and last page may be partly new.
        long logPages = (logBytes + 4095) / 4096 + 1;
        System.out.println("minimally logged COPY: " + minimallyLogged + " pages written, " + spilled + " spilled, "
                + logBytes + " log bytes; counted " + counted + " bytes, /proc/self/io write_bytes " + writeBytes);
        assertTrue(writeBytes >= counted && writeBytes <= counted + logPages * 4096 + 65536,
                "counted " + counted + " data-file bytes and " + logBytes + " log bytes, write_bytes grew by " + writeBytes);
        assertRows("t", rows);
    }

    private List<Object> ioStats() {
        return SessionRows.query(session,
                "SELECT pages_written, minimally_logged_pages_written, spill_pages_written FROM sys.io_stats").getFirst();
    }

    private long logBytesAppended() {
        return (Long) SessionRows.query(session, "SELECT bytes_appended FROM sys.log_stats").getFirst().getFirst();
    }

    private void assertRows(String table, long rows) {
        assertEquals(List.of(List.of(rows, rows)), SessionRows.query(session, "SELECT COUNT(*), COUNT(DISTINCT id) FROM "
                + table));
    }
}
