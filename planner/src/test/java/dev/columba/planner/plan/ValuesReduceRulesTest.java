package dev.columba.planner.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link dev.columba.planner.rules.ValuesReduceRules}: a filter or projection over literal rows is computed while
 * planning when it is constant, and left to run time when it holds a parameter (Calcite's rule dropped every row
 * there, because a condition with a parameter never folds to TRUE).
 */
class ValuesReduceRulesTest {
    private static final String ROWS = "(VALUES (CAST(NULL AS VARCHAR(128))), ('public'), ('t')) AS v(x)";

    @TempDir
    Path directory;

    @Test
    void aConstantFilterOverRowsIsComputedWhilePlanning() {
        try (TestDatabase db = new TestDatabase(directory)) {
            String sql = "SELECT x FROM " + ROWS + " WHERE x = 't'";
            assertEquals(List.of(List.of("t")), db.query(sql));
            String plan = db.explain(sql);
            assertTrue(plan.contains("Values [1 rows]") && !plan.contains("Filter"), plan);
        }
    }

    @Test
    void aFilterWithAParameterRunsOverTheRows() {
        try (TestDatabase db = new TestDatabase(directory)) {
            String sql = "SELECT x FROM " + ROWS + " WHERE x = ?";
            assertEquals(List.of(List.of("t")), db.query(sql, "t"));
            assertEquals(List.of(List.of("public")), db.query(sql, "public"));
            assertEquals(List.of(), db.query(sql, "nothing"));
            String nested = "SELECT x FROM (SELECT * FROM " + ROWS + " WHERE x IS NOT NULL) AS w WHERE x = ? OR x = ?";
            assertEquals(List.of(List.of("public"), List.of("t")), db.query(nested + " ORDER BY x", "t", "public"));
            assertTrue(db.explain(sql).contains("Values [3 rows]"), db.explain(sql));
        }
    }

    @Test
    void aProjectionWithAParameterRunsOverTheRows() {
        try (TestDatabase db = new TestDatabase(directory)) {
            assertEquals(List.of(List.of("public", 5), List.of("t", 5)),
                    db.query("SELECT x, CAST(? AS INT) FROM " + ROWS + " WHERE x IS NOT NULL ORDER BY x", 5));
        }
    }
}
