package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.planner.plan.GoldenPlans;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Join order from estimates on a star schema of columnstore tables with rowgroup figures: the fact
 * table {@code sales} (60,000 rows) and two dimensions, {@code product} (1,000 rows, 20 categories)
 * and {@code store} (50 rows, 5 regions). Whatever order the query names the tables in, the
 * filtered dimensions are the hash joins' build sides and the fact table is probed, never built;
 * FORCE ORDER keeps the written order. Plans are golden files (plan package's plans/).
 */
class JoinOrderTest {
    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        session = engine.openSession();
        String compressed = " WITH (storage = columnstore, rowgroup_max_rows = 10000, bulk_min_rows = 10)";
        session.execute("CREATE TABLE sales (product_id INT NOT NULL, store_id INT NOT NULL, amount BIGINT NOT NULL)"
                + compressed).close();
        session.execute("CREATE TABLE product (product_id INT NOT NULL, category VARCHAR(10) NOT NULL)" + compressed).close();
        session.execute("CREATE TABLE store (store_id INT NOT NULL, region VARCHAR(10) NOT NULL)" + compressed).close();
        update(session, "INSERT INTO sales SELECT MOD(generate_series * 7919, 1000) + 1, MOD(generate_series * 31, 50) + 1,"
                + " MOD(generate_series, 100) FROM generate_series(1, 60000)");
        update(session, "INSERT INTO product SELECT generate_series, 'c' || CAST(MOD(generate_series, 20) AS VARCHAR(3))"
                + " FROM generate_series(1, 1000)");
        update(session, "INSERT INTO store SELECT generate_series, 'r' || CAST(MOD(generate_series, 5) AS VARCHAR(3))"
                + " FROM generate_series(1, 50)");
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    private String explain(String sql) {
        return query(session, "EXPLAIN " + sql).stream().map(row -> String.valueOf(row.getFirst()))
                .collect(Collectors.joining("\n"));
    }

    private static final String STAR = "SELECT p.category, st.region, SUM(s.amount) AS total FROM %s"
            + " WHERE s.product_id = p.product_id AND s.store_id = st.store_id AND p.category = 'c3' AND st.region = 'r4'"
            + " GROUP BY p.category, st.region";

    @Test
    void theFilteredDimensionsAreBuiltAndTheFactTableProbed() {
        for (String from : List.of("store st, product p, sales s", "sales s, store st, product p",
                "product p, sales s, store st")) {
            String sql = STAR.formatted(from);
            String plan = explain(sql);
            GoldenPlans.assertPlan("join_order_star", plan, sql);
            List<String> built = buildSides(plan);
            assertEquals(2, built.size(), plan);
            assertEquals(Set.of("product", "store"), Set.copyOf(built), plan);
            // The same answer as the order the query wrote.
            List<List<Object>> answer = query(session, sql);
            assertEquals(1, answer.size(), from);
            assertEquals(query(session, sql + " OPTION (FORCE ORDER)"), answer, from);
        }
    }

    @Test
    void forceOrderKeepsTheWrittenOrder() {
        String sql = STAR.formatted("store st, product p, sales s") + " OPTION (FORCE ORDER)";
        String plan = explain(sql);
        // store x product first (no condition joins them), then sales, on the right: built.
        assertTrue(plan.contains("NestedLoopJoin [INNER, true]"), plan);
        assertEquals(List.of("sales"), buildSides(plan), plan);
    }

    @Test
    void equalitiesImpliedThroughAThirdTableJoinTheTablesDirectly() {
        String compressed = " WITH (storage = columnstore, rowgroup_max_rows = 10000, bulk_min_rows = 10)";
        session.execute("CREATE TABLE client (client_id INT NOT NULL, c_zone INT NOT NULL)" + compressed).close();
        session.execute("CREATE TABLE vendor (vendor_id INT NOT NULL, v_zone INT NOT NULL)" + compressed).close();
        session.execute("CREATE TABLE zone (z_zone INT NOT NULL, area VARCHAR(10) NOT NULL)" + compressed).close();
        session.execute("CREATE TABLE deal (client_id INT NOT NULL, vendor_id INT NOT NULL, amount BIGINT NOT NULL)"
                + compressed).close();
        update(session, "INSERT INTO client SELECT generate_series, MOD(generate_series, 25) FROM generate_series(1, 6000)");
        update(session, "INSERT INTO vendor SELECT generate_series, MOD(generate_series * 7, 25) FROM generate_series(1, 400)");
        update(session, "INSERT INTO zone SELECT generate_series - 1, 'a' || CAST(MOD(generate_series, 5) AS VARCHAR(3))"
                + " FROM generate_series(1, 25)");
        update(session, "INSERT INTO deal SELECT MOD(generate_series * 7919, 6000) + 1, MOD((generate_series / 7) * 31, 400) + 1,"
                + " MOD(generate_series, 100) FROM generate_series(1, 60000)");
        // TPC-H Q5's shape: client and zone are linked only through vendor's zone.
        String sql = "SELECT z.area, SUM(d.amount) AS total FROM client c, deal d, vendor v, zone z"
                + " WHERE d.client_id = c.client_id AND d.vendor_id = v.vendor_id AND c.c_zone = v.v_zone"
                + " AND v.v_zone = z.z_zone AND z.area = 'a1' GROUP BY z.area";
        String plan = explain(sql);
        assertTrue(plan.contains("=(c_zone, z_zone)") || plan.contains("=(z_zone, c_zone)"), plan);
        // Three zone columns are equal through two equalities: the implied third is not applied again.
        Matcher zoneEqualities = Pattern.compile("=\\(\\w_zone, \\w_zone\\)").matcher(plan);
        int applied = 0;
        while (zoneEqualities.find()) {
            applied++;
        }
        assertEquals(2, applied, plan);
        List<List<Object>> answer = query(session, sql);
        // 343 deals whose client and vendor share one of area a1's zones (counted outside the engine).
        assertEquals("[[a1, 13218]]", answer.toString(), plan);
        assertEquals(query(session, sql + " OPTION (FORCE ORDER)"), answer);
        // Without the filter every zone's rows meet: the derived equality keeps them apart.
        String everyArea = sql.replace(" AND z.area = 'a1'", "") + " ORDER BY area";
        assertEquals("[[a0, 30500], [a1, 13218], [a2, 30870], [a3, 17652], [a4, 17271]]",
                query(session, everyArea).toString());
        assertEquals(query(session, everyArea + " OPTION (FORCE ORDER)"), query(session, everyArea));
    }

    /** The table under the build (right) input of each hash join, innermost join first. */
    private static List<String> buildSides(String plan) {
        List<String> lines = plan.lines().toList();
        List<String> built = new ArrayList<>();
        for (int line = lines.size() - 1; line >= 0; line--) {
            String text = lines.get(line);
            if (!text.strip().startsWith("HashJoin")) {
                continue;
            }
            int depth = indent(text);
            // The second child at depth + 2 is the build input; its first scan names the table.
            int children = 0;
            for (int below = line + 1; below < lines.size() && indent(lines.get(below)) > depth; below++) {
                if (indent(lines.get(below)) == depth + 2) {
                    children++;
                }
                Matcher scan = SCAN.matcher(lines.get(below));
                if (children == 2 && scan.find()) {
                    built.add(scan.group(1));
                    break;
                }
            }
        }
        return built;
    }

    private static final Pattern SCAN = Pattern.compile("ColumnstoreScan \\[(\\w+)");

    private static int indent(String line) {
        return line.length() - line.stripLeading().length();
    }
}
