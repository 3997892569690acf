package dev.columba.planner.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plan shapes of issue 14's rules: where GroupingSetsRule, ColumbaWindowRule and FULL hash joins fire, and where not. */
class AnalyticPlanTest {
    @TempDir
    Path directory;
    private TestDatabase db;

    @BeforeEach
    void open() {
        db = new TestDatabase(directory);
        db.createRowstore("t", TableSchema.of(Column.notNull("id", SqlType.INT), Column.nullable("a", SqlType.INT),
                Column.nullable("c", SqlType.varchar(10))), List.of(0), true);
    }

    @AfterEach
    void close() {
        db.close();
    }

    private static int count(String text, String word) {
        return text.split(java.util.regex.Pattern.quote(word), -1).length - 1;
    }

    @Test
    void rollupBecomesAUnionOfOneAggregatePerGroupingSet() {
        String plan = db.explain("SELECT a, c, COUNT(*) FROM t GROUP BY ROLLUP(a, c)");
        assertTrue(plan.contains("UnionAll"), plan);
        assertEquals(3, count(plan, "HashAggregate"), plan);
    }

    @Test
    void aPlainGroupByIsNotExpanded() {
        String plan = db.explain("SELECT a, COUNT(*) FROM t GROUP BY a");
        assertFalse(plan.contains("Union"), plan);
        assertEquals(1, count(plan, "HashAggregate"), plan);
    }

    @Test
    void windowsOverOneWindowAreOneNode() {
        String plan = db.explain("SELECT ROW_NUMBER() OVER (PARTITION BY a ORDER BY id), SUM(id) OVER (PARTITION BY a ORDER BY id) FROM t");
        assertEquals(1, count(plan, "Window ["), plan);
        assertFalse(plan.contains("Sort ["), "the window sorts for itself:\n" + plan);
    }

    @Test
    void aQueryWithoutOverHasNoWindow() {
        assertFalse(db.explain("SELECT a, id FROM t ORDER BY a").contains("Window"));
    }

    @Test
    void aFullJoinIsAHashJoinOnAnEqualityAndANestedLoopJoinOtherwise() {
        String plan = db.explain("SELECT x.id, y.id FROM t x FULL JOIN t y ON x.a = y.id OPTION (HASH JOIN)");
        assertTrue(plan.contains("HashJoin") && plan.contains("FULL"), plan);
        String loop = db.explain("SELECT x.id, y.id FROM t x FULL JOIN t y ON x.a < y.id");
        assertTrue(loop.contains("NestedLoopJoin") && loop.contains("FULL"), loop);
    }
}
