package dev.columba.planner.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.planner.plan.QueryPlanner;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Trivial plans against the full (cost-based) planner over a differential corpus: one session
 * plans as it does by default, the other with trace flag 8757 (every statement fully optimized).
 * For each statement both give the same physical plan (EXPLAIN's lines, the trivial one's
 * first line aside), the same rows, and for modifications the same table afterwards (each session
 * changes its own copy of the table). Statements outside the trivial shapes are fully optimized
 * in both sessions.
 */
class TrivialPlanTest {
    @TempDir
    Path directory;

    private Engine engine;
    private Session trivial;
    private Session full;

    @BeforeEach
    void open() {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "16MB");
        engine = Engine.open(directory, properties, (catalog, settings, statement, cancel) -> new QueryPlanner(catalog, settings).plan(statement));
        trivial = engine.openSession();
        full = engine.openSession();
        full.execute("DBCC TRACEON (8757)");
        for (String table : List.of("a", "b")) {
            trivial.execute("CREATE TABLE " + table + " (id BIGINT PRIMARY KEY, v INT NOT NULL, s VARCHAR(20))");
            trivial.execute("INSERT INTO " + table + " SELECT generate_series, CAST(generate_series % 10 AS INT), "
                    + "'row ' || CAST(generate_series AS VARCHAR(20)) FROM generate_series(1, 500)");
        }
        trivial.execute("CREATE TABLE pair (k1 INT NOT NULL, k2 INT NOT NULL, v INT, PRIMARY KEY (k1, k2))");
        trivial.execute("INSERT INTO pair SELECT generate_series % 7, generate_series, generate_series * 3 "
                + "FROM generate_series(1, 300)");
        trivial.execute("CREATE TABLE indexed (id BIGINT PRIMARY KEY, v INT NOT NULL)");
        trivial.execute("CREATE INDEX indexed_v ON indexed (v)");
        trivial.execute("INSERT INTO indexed SELECT generate_series, CAST(generate_series % 10 AS INT) "
                + "FROM generate_series(1, 500)");
    }

    @AfterEach
    void close() {
        trivial.close();
        full.close();
        engine.close();
    }

    private static List<String> explain(Session session, String sql) {
        return SessionRows.query(session, "EXPLAIN " + sql).stream().map(row -> (String) row.getFirst()).toList();
    }

    /** The plan's lines without the trivial plan's marker line, which is asserted separately. */
    private static List<String> operators(List<String> explain) {
        return explain.isEmpty() || !explain.getFirst().equals(QueryPlanner.TRIVIAL_PLAN_LINE)
                ? explain : explain.subList(1, explain.size());
    }

    @Test
    void lookupsByKeyAreTrivialPlansEqualToFullPlans() {
        List<String> lookups = List.of(
                "SELECT v, s FROM a WHERE id = 7",
                "SELECT * FROM a WHERE id = 700",
                "SELECT s FROM a WHERE id BETWEEN 10 AND 20",
                "SELECT id FROM a WHERE id > 490",
                "SELECT id, v FROM a WHERE id < 30 AND v = 3",
                "SELECT v FROM a WHERE id >= 100 AND id < 104 AND s <> 'row 101'",
                "SELECT v FROM pair WHERE k1 = 3 AND k2 = 10",
                "SELECT k2, v FROM pair WHERE k1 = 2 AND k2 BETWEEN 5 AND 60");
        for (String query : lookups) {
            List<String> trivialPlan = explain(trivial, query);
            List<String> fullPlan = explain(full, query);
            assertEquals(QueryPlanner.TRIVIAL_PLAN_LINE, trivialPlan.getFirst(), query + "\n" + trivialPlan);
            assertFalse(fullPlan.contains(QueryPlanner.TRIVIAL_PLAN_LINE), query + "\n" + fullPlan);
            assertEquals(fullPlan, operators(trivialPlan), query);
            assertEquals(SessionRows.query(full, query), SessionRows.query(trivial, query), query);
        }
        assertTrue(!SessionRows.query(trivial, "SELECT v FROM pair WHERE k1 = 3 AND k2 = 10").isEmpty());
    }

    @Test
    void modificationsByKeyAndInsertValuesAreTrivialPlansThatChangeWhatFullPlansChange() {
        List<String> modifications = List.of(
                "INSERT INTO %s VALUES (1001, 1, 'new')",
                "INSERT INTO %s (id, v) VALUES (1002, 2), (1003, 3)",
                "UPDATE %s SET v = v + 1 WHERE id = 5",
                "UPDATE %s SET s = 'changed', v = 0 WHERE id BETWEEN 20 AND 30",
                "UPDATE %s SET v = 9 WHERE id < 50 AND v = 4",
                "DELETE FROM %s WHERE id = 6",
                "DELETE FROM %s WHERE id >= 400 AND s LIKE 'row 4_1'");
        for (String template : modifications) {
            String onA = String.format(template, "a");
            String onB = String.format(template, "b");
            List<String> trivialPlan = explain(trivial, onA);
            List<String> fullPlan = explain(full, onB);
            assertEquals(QueryPlanner.TRIVIAL_PLAN_LINE, trivialPlan.getFirst(), onA + "\n" + trivialPlan);
            assertFalse(fullPlan.contains(QueryPlanner.TRIVIAL_PLAN_LINE), onB + "\n" + fullPlan);
            assertEquals(fullPlan.size(), operators(trivialPlan).size(), onA + "\n" + trivialPlan + "\n" + fullPlan);
            long changedTrivially = ((StatementResult.Update) trivial.execute(onA)).count();
            long changedFully = ((StatementResult.Update) full.execute(onB)).count();
            assertEquals(changedFully, changedTrivially, onA);
            assertNotEquals(0, changedTrivially, onA);
            assertEquals(SessionRows.query(full, "SELECT * FROM b ORDER BY id"), SessionRows.query(trivial, "SELECT * FROM a ORDER BY id"), onA);
        }
    }

    @Test
    void otherStatementsAreFullyOptimized() {
        for (String query : List.of(
                "SELECT v FROM a WHERE v = 3",                              // no key range: a scan
                "SELECT v FROM a",
                "SELECT COUNT(*) FROM a WHERE id < 10",                     // an aggregate
                "SELECT s FROM a WHERE id BETWEEN 10 AND 20 ORDER BY id",   // a sort
                "SELECT a.v FROM a JOIN b ON a.id = b.id WHERE a.id = 3",   // a join
                "SELECT id FROM indexed WHERE id = 3",                      // a secondary index could serve
                "SELECT v FROM pair WHERE k2 = 10",                         // not the key's leading column
                "INSERT INTO a SELECT id + 5000, v, s FROM b WHERE id = 1",
                "UPDATE a SET v = 1 WHERE v = 2")) {
            List<String> plan = explain(trivial, query);
            assertFalse(plan.contains(QueryPlanner.TRIVIAL_PLAN_LINE), query + "\n" + plan);
        }
    }
}
