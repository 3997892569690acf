package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Aggregates without GROUP BY that the columnstore scan computes itself from its rowgroups'
 * footers and encoded segments (COUNT, MIN/MAX, SUM/AVG): every answer equals the same query's
 * over a rowstore copy of the table, which never does. The table has several rowgroups, a delta
 * store, a rowgroup with deleted rows, NULLs in some rowgroups only, run-length and packed
 * segments, BIGINT values whose sums pass 2^63, strings, and calls the scan cannot answer (a
 * DOUBLE, an expression, a filter); serially and on two workers. The scan's counters show that
 * the segments of MIN/MAX columns were skipped, so the path under test is the one taken.
 */
class ScanAggregatesTest {
    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        session = engine.openSession();
        String columns = "(id INT NOT NULL, d DATE NOT NULL, q DECIMAL(15, 2) NOT NULL, n DECIMAL(12, 2), b BIGINT NOT NULL,"
                + " r INT NOT NULL, w DECIMAL(30, 2) NOT NULL, x DOUBLE NOT NULL, s VARCHAR(8) NOT NULL)";
        session.execute("CREATE TABLE cs " + columns
                + " WITH (storage = columnstore, rowgroup_max_rows = 2500, bulk_min_rows = 10)").close();
        session.execute("CREATE TABLE rs " + columns).close();
        String rows = "SELECT generate_series, DATE '1992-01-01' + MOD(generate_series * 37, 2500) * INTERVAL '1' DAY,"
                + " CAST(MOD(generate_series, 50) + 1 AS DECIMAL(15, 2)) + 0.25,"
                + " CASE WHEN generate_series BETWEEN 5001 AND 5100 AND MOD(generate_series, 7) = 0 THEN NULL"
                + " ELSE CAST(generate_series AS DECIMAL(12, 2)) / 4 - 300 END,"
                + " CASE WHEN MOD(generate_series, 2) = 0 THEN 9223372036854775000 ELSE -5 * generate_series END,"
                + " generate_series / 1000,"
                + " CAST(generate_series AS DECIMAL(30, 2)) * 1000000000000000000,"
                + " CAST(generate_series AS DOUBLE) / 3, 's' || CAST(MOD(generate_series, 17) AS VARCHAR(3))"
                + " FROM generate_series(1, 10000)";
        update(session, "INSERT INTO cs " + rows);
        update(session, "INSERT INTO rs " + rows);
        // Rows in the columnstore's delta store, one with the largest date and a NULL.
        String late = "INSERT INTO %s VALUES (10001, DATE '2001-01-01', 99.99, NULL, 7, 11, 1.5, 0.5, 'zz'),"
                + " (10002, DATE '1991-06-30', 0.01, -1000.5, -9223372036854775000, -3, -2.5, -0.5, 'a')";
        update(session, String.format(late, "cs"));
        update(session, String.format(late, "rs"));
        // Deleted rows in the first rowgroup, among them its smallest id and a large q.
        update(session, "DELETE FROM cs WHERE id IN (1, 49, 1234)");
        update(session, "DELETE FROM rs WHERE id IN (1, 49, 1234)");
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    private static final List<String> QUERIES = List.of(
            "SELECT MAX(d), SUM(q) FROM %s",
            "SELECT MIN(d), MIN(id), MAX(id), COUNT(*), AVG(q), SUM(r), AVG(r) FROM %s",
            "SELECT COUNT(n), SUM(n), AVG(n), MIN(n), MAX(n) FROM %s",
            "SELECT SUM(b), AVG(b), MIN(b), MAX(b), COUNT(b) FROM %s",
            "SELECT SUM(w), MIN(w), MAX(w) FROM %s",
            "SELECT SUM(q), SUM(x) FROM %s",
            "SELECT MAX(s), SUM(q) FROM %s",
            "SELECT SUM(t.v), MAX(t.e) FROM (SELECT q AS v, d AS e, id + 1 AS f FROM %s) t",
            "SELECT SUM(q + 1) FROM %s",
            "SELECT SUM(q), MAX(d) FROM %s WHERE id > 100",
            "SELECT COUNT(*) FROM %s",
            "SELECT SUM(q), COUNT(DISTINCT r) FROM %s",
            "SELECT SUM(CAST(r AS BIGINT)), AVG(CAST(id AS BIGINT)), COUNT(CAST(id AS BIGINT)), MAX(s), MIN(d) FROM %s",
            "SELECT MAX(CAST(id AS BIGINT)), MIN(CAST(r AS BIGINT)), SUM(q) FROM %s");

