package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiPredicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scalar MIN or MAX sub-query over the outer query's own rows (TPC-H Q2's shape: {@code
 * ps_cost = (SELECT MIN(ps_cost) FROM <the outer tables but part> WHERE p_key = ps_part AND <the
 * outer conditions on them>)}) is a window over the outer rows ({@code
 * rules.ExtremeOverOuterRowsRule}): partsupp is read once. Where the sub-query's rows are not the
 * outer rows (a filter of its own, a table of its own, a correlation that is not an equality) the
 * plan keeps its second read. Every answer is checked against the formula the rows were made with,
 * NULL costs and a part whose costs are all NULL among them.
 */
class ExtremeOverOuterRowsTest {
    private static final int PARTS = 60;
    private static final int SUPPLIERS = 20;
    private static final int OFFERS = 600;
    private static final String OUTER = "SELECT p_key, s_key, ps_cost FROM part, supplier, ps, nation"
            + " WHERE p_key = ps_part AND s_key = ps_supp AND p_size = 3 AND s_nation = n_key AND n_region = 1";
    private static final String INNER = " FROM ps, supplier, nation"
            + " WHERE p_key = ps_part AND s_key = ps_supp AND s_nation = n_key AND n_region = 1";
    private static final String ORDER = " ORDER BY p_key, s_key, ps_cost";
    private static final String Q2 = OUTER + " AND ps_cost = (SELECT MIN(ps_cost)" + INNER + ")" + ORDER;

    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        session = engine.openSession();
        session.execute("CREATE TABLE part (p_key INT NOT NULL, p_size INT NOT NULL) WITH (storage = columnstore)").close();
        session.execute("CREATE TABLE supplier (s_key INT NOT NULL, s_nation INT) WITH (storage = columnstore)").close();
        session.execute("CREATE TABLE ps (ps_part INT NOT NULL, ps_supp INT NOT NULL, ps_cost DECIMAL(10, 2))"
                + " WITH (storage = columnstore)").close();
        session.execute("CREATE TABLE nation (n_key INT NOT NULL, n_region INT NOT NULL) WITH (storage = columnstore)").close();
        session.execute("CREATE TABLE region (r_key INT NOT NULL, r_name VARCHAR(8) NOT NULL) WITH (storage = columnstore)").close();
        update(session, "INSERT INTO part SELECT generate_series, MOD(generate_series, 4) FROM generate_series(0, " + (PARTS - 1) + ")");
        // The last supplier has no nation: it is in no region.
        update(session, "INSERT INTO supplier SELECT generate_series, CASE WHEN generate_series = " + (SUPPLIERS - 1)
                + " THEN NULL ELSE MOD(generate_series, 5) END FROM generate_series(0, " + (SUPPLIERS - 1) + ")");
        update(session, "INSERT INTO ps SELECT MOD(generate_series, 50), MOD(generate_series * 7 + generate_series / 50, "
                + SUPPLIERS + "), CASE WHEN MOD(generate_series, 9) = 0 OR MOD(generate_series, 50) = 7 THEN NULL"
                + " ELSE CAST(MOD(generate_series * 37, 100) AS DECIMAL(10, 2)) / 4 END FROM generate_series(1, " + OFFERS + ")");
        update(session, "INSERT INTO nation SELECT generate_series, MOD(generate_series, 2) FROM generate_series(0, 4)");
        update(session, "INSERT INTO region VALUES (0, 'WEST'), (1, 'EAST')");
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    private record Offer(int part, int supplier, BigDecimal cost) {
    }

    private static List<Offer> offers() {
        List<Offer> offers = new ArrayList<>();
        for (int row = 1; row <= OFFERS; row++) {
            BigDecimal cost = row % 9 == 0 || row % 50 == 7 ? null
                    : BigDecimal.valueOf((row * 37L) % 100).divide(BigDecimal.valueOf(4));
            offers.add(new Offer(row % 50, (row * 7 + row / 50) % SUPPLIERS, cost));
        }
        return offers;
    }

    /** Whether a supplier's nation is in region 1 (a supplier without nation is in none). */
    private static boolean inRegion(int supplier) {
        return supplier != SUPPLIERS - 1 && (supplier % 5) % 2 == 1;
    }

