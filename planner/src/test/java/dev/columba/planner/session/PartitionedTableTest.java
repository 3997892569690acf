package dev.columba.planner.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
 * Partitioned rowstore tables: partition functions and schemes, hash partitioning, rows routed to
 * their partitions (sys.partitions), partition elimination in EXPLAIN with the same answers as an
 * unpartitioned copy, parallel scans dividing the partitions, reopening, moving rows by UPDATE, and
 * the errors of bad definitions.
 */
class PartitionedTableTest {
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

    private String rows(String sql) {
        return SessionRows.query(session, sql).toString();
    }

    private String explain(String sql) {
        return rows("EXPLAIN " + sql);
    }

    private void filegroups() {
        session.execute("ALTER DATABASE CURRENT ADD FILEGROUP fg1");
        session.execute("ALTER DATABASE CURRENT ADD FILEGROUP fg2");
        session.execute("ALTER DATABASE CURRENT ADD FILE (NAME = f1, FILENAME = 'fg1.data') TO FILEGROUP fg1");
        session.execute("ALTER DATABASE CURRENT ADD FILE (NAME = f2, FILENAME = 'fg2.data') TO FILEGROUP fg2");
    }

    /** t: ids 1..1000 over RANGE LEFT (100, 200, 300) on fg1, fg2, fg1, fg2; p: the same rows unpartitioned. */
    private void rangeTable() {
        filegroups();
        session.execute("CREATE PARTITION FUNCTION pf (INT) AS RANGE LEFT FOR VALUES (100, 200, 300)");
        session.execute("CREATE PARTITION SCHEME ps AS PARTITION pf TO (fg1, fg2, fg1, fg2)");
        session.execute("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, v VARCHAR(20)) ON ps(id)");
        session.execute("CREATE TABLE p (id INT NOT NULL PRIMARY KEY, v VARCHAR(20))");
        session.execute("INSERT INTO t SELECT x, 'v' || CAST(x % 7 AS VARCHAR(2)) FROM generate_series(1, 1000) AS g(x)");
        session.execute("INSERT INTO p SELECT id, v FROM t");
    }

    @Test
    void rowsLandInTheirRangePartitionsAndSurviveAReopen() {
        rangeTable();
        String partitions = "[[t, 1, 100, fg1], [t, 2, 100, fg2], [t, 3, 100, fg1], [t, 4, 700, fg2]]";
        String query = "SELECT table_name, partition_number, [rows], filegroup FROM sys.partitions WHERE table_name = 't'"
                + " ORDER BY partition_number";
        assertEquals(partitions, rows(query));
        assertEquals("[[t, 1000]]", rows("SELECT table_name, row_count FROM sys.tables WHERE table_name LIKE 't%'"),
                "partitions are not tables of their own");
        reopen();
        assertEquals(partitions, rows(query));
        assertEquals("[[1000, 500500]]", rows("SELECT COUNT(*), SUM(id) FROM t"));
        assertEquals("[[100, v2]]", rows("SELECT id, v FROM t WHERE id = 100"), "a boundary is in the left partition");
        assertEquals("42P01", sqlState(() -> rows("SELECT * FROM [t#partition1]")));
    }

    @Test
    void rangeRightPutsABoundaryInThePartitionOnItsRight() {
        session.execute("CREATE PARTITION FUNCTION pf (INT) AS RANGE RIGHT FOR VALUES (100, 200)");
        session.execute("CREATE PARTITION SCHEME ps AS PARTITION pf ALL TO ([PRIMARY])");
        session.execute("CREATE TABLE r (id INT) ON ps(id)");
        session.execute("INSERT INTO r VALUES (99), (100), (199), (200), (NULL)");
        assertEquals("[[1, 2], [2, 2], [3, 1]]",
                rows("SELECT partition_number, [rows] FROM sys.partitions WHERE table_name = 'r' ORDER BY 1"),
                "NULL goes to partition 1, 100 to 2, 200 to 3");
    }

    @Test
    void eliminationReadsOnlyThePartitionsAFilterNeedsAndAnswersAsTheUnpartitionedCopy() {
        rangeTable();
        List<String[]> cases = List.of(
                new String[] {"id = 150", "partitions 1 of 4 [2]"},
                new String[] {"id <= 100", "partitions 1 of 4 [1]"},
                new String[] {"id < 250 AND id > 120", "partitions 2 of 4 [2, 3]"},
                new String[] {"id BETWEEN 201 AND 299", "partitions 1 of 4 [3]"},
                new String[] {"id IN (5, 950)", "partitions 2 of 4 [1, 4]"},
                new String[] {"id > 300 OR id = 1", "partitions 2 of 4 [1, 4]"},
                new String[] {"id >= 300", "partitions 2 of 4 [3, 4]"},
                new String[] {"id > 2000", "partitions 1 of 4 [4]"},
                new String[] {"v = 'v1'", "partitions 4 of 4"});
        for (String[] filter : cases) {
            String sql = "SELECT COUNT(*), SUM(id) FROM %s WHERE " + filter[0];
            assertTrue(explain(String.format(sql, "t")).contains(filter[1]),
                    filter[0] + ": " + explain(String.format(sql, "t")));
            assertEquals(rows(String.format(sql, "p")), rows(String.format(sql, "t")), filter[0]);
        }
    }

