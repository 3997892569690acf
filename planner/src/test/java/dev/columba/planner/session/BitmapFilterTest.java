package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bitmap filters on a star schema of columnstore tables: a fact table {@code sales} (60,000 rows)
 * joined to a filtered dimension. The join's build keys reach the fact table's scan (EXPLAIN shows
 * a {@code BitmapFilter} above it and the join naming the filter it publishes), through projections
 * and further joins, and never through the null-extended side of an outer join; every answer is the
 * one without bitmap filters ({@code SET bitmap_filters OFF}), serially and in parallel. SEMI and
 * ANTI joins (EXISTS, IN, NOT EXISTS, a LEFT join filtered on IS NULL) build their small preserved
 * side and filter the other; NOT IN keeps its NULL semantics; their answers are the loop joins'.
 */
class BitmapFilterTest {
    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        session = engine.openSession();
        String compressed = " WITH (storage = columnstore, rowgroup_max_rows = 10000, bulk_min_rows = 10)";
        session.execute("CREATE TABLE sales (product_id INT, store_id BIGINT NOT NULL, sold DATE NOT NULL, amount BIGINT NOT NULL)"
                + compressed).close();
        session.execute("CREATE TABLE product (product_id INT NOT NULL, category VARCHAR(10) NOT NULL)" + compressed).close();
        session.execute("CREATE TABLE store (store_id INT NOT NULL, region VARCHAR(10) NOT NULL)" + compressed).close();
        session.execute("CREATE TABLE calendar (cal_day DATE NOT NULL, holiday INT NOT NULL)" + compressed).close();
        update(session, "INSERT INTO sales SELECT CASE WHEN MOD(generate_series, 97) = 0 THEN NULL"
                + " ELSE MOD(generate_series * 7919, 1000) + 1 END, MOD(generate_series * 31, 50) + 1,"
                + " DATE '2024-01-01' + MOD(generate_series, 366) * INTERVAL '1' DAY, MOD(generate_series, 100) FROM generate_series(1, 60000)");
        update(session, "INSERT INTO product SELECT generate_series, 'c' || CAST(MOD(generate_series, 20) AS VARCHAR(3))"
                + " FROM generate_series(1, 1000)");
        update(session, "INSERT INTO store SELECT generate_series, 'r' || CAST(MOD(generate_series, 5) AS VARCHAR(3))"
                + " FROM generate_series(1, 50)");
        update(session, "INSERT INTO calendar SELECT DATE '2024-01-01' + generate_series * INTERVAL '1' DAY, MOD(generate_series, 7)"
                + " FROM generate_series(0, 365)");
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    private void set(String command) {
        session.execute(command).close();
    }

    private String explain(String sql) {
        return query(session, "EXPLAIN " + sql).stream().map(row -> String.valueOf(row.getFirst()))
                .collect(Collectors.joining("\n"));
    }

    private static final List<String> QUERIES = List.of(
            "SELECT p.category, SUM(s.amount) FROM sales s JOIN product p ON s.product_id = p.product_id"
                    + " WHERE p.category = 'c3' GROUP BY p.category",
            "SELECT st.region, p.category, COUNT(*), SUM(s.amount) FROM sales s, product p, store st"
                    + " WHERE s.product_id = p.product_id AND s.store_id = st.store_id AND p.category IN ('c3', 'c7')"
                    + " AND st.region = 'r4' GROUP BY st.region, p.category",
            "SELECT COUNT(*), SUM(s.amount) FROM sales s JOIN calendar c ON s.sold = c.cal_day WHERE c.holiday = 0",
            "SELECT COUNT(*) FROM sales s WHERE s.product_id IN (SELECT product_id FROM product WHERE category = 'c11')",
            "SELECT COUNT(*), COUNT(p.product_id) FROM sales s LEFT JOIN product p ON s.product_id = p.product_id"
                    + " AND p.category = 'c3'",
            "SELECT COUNT(*) FROM (SELECT ABS(s.product_id) AS k, s.amount FROM sales s) x JOIN product p ON x.k = p.product_id"
                    + " WHERE p.category = 'c5'",
            "SELECT p.category, SUM(t.total) FROM (SELECT product_id, SUM(amount) AS total, COUNT(*) AS n FROM sales"
                    + " GROUP BY product_id) t JOIN product p ON t.product_id = p.product_id WHERE p.category = 'c9'"
                    + " GROUP BY p.category",
            "SELECT COUNT(*) FROM (SELECT SUM(amount) AS total FROM sales GROUP BY product_id) t JOIN product p"
                    + " ON t.total = p.product_id");

