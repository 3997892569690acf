package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.stats.IoCounters;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Row estimates of columnstore scans from the rowgroups' segment figures, as EXPLAIN shows them,
 * against the true counts: 50,000 rows bulk-loaded in order into five compressed rowgroups of
 * 10,000. {@code id} is 1..50,000; {@code grp} 20 strings in turn; {@code v} a scramble of 0..999
 * in every rowgroup; {@code maybe} is {@code id} with every tenth NULL; {@code d} a day per 100 ids;
 * {@code k} is {@code id / 4 * 10}: in order, four rows a value, values ten apart.
 */
class ColumnstoreEstimatesTest {
    private static final Pattern ESTIMATE = Pattern.compile("\\(estimated rows ([0-9.]+),");

    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        session = engine.openSession();
        session.execute("CREATE TABLE fact (id INT NOT NULL, grp VARCHAR(10), v BIGINT, maybe INT, d DATE, k BIGINT)"
                + " WITH (storage = columnstore, rowgroup_max_rows = 10000, bulk_min_rows = 1000)");
        update(session, "INSERT INTO fact SELECT generate_series, 'g' || CAST(MOD(generate_series, 20) AS VARCHAR(3)),"
                + " MOD(CAST(generate_series AS BIGINT) * 7919, 1000),"
                + " CASE WHEN MOD(generate_series, 10) = 0 THEN NULL ELSE generate_series END,"
                + " DATE '2020-01-01' + generate_series / 100 * INTERVAL '1' DAY,"
                + " CAST(generate_series / 4 * 10 AS BIGINT)"
                + " FROM generate_series(1, 50000)");
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

    /**
     * The estimate of the plan's top node for {@code SELECT * FROM fact WHERE where}: the scan, or a
     * filter above it for conditions the scan does not take (a SEARCH of ranges).
     */
    private double estimate(String where) {
        String plan = explain("SELECT * FROM fact WHERE " + where);
        Matcher matcher = ESTIMATE.matcher(plan);
        assertTrue(matcher.find(), plan);
        return Double.parseDouble(matcher.group(1));
    }

    private long count(String where) {
        return (Long) query(session, "SELECT COUNT(*) FROM fact WHERE " + where).getFirst().getFirst();
    }

    /** Asserts the estimate is within {@code tolerance} (a fraction) of the true count, which is {@code expected}. */
    private void assertEstimate(String where, long expected, double tolerance) {
        assertEquals(expected, count(where), where);
        double estimate = estimate(where);
        assertTrue(Math.abs(estimate - expected) <= tolerance * expected,
                where + ": estimated " + estimate + ", true " + expected + ", tolerance " + tolerance);
    }

    @Test
    void rangesOnWholeNumbersCountValuesInEachRowgroup() {
        assertEstimate("id < 12345", 12344, 0.001);
        assertEstimate("id BETWEEN 20000 AND 20999", 1000, 0.001);
        assertEstimate("id > 40000 AND v < 100", 1000, 0.001);
        assertEstimate("id >= 49990 OR id <= 10", 21, 0.001);
        // days of 100 ids, each rowgroup spread evenly over its days
        assertEstimate("d < DATE '2020-02-01'", 3099, 0.02);
    }

    @Test
    void equalityIsOneOverTheDistinctValuesOfRowgroupsThatMayHoldIt() {
        assertEstimate("id = 777", 1, 0.001);
        assertEstimate("v = 5", 50, 0.001);
        assertEstimate("v <> 5", 49950, 0.001);
        // VARCHAR: the primary dictionary's 20 entries
        assertEstimate("grp = 'g3'", 2500, 0.001);
        assertEstimate("grp IN ('g1', 'g2')", 5000, 0.001);
        // No rowgroup may hold it: Calcite's floor of one row.
        assertEquals(0, count("id = 60000"));
        assertEquals(1, estimate("id = 60000"));
    }

    /**
     * A column in order whose values lie further apart than its rows: neither the rows nor the
     * span of a rowgroup bound its distinct values well (10,000 each), the runs of equal values the
     * encoder counted do (2,500 each, a run split at a rowgroup boundary counted in both).
     */
    @Test
    void distinctValuesOfAColumnInOrderAreItsRuns() {
        String plan = explain("SELECT k, COUNT(*) FROM fact GROUP BY k");
        String aggregate = plan.lines().filter(line -> line.contains("HashAggregate")).findFirst().orElseThrow(() -> new AssertionError(plan));
        Matcher matcher = ESTIMATE.matcher(aggregate);
        assertTrue(matcher.find(), plan);
        long groups = (Long) query(session, "SELECT COUNT(DISTINCT k) FROM fact").getFirst().getFirst();
        assertEquals(12_501, groups);
        double estimate = Double.parseDouble(matcher.group(1));
        assertTrue(Math.abs(estimate - groups) <= 5, "estimated " + estimate + " groups, true " + groups + ": " + plan);
    }

