package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.scan.RowgroupMorsels;
import dev.columba.core.stats.IoStats;
import dev.columba.storage.io.ProcSelfIo;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parallel plans over a columnstore rowgroup larger than a morsel ({@link RowgroupMorsels#SLICE_ROWS}):
 * the workers divide the rowgroup by slices. A table of 300,000 rows in one compressed rowgroup
 * (three slices) answers at 2, 3 and 4 workers as at one — whole, with deleted rows, with delta rows
 * inserted after it, and when the scan aggregates whole rowgroups itself — and a cold scan at MAXDOP
 * 2 counts its reads once: the lob logical reads of MAXDOP 1, and (physical + read-ahead) x 8 KB
 * equal to {@code /proc/self/io} read_bytes within 5%.
 */
class ParallelSlicedScanTest {
    private static final int ROWS = 300_000;

    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        session = engine.openSession();
        session.execute("CREATE TABLE facts (id BIGINT NOT NULL, grp INT NOT NULL, amount BIGINT, label VARCHAR(20))"
                + " WITH (storage = columnstore, bulk_min_rows = 1000)").close();
        update(session, "INSERT INTO facts SELECT generate_series, MOD(generate_series, 1000),"
                + " CASE WHEN MOD(generate_series, 101) = 0 THEN NULL ELSE generate_series * 3 END,"
                + " 'label ' || CAST(MOD(generate_series, 37) AS VARCHAR(10)) FROM generate_series(1, " + ROWS + ")");
        session.execute("SET parallelism_threshold_rows = 1000").close();
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    private static final List<String> QUERIES = List.of(
            "SELECT COUNT(*), SUM(amount), MIN(id), MAX(id) FROM facts",
            "SELECT COUNT(*), SUM(amount) FROM facts WHERE id > 140000 AND id < 270000",
            "SELECT grp, COUNT(*), SUM(amount), MAX(label) FROM facts GROUP BY grp",
            "SELECT label, COUNT(amount) FROM facts WHERE grp < 500 GROUP BY label");

    private List<List<Object>> sorted(String sql, int degree) {
        List<List<Object>> rows = new java.util.ArrayList<>(query(session, sql + " OPTION (MAXDOP " + degree + ")"));
        rows.sort(Comparator.comparing(Object::toString));
        return rows;
    }

    private void assertEveryDegreeAnswersAsOne(String situation) {
        for (String sql : QUERIES) {
            List<List<Object>> serial = sorted(sql, 1);
            for (int degree = 2; degree <= 4; degree++) {
                assertEquals(serial, sorted(sql, degree), situation + ", MAXDOP " + degree + ": " + sql);
            }
        }
    }

    @Test
    void workersDividingARowgroupBySlicesAnswerAsOne() {
        assertEquals(List.of(List.<Object>of("COMPRESSED", (long) ROWS)), query(session,
                "SELECT state, total_rows FROM sys.column_store_row_groups WHERE table_name = 'facts'"),
                "one compressed rowgroup of three slices");
        assertTrue(query(session, "EXPLAIN " + QUERIES.get(2) + " OPTION (MAXDOP 2)").toString().contains("Parallelism"),
                "a parallel plan");
        assertEveryDegreeAnswersAsOne("one rowgroup");
        update(session, "DELETE FROM facts WHERE MOD(id, 7) = 3 OR id BETWEEN 131000 AND 131200");
        update(session, "INSERT INTO facts VALUES (300001, 1, 5, 'late'), (300002, 2, NULL, 'late'), (300003, 1, 7, 'later')");
        assertEquals(List.of(List.<Object>of(300_003L)), query(session, "SELECT MAX(id) FROM facts OPTION (MAXDOP 2)"));
        assertEveryDegreeAnswersAsOne("deleted rows and delta rows");
    }

    @Test
    void aColdScanAtMaxdop2CountsEachSegmentOnce() {
        Assumptions.assumeTrue(ProcSelfIo.available(), "needs /proc/self/io");
        session.execute("CHECKPOINT").close();
        String sql = "SELECT grp, SUM(amount), COUNT(label) FROM facts GROUP BY grp";
        IoStats serial = coldStatistics(sql + " OPTION (MAXDOP 1)").stats();
        Cold parallel = coldStatistics(sql + " OPTION (MAXDOP 2)");
        IoStats io = parallel.stats();
        assertEquals(serial.segmentReads(), io.segmentReads(), "each segment read once: " + io);
        assertEquals(serial.lobLogicalReads(), io.lobLogicalReads(), "each segment counted once: " + io);
        long counted = io.pagesFromStorage() * 8192;
        assertTrue(counted > 1_000_000, "the scan read the table cold: " + io);
        assertTrue(Math.abs(parallel.readBytes() - counted) <= 0.05 * parallel.readBytes(), "counted " + counted
                + " bytes, read_bytes " + parallel.readBytes() + ": " + io);
    }

    private record Cold(IoStats stats, long readBytes) {
    }

    private Cold coldStatistics(String sql) {
        session.execute("DBCC DROPCLEANBUFFERS").close();
        ProcSelfIo before = ProcSelfIo.read();
        StatementResult.Rows result = (StatementResult.Rows) session.execute(sql);
        while (result.next() != null) {
            // Read to the end so the statistics are complete.
        }
        result.close();
        return new Cold(result.statistics().total(), ProcSelfIo.read().minus(before).readBytes());
    }
}