    @Test
    void hashPartitionsSpreadRowsAndParallelScansAgreeWithSerialOnes() {
        filegroups();
        session.execute("CREATE TABLE h (id INT NOT NULL, grp INT, amount DECIMAL(12, 2))"
                + " PARTITION BY HASH (id) PARTITIONS 4 ON (fg1, fg2)");
        session.execute("INSERT INTO h SELECT x, x % 13, CAST(x AS DECIMAL(12, 2)) / 100 FROM generate_series(1, 40000) AS g(x)");
        List<List<Object>> partitions = SessionRows.query(session,
                "SELECT partition_number, [rows], filegroup FROM sys.partitions WHERE table_name = 'h' ORDER BY 1");
        assertEquals(4, partitions.size());
        long total = 0;
        for (List<Object> partition : partitions) {
            long count = ((Number) partition.get(1)).longValue();
            assertTrue(count > 9000 && count < 11000, "hashing spreads the rows evenly: " + partitions);
            total += count;
        }
        assertEquals(40000, total);
        assertEquals("fg1", partitions.get(0).get(2), "partitions go to the filegroups in turn");
        assertEquals("fg2", partitions.get(1).get(2));
        session.execute("SET parallelism_threshold_rows = 1000");
        String query = "SELECT grp, COUNT(*), SUM(amount), MIN(id), MAX(id) FROM h WHERE id > 5 GROUP BY grp ORDER BY grp";
        String serial = rows(query + " OPTION (MAXDOP 1)");
        String parallel = rows(query + " OPTION (MAXDOP 2)");
        assertEquals(serial, parallel);
        assertTrue(explain(query + " OPTION (MAXDOP 2)").contains("degree 2"), explain(query + " OPTION (MAXDOP 2)"));
        assertFalse(explain(query + " OPTION (MAXDOP 1)").contains("Parallelism"));
        assertEquals("[[1, 1, 1]]", rows("SELECT COUNT(*), MIN(id), MAX(grp) FROM h WHERE id = 1"));
        assertTrue(explain("SELECT COUNT(*) FROM h WHERE id = 1").contains("partitions 1 of 4"),
                "an equality on a hash partitioning column reads one partition");
        reopen();
        session.execute("SET parallelism_threshold_rows = 1000");
        assertEquals(serial, rows(query + " OPTION (MAXDOP 2)"));
    }

    @Test
    void updatesMoveRowsBetweenPartitionsAndDeletesFindThem() {
        rangeTable();
        session.execute("UPDATE t SET id = id + 1000 WHERE id <= 10");
        session.execute("DELETE FROM t WHERE id BETWEEN 150 AND 159");
        assertEquals("[[1, 90], [2, 90], [3, 100], [4, 710]]",
                rows("SELECT partition_number, [rows] FROM sys.partitions WHERE table_name = 't' ORDER BY 1"));
        assertEquals("[[1001, v1]]", rows("SELECT id, v FROM t WHERE id = 1001"));
        assertEquals("[[0]]", rows("SELECT COUNT(*) FROM t WHERE id <= 10"));
        session.execute("CREATE TABLE hh (id INT, label VARCHAR(10)) PARTITION BY HASH (id) PARTITIONS 3");
        session.execute("INSERT INTO hh VALUES (1, 'a'), (2, 'b'), (3, 'c'), (3, 'c')");
        session.execute("UPDATE hh SET id = 30 WHERE id = 3");
        session.execute("DELETE FROM hh WHERE id = 1");
        assertEquals("[[2, b], [30, c], [30, c]]", rows("SELECT id, label FROM hh ORDER BY id"));
    }