    /**
     * The outer rows (p_key, s_key, ps_cost), ordered, whose cost is the extreme of the costs of
     * the offers {@code correlated} with the part that are in region 1.
     */
    private static List<List<Object>> expected(boolean minimum, BiPredicate<Integer, Offer> correlated) {
        List<Offer> offers = offers();
        List<List<Object>> rows = new ArrayList<>();
        for (int part = 0; part < PARTS; part++) {
            if (part % 4 != 3) {
                continue;
            }
            BigDecimal extreme = null;
            for (Offer offer : offers) {
                if (correlated.test(part, offer) && inRegion(offer.supplier()) && offer.cost() != null
                        && (extreme == null || (minimum ? offer.cost().compareTo(extreme) < 0 : offer.cost().compareTo(extreme) > 0))) {
                    extreme = offer.cost();
                }
            }
            for (Offer offer : offers) {
                if (offer.part() == part && inRegion(offer.supplier()) && offer.cost() != null && extreme != null
                        && offer.cost().compareTo(extreme) == 0) {
                    rows.add(Arrays.asList(part, offer.supplier(), offer.cost()));
                }
            }
        }
        rows.sort(Comparator.<List<Object>, Integer>comparing(row -> (Integer) row.get(0))
                .thenComparing(row -> (Integer) row.get(1)));
        return rows;
    }

    private List<List<Object>> answer(String sql) {
        List<List<Object>> rows = new ArrayList<>();
        for (List<Object> row : query(session, sql)) {
            rows.add(Arrays.asList(((Number) row.get(0)).intValue(), ((Number) row.get(1)).intValue(),
                    row.get(2) == null ? null : new BigDecimal(row.get(2).toString()).stripTrailingZeros()));
        }
        return rows;
    }

    private static List<List<Object>> stripped(List<List<Object>> rows) {
        return rows.stream().map(row -> Arrays.asList(row.get(0), row.get(1), ((BigDecimal) row.get(2)).stripTrailingZeros())).toList();
    }

    private String plan(String sql) {
        return String.join("\n", query(session, "EXPLAIN " + sql).stream().map(row -> String.valueOf(row.getFirst())).toList());
    }

    private static long lines(String plan, String text) {
        return plan.lines().filter(line -> line.contains(text)).count();
    }

    @Test
    void theMinimumOverTheOuterRowsIsAWindowAndPartsuppIsReadOnce() {
        String plan = plan(Q2);
        assertEquals(1, lines(plan, "ColumnstoreScan [ps"), "ps is read in one place: " + plan);
        assertEquals(1, lines(plan, "Window ["), plan);
        assertEquals(0, lines(plan, "Aggregate"), "no MIN per part joined back: " + plan);
        List<List<Object>> expected = expected(true, (part, offer) -> offer.part() == part);
        assertTrue(expected.size() > 5, "some suppliers are the cheapest of their part: " + expected);
        assertEquals(stripped(expected), answer(Q2));
        String maximum = Q2.replace("MIN(ps_cost)", "MAX(ps_cost)");
        assertEquals(1, lines(plan(maximum), "ColumnstoreScan [ps"), plan(maximum));
        assertEquals(stripped(expected(false, (part, offer) -> offer.part() == part)), answer(maximum));
    }

    @Test
    void theSubQuerysConditionsMayComeInAnotherOrderAndWithTheEqualityTurned() {
        String turned = OUTER + " AND ps_cost = (SELECT MIN(ps_cost) FROM nation, ps, supplier"
                + " WHERE n_region = 1 AND ps_supp = s_key AND ps_part = p_key AND n_key = s_nation)" + ORDER;
        assertEquals(1, lines(plan(turned), "ColumnstoreScan [ps"), plan(turned));
        assertEquals(stripped(expected(true, (part, offer) -> offer.part() == part)), answer(turned));
    }

    @Test
    void doesNotFireWhenTheSubQuerysRowsAreNotTheOuterRows() {
        String extraFilter = Q2.replace(" AND n_region = 1)", " AND n_region = 1 AND ps_cost > 10)");
        String extraTable = Q2.replace(INNER, INNER.replace("FROM ps, supplier, nation", "FROM ps, supplier, nation, region")
                .replace("n_region = 1", "n_region = r_key AND r_name = 'EAST'"));
        String inequality = Q2.replace(INNER, INNER.replace("p_key = ps_part", "p_key >= ps_part"));
        String missingCondition = Q2.replace(INNER, INNER.replace(" AND n_region = 1", ""));
        for (String sql : List.of(extraFilter, extraTable, inequality, missingCondition)) {
            String plan = plan(sql);
            assertEquals(0, lines(plan, "Window ["), plan);
            // Two reads at least (the non-equality's general path reads ps a third time, for its value generator).
            assertTrue(lines(plan, "ColumnstoreScan [ps") >= 2, plan);
        }
        // The rule left them alone; their answers are still the formula's.
        assertEquals(stripped(expected(true, (part, offer) -> offer.part() == part
                && offer.cost() != null && offer.cost().compareTo(BigDecimal.TEN) > 0)), answer(extraFilter));
        assertEquals(stripped(expected(true, (part, offer) -> offer.part() == part)), answer(extraTable));
        assertEquals(stripped(expected(true, (part, offer) -> offer.part() <= part)), answer(inequality));
    }
}
