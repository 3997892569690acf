package dev.columba.planner.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorValues;
import dev.columba.planner.plan.QueryPlanner;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session keeps the small output batches of its scans from one statement to the next
 * ({@code ReusableBatches}): results stay those of fresh batches whatever ran before (other keys,
 * NULLs after values, a large scan, other tables of the same or another shape, a dropped and
 * re-created table), and an engine closed before its sessions frees what they kept.
 */
class ReusedBatchesTest {
    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "16MB");
        engine = Engine.open(directory, properties, (catalog, settings, statement, cancel) ->
                new QueryPlanner(catalog, settings).plan(statement));
        session = engine.openSession();
        // The point selects here are about the scan operator's batches, which a direct lookup has none of.
        session.execute("SET direct_lookups = off");
        session.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v INT, s VARCHAR(20))");
        // Every seventh row has NULLs, so a row with values is read right before and after one without.
        session.execute("INSERT INTO t SELECT generate_series,"
                + " CASE WHEN generate_series % 7 = 0 THEN NULL ELSE CAST(generate_series % 10 AS INT) END,"
                + " CASE WHEN generate_series % 7 = 0 THEN NULL ELSE 'row ' || CAST(generate_series AS VARCHAR(20)) END"
                + " FROM generate_series(1, 3000)");
    }

    @AfterEach
    void close() {
        if (session != null) {
            session.close();
        }
        if (engine != null) {
            engine.close();
        }
    }

    private static final String POINT = "SELECT v, s FROM t WHERE id = ?";

    private static List<Object> expected(long id) {
        return id % 7 == 0 ? Arrays.asList(null, null) : List.of((int) (id % 10), "row " + id);
    }

    @Test
    void pointSelectsReuseOneBatchAndReturnEachKeysRow() {
        assertEquals(List.of(expected(12)), SessionRows.queryWith(session, POINT, 12L));
        assertEquals(1, session.reusableBatches().size(), "the scan's batch is kept after the statement");
        for (long id : new long[] {13, 14, 15, 2999, 1, 700, 701, 5000}) {
            List<List<Object>> want = id > 3000 ? List.of() : List.of(expected(id));
            assertEquals(want, SessionRows.queryWith(session, POINT, id), "id " + id);
            assertEquals(1, session.reusableBatches().size(), "one batch, taken and kept again");
        }
    }

    @Test
    void aLargeScanInBetweenLeavesLaterLookupsCorrect() {
        assertEquals(List.of(expected(20)), SessionRows.queryWith(session, POINT, 20L));
        List<List<Object>> range = SessionRows.queryWith(session, "SELECT v, s FROM t WHERE id BETWEEN ? AND ?", 1L, 100L);
        assertEquals(100, range.size());
        for (int index = 0; index < 100; index++) {
            assertEquals(expected(index + 1), range.get(index));
        }
        // A whole-table scan grows the batch past what is kept: it is freed, not kept.
        List<List<Object>> all = SessionRows.queryWith(session, "SELECT v, s FROM t");
        assertEquals(3000, all.size());
        assertTrue(session.reusableBatches().size() <= 1);
        assertEquals(List.of(expected(21)), SessionRows.queryWith(session, POINT, 21L));
        assertEquals(List.of(expected(28)), SessionRows.queryWith(session, POINT, 28L));
        assertEquals(List.of(expected(29)), SessionRows.queryWith(session, POINT, 29L));
    }

    @Test
    void aTableOfAnotherShapeGetsItsOwnBatchAndARecreatedTableReadsItsNewColumns() {
        assertEquals(List.of(expected(5)), SessionRows.queryWith(session, POINT, 5L));
        session.execute("CREATE TABLE u (id BIGINT PRIMARY KEY, v VARCHAR(5), s INT)");
        session.execute("INSERT INTO u VALUES (5, 'five', 55)");
        assertEquals(List.of(List.of("five", 55)), SessionRows.queryWith(session, "SELECT v, s FROM u WHERE id = ?", 5L));
        assertEquals(2, session.reusableBatches().size());
        session.execute("DROP TABLE t");
        session.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v BIGINT, s VARCHAR(20))");
        session.execute("INSERT INTO t VALUES (5, 5000000000, NULL)");
        assertEquals(List.of(Arrays.asList(5_000_000_000L, null)), SessionRows.queryWith(session, POINT, 5L));
        assertEquals(List.of(List.of("five", 55)), SessionRows.queryWith(session, "SELECT v, s FROM u WHERE id = ?", 5L));
    }

    @Test
    void twoOpenResultsOfOneSessionDoNotShareABatch() {
        assertEquals(List.of(expected(40)), SessionRows.queryWith(session, POINT, 40L));
        try (StatementResult.Rows first = (StatementResult.Rows) session.execute(POINT, List.of(41L));
             StatementResult.Rows second = (StatementResult.Rows) session.execute(POINT, List.of(43L))) {
            Batch a = first.next();
            Batch b = second.next();
            assertTrue(a.column(0) != b.column(0), "each open statement has its own vectors");
            assertEquals("row 41", VectorValues.get(a.column(1), a.selectedRow(0), first.schema().column(1).type()));
            assertEquals("row 43", VectorValues.get(b.column(1), b.selectedRow(0), second.schema().column(1).type()));
        }
        assertEquals(2, session.reusableBatches().size());
    }

    @Test
    void anEngineClosedBeforeItsSessionsFreesWhatTheyKept() {
        Session other = engine.openSession();
        other.execute("SET direct_lookups = off");
        assertEquals(List.of(expected(9)), SessionRows.queryWith(other, POINT, 9L));
        assertEquals(1, other.reusableBatches().size());
        assertEquals(List.of(expected(10)), SessionRows.queryWith(session, POINT, 10L));
        // Arrow's leak check at the memory's close would throw if a kept batch were still allocated.
        engine.close();
        engine = null;
        other.close();
        session.close();
        session = null;
    }
}
