package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code NOT IN} over a sub-query is an ANTI join where neither side can be NULL
 * ({@code rules.NotInAntiJoinRule}, TPC-H Q16's {@code ps_suppkey NOT IN (SELECT s_suppkey ...)}),
 * and keeps Calcite's general path, with its NULL semantics, where either side may be NULL. Every
 * answer is checked against the formula the rows were made with.
 */
class NotInAntiJoinTest {
    private static final int PRODUCTS = 200;
    private static final int SALES = 2000;

    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        session = engine.openSession();
        session.execute("CREATE TABLE product (id INT NOT NULL, category VARCHAR(4) NOT NULL, maybe_id INT)"
                + " WITH (storage = columnstore)").close();
        session.execute("CREATE TABLE sales (product_id INT NOT NULL, maybe_product_id INT, amount INT NOT NULL)"
                + " WITH (storage = columnstore)").close();
        update(session, "INSERT INTO product SELECT generate_series, CASE WHEN MOD(generate_series, 5) = 3 THEN 'c3' ELSE 'c0' END,"
                + " CASE WHEN MOD(generate_series, 11) = 0 THEN NULL ELSE generate_series END"
                + " FROM generate_series(1, " + PRODUCTS + ")");
        update(session, "INSERT INTO sales SELECT MOD(generate_series * 7, 250),"
                + " CASE WHEN MOD(generate_series, 13) = 0 THEN NULL ELSE MOD(generate_series * 7, 250) END,"
                + " MOD(generate_series, 100) FROM generate_series(1, " + SALES + ")");
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    private String plan(String sql) {
        return String.join("\n", query(session, "EXPLAIN " + sql).stream().map(row -> String.valueOf(row.getFirst())).toList());
    }

    /** Whether some sale of product {@code id} has an amount above {@code above}. */
    private static boolean sold(long id, int above) {
        for (long sale = 1; sale <= SALES; sale++) {
            if ((sale * 7) % 250 == id && sale % 100 > above) {
                return true;
            }
        }
        return false;
    }

    /** COUNT(*) and SUM(id) of the products of category c3 that {@code kept} keeps, as the query returns them. */
    private static List<List<Object>> products(LongPredicate kept) {
        long count = 0;
        long sum = 0;
        for (long id = 1; id <= PRODUCTS; id++) {
            if (id % 5 == 3 && kept.test(id)) {
                count++;
                sum += id;
            }
        }
        return List.of(java.util.Arrays.asList(count, count == 0 ? null : sum));
    }

    private List<List<Object>> answer(String sql) {
        List<Object> row = query(session, sql).getFirst();
        return List.of(java.util.Arrays.asList(((Number) row.get(0)).longValue(),
                row.get(1) == null ? null : ((Number) row.get(1)).longValue()));
    }

    @Test
    void notInOverNotNullKeysIsAnAntiJoin() {
        String sql = "SELECT COUNT(*), SUM(id) FROM product WHERE category = 'c3'"
                + " AND id NOT IN (SELECT product_id FROM sales WHERE amount > 97)";
        String plan = plan(sql);
        assertTrue(plan.contains("HashJoin [ANTI, =(id, product_id)"), plan);
        assertFalse(plan.contains("LEFT"), "no LEFT join to the distinct values: " + plan);
        assertEquals(1, plan.lines().filter(line -> line.contains("COUNT()")).count(),
                "the query's own COUNT(*), no counts of the sub-query's rows: " + plan);
        List<List<Object>> expected = products(id -> !sold(id, 97));
        assertTrue((Long) expected.getFirst().getFirst() > 0 && (Long) expected.getFirst().getFirst() < PRODUCTS / 5,
                "some products are kept, some are not: " + expected);
        assertEquals(expected, answer(sql));
    }

    @Test
    void anEmptySubQueryKeepsEveryRow() {
        String sql = "SELECT COUNT(*), SUM(id) FROM product WHERE category = 'c3'"
                + " AND id NOT IN (SELECT product_id FROM sales WHERE amount > 1000)";
        assertTrue(plan(sql).contains("ANTI"), plan(sql));
        assertEquals(products(id -> true), answer(sql));
    }

    @Test
    void aNullableKeyKeepsTheGeneralPathAndItsNullSemantics() {
        // A NULL among the sub-query's values: NOT IN is never TRUE.
        String nullInList = "SELECT COUNT(*), SUM(id) FROM product WHERE category = 'c3'"
                + " AND id NOT IN (SELECT maybe_product_id FROM sales WHERE amount > 97)";
        String plan = plan(nullInList);
        assertTrue(plan.contains("HashJoin [LEFT") && !plan.contains("ANTI"), plan);
        assertEquals(products(id -> false), answer(nullInList));
        // A NULL outer value: its row is dropped, the others are compared.
        String nullOuter = "SELECT COUNT(*), SUM(id) FROM product WHERE category = 'c3'"
                + " AND maybe_id NOT IN (SELECT product_id FROM sales WHERE amount > 97)";
        plan = plan(nullOuter);
        assertTrue(plan.contains("HashJoin [LEFT") && !plan.contains("ANTI"), plan);
        assertEquals(products(id -> id % 11 != 0 && !sold(id, 97)), answer(nullOuter));
    }
}
