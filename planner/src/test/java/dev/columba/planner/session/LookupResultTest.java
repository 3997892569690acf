package dev.columba.planner.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which queries the session runs as point lookups ({@link LookupResult}, rows read from the leaf
 * without an operator tree) and that their rows, read as Java values or as a batch, and their
 * statistics are the operator tree's ({@code SET direct_lookups = off} in a second session).
 */
class LookupResultTest {
    @TempDir
    Path directory;

    private Engine engine;
    private Session direct;
    private Session operators;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        direct = engine.openSession();
        operators = engine.openSession();
        operators.execute("SET direct_lookups = off");
        direct.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v INT, s VARCHAR(20))");
        direct.execute("INSERT INTO t SELECT generate_series, CASE WHEN generate_series % 4 = 0 THEN NULL"
                + " ELSE CAST(generate_series * 2 AS INT) END, 'row ' || CAST(generate_series AS VARCHAR(20))"
                + " FROM generate_series(1, 800)");
        direct.execute("CREATE TABLE pair (k1 INT NOT NULL, k2 INT NOT NULL, v INT, PRIMARY KEY (k1, k2))");
        direct.execute("INSERT INTO pair SELECT generate_series % 7, generate_series, generate_series * 3 FROM generate_series(1, 300)");
        direct.execute("CREATE TABLE heap_t (id BIGINT, v INT)");
        direct.execute("INSERT INTO heap_t VALUES (1, 1), (2, 2)");
    }

    @AfterEach
    void close() {
        direct.close();
        operators.close();
        engine.close(); // fails on memory a result left allocated
    }

    private static boolean readsDirectly(Session session, String sql, Object... parameters) {
        try (StatementResult result = session.execute(sql, List.of(parameters))) {
            return result instanceof StatementResult.RowsRead;
        }
    }

    @Test
    void onlySeeksOfOneUniqueKeyWithTheirColumnsAsIsAreLookups() {
        assertTrue(readsDirectly(direct, "SELECT v, s FROM t WHERE id = ?", 5L));
        assertTrue(readsDirectly(direct, "SELECT * FROM t WHERE id = ?", 5L));
        assertTrue(readsDirectly(direct, "SELECT v, s, id FROM t WHERE id = ?", 5L), "columns in another order");
        assertTrue(readsDirectly(direct, "SELECT s FROM t WHERE id = 6"));
        assertTrue(readsDirectly(direct, "SELECT s, v, s, id FROM t WHERE id = 6"), "a projection that picks columns");
        assertTrue(readsDirectly(direct, "SELECT v FROM pair WHERE k1 = ? AND k2 = ?", 3, 10));
        assertFalse(readsDirectly(operators, "SELECT v, s FROM t WHERE id = ?", 5L), "off");
        assertFalse(readsDirectly(direct, "SELECT v + 1 FROM t WHERE id = ?", 5L), "an expression above the seek");
        assertFalse(readsDirectly(direct, "SELECT CAST(v AS BIGINT), s FROM t WHERE id = ?", 5L), "a cast above the seek");
        assertFalse(readsDirectly(direct, "SELECT v FROM t WHERE id = ? AND v > 3", 5L), "a residual filter");
        assertFalse(readsDirectly(direct, "SELECT v FROM t WHERE id BETWEEN ? AND ?", 5L, 6L), "a range");
        assertFalse(readsDirectly(direct, "SELECT v FROM pair WHERE k1 = ?", 3), "a prefix of the key");
        assertFalse(readsDirectly(direct, "SELECT v FROM heap_t WHERE id = ?", 1L), "a heap");
        assertFalse(readsDirectly(direct, "SELECT COUNT(*) FROM t WHERE id = ?", 1L), "an aggregate");
        assertFalse(readsDirectly(direct, "EXPLAIN SELECT v, s FROM t WHERE id = ?", 1L), "EXPLAIN");
    }

    @Test
    void theSettingTakesEffectAtTheNextStatement() {
        String sql = "SELECT v FROM t WHERE id = ?";
        assertTrue(readsDirectly(direct, sql, 9L));
        direct.execute("SET direct_lookups = off");
        assertFalse(readsDirectly(direct, sql, 9L), "the cached plan run through its operators");
        direct.execute("SET direct_lookups = on");
        assertTrue(readsDirectly(direct, sql, 9L));
    }

    @Test
    void rowsAsJavaValuesAndAsABatchAreTheOperatorTreesRows() {
        List<Object> keys = new ArrayList<>(Arrays.asList(null, 0L, -1L, 801L, Long.MAX_VALUE));
        for (long key = 1; key <= 800; key += 7) {
            keys.add(key);
        }
        String sql = "SELECT v, s, id FROM t WHERE id = ?";
        int found = 0;
        for (Object key : keys) {
            List<Object> parameters = Arrays.asList(key);
            List<List<Object>> expected = SessionRows.queryWith(operators, sql, parameters.toArray());
            assertEquals(expected, SessionRows.queryWith(direct, sql, parameters.toArray()), "as a batch, key " + key);
            try (StatementResult.RowsRead result = assertInstanceOf(StatementResult.RowsRead.class, direct.execute(sql, parameters))) {
                List<List<Object>> values = result.rowsRead().stream().map(Arrays::asList).toList();
                assertEquals(expected, values, "as values, key " + key);
                found += values.size();
            }
        }
        assertEquals(115, found);
    }

    @Test
    void statisticsAreCompleteWhenTheResultIsClosed() {
        direct.execute("SET STATISTICS IO ON");
        operators.execute("SET STATISTICS IO ON");
        String sql = "SELECT v FROM t WHERE id = ?";
        StatementResult.Rows expected = (StatementResult.Rows) operators.execute(sql, List.of(17L));
        StatementResult.Rows actual = (StatementResult.Rows) direct.execute(sql, List.of(17L));
        assertEquals(List.of(), actual.messages(), "not finished before it is closed");
        assertEquals(StatementStatistics.NONE, actual.statistics());
        while (expected.next() != null) {
            // Read to the end, which finishes it.
        }
        actual.close();
        expected.close();
        assertEquals(expected.messages(), actual.messages());
        assertEquals(expected.statistics().tables(), actual.statistics().tables());
        assertTrue(actual.statistics().tables().get("t").logicalReads() > 0);
        assertNull(actual.next(), "closed");
    }

    @Test
    void aBatchReaderThatStopsEarlyReleasesTheBatch() {
        StatementResult.Rows result = (StatementResult.Rows) direct.execute("SELECT s FROM t WHERE id = ?", List.of(3L));
        assertEquals(1, result.next().rowCount());
        result.close();
        assertEquals(0, direct.keptStatementAllocator().getAllocatedMemory());
    }
}
