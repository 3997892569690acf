package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A nested-loop join computes the expressions of one input's columns in its condition below the
 * join, once per row of that input ({@code rules.JoinSideExpressionsRule}), and a join with equal
 * keys keeps them in its condition; the answers are the formula's either way.
 */
class JoinSideExpressionsTest {
    private static final int LEFT_ROWS = 60;
    private static final int RIGHT_ROWS = 40;

    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        session = engine.openSession();
        session.execute("CREATE TABLE l (a INT NOT NULL, x DECIMAL(10, 2)) WITH (storage = columnstore)").close();
        session.execute("CREATE TABLE r (b INT NOT NULL, y DECIMAL(10, 2)) WITH (storage = columnstore)").close();
        // Every ninth x is NULL: its pairs compare UNKNOWN and are not returned.
        update(session, "INSERT INTO l SELECT generate_series, CASE WHEN MOD(generate_series, 9) = 0 THEN NULL"
                + " ELSE CAST(MOD(generate_series * 17, 50) AS DECIMAL(10, 2)) / 4 END FROM generate_series(1, " + LEFT_ROWS + ")");
        update(session, "INSERT INTO r SELECT generate_series, CAST(MOD(generate_series * 13, 30) AS DECIMAL(10, 2)) / 2"
                + " FROM generate_series(1, " + RIGHT_ROWS + ")");
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    private String plan(String sql) {
        return String.join("\n", query(session, "EXPLAIN " + sql).stream().map(row -> String.valueOf(row.getFirst())).toList());
    }

    /** x * 3 > y + 1 in hundredths: (x4 / 4) * 3 > y2 / 2 + 1, that is 3 * x4 > 2 * y2 + 4. */
    private static boolean pairs(long a, long b) {
        if (a % 9 == 0) {
            return false;
        }
        long x4 = (a * 17) % 50;
        long y2 = (b * 13) % 30;
        return 3 * x4 > 2 * y2 + 4;
    }

    private static String condition(String plan) {
        return plan.lines().filter(line -> line.contains("NestedLoopJoin [") || line.contains("HashJoin [")).findFirst().orElseThrow();
    }

    @Test
    void aNestedLoopJoinComputesEachSidesExpressionsBelowIt() {
        String sql = "SELECT a, b FROM l JOIN r ON l.x * 3 > r.y + 1 ORDER BY a, b";
        String plan = plan(sql);
        String join = condition(plan);
        assertTrue(join.contains("NestedLoopJoin [INNER") && !join.contains("*(") && !join.contains("+("),
                "the condition compares two columns: " + plan);
        assertTrue(plan.contains("*(x, 3)") && plan.contains("+(y, 1)"), "projections below the join compute them: " + plan);
        long expected = 0;
        for (long a = 1; a <= LEFT_ROWS; a++) {
            for (long b = 1; b <= RIGHT_ROWS; b++) {
                expected += pairs(a, b) ? 1 : 0;
            }
        }
        List<List<Object>> rows = query(session, sql);
        assertTrue(expected > 100 && expected < LEFT_ROWS * RIGHT_ROWS, "some pairs qualify, some do not: " + expected);
        assertEquals(expected, rows.size());
        for (List<Object> row : rows) {
            long a = ((Number) row.get(0)).longValue();
            long b = ((Number) row.get(1)).longValue();
            assertTrue(pairs(a, b), "pair " + row);
        }
    }

    @Test
    void anOperandEvaluatedOnlyForSomePairsStaysInTheCondition() {
        // No y is above 100: the division by zero is never evaluated, and must not be below the join either.
        String sql = "SELECT a, b FROM l JOIN r ON CASE WHEN r.y > 100 THEN l.x / 0 ELSE l.x * 3 END > r.y + 1";
        String join = condition(plan(sql));
        assertTrue(join.contains("/(x, 0)"), "the CASE keeps its branches: " + join);
        long expected = 0;
        for (long a = 1; a <= LEFT_ROWS; a++) {
            for (long b = 1; b <= RIGHT_ROWS; b++) {
                expected += pairs(a, b) ? 1 : 0;
            }
        }
        assertEquals(expected, query(session, sql).size());
    }

    @Test
    void aJoinWithEqualKeysKeepsItsResidualAsWritten() {
        String sql = "SELECT a, b FROM l JOIN r ON l.a = r.b AND l.x * 3 > r.y + 1 ORDER BY a";
        String join = condition(plan(sql));
        assertTrue(join.contains("HashJoin [INNER") && join.contains("*(x, 3)"), join);
        List<List<Object>> rows = query(session, sql);
        long expected = 0;
        for (long key = 1; key <= RIGHT_ROWS; key++) {
            expected += pairs(key, key) ? 1 : 0;
        }
        assertEquals(expected, rows.size(), rows.toString());
        for (List<Object> row : rows) {
            assertEquals(row.get(0), row.get(1));
            assertTrue(pairs(((Number) row.get(0)).longValue(), ((Number) row.get(1)).longValue()), "pair " + row);
        }
    }
}
