package dev.columba.planner.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.stats.IoStats;
import dev.columba.storage.io.ProcSelfIo;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code WITH (DATA_COMPRESSION = NONE | ROW | PAGE)} through SQL: the same answers as an
 * uncompressed copy after inserts, updates and deletes, {@code sys.partitions.data_compression},
 * a rebuild that changes the compression, hash partitions compressed, a cold compressed scan that
 * reads fewer pages with counters equal to read_bytes, and the errors.
 */
class DataCompressionTest {
    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        session = engine.openSession();
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    private String rows(String sql) {
        return SessionRows.query(session, sql).toString();
    }

    private static final String COLUMNS = "id INT NOT NULL, mode CHAR(10), note VARCHAR(100), price DECIMAL(12, 2),"
            + " huge DECIMAL(30, 3), day DATE, ratio DOUBLE, flag BOOLEAN, stamp TIMESTAMP, big BIGINT";

    private static final String VALUES = "SELECT x, CASE x % 3 WHEN 0 THEN 'AIR' WHEN 1 THEN 'TRUCK' ELSE NULL END,"
            + " 'ünï ' || CAST(x % 50 AS VARCHAR(5)) || ' 😀 final requests', CAST(x AS DECIMAL(12, 2)) / 7,"
            + " CAST(x AS DECIMAL(30, 3)) * 100000000000000000, DATE '1992-01-01' + INTERVAL '1' DAY * (x % 2000), x * -0.5, x % 2 = 0,"
            + " TIMESTAMP '2020-01-01 00:00:00', CAST(x AS BIGINT) * 1000000000000 - 9223372036854775807"
            + " FROM generate_series(1, 3000) AS g(x)";

    private void load(String table, String compression) {
        session.execute("CREATE TABLE " + table + " (" + COLUMNS + ")"
                + (compression == null ? "" : " WITH (DATA_COMPRESSION = " + compression + ")"));
        session.execute("INSERT INTO " + table + " " + VALUES);
        session.execute("INSERT INTO " + table + " (id) VALUES (0)");
    }

    private String all(String table) {
        return rows("SELECT * FROM " + table + " ORDER BY id");
    }

    @Test
    void compressedTablesAnswerAsUncompressedOnesThroughChanges() {
        load("plain", null);
        load("r", "ROW");
        load("p", "page");
        String expected = all("plain");
        assertEquals(expected, all("r"));
        assertEquals(expected, all("p"));
        for (String table : List.of("plain", "r", "p")) {
            session.execute("UPDATE " + table + " SET note = 'changed ' || CAST(id AS VARCHAR(10)), price = NULL WHERE id % 5 = 0");
            session.execute("DELETE FROM " + table + " WHERE id % 7 = 0");
            session.execute("INSERT INTO " + table + " SELECT id + 10000, mode, note, price, huge, day, ratio, flag, stamp, big"
                    + " FROM " + table + " WHERE id < 500");
        }
        expected = all("plain");
        assertEquals(expected, all("r"));
        assertEquals(expected, all("p"));
        String aggregates = "SELECT COUNT(*), SUM(price), MIN(day), MAX(note), COUNT(mode) FROM ";
        assertEquals(rows(aggregates + "plain"), rows(aggregates + "p"));
        assertEquals("[[plain, 0, NONE], [r, 1, ROW], [p, 2, PAGE]]", rows("SELECT table_name, data_compression,"
                + " data_compression_desc FROM sys.partitions WHERE table_name IN ('plain', 'r', 'p') ORDER BY data_compression"));
        close();
        open();
        assertEquals(expected, all("p"));
    }

