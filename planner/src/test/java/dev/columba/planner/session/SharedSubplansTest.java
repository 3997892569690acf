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
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A subplan a query reads twice (a common table expression used twice, as TPC-H Q15 uses its
 * revenue view) is computed once and read through a spool: the answers equal sums computed here
 * from the rows' formula, on a columnstore and a rowstore table; EXPLAIN shows the spool once
 * where it is computed and once where it is read again; the table is scanned once; and a
 * parallel plan makes the subplan parallel once, spools it above its gather and gives the same
 * answer.
 */
class SharedSubplansTest {
    private static final int ROWS = 6000;
    private static final String REVENUE = "WITH revenue AS (SELECT supplier, SUM(amount) AS total FROM %s GROUP BY supplier) ";

    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        session = engine.openSession();
        String columns = "(id INT NOT NULL, supplier INT NOT NULL, amount DECIMAL(12, 2) NOT NULL)";
        session.execute("CREATE TABLE cs " + columns
                + " WITH (storage = columnstore, rowgroup_max_rows = 2500, bulk_min_rows = 10)").close();
        session.execute("CREATE TABLE rs " + columns).close();
        String rows = "SELECT generate_series, MOD(generate_series * 7, 97), CAST(MOD(generate_series * 31, 1000) AS DECIMAL(12, 2)) / 4"
                + " FROM generate_series(1, " + ROWS + ")";
        update(session, "INSERT INTO cs " + rows);
        update(session, "INSERT INTO rs " + rows);
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    /** Per supplier, the sum of amounts, from the formula the rows were made with. */
    private static TreeMap<Integer, BigDecimal> totals() {
        TreeMap<Integer, BigDecimal> totals = new TreeMap<>();
        for (long id = 1; id <= ROWS; id++) {
            BigDecimal amount = BigDecimal.valueOf((id * 31) % 1000).divide(BigDecimal.valueOf(4));
            totals.merge((int) ((id * 7) % 97), amount, BigDecimal::add);
        }
        return totals;
    }

    private String plan(String sql) {
        return String.join("\n", query(session, "EXPLAIN " + sql).stream().map(row -> String.valueOf(row.getFirst())).toList());
    }

    @Test
    void aViewReadTwiceIsComputedOnceAndAnswersAsItsFormulaSays() {
        TreeMap<Integer, BigDecimal> totals = totals();
        BigDecimal largest = totals.values().stream().max(BigDecimal::compareTo).orElseThrow();
        List<List<Object>> best = new ArrayList<>();
        totals.forEach((supplier, total) -> {
            if (total.compareTo(largest) == 0) {
                best.add(List.of(supplier, total));
            }
        });
        for (String table : List.of("cs", "rs")) {
            String sql = String.format(REVENUE, table)
                    + "SELECT supplier, total FROM revenue WHERE total = (SELECT MAX(total) FROM revenue) ORDER BY supplier";
            String plan = plan(sql);
            assertEquals(1, plan.lines().filter(line -> line.contains("Spool [Spool1, computed once, read 2 times]")).count(), plan);
            assertEquals(1, plan.lines().filter(line -> line.contains("Spool [Spool1, read again")).count(), plan);
            assertEquals(1, plan.lines().filter(line -> line.contains("Scan [" + table)).count(),
                    "the subplan's scan is written once: " + plan);
            List<List<Object>> rows = query(session, sql);
            assertEquals(best.size(), rows.size(), table + ": " + rows);
            for (int row = 0; row < rows.size(); row++) {
                assertEquals(best.get(row).get(0), ((Number) rows.get(row).get(0)).intValue(), table);
                assertEquals(0, ((BigDecimal) best.get(row).get(1)).compareTo((BigDecimal) rows.get(row).get(1)), table);
            }
            assertEquals(scans(String.format(REVENUE, table) + "SELECT MAX(total) FROM revenue"), scans(sql),
                    table + ": the table is scanned as often as by a query reading the view once");
        }
    }

    @Test
    void aParallelPlanSpoolsTheGatheredSubplanOnceAndAnswersTheSame() {
        String sql = String.format(REVENUE, "cs")
                + "SELECT supplier, total FROM revenue WHERE total = (SELECT MAX(total) FROM revenue) ORDER BY supplier";
        List<List<Object>> serial = query(session, sql);
        session.execute("SET max_dop = 2").close();
        session.execute("SET parallelism_threshold_rows = 1").close();
        String plan = plan(sql);
        List<List<Object>> parallel = query(session, sql);
        assertEquals(serial, parallel);
        assertTrue(plan.contains("Parallelism"), plan);
        // Made parallel once, not per place it is read: the gathered aggregation is still one spooled node.
        assertEquals(1, plan.lines().filter(line -> line.contains("Spool [Spool1, computed once, read 2 times]")).count(), plan);
        assertEquals(1, plan.lines().filter(line -> line.contains("Parallelism [Gather")).count(), plan);
    }

    private long scans(String sql) {
        try (StatementResult.Rows result = (StatementResult.Rows) session.execute(sql)) {
            for (Batch batch = result.next(); batch != null; batch = result.next()) {
                assertTrue(batch.selectedCount() > 0);
            }
            return result.statistics().total().get(IoCounter.SCAN_COUNT);
        }
    }
}