    /** A projection's expression fails on one row: the query fails as the rowstore's does, however its rows are aggregated. */
    @Test
    void anExpressionBetweenTheScanAndTheAggregateIsStillEvaluated() {
        String text = "SELECT COUNT(*), MAX(t.e), SUM(t.f) FROM (SELECT d AS e, 1 / (id - 5000) AS f FROM %s) t";
        for (String table : List.of("rs", "cs")) {
            ColumbaException failure = assertThrows(ColumbaException.class, () -> query(session, String.format(text, table)), table);
            assertEquals("22012", failure.errorCode().sqlState(), table);
        }
    }

    /** A narrowing cast can fail on some row, so it is evaluated on every row, never skipped by the scan's own aggregation. */
    @Test
    void aNarrowingCastIsStillEvaluated() {
        for (String table : List.of("rs", "cs")) {
            ColumbaException failure = assertThrows(ColumbaException.class,
                    () -> query(session, String.format("SELECT SUM(CAST(b AS INT)), MAX(d) FROM %s", table)), table);
            assertEquals("22003", failure.errorCode().sqlState(), table);
        }
    }

    @Test
    void answersAsTheRowstoreDoesSeriallyAndOnTwoWorkers() {
        assertAnswersAsTheRowstore(QUERIES, "cs", "rs");
    }

    /**
     * MAX(d) comes from the footers of the three rowgroups without deleted rows (their d segments
     * skipped); SUM(q) reads q's segments; the first rowgroup, with its deleted rows, is decoded.
     */
    @Test
    void theScanSkipsTheSegmentsItAnswersFromItsFooters() {
        session.execute("SET max_dop = 1").close();
        assertEquals(3, skippedSegments("SELECT MAX(d), SUM(q) FROM cs"));
        assertEquals(6, skippedSegments("SELECT MAX(d), SUM(CAST(r AS BIGINT)), MIN(s) FROM cs"), "summed through a widening cast");
        assertEquals(0, skippedSegments("SELECT MAX(d), SUM(q) FROM cs WHERE id > 0"), "a filter decodes every rowgroup");
        update(session, "DELETE FROM cs WHERE id = 9999");
        assertEquals(2, skippedSegments("SELECT MAX(d), SUM(q) FROM cs"), "a rowgroup with deleted rows is decoded");
    }

    /** EXPLAIN says which aggregation the scan computes, on the partial aggregation of a parallel plan. */
    @Test
    void explainShowsTheAggregatePushdown() {
        String pushed = "computed in the columnstore scan where rowgroups allow (aggregate pushdown)";
        for (int workers : new int[] {1, 2}) {
            session.execute("SET max_dop = " + workers).close();
            String plan = String.join("\n", query(session, "EXPLAIN SELECT MAX(d), SUM(q) FROM cs").stream()
                    .map(row -> String.valueOf(row.getFirst())).toList());
            assertEquals(1, plan.lines().filter(line -> line.contains(pushed)).count(), plan);
            assertTrue(plan.lines().filter(line -> line.contains(pushed)).allMatch(line -> line.contains("HashAggregate")
                    && !line.contains("final")), plan);
            for (String other : List.of("EXPLAIN SELECT MAX(d), SUM(q) FROM cs WHERE id > 0", "EXPLAIN SELECT MAX(d) FROM rs",
                    "EXPLAIN SELECT id, SUM(q) FROM cs GROUP BY id")) {
                String otherPlan = String.join("\n", query(session, other).stream()
                        .map(row -> String.valueOf(row.getFirst())).toList());
                assertFalse(otherPlan.contains(pushed), other + ": " + otherPlan);
            }
        }
    }