    @Test
    void rebuildChangesTheCompression() {
        load("t", null);
        String expected = all("t");
        session.execute("ALTER TABLE t REBUILD WITH (DATA_COMPRESSION = PAGE)");
        assertEquals("[[2, PAGE]]", rows("SELECT data_compression, data_compression_desc FROM sys.partitions WHERE table_name = 't'"));
        assertEquals(expected, all("t"));
        session.execute("ALTER INDEX ALL ON t REBUILD WITH (DATA_COMPRESSION = NONE)");
        assertEquals("[[0, NONE]]", rows("SELECT data_compression, data_compression_desc FROM sys.partitions WHERE table_name = 't'"));
        assertEquals(expected, all("t"));
    }

    @Test
    void badDefinitionsAreRefused() {
        assertEquals("22023", sqlState(() -> session.execute("CREATE TABLE x (id INT) WITH (DATA_COMPRESSION = ZIP)")));
        assertEquals("0A000", sqlState(() -> session.execute(
                "CREATE TABLE y (id INT NOT NULL PRIMARY KEY) WITH (DATA_COMPRESSION = PAGE)")));
        load("t", null);
        assertEquals("22023", sqlState(() -> session.execute("ALTER TABLE t REBUILD WITH (DATA_COMPRESSION = FAST)")));
        assertEquals("22023", sqlState(() -> session.execute("ALTER TABLE t REBUILD WITH (FILLFACTOR = 80)")));
    }

    private static String sqlState(Runnable statement) {
        return assertThrows(ColumbaException.class, statement::run).errorCode().sqlState();
    }

    /** Hash partitions take the table's compression; a cold scan reads fewer pages, counted exactly. */
    @Test
    void compressedPartitionsReadFewerPagesCountedExactly() {
        Assumptions.assumeTrue(ProcSelfIo.available(), "needs /proc/self/io");
        session.execute("ALTER DATABASE CURRENT ADD FILEGROUP fg1");
        session.execute("ALTER DATABASE CURRENT ADD FILE (NAME = f1, FILENAME = 'fg1.data') TO FILEGROUP fg1");
        String columns = "(id INT NOT NULL, payload VARCHAR(200))";
        String rows = " SELECT x, REPEAT('payload ', 10) || CAST(x % 100 AS VARCHAR(10)) FROM generate_series(1, 40000) AS g(x)";
        session.execute("CREATE TABLE plain " + columns + " PARTITION BY HASH (id) PARTITIONS 2 ON (fg1)");
        session.execute("CREATE TABLE packed " + columns + " PARTITION BY HASH (id) PARTITIONS 2 ON (fg1)"
                + " WITH (DATA_COMPRESSION = PAGE)");
        session.execute("INSERT INTO plain" + rows);
        session.execute("INSERT INTO packed" + rows);
        assertEquals("[[1, PAGE], [2, PAGE]]", rows("SELECT partition_number, data_compression_desc FROM sys.partitions"
                + " WHERE table_name = 'packed' ORDER BY 1"));
        session.execute("CHECKPOINT");
        long plainPages = coldCount("plain");
        long packedPages = coldCount("packed");
        assertTrue(packedPages * 3 < plainPages, "PAGE read " + packedPages + " pages, NONE " + plainPages);
    }

    /** A cold SELECT COUNT(*): checks the count and that the pages counted are read_bytes; returns them. */
    private long coldCount(String table) {
        session.execute("DBCC DROPCLEANBUFFERS");
        ProcSelfIo before = ProcSelfIo.read();
        StatementResult.Rows result = (StatementResult.Rows) session.execute("SELECT COUNT(*) FROM " + table);
        dev.columba.core.batch.Batch batch = result.next();
        assertEquals(40000L, ((Number) batch.column(0).getObject(0)).longValue());
        while (result.next() != null) {
            // Read to the end so the statistics are complete.
        }
        result.close();
        IoStats io = result.statistics().total();
        long readBytes = ProcSelfIo.read().minus(before).readBytes();
        long counted = io.pagesFromStorage() * 8192;
        assertTrue(Math.abs(readBytes - counted) <= 0.05 * readBytes, "counted " + counted + " bytes, read_bytes "
                + readBytes + ": " + io);
        return io.pagesFromStorage();
    }
}