    /** The estimated groups of {@code SELECT keys, COUNT(*) FROM fact GROUP BY keys}, from its aggregate's line. */
    private double groupEstimate(String keys) {
        String plan = explain("SELECT " + keys + ", COUNT(*) FROM fact GROUP BY " + keys);
        String aggregate = plan.lines().filter(line -> line.contains("HashAggregate")).findFirst()
                .orElseThrow(() -> new AssertionError(plan));
        Matcher matcher = ESTIMATE.matcher(aggregate);
        assertTrue(matcher.find(), plan);
        return Double.parseDouble(matcher.group(1));
    }

    private long groups(String keys) {
        return (Long) query(session, "SELECT COUNT(*) FROM (SELECT " + keys + ", COUNT(*) FROM fact GROUP BY " + keys + ") t")
                .getFirst().getFirst();
    }

    /**
     * Keys that are expressions are bounded by what they read: {@code d} spans 2020-01-01 to
     * 2021-05-15, so EXTRACT(YEAR) has at most the two years of its segments' min and max, and
     * EXTRACT(MONTH) at most twelve; an expression of {@code grp} at most its dictionary's 20
     * values. Calcite guessed a tenth of the rows (5,000) for each, as for TPC-H Q9's nation and
     * year (1.97 million groups instead of 175).
     */
    @Test
    void groupsOfExpressionsAreBoundedByTheColumnsTheyRead() {
        assertEquals(2, groups("EXTRACT(YEAR FROM d)"));
        assertEquals(2, groupEstimate("EXTRACT(YEAR FROM d)"), 0.001);
        assertEquals(40, groups("EXTRACT(YEAR FROM d), grp"));
        assertEquals(40, groupEstimate("EXTRACT(YEAR FROM d), grp"), 0.001);
        assertEquals(12, groups("EXTRACT(MONTH FROM d)"));
        assertEquals(12, groupEstimate("EXTRACT(MONTH FROM d)"), 0.001);
        assertEquals(20, groups("grp || 'x'"));
        assertEquals(20, groupEstimate("grp || 'x'"), 0.001);
        // Two expressions of one column: at most that column's values together, not their product.
        assertEquals(20, groups("grp || 'x', grp || 'y'"));
        assertEquals(20, groupEstimate("grp || 'x', grp || 'y'"), 0.001);
    }

    /**
     * CHAR columns have distinct counts as VARCHAR ones do (the dictionary's): TPC-H's
     * {@code l_returnflag} and {@code l_linestatus} are CHAR(1), and without them Q1's four groups
     * were estimated at a tenth of lineitem, which made its parallel plan repartition them.
     */
    @Test
    void groupsOfCharAndVarcharColumnsComeFromTheirDictionaries() {
        session.execute("CREATE TABLE coded (flag CHAR(1) NOT NULL, status VARCHAR(1) NOT NULL, n INT)"
                + " WITH (storage = columnstore, rowgroup_max_rows = 10000, bulk_min_rows = 1000)").close();
        update(session, "INSERT INTO coded SELECT CASE MOD(generate_series, 3) WHEN 0 THEN 'A' WHEN 1 THEN 'N' ELSE 'R' END,"
                + " CASE MOD(generate_series, 2) WHEN 0 THEN 'F' ELSE 'O' END, generate_series FROM generate_series(1, 30000)");
        for (String keys : List.of("flag", "status", "flag, status")) {
            String plan = explain("SELECT " + keys + ", COUNT(*) FROM coded GROUP BY " + keys);
            String aggregate = plan.lines().filter(line -> line.contains("HashAggregate")).findFirst()
                    .orElseThrow(() -> new AssertionError(plan));
            Matcher matcher = ESTIMATE.matcher(aggregate);
            assertTrue(matcher.find(), plan);
            double expected = keys.equals("flag") ? 3 : keys.equals("status") ? 2 : 6;
            assertEquals(expected, Double.parseDouble(matcher.group(1)), 0.5, keys + ": " + plan);
        }
    }

    @Test
    void nullsComeFromTheSegmentsNullCounts() {
        assertEstimate("maybe IS NULL", 5000, 0.001);
        assertEstimate("maybe IS NOT NULL", 45000, 0.001);
        assertEstimate("maybe < 1000", 900, 0.02);
    }

    @Test
    void aSmallDeltaStoreIsCountedFromItsRows() {
        update(session, "INSERT INTO fact SELECT generate_series, 'x', 0, 0, DATE '2021-01-01'"
                + " FROM generate_series(50001, 50500)");
        // 500 rows in the delta store, read when the figures are gathered: their range and values are known
        assertEquals(500, estimate("id > 50000"));
        assertEquals(12344, estimate("id < 12345"));
        assertEquals(500, estimate("grp = 'x'"));
    }