    /**
     * MIN and MAX of VARCHAR and CHAR columns from the footers: the same answers as the rowstore's
     * with NULLs (a rowgroup of NULLs only), deleted rows, delta rows and a filter, and strings whose
     * order by code point (the UTF-8 bytes the aggregation compares) differs from Java's
     * {@link String#compareTo}: U+1F600 (a surrogate pair) sorts after U+FF61 in one, before it in
     * the other, and the two sit in different rowgroups.
     */
    @Test
    void stringExtremesComeFromTheFootersInCodePointOrder() {
        String columns = "(id INT NOT NULL, v VARCHAR(12), c CHAR(4) NOT NULL, u VARCHAR(40) NOT NULL)";
        session.execute("CREATE TABLE cst " + columns
                + " WITH (storage = columnstore, rowgroup_max_rows = 2500, bulk_min_rows = 10)").close();
        session.execute("CREATE TABLE rst " + columns).close();
        String rows = "SELECT generate_series,"
                + " CASE WHEN generate_series = 6000 THEN '\uD83D\uDE00' WHEN generate_series = 9000 THEN '\uFF61'"
                + " WHEN generate_series = 1234 THEN 'A' WHEN generate_series BETWEEN 2501 AND 5000 THEN NULL"
                + " WHEN MOD(generate_series, 11) = 0 THEN NULL ELSE 'm' || CAST(MOD(generate_series, 7) AS VARCHAR(3)) END,"
                + " 'k' || CAST(MOD(generate_series, 5) AS VARCHAR(3)),"
                + " 'u' || CAST(MOD(generate_series * 7919, 10007) AS VARCHAR(10))"
                + " FROM generate_series(1, 10000)";
        for (String table : List.of("cst", "rst")) {
            update(session, "INSERT INTO " + table + " " + rows);
        }
        List<String> queries = List.of(
                "SELECT MIN(v), MAX(v), COUNT(v), MIN(c), MAX(c), MIN(u), MAX(u) FROM %s",
                "SELECT MAX(v), SUM(id), COUNT(*) FROM %s",
                "SELECT MIN(v), MAX(v) FROM %s WHERE id BETWEEN 2501 AND 5000",
                "SELECT MIN(v), MAX(u) FROM %s WHERE id > 5000");
        assertAnswersAsTheRowstore(queries, "cst", "rst");
        session.execute("SET max_dop = 1").close();
        // The two string columns' segments of the four rowgroups: none read.
        assertEquals(8, skippedSegments("SELECT MIN(v), MAX(c), COUNT(*) FROM cst"));

        // The row holding the largest value deleted (its rowgroup is decoded), a delta row with a smaller one and a NULL.
        for (String table : List.of("cst", "rst")) {
            update(session, "DELETE FROM " + table + " WHERE id IN (6000, 1234)");
            update(session, "INSERT INTO " + table + " VALUES (10001, '\u00E9', 'k9', 'u99999'), (10002, NULL, 'a', 'u')");
        }
        assertAnswersAsTheRowstore(queries, "cst", "rst");
    }

    private void assertAnswersAsTheRowstore(List<String> queries, String columnstore, String rowstore) {
        for (int workers : new int[] {1, 2}) {
            session.execute("SET max_dop = " + workers).close();
            for (String text : queries) {
                List<List<Object>> expected = query(session, String.format(text, rowstore));
                assertEquals(expected, query(session, String.format(text, columnstore)), text + " at max_dop " + workers);
            }
        }
    }

    private long skippedSegments(String sql) {
        try (StatementResult.Rows result = (StatementResult.Rows) session.execute(sql)) {
            TableSchema schema = result.schema();
            List<Object> values = new ArrayList<>();
            for (Batch batch = result.next(); batch != null; batch = result.next()) {
                for (int column = 0; column < schema.size(); column++) {
                    values.add(VectorValues.get(batch.column(column), batch.selectedRow(0), schema.column(column).type()));
                }
            }
            assertTrue(values.stream().allMatch(value -> value != null), sql + ": " + values);
            return result.statistics().total().get(IoCounter.SEGMENT_SKIPPED);
        }
    }
}