    @Test
    void theFactTableScanIsFilteredByTheDimensionsKeys() {
        String plan = explain(QUERIES.get(1));
        assertTrue(plan.contains("BitmapFilter [product_id IN Bitmap"), plan);
        assertTrue(plan.contains("BitmapFilter [store_id IN Bitmap"), plan);
        assertTrue(plan.contains("bitmap filters Bitmap"), plan);
        // The filters sit on the fact table's scan, the probe side, not on the dimensions.
        List<String> lines = plan.lines().toList();
        for (int line = 0; line < lines.size(); line++) {
            if (lines.get(line).contains("BitmapFilter")) {
                String below = lines.get(line + 1);
                assertTrue(below.contains("BitmapFilter") || below.contains("ColumnstoreScan [sales"), plan);
            }
        }
        assertTrue(explain(QUERIES.get(2)).contains("BitmapFilter [sold IN Bitmap"), "a DATE key too");
        assertTrue(explain(QUERIES.get(3)).contains("BitmapFilter [product_id IN Bitmap"), "a semi join (IN) too");
        String throughAggregate = explain(QUERIES.get(6));
        assertTrue(throughAggregate.contains("BitmapFilter [product_id IN Bitmap"), "through a group key: " + throughAggregate);
        assertTrue(throughAggregate.indexOf("BitmapFilter") > throughAggregate.indexOf("HashAggregate [group by [product_id]"),
                "below the aggregate: " + throughAggregate);
    }

    @Test
    void noFilterWhereRowsWithoutPartnerMustStayOrTheKeyIsComputed() {
        assertFalse(explain(QUERIES.get(4)).contains("BitmapFilter"), "a left join keeps the sales without product");
        assertFalse(explain(QUERIES.get(5)).contains("BitmapFilter"), "an expression is not the scan's column");
        assertFalse(explain(QUERIES.get(7)).contains("BitmapFilter"), "an aggregated value is not a group key");
        set("SET bitmap_filters OFF");
        assertFalse(explain(QUERIES.get(1)).contains("BitmapFilter"), "the setting turns them off");
    }

    /** EXISTS, NOT EXISTS, IN and NOT IN over a small filtered product list against the sales; sales.product_id has NULLs. */
    private static final List<String> SEMI_QUERIES = List.of(
            "SELECT COUNT(*), SUM(p.product_id) FROM product p WHERE p.category = 'c3'"
                    + " AND EXISTS (SELECT * FROM sales s WHERE s.product_id = p.product_id AND s.amount > 50)",
            "SELECT COUNT(*), SUM(p.product_id) FROM product p WHERE p.category = 'c3'"
                    + " AND NOT EXISTS (SELECT * FROM sales s WHERE s.product_id = p.product_id AND s.amount > 97)",
            "SELECT COUNT(*), SUM(p.product_id) FROM product p WHERE p.category = 'c3'"
                    + " AND p.product_id IN (SELECT product_id FROM sales WHERE amount > 50)",
            "SELECT COUNT(*), SUM(p.product_id) FROM product p WHERE p.category = 'c3'"
                    + " AND p.product_id NOT IN (SELECT product_id FROM sales WHERE amount > 97)",
            "SELECT COUNT(*), SUM(p.product_id) FROM product p WHERE p.category = 'c3'"
                    + " AND p.product_id NOT IN (SELECT product_id FROM sales WHERE amount > 97 AND product_id IS NOT NULL)",
            "SELECT COUNT(*), SUM(p.product_id) FROM product p WHERE p.category = 'c3'"
                    + " AND EXISTS (SELECT * FROM sales s WHERE s.product_id = p.product_id AND s.store_id <> p.product_id)");

