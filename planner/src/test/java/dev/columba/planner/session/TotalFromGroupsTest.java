package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.batch.Batch;
import dev.columba.core.stats.IoCounter;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A grouped aggregate compared with a total over the same rows (TPC-H Q11's shape: {@code HAVING
 * SUM(x) > (SELECT SUM(x) * f FROM the same tables)}) computes the total from the groups
 * ({@code rules.TotalFromGroupsRule}): the joined rows are aggregated once, behind a spool, and the
 * fact table is scanned once. Answers against the rows' formula (NULLs among the values included),
 * and on the shapes where the rule must not fire (a DOUBLE sum, a COUNT, a sub-query over other
 * rows), the plan keeps its two computations and the answers are still the formula's.
 */
class TotalFromGroupsTest {
    private static final int ROWS = 5000;
    private static final int SUPPLIERS = 40;
    private static final String FROM = " FROM fact, supplier WHERE f_supp = s_supp AND s_region = 'EAST'";
    private static final String Q11 = "SELECT f_part, SUM(f_cost * f_qty) AS total" + FROM
            + " GROUP BY f_part HAVING SUM(f_cost * f_qty) > (SELECT SUM(f_cost * f_qty) * 0.01" + FROM + ")"
            + " ORDER BY total DESC, f_part";

    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        session = engine.openSession();
        session.execute("CREATE TABLE fact (f_part INT NOT NULL, f_supp INT NOT NULL, f_cost DECIMAL(12, 2),"
                + " f_qty INT NOT NULL, f_weight DOUBLE NOT NULL)"
                + " WITH (storage = columnstore, rowgroup_max_rows = 2000, bulk_min_rows = 10)").close();
        session.execute("CREATE TABLE supplier (s_supp INT NOT NULL, s_region VARCHAR(10) NOT NULL) WITH (storage = columnstore)").close();
        // Every seventh cost is NULL: SUM skips it in the groups and in the total alike.
        update(session, "INSERT INTO fact SELECT MOD(generate_series * 13, 101), MOD(generate_series, " + SUPPLIERS + "),"
                + " CASE WHEN MOD(generate_series, 7) = 0 THEN NULL ELSE CAST(MOD(generate_series * 31, 1000) AS DECIMAL(12, 2)) / 4 END,"
                + " MOD(generate_series, 9) + 1, generate_series / 8.0 FROM generate_series(1, " + ROWS + ")");
        update(session, "INSERT INTO supplier SELECT generate_series, CASE WHEN MOD(generate_series, 3) = 0 THEN 'EAST' ELSE 'WEST' END"
                + " FROM generate_series(0, " + (SUPPLIERS - 1) + ")");
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    /** Per part, SUM(f_cost * f_qty) over the rows of the EAST suppliers, from the formula the rows were made with. */
    private static TreeMap<Integer, BigDecimal> groups() {
        TreeMap<Integer, BigDecimal> groups = new TreeMap<>();
        for (long row = 1; row <= ROWS; row++) {
            long supplier = row % SUPPLIERS;
            if (supplier % 3 != 0 || row % 7 == 0) {
                continue;
            }
            BigDecimal cost = BigDecimal.valueOf((row * 31) % 1000).divide(BigDecimal.valueOf(4));
            groups.merge((int) ((row * 13) % 101), cost.multiply(BigDecimal.valueOf(row % 9 + 1)), BigDecimal::add);
        }
        return groups;
    }

    /** The parts whose sum exceeds 1% of the total, by sum descending, then part. */
    private static List<List<Object>> expected() {
        TreeMap<Integer, BigDecimal> groups = groups();
        BigDecimal threshold = groups.values().stream().reduce(BigDecimal.ZERO, BigDecimal::add).multiply(new BigDecimal("0.01"));
        List<Map.Entry<Integer, BigDecimal>> kept = new ArrayList<>();
        for (Map.Entry<Integer, BigDecimal> group : groups.entrySet()) {
            if (group.getValue().compareTo(threshold) > 0) {
                kept.add(group);
            }
        }
        kept.sort((left, right) -> {
            int byTotal = right.getValue().compareTo(left.getValue());
            return byTotal != 0 ? byTotal : Integer.compare(left.getKey(), right.getKey());
        });
        List<List<Object>> rows = new ArrayList<>();
        for (Map.Entry<Integer, BigDecimal> group : kept) {
            rows.add(List.of(group.getKey(), group.getValue()));
        }
        return rows;
    }

