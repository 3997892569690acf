package dev.columba.planner.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.stats.IoCounters;
import dev.columba.planner.parser.ColumbaSqlParser;
import dev.columba.storage.alloc.Allocator;
import dev.columba.storage.alloc.ExtentEntry;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.page.PageFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ALTER DATABASE ADD FILEGROUP / ADD FILE / REMOVE FILEGROUP and tables placed ON a filegroup. */
class FilegroupTest {
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

    private void reopen() {
        close();
        open();
    }

    private static String sqlState(Runnable statement) {
        return assertThrows(ColumbaException.class, statement::run).errorCode().sqlState();
    }

    /** Extents of the table per file id. */
    private Map<Integer, Integer> extentsPerFile(String name) {
        IoCounters counters = new IoCounters();
        CatalogEntry entry = engine.database().catalog().byName(engine.database().bufferPool(), name, counters).orElseThrow();
        Map<Integer, Integer> files = new TreeMap<>();
        for (ExtentEntry extent : Allocator.extents(engine.database().bufferPool(), entry.firstOamPage(), counters)) {
            files.merge(PageFormat.fileOf(extent.firstPage()), 1, Integer::sum);
        }
        return files;
    }

    @Test
    void aTableOnAFilegroupOfTwoFilesFillsBothAndReadsBackAfterAReopen() throws Exception {
        session.execute("ALTER DATABASE CURRENT ADD FILEGROUP fg");
        session.execute("ALTER DATABASE [current] ADD FILE (NAME = f1, FILENAME = 'fg/f1.data'),"
                + " (NAME = f2, FILENAME = '" + directory.resolve("elsewhere/f2.data") + "') TO FILEGROUP fg");
        assertTrue(Files.exists(directory.resolve("fg/f1.data")));
        assertTrue(Files.exists(directory.resolve("elsewhere/f2.data")), "an absolute path is used as given");
        session.execute("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, label VARCHAR(100)) ON fg");
        session.execute("CREATE TABLE p (id INT NOT NULL, label VARCHAR(100))");
        session.execute("INSERT INTO t SELECT x, 'row number ' || CAST(x AS VARCHAR(10)) FROM generate_series(1, 20000) AS g(x)");
        session.execute("INSERT INTO p SELECT id, label FROM t");
        Map<Integer, Integer> files = extentsPerFile("t");
        assertEquals(List.of(1, 2), List.copyOf(files.keySet()), "t lies in files 1 and 2 only: " + files);
        assertTrue(Math.abs(files.get(1) - files.get(2)) <= 1, "extents alternate between the files: " + files);
        assertEquals(List.of(0), List.copyOf(extentsPerFile("p").keySet()), "a table without ON stays on PRIMARY");
        String expected = "[[20000, 200010000]]";
        assertEquals(expected, SessionRows.query(session, "SELECT COUNT(*), SUM(CAST(id AS BIGINT)) FROM t").toString());
        reopen();
        assertEquals(expected, SessionRows.query(session, "SELECT COUNT(*), SUM(CAST(id AS BIGINT)) FROM t").toString());
        assertEquals(List.of(List.of("row number 12345")), SessionRows.query(session, "SELECT label FROM t WHERE id = 12345"));
        assertEquals(expected, SessionRows.query(session, "SELECT COUNT(*), SUM(CAST(id AS BIGINT)) FROM p").toString());
        session.execute("INSERT INTO t VALUES (20001, 'after reopen')");
        assertEquals("[[20001]]", SessionRows.query(session, "SELECT COUNT(*) FROM t").toString());
        assertEquals(List.of(1, 2), List.copyOf(extentsPerFile("t").keySet()));
    }