    /** NOT EXISTS written as a LEFT join: IS NULL on store_id (never NULL in sales), then on product_id (may be NULL). */
    private static final List<String> LEFT_JOIN_IS_NULL = List.of(
            "SELECT COUNT(*), SUM(p.product_id) FROM product p LEFT JOIN sales s ON s.product_id = p.product_id AND s.amount > 97"
                    + " WHERE p.category = 'c3' AND s.store_id IS NULL",
            "SELECT COUNT(*), SUM(p.product_id) FROM product p LEFT JOIN sales s ON s.product_id = p.product_id AND s.amount > 97"
                    + " WHERE p.category = 'c3' AND s.product_id IS NULL");

    @Test
    void aSemiJoinBuildsItsPreservedSideWhenThatIsSmallerAndFiltersTheOther() {
        // Q4's shape: 50 products of a category, EXISTS a sale of theirs among 29,000.
        String exists = explain(SEMI_QUERIES.get(0));
        assertTrue(exists.contains("HashJoin [SEMI, =(product_id, product_id), build left, bitmap filters Bitmap"), exists);
        List<String> lines = exists.lines().toList();
        int filter = lines.indexOf(lines.stream().filter(line -> line.contains("BitmapFilter [product_id IN Bitmap")).findFirst()
                .orElseThrow(() -> new AssertionError("no bitmap filter: " + exists)));
        assertTrue(lines.get(filter + 1).contains("ColumnstoreScan [sales"), "the probed sales are filtered: " + exists);
        assertTrue(explain(SEMI_QUERIES.get(2)).contains("build left"), "IN too");
        // The other way round (the sales that have a product of a category) Volcano joins the sales to the distinct
        // product keys, an inner join building the products, and the sales are probed as before.
        String in = explain(QUERIES.get(3));
        assertTrue(in.contains("HashJoin [INNER, =(product_id, product_id), build right") && !in.contains("build left"), in);
    }

    @Test
    void notExistsAndNotInKeepTheirNullSemantics() {
        // NOT IN over a list with a NULL is never TRUE; NOT EXISTS and NOT IN over NULL-free lists keep the products without sales.
        List<Object> withNull = query(session, SEMI_QUERIES.get(3)).getFirst();
        assertEquals(0L, ((Number) withNull.get(0)).longValue(), "NOT IN a list with a NULL: " + withNull);
        assertNull(withNull.get(1));
        assertEquals(query(session, SEMI_QUERIES.get(1)), query(session, SEMI_QUERIES.get(4)));
        assertTrue(((Number) query(session, SEMI_QUERIES.get(1)).getFirst().getFirst()).longValue() > 0, "some products have no such sale");
    }

    @Test
    void notExistsIsAnAntiJoinBuildingTheSmallerPreservedSide() {
        String notExists = explain(SEMI_QUERIES.get(1));
        assertTrue(notExists.contains("HashJoin [ANTI, =(product_id, product_id), build left, bitmap filters Bitmap"), notExists);
        assertFalse(notExists.contains("IS NULL"), notExists);
        String handWritten = explain(LEFT_JOIN_IS_NULL.get(0));
        assertTrue(handWritten.contains("HashJoin [ANTI"), "IS NULL on a column the sales never leave NULL: " + handWritten);
        // Not an anti join: NOT IN (its IS NULL is inside an OR), IS NULL on a column that may be NULL.
        assertTrue(explain(SEMI_QUERIES.get(3)).contains("HashJoin [LEFT"), "NOT IN");
        String nullable = explain(LEFT_JOIN_IS_NULL.get(1));
        assertTrue(nullable.contains("HashJoin [LEFT") && !nullable.contains("ANTI"), nullable);
        // All four forms give the products of category c3 without a sale above 97.
        List<List<Object>> expected = query(session, SEMI_QUERIES.get(4));
        assertEquals(expected, query(session, SEMI_QUERIES.get(1)));
        assertEquals(expected, query(session, LEFT_JOIN_IS_NULL.get(0)));
        assertEquals(expected, query(session, LEFT_JOIN_IS_NULL.get(1)));
    }