    @Test
    void badDefinitionsFailWithTheirSqlState() {
        filegroups();
        assertEquals("42804", sqlState(() -> session.execute(
                "CREATE PARTITION FUNCTION bad (INT) AS RANGE LEFT FOR VALUES ('abc')")), "boundary not of the type");
        assertEquals("22023", sqlState(() -> session.execute(
                "CREATE PARTITION FUNCTION bad (INT) AS RANGE LEFT FOR VALUES (20, 10)")), "boundaries must ascend");
        session.execute("CREATE PARTITION FUNCTION pf (INT) AS RANGE LEFT FOR VALUES (-10, 10)");
        assertEquals("42P07", sqlState(() -> session.execute(
                "CREATE PARTITION FUNCTION pf (INT) AS RANGE LEFT FOR VALUES (1)")));
        assertEquals("42P01", sqlState(() -> session.execute(
                "CREATE PARTITION SCHEME ps AS PARTITION nosuch TO (fg1, fg1, fg1)")));
        assertEquals("42P01", sqlState(() -> session.execute(
                "CREATE PARTITION SCHEME ps AS PARTITION pf TO (fg1, nosuchgroup, fg1)")), "unknown filegroup");
        assertEquals("22023", sqlState(() -> session.execute(
                "CREATE PARTITION SCHEME ps AS PARTITION pf TO (fg1, fg2)")), "three partitions need three filegroups");
        session.execute("CREATE PARTITION SCHEME ps AS PARTITION pf TO (fg1, fg2, fg1)");
        assertEquals("42804", sqlState(() -> session.execute("CREATE TABLE b (id BIGINT) ON ps(id)")),
                "a BIGINT column on an INT function");
        assertEquals("42703", sqlState(() -> session.execute("CREATE TABLE b (id INT) ON ps(nosuch)")));
        assertEquals("42P01", sqlState(() -> session.execute("CREATE TABLE b (id INT) ON nosuchscheme(id)")));
        assertEquals("22023", sqlState(() -> session.execute(
                "CREATE TABLE b (id INT, k INT NOT NULL PRIMARY KEY) ON ps(id)")), "the key must hold the column");
        assertEquals("42P01", sqlState(() -> session.execute(
                "CREATE TABLE b (id INT) PARTITION BY HASH (id) PARTITIONS 2 ON (fg1, nosuchgroup)")));
        assertEquals("22023", sqlState(() -> session.execute("CREATE TABLE b (id INT) PARTITION BY HASH (id) PARTITIONS 0")));
        session.execute("CREATE TABLE t (id INT, v INT) ON ps(id)");
        session.execute("INSERT INTO t VALUES (-20, 1), (0, 2), (20, 3)");
        assertEquals("0A000", sqlState(() -> session.execute("CREATE INDEX ix_v ON t (v)")));
        assertEquals("0A000", sqlState(() -> session.execute("TRUNCATE TABLE t")));
        assertEquals("2BP01", sqlState(() -> session.execute("DROP PARTITION SCHEME ps")));
        assertEquals("2BP01", sqlState(() -> session.execute("DROP PARTITION FUNCTION pf")));
        assertEquals("2BP01", sqlState(() -> session.execute("ALTER DATABASE CURRENT REMOVE FILEGROUP fg2")),
                "a partition lies on it");
        session.execute("DROP TABLE t");
        assertEquals("[]", rows("SELECT * FROM sys.partitions WHERE table_name = 't'"));
        session.execute("DROP PARTITION SCHEME ps");
        session.execute("DROP PARTITION FUNCTION pf");
        assertEquals("42P01", sqlState(() -> session.execute("DROP PARTITION FUNCTION pf")));
    }

    /**
     * A cold scan of a partitioned table on two workers: the statement's counters, (physical +
     * read-ahead) x 8 KB, equal the bytes the process read from storage within 5%.
     */
    @Test
    void aColdParallelPartitionedScanCountsWhatItReads() {
        Assumptions.assumeTrue(ProcSelfIo.available(), "needs /proc/self/io");
        filegroups();
        session.execute("CREATE TABLE big (id INT NOT NULL, payload VARCHAR(200))"
                + " PARTITION BY HASH (id) PARTITIONS 4 ON (fg1, fg2)");
        session.execute("INSERT INTO big SELECT x, REPEAT('payload ', 20) || CAST(x AS VARCHAR(10))"
                + " FROM generate_series(1, 60000) AS g(x)");
        session.execute("CHECKPOINT");
        session.execute("DBCC DROPCLEANBUFFERS");
        session.execute("SET parallelism_threshold_rows = 1000");
        ProcSelfIo before = ProcSelfIo.read();
        StatementResult.Rows result = (StatementResult.Rows) session.execute("SELECT COUNT(*) FROM big OPTION (MAXDOP 2)");
        while (result.next() != null) {
            // Read to the end so the statistics are complete.
        }
        result.close();
        IoStats io = result.statistics().total();
        long readBytes = ProcSelfIo.read().minus(before).readBytes();
        long counted = io.pagesFromStorage() * 8192;
        assertTrue(counted > 4_000_000, "the scan read the table cold: " + io);
        assertTrue(Math.abs(readBytes - counted) <= 0.05 * readBytes, "counted " + counted + " bytes, read_bytes "
                + readBytes + ": " + io);
    }
}