    @Test
    void aLargeDeltaStoreTakesTheDefaultGuess() {
        for (int from = 50001; from <= 55000; from += 500) {
            update(session, "INSERT INTO fact SELECT generate_series, 'x', 0, 0, DATE '2021-01-01'"
                    + " FROM generate_series(" + from + ", " + (from + 499) + ")");
        }
        // 5000 rows in the delta store, more than are read for figures: Calcite's guess of a half for a range
        assertEquals(2500, estimate("id > 50000"));
        assertEquals(12344 + 2500, estimate("id < 12345"));
    }

    @Test
    void anEqualityOnACharColumnIsOneOfItsValues() {
        session.execute("CREATE TABLE flags (flag CHAR(1) NOT NULL, n INT)"
                + " WITH (storage = columnstore, rowgroup_max_rows = 10000, bulk_min_rows = 1000)").close();
        update(session, "INSERT INTO flags SELECT CASE MOD(generate_series, 3) WHEN 0 THEN 'A' WHEN 1 THEN 'N' ELSE 'R' END,"
                + " generate_series FROM generate_series(1, 30000)");
        String plan = explain("SELECT n FROM flags WHERE flag = 'N'");
        Matcher matcher = ESTIMATE.matcher(plan.lines().filter(line -> line.contains("flag")).findFirst().orElseThrow());
        assertTrue(matcher.find(), plan);
        // Three values in each rowgroup: a third, where Calcite's guess for an equality is 0.15
        assertEquals(10000, Double.parseDouble(matcher.group(1)), 1, plan);
        assertEquals(10000L, (Long) query(session, "SELECT COUNT(*) FROM flags WHERE flag = 'N'").getFirst().getFirst());
    }

    @Test
    void figuresAreGatheredAgainWhenTheDatabaseOpens() {
        session.close();
        engine.close();
        engine = SessionRows.open(directory);
        session = engine.openSession();
        assertEquals(12344, estimate("id < 12345"));
        assertEquals(2500, estimate("grp = 'g3'"));
    }

    @Test
    void theEstimateChoosesTheJoin() {
        session.execute("CREATE TABLE dim (id INT PRIMARY KEY, name VARCHAR(20))");
        update(session, "INSERT INTO dim SELECT generate_series, 'n' || CAST(generate_series AS VARCHAR(10))"
                + " FROM generate_series(1, 50000)");
        String join = "SELECT f.id, d.name FROM fact f JOIN dim d ON f.id = d.id WHERE f.v = 5";
        // 50 outer rows: a seek into dim for each
        assertTrue(explain(join).contains("IndexNestedLoopJoin"), explain(join));
        assertEquals(50, query(session, join).size());
        // Without the figures, Calcite's 0.15 for the equality makes 7,500 outer rows: a hash join.
        int objectId = engine.database().catalog().byName(engine.database().bufferPool(), "fact", new IoCounters())
                .orElseThrow().objectId();
        engine.statistics().forget(objectId);
        assertTrue(explain(join).contains("HashJoin"), explain(join));
    }
    /**
     * Two inputs of alike row counts, one with a long string in every row: the narrow one is built
     * although it has more rows (a build copies its rows' values), and the string's width comes from
     * its dictionary.
     */
    @Test
    void theNarrowInputIsBuiltWhenTheOtherCarriesLongStrings() {
        String filler = "x".repeat(140);
        session.execute("CREATE TABLE wide (id INT NOT NULL, note VARCHAR(200))"
                + " WITH (storage = columnstore, rowgroup_max_rows = 10000, bulk_min_rows = 1000)").close();
        update(session, "INSERT INTO wide SELECT generate_series, CAST(generate_series AS VARCHAR(10)) || '" + filler + "'"
                + " FROM generate_series(1, 8000)");
        session.execute("CREATE TABLE narrow (id INT NOT NULL, w INT)"
                + " WITH (storage = columnstore, rowgroup_max_rows = 10000, bulk_min_rows = 1000)").close();
        update(session, "INSERT INTO narrow SELECT generate_series, generate_series * 2 FROM generate_series(1, 10000)");
        int objectId = engine.database().catalog().byName(engine.database().bufferPool(), "wide", new IoCounters())
                .orElseThrow().objectId();
        // 1 to 4 digits and 140 x's: 143.9 bytes on average
        assertEquals(143.9, engine.statistics().columnstore(objectId).orElseThrow().averageValueBytes(1), 0.1);

        String join = "SELECT x.id, x.note, n.w FROM wide x JOIN narrow n ON x.id = n.id";
        String plan = explain(join);
        List<String> lines = plan.lines().toList();
        String hashJoin = lines.stream().filter(line -> line.contains("HashJoin")).findFirst().orElseThrow();
        List<String> scans = lines.stream().filter(line -> line.contains("ColumnstoreScan [")).toList();
        assertEquals(2, scans.size(), plan);
        String built = hashJoin.contains("build right") ? scans.get(1) : scans.get(0);
        assertTrue(built.contains("ColumnstoreScan [narrow"), plan);
        assertEquals(8000, query(session, join).size());
    }
}