    @Test
    void semiAndAntiAnswersAreTheLoopJoinsSeriallyAndInParallel() {
        for (String maxDop : List.of("1", "2")) {
            set("SET max_dop = " + maxDop);
            set("SET parallelism_threshold_rows = 1000");
            if (maxDop.equals("2")) {
                String parallel = explain(SEMI_QUERIES.get(0));
                assertTrue(parallel.indexOf("Gather") >= 0 && parallel.indexOf("Gather") < parallel.indexOf("build left"),
                        "the join building its preserved side runs in the workers: " + parallel);
            }
            for (String sql : java.util.stream.Stream.concat(SEMI_QUERIES.stream(), LEFT_JOIN_IS_NULL.stream()).toList()) {
                List<List<Object>> hashed = query(session, sql);
                assertEquals(query(session, sql + " OPTION (LOOP JOIN)"), hashed, sql + " at max_dop " + maxDop);
            }
        }
    }

    /**
     * TPC-H Q13's shape: a small preserved side LEFT-joined to the big fact table, counting each
     * product's sales (0 for those without); with a residual condition; with NULL keys on the
     * preserved side, whose rows come back with NULL sales columns.
     */
    private static final List<String> LEFT_JOIN_SMALL_PRESERVED = List.of(
            "SELECT p.product_id, COUNT(s.amount) FROM product p LEFT JOIN sales s ON s.product_id = p.product_id"
                    + " AND s.amount > 90 WHERE p.category = 'c3' GROUP BY p.product_id ORDER BY p.product_id",
            "SELECT p.product_id, COUNT(s.amount), SUM(s.amount) FROM product p LEFT JOIN sales s ON s.product_id = p.product_id"
                    + " AND s.store_id <> MOD(p.product_id, 50) WHERE p.category = 'c3' GROUP BY p.product_id ORDER BY p.product_id",
            "SELECT p.k, p.product_id, s.amount, s.store_id FROM (SELECT CASE WHEN MOD(product_id, 3) = 0 THEN NULL"
                    + " ELSE product_id END AS k, product_id FROM product WHERE category = 'c3') p"
                    + " LEFT JOIN sales s ON s.product_id = p.k AND s.amount > 97 ORDER BY p.product_id, s.amount, s.store_id");

    @Test
    void aLeftJoinBuildsItsSmallPreservedSideAndReturnsItsRowsWithoutPartner() {
        String plan = explain(LEFT_JOIN_SMALL_PRESERVED.getFirst());
        assertTrue(plan.contains("HashJoin [LEFT, =(product_id, product_id), build left, bitmap filters Bitmap"), plan);
        assertTrue(plan.contains("BitmapFilter [product_id IN Bitmap"), "the probed sales are filtered: " + plan);
        List<List<Object>> counts = query(session, LEFT_JOIN_SMALL_PRESERVED.getFirst());
        assertEquals(50, counts.size(), "every product of the category, with or without a sale");
        assertTrue(counts.stream().anyMatch(row -> ((Number) row.get(1)).longValue() == 0), "some have no such sale: " + counts);
        assertTrue(counts.stream().anyMatch(row -> ((Number) row.get(1)).longValue() > 0), "some have: " + counts);
        List<List<Object>> nullKeys = query(session, LEFT_JOIN_SMALL_PRESERVED.get(2));
        assertTrue(nullKeys.stream().anyMatch(row -> row.get(0) == null && row.get(2) == null),
                "a preserved row with a NULL key comes back without partner: " + nullKeys);
        for (String maxDop : List.of("1", "2")) {
            set("SET max_dop = " + maxDop);
            set("SET parallelism_threshold_rows = 1000");
            for (String sql : LEFT_JOIN_SMALL_PRESERVED) {
                assertEquals(query(session, sql + " OPTION (LOOP JOIN)"), query(session, sql), sql + " at max_dop " + maxDop);
            }
        }
    }

    @Test
    void answersAreTheSameWithoutBitmapFiltersSeriallyAndInParallel() {
        for (String maxDop : List.of("1", "2")) {
            set("SET max_dop = " + maxDop);
            set("SET parallelism_threshold_rows = 1000");
            for (String sql : QUERIES) {
                set("SET bitmap_filters ON");
                List<List<Object>> with = query(session, sql);
                set("SET bitmap_filters OFF");
                List<List<Object>> without = query(session, sql);
                assertEquals(without, with, sql + " at max_dop " + maxDop);
                assertFalse(with.isEmpty(), sql);
            }
        }
    }
}