    private String plan(String sql) {
        return String.join("\n", query(session, "EXPLAIN " + sql).stream().map(row -> String.valueOf(row.getFirst())).toList());
    }

    private static long lines(String plan, String text) {
        return plan.lines().filter(line -> line.contains(text)).count();
    }

    @Test
    void theTotalIsComputedFromTheGroupsAndAnswersAsTheFormulaSays() {
        String plan = plan(Q11);
        assertEquals(1, lines(plan, "Spool [Spool1, computed once, read 2 times]"), plan);
        assertEquals(1, lines(plan, "ColumnstoreScan [fact"), "the fact table is read in one place: " + plan);
        List<List<Object>> expected = expected();
        assertTrue(expected.size() > 3 && expected.size() < groups().size(), "the HAVING keeps some groups: " + expected);
        assertAnswer(expected, query(session, Q11));
        String aggregateOnce = "SELECT f_part, SUM(f_cost * f_qty)" + FROM + " GROUP BY f_part";
        assertEquals(scans(aggregateOnce), scans(Q11), "the tables are scanned as often as by the grouped aggregate alone");
    }

    @Test
    void noRowsGiveNoGroupsAndNoTotal() {
        String none = Q11.replace("'EAST'", "'NORTH'");
        assertEquals(1, lines(plan(none), "Spool [Spool1, computed once, read 2 times]"), plan(none));
        assertEquals(List.of(), query(session, none));
        String totalOnly = "SELECT (SELECT SUM(f_cost * f_qty)" + FROM.replace("'EAST'", "'NORTH'") + ") AS total";
        assertEquals(null, query(session, totalOnly).getFirst().getFirst(), "SUM over no rows is NULL");
    }

    @Test
    void doesNotFireForInexactSumsCountsOrOtherRows() {
        String doubles = "SELECT f_part, SUM(f_weight) AS total" + FROM
                + " GROUP BY f_part HAVING SUM(f_weight) > (SELECT SUM(f_weight) * 0.01" + FROM + ") ORDER BY f_part";
        String counts = "SELECT f_part, COUNT(f_cost) AS total" + FROM
                + " GROUP BY f_part HAVING COUNT(f_cost) > (SELECT COUNT(f_cost) * 0.01" + FROM + ") ORDER BY f_part";
        String otherRows = Q11.replace("* 0.01" + FROM, "* 0.01" + FROM.replace("'EAST'", "'WEST'"));
        for (String sql : List.of(doubles, counts, otherRows)) {
            String plan = plan(sql);
            assertEquals(0, lines(plan, "Spool ["), plan);
            assertEquals(2, lines(plan, "ColumnstoreScan [fact"), plan);
        }
        // The rule left these alone; their answers are still the formula's.
        TreeMap<Integer, BigDecimal> groups = groups();
        BigDecimal west = BigDecimal.ZERO;
        for (long row = 1; row <= ROWS; row++) {
            if ((row % SUPPLIERS) % 3 != 0 && row % 7 != 0) {
                west = west.add(BigDecimal.valueOf((row * 31) % 1000).divide(BigDecimal.valueOf(4))
                        .multiply(BigDecimal.valueOf(row % 9 + 1)));
            }
        }
        BigDecimal threshold = west.multiply(new BigDecimal("0.01"));
        long above = groups.values().stream().filter(total -> total.compareTo(threshold) > 0).count();
        assertEquals(above, query(session, otherRows).size());
    }

    private static void assertAnswer(List<List<Object>> expected, List<List<Object>> rows) {
        assertEquals(expected.size(), rows.size(), rows.toString());
        for (int row = 0; row < rows.size(); row++) {
            assertEquals(expected.get(row).get(0), ((Number) rows.get(row).get(0)).intValue(), "row " + row);
            assertEquals(0, ((BigDecimal) expected.get(row).get(1)).compareTo((BigDecimal) rows.get(row).get(1)),
                    "row " + row + ": " + rows.get(row));
        }
    }

    private long scans(String sql) {
        try (StatementResult.Rows result = (StatementResult.Rows) session.execute(sql)) {
            for (Batch batch = result.next(); batch != null; batch = result.next()) {
                assertTrue(batch.selectedCount() >= 0);
            }
            return result.statistics().total().get(IoCounter.SCAN_COUNT);
        }
    }
}
