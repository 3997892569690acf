package dev.columba.planner.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plan shapes as golden files (src/test/resources/.../plans/*.txt, the EXPLAIN text), and each
 * rule firing where it should and not where it should not. Tables: {@code orders} clustered on
 * {@code id} with a unique index on {@code code}, {@code items} a heap, {@code facts} a
 * columnstore copy of {@code orders}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PlanShapeTest {
    private TestDatabase db;

    @BeforeAll
    void load(@TempDir Path directory) {
        db = new TestDatabase(directory);
        TableSchema orders = TableSchema.of(Column.notNull("id", SqlType.INT), Column.notNull("code", SqlType.varchar(10)),
                Column.nullable("customer", SqlType.INT), Column.nullable("amount", SqlType.decimal(12, 2)));
        db.createRowstore("orders", orders, List.of(0), true);
        db.createRowstore("items", TableSchema.of(Column.notNull("order_id", SqlType.INT), Column.nullable("qty", SqlType.INT)),
                List.of(), false);
        db.createColumnstore("facts", orders);
        StringBuilder values = new StringBuilder();
        for (int id = 1; id <= 2000; id++) {
            values.append(values.isEmpty() ? "" : ", ").append("(").append(id).append(", 'C").append(id).append("', ")
                    .append(id % 97).append(", ").append(id % 1000).append(".25)");
        }
        db.update("INSERT INTO orders VALUES " + values);
        db.update("INSERT INTO facts VALUES " + values);
        StringBuilder items = new StringBuilder();
        for (int row = 0; row < 500; row++) {
            items.append(items.isEmpty() ? "" : ", ").append("(").append(row * 3 % 2000 + 1).append(", ").append(row % 7).append(")");
        }
        db.update("INSERT INTO items VALUES " + items);
        db.createIndex("orders", "ix_code", List.of(1), true);
    }

    @AfterAll
    void close() {
        db.close();
    }

    private void golden(String name, String sql) throws IOException {
        GoldenPlans.assertPlan(name, db.explain(sql), sql);
    }

    @Test
    void rangePushdown() throws IOException {
        golden("range_pushdown", "SELECT * FROM orders WHERE id < 300 AND customer = 5");
    }

    @Test
    void columnstoreFilterPushdown() throws IOException {
        golden("columnstore_filters", "SELECT code, amount FROM facts WHERE customer IN (1, 2, 3) AND amount >= 100 AND code LIKE 'C1%'");
    }

    @Test
    void joinHints() throws IOException {
        String sql = "SELECT o.code, i.qty FROM items i JOIN orders o ON o.id = i.order_id WHERE i.qty > 2";
        golden("join_hash_hint", sql + " OPTION (HASH JOIN)");
        golden("join_loop_hint", sql + " OPTION (LOOP JOIN)");
        golden("join_nested_loop_hint", "SELECT o.code, i.qty FROM items i JOIN orders o ON o.customer < i.qty OPTION (LOOP JOIN)");
    }

    @Test
    void aggregateSortLimit() throws IOException {
        golden("aggregate_topn", "SELECT customer, COUNT(*) AS n, SUM(DISTINCT amount) FROM facts GROUP BY customer ORDER BY n DESC, customer FETCH FIRST 5 ROWS ONLY");
    }

    @Test
    void keyRangeRuleFiresOnClusteredKeysOnly() {
        assertTrue(db.explain("SELECT * FROM orders WHERE id BETWEEN 10 AND 20").contains("seek id >= 10 AND id <= 20"));
        assertFalse(db.explain("SELECT * FROM orders WHERE customer < 3").contains("seek"));
        assertFalse(db.explain("SELECT * FROM items WHERE order_id < 3").contains("seek"), "heaps have no key");
    }

    @Test
    void indexSeekRuleFiresOnEqualityOnAnIndexedColumn() {
        assertTrue(db.explain("SELECT * FROM orders WHERE code = 'C42'").contains("IndexSeek [orders, index ix_code, seek code = 'C42'"));
        assertFalse(db.explain("SELECT * FROM orders WHERE code > 'C42'").contains("IndexSeek"));
    }

    @Test
    void columnstoreFilterRuleLeavesWhatTheScanCannotEvaluate() {
        String plan = db.explain("SELECT id FROM facts WHERE customer + 1 = 5");
        assertFalse(plan.contains("filters"), plan);
        assertTrue(db.explain("SELECT id FROM facts WHERE customer IS NULL").contains("filters customer IS NULL"));
    }

    @Test
    void columnstoreFilterRulePushesComparisonsBetweenColumnsOfOneType() {
        String sql = "SELECT code FROM facts WHERE customer < id AND amount >= 100";
        String plan = db.explain(sql);
        assertTrue(plan.contains("ColumnstoreScan [facts, columns [code], filters amount >= 100.00 AND customer < id"), plan);
        assertFalse(plan.contains("Filter ["), plan);
        for (String condition : List.of("customer < id", "customer <= id", "customer = id", "customer <> id",
                "customer > id", "customer >= id", "id >= customer")) {
            String count = "SELECT COUNT(*) FROM %s WHERE " + condition;
            assertTrue(db.explain(count.formatted("facts")).contains("filters"), condition);
            assertEquals(db.query(count.formatted("orders")), db.query(count.formatted("facts")), condition);
        }
        String mixed = db.explain("SELECT code FROM facts WHERE amount < customer");
        assertTrue(mixed.contains("Filter ["), "a DECIMAL and an INT are compared through a cast, left to the filter: " + mixed);
    }

    @Test
    void projectionReachesTheScan() {
        assertTrue(db.explain("SELECT amount FROM facts").contains("columns [amount]"));
        assertTrue(db.explain("SELECT code FROM orders").contains("columns [code]"));
    }

    @Test
    void countStarScansNoColumn() {
        String plan = db.explain("SELECT COUNT(*) FROM items");
        assertTrue(plan.contains("RowstoreScan [items, heap allocation order, columns []]"), plan);
        assertEquals(List.of(List.<Object>of(500L)), db.query("SELECT COUNT(*) FROM items"));
        assertEquals(List.of(List.<Object>of(2000L)), db.query("SELECT COUNT(*) FROM orders"));
        assertTrue(db.explain("SELECT COUNT(*) FROM orders WHERE id < 100").contains("columns []"),
                "a key range needs no decoded column");
        assertEquals(List.of(List.<Object>of(99L)), db.query("SELECT COUNT(*) FROM orders WHERE id < 100"));
        assertFalse(db.explain("SELECT COUNT(qty) FROM items").contains("columns []"), "COUNT(qty) reads qty");
        assertFalse(db.explain("SELECT qty, COUNT(*) FROM items GROUP BY qty").contains("columns []"), "grouped");
    }

    @Test
    void indexNestedLoopJoinNeedsAKeyAndLoopJoinsAllowed() {
        String sql = "SELECT o.code FROM items i JOIN orders o ON o.id = i.order_id";
        assertTrue(db.explain(sql + " OPTION (LOOP JOIN)").contains("IndexNestedLoopJoin"));
        assertFalse(db.explain(sql + " OPTION (HASH JOIN)").contains("NestedLoop"));
        assertFalse(db.explain("SELECT o.code FROM items i JOIN orders o ON o.customer = i.order_id OPTION (LOOP JOIN)")
                .contains("IndexNestedLoopJoin"), "customer has no index");
        assertTrue(db.explain("SELECT o.code FROM items i JOIN orders o ON o.code = CAST(i.order_id AS VARCHAR(10)) OPTION (LOOP JOIN)")
                .contains("seek index ix_code"));
    }

    @Test
    void prefetchFollowsTheEstimateAndTheSetting() {
        String sql = "SELECT o.code FROM orders x JOIN orders o ON o.id = x.customer WHERE x.id < %d OPTION (LOOP JOIN)";
        assertTrue(db.explain(sql.formatted(27)).contains("WithUnorderedPrefetch"));
        assertFalse(db.explain(sql.formatted(26)).contains("Prefetch"));
        db.settings(dev.columba.core.settings.TraceFlags.apply(dev.columba.core.settings.SettingValues.defaults(), 8744, true));
        try {
            assertFalse(db.explain(sql.formatted(27)).contains("Prefetch"), "trace flag 8744 turns prefetch off");
        } finally {
            db.settings(dev.columba.core.settings.SettingValues.defaults());
        }
    }

    @Test
    void orFactoringTurnsAJoinKeyRepeatedInEveryBranchIntoAnEquiJoin() {
        String factorable = "SELECT o.code, i.qty FROM items i, orders o WHERE (o.id = i.order_id AND i.qty = 1)"
                + " OR (o.id = i.order_id AND o.customer = 5) OR (i.order_id = o.id AND i.qty > 5 AND o.customer < 50)";
        String plan = db.explain(factorable);
        assertFalse(plan.lines().anyMatch(line -> line.strip().startsWith("NestedLoopJoin")), plan);
        String factored = "SELECT o.code, i.qty FROM items i JOIN orders o ON o.id = i.order_id"
                + " WHERE i.qty = 1 OR o.customer = 5 OR (i.qty > 5 AND o.customer < 50)";
        List<List<Object>> expected = db.query(factored);
        assertFalse(expected.isEmpty());
        assertEquals(sorted(expected), sorted(db.query(factorable)));
        String noCommonConjunct = "SELECT o.code, i.qty FROM items i, orders o WHERE (o.id = i.order_id AND i.qty = 1)"
                + " OR o.customer = i.qty";
        String unchanged = db.explain(noCommonConjunct);
        assertTrue(unchanged.lines().anyMatch(line -> line.strip().startsWith("NestedLoopJoin")), unchanged);
    }

    private static List<String> sorted(List<List<Object>> rows) {
        return rows.stream().map(String::valueOf).sorted().toList();
    }

    @Test
    void explainStatementReturnsThePlanAsRows() {
        List<List<Object>> rows = db.query("EXPLAIN SELECT * FROM orders WHERE id < 5");
        assertEquals(1, rows.size());
        assertTrue(((String) rows.getFirst().getFirst()).startsWith("RowstoreScan [orders, clustered index order, seek id < 5]"));
    }
}