    @Test
    void badFileAndFilegroupStatementsFailWithTheirSqlState() {
        assertEquals("42P01", sqlState(() -> session.execute("CREATE TABLE t (id INT) ON nosuchgroup")));
        assertEquals("42P01", sqlState(() -> session.execute(
                "ALTER DATABASE CURRENT ADD FILE (NAME = f, FILENAME = 'f.data') TO FILEGROUP nosuchgroup")));
        session.execute("ALTER DATABASE CURRENT ADD FILEGROUP fg");
        assertEquals("42P07", sqlState(() -> session.execute("ALTER DATABASE CURRENT ADD FILEGROUP FG")));
        assertEquals("22023", sqlState(() -> session.execute("CREATE TABLE empty_group (id INT) ON fg")),
                "a filegroup without files cannot hold a table");
        assertEquals("22023", sqlState(() -> session.execute(
                "ALTER DATABASE CURRENT ADD FILE (NAME = f, FILENAME = 'f.data', SIZE = 100) TO FILEGROUP fg")));
        assertEquals("22023", sqlState(() -> session.execute("ALTER DATABASE CURRENT ADD FILE (NAME = f) TO FILEGROUP fg")));
        session.execute("ALTER DATABASE CURRENT ADD FILE (NAME = f, FILENAME = 'f.data') TO FILEGROUP fg");
        assertEquals("42P07", sqlState(() -> session.execute(
                "ALTER DATABASE CURRENT ADD FILE (NAME = f, FILENAME = 'g.data') TO FILEGROUP fg")), "file name taken");
        assertEquals("42P07", sqlState(() -> session.execute(
                "ALTER DATABASE CURRENT ADD FILE (NAME = g, FILENAME = 'f.data') TO FILEGROUP fg")), "path taken");
        session.execute("CREATE TABLE t (id INT) ON fg");
        session.execute("CREATE TABLE t2 (id INT)");
        assertEquals("2BP01", sqlState(() -> session.execute("ALTER DATABASE CURRENT REMOVE FILEGROUP fg")),
                "a filegroup a table is placed on");
        session.execute("DROP TABLE t");
        assertEquals("2BP01", sqlState(() -> session.execute("ALTER DATABASE CURRENT REMOVE FILEGROUP fg")),
                "a filegroup with files");
        assertEquals("2BP01", sqlState(() -> session.execute("ALTER DATABASE CURRENT REMOVE FILEGROUP [PRIMARY]")));
        session.execute("ALTER DATABASE CURRENT ADD FILEGROUP spare");
        session.execute("ALTER DATABASE CURRENT REMOVE FILEGROUP spare");
        assertEquals("42P01", sqlState(() -> session.execute("ALTER DATABASE CURRENT REMOVE FILEGROUP spare")));
        assertEquals("0A000", sqlState(() -> session.execute(
                "CREATE TABLE c (id INT) ON fg WITH (storage = columnstore)")));
        session.setAutoCommit(false);
        session.execute("INSERT INTO t2 VALUES (1)");
        assertEquals("25000", sqlState(() -> session.execute("ALTER DATABASE CURRENT ADD FILEGROUP later")));
        session.rollback();
    }

    @Test
    void primaryIsAFilegroupName() {
        session.execute("CREATE TABLE t (id INT) ON [PRIMARY]");
        session.execute("CREATE TABLE u (id INT) ON PRIMARY");
        session.execute("INSERT INTO t VALUES (1)");
        assertEquals(List.of(0), List.copyOf(extentsPerFile("t").keySet()));
    }

    @Test
    void theStatementsReadBackAsWritten() {
        for (String sql : List.of(
                "ALTER DATABASE CURRENT ADD FILEGROUP [fg]",
                "ALTER DATABASE CURRENT ADD FILE ([NAME] = [f1], [FILENAME] = 'a/f1.data'), ([NAME] = [f2],"
                        + " [FILENAME] = 'f2.data') TO FILEGROUP [fg]",
                "ALTER DATABASE CURRENT REMOVE FILEGROUP [fg]",
                "CREATE PARTITION FUNCTION [pf] (INTEGER) AS RANGE RIGHT FOR VALUES (1, 100)",
                "CREATE PARTITION SCHEME [ps] AS PARTITION [pf] ALL TO ([fg])",
                "DROP PARTITION SCHEME [ps]")) {
            String written = ColumbaSqlParser.toSql(ColumbaSqlParser.parse(sql));
            assertEquals(written, ColumbaSqlParser.toSql(ColumbaSqlParser.parse(written)), sql);
        }
    }
}
