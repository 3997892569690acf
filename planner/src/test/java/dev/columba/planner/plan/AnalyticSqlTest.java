package dev.columba.planner.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.settings.SettingValues;
import dev.columba.core.settings.StandardSettings;
import dev.columba.core.type.SqlType;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Window functions, FULL OUTER JOIN and GROUPING SETS / ROLLUP / CUBE against H2 on the same data
 * (NULLs in partition, order, join and grouping keys; ties; an empty input), on a clustered
 * rowstore table, a heap and columnstore copies, serially and at MAXDOP 2 with every columnstore
 * scan made parallel (parallelism_threshold_rows 0): all must give H2's rows. H2 runs with NULLs
 * sorting high, as Columba (and PostgreSQL) sort them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AnalyticSqlTest {
    private static final int T1_ROWS = 300;
    private static final int T2_ROWS = 120;

    private TestDatabase db;
    private Connection h2;

    @BeforeAll
    void load(@TempDir Path directory) throws SQLException {
        Random random = new Random(20261126L);
        db = new TestDatabase(directory);
        TableSchema t1 = TableSchema.of(Column.notNull("id", SqlType.INT), Column.nullable("a", SqlType.INT),
                Column.nullable("b", SqlType.BIGINT), Column.nullable("c", SqlType.varchar(12)),
                Column.nullable("d", SqlType.decimal(10, 2)), Column.nullable("f", SqlType.DATE),
                Column.nullable("x", SqlType.DOUBLE));
        TableSchema t2 = TableSchema.of(Column.notNull("k", SqlType.INT), Column.nullable("v", SqlType.varchar(12)),
                Column.nullable("w", SqlType.INT));
        db.createRowstore("t1", t1, List.of(0), true);
        db.createRowstore("t2", t2, List.of(), false);
        db.createColumnstore("ct1", t1);
        db.createColumnstore("ct2", t2);
        db.createColumnstore("empty1", t1);
        h2 = DriverManager.getConnection("jdbc:h2:mem:analytic;DEFAULT_NULL_ORDERING=HIGH");
        try (Statement statement = h2.createStatement()) {
            statement.execute("CREATE TABLE t1 (id INT NOT NULL PRIMARY KEY, a INT, b BIGINT, c VARCHAR(12), d DECIMAL(10,2), f DATE, x DOUBLE)");
            statement.execute("CREATE TABLE t2 (k INT NOT NULL, v VARCHAR(12), w INT)");
            statement.execute("CREATE TABLE empty1 (id INT NOT NULL PRIMARY KEY, a INT, b BIGINT, c VARCHAR(12), d DECIMAL(10,2), f DATE, x DOUBLE)");
        }
        String[] words = {"apple", "berry", "cherry", "date", "fig"};
        StringBuilder rows1 = new StringBuilder();
        for (int id = 1; id <= T1_ROWS; id++) {
            String row = "(" + id + ", " + nullable(random, String.valueOf(random.nextInt(12))) + ", "
                    + nullable(random, String.valueOf(random.nextLong(-1000, 100_000))) + ", "
                    + nullable(random, "'" + words[random.nextInt(words.length)] + "'") + ", "
                    + nullable(random, BigDecimal.valueOf(random.nextInt(20_000) - 5_000, 2).toPlainString()) + ", "
                    + nullable(random, "DATE '" + LocalDate.of(2020, 1, 1).plusDays(random.nextInt(60)) + "'") + ", "
                    + nullable(random, String.valueOf((random.nextInt(400) - 200) / 8.0)) + ")";
            rows1.append(rows1.isEmpty() ? "" : ", ").append(row);
        }
        StringBuilder rows2 = new StringBuilder();
        for (int row = 0; row < T2_ROWS; row++) {
            rows2.append(rows2.isEmpty() ? "" : ", ").append("(").append(random.nextInt(16) - 2).append(", ")
                    .append(nullable(random, "'" + words[random.nextInt(words.length)] + "'")).append(", ")
                    .append(nullable(random, String.valueOf(random.nextInt(12)))).append(")");
        }
        for (String table : List.of("t1", "ct1")) {
            db.update("INSERT INTO " + table + " VALUES " + rows1);
        }
        for (String table : List.of("t2", "ct2")) {
            db.update("INSERT INTO " + table + " VALUES " + rows2);
        }
        try (Statement statement = h2.createStatement()) {
            statement.execute("INSERT INTO t1 VALUES " + rows1);
            statement.execute("INSERT INTO t2 VALUES " + rows2);
        }
    }

    private static String nullable(Random random, String value) {
        return random.nextInt(7) == 0 ? "NULL" : value;
    }

    @AfterAll
    void close() throws SQLException {
        h2.close();
        db.close();
    }

    static Stream<String> windowQueries() {
        return Stream.of(
                "SELECT id, ROW_NUMBER() OVER (ORDER BY id) FROM t1",
                "SELECT id, ROW_NUMBER() OVER (PARTITION BY a ORDER BY d, id) FROM t1",
                "SELECT id, RANK() OVER (PARTITION BY c ORDER BY a), DENSE_RANK() OVER (PARTITION BY c ORDER BY a) FROM t1",
                "SELECT id, RANK() OVER (ORDER BY d DESC), DENSE_RANK() OVER (ORDER BY f NULLS FIRST) FROM t1",
                "SELECT id, NTILE(4) OVER (ORDER BY id), NTILE(7) OVER (PARTITION BY a ORDER BY id) FROM t1",
                "SELECT id, LAG(d) OVER (ORDER BY id), LEAD(c, 2) OVER (PARTITION BY a ORDER BY id) FROM t1",
                "SELECT id, LAG(a, 1, -1) OVER (PARTITION BY c ORDER BY id), LEAD(b, 3, 0) OVER (ORDER BY id) FROM t1",
                "SELECT id, FIRST_VALUE(c) OVER (PARTITION BY a ORDER BY id), LAST_VALUE(c) OVER (PARTITION BY a ORDER BY id) FROM t1",
                "SELECT id, LAST_VALUE(id) OVER (PARTITION BY a ORDER BY d ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM t1",
                "SELECT id, SUM(d) OVER (PARTITION BY a ORDER BY f) FROM t1",
                "SELECT id, SUM(d) OVER (PARTITION BY a), COUNT(*) OVER (PARTITION BY a), COUNT(c) OVER () FROM t1",
                "SELECT id, SUM(b) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) FROM t1",
                "SELECT id, AVG(a) OVER (PARTITION BY c ORDER BY id ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) FROM t1",
                "SELECT id, AVG(x) OVER (PARTITION BY c ORDER BY id ROWS 2 PRECEDING) FROM t1",
                "SELECT id, MIN(c) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 4 FOLLOWING), MAX(f) OVER (PARTITION BY a ORDER BY id) FROM t1",
                "SELECT id, COUNT(*) OVER (ORDER BY a RANGE BETWEEN 2 PRECEDING AND 1 FOLLOWING) FROM t1",
                "SELECT id, SUM(d) OVER (ORDER BY a DESC RANGE BETWEEN CURRENT ROW AND 3 FOLLOWING) FROM t1",
                "SELECT id, SUM(a) OVER (ORDER BY f RANGE BETWEEN INTERVAL '3' DAY PRECEDING AND CURRENT ROW) FROM t1",
                "SELECT id, MAX(d) OVER (PARTITION BY c ORDER BY a RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM t1",
                "SELECT id, SUM(a) OVER w, AVG(a) OVER w, ROW_NUMBER() OVER w FROM t1 WINDOW w AS (PARTITION BY c ORDER BY id)",
                "SELECT c, SUM(d), RANK() OVER (ORDER BY SUM(d) DESC) FROM t1 GROUP BY c",
                "SELECT * FROM (SELECT id, a, ROW_NUMBER() OVER (PARTITION BY a ORDER BY id DESC) AS rn FROM t1) WHERE rn <= 2",
                "SELECT t1.id, t2.k, ROW_NUMBER() OVER (PARTITION BY t2.k ORDER BY t1.id) FROM t1 JOIN t2 ON t1.a = t2.w",
                "SELECT id, ROW_NUMBER() OVER (ORDER BY id), SUM(d) OVER (PARTITION BY a) FROM empty1 UNION ALL SELECT 0, 0, 0",
                "SELECT COUNT(*) OVER () FROM empty1 UNION ALL SELECT -1");
    }

    /** The union H2 (which has no FULL JOIN) runs for {@code t1 FULL JOIN t2 ON t1.a = t2.k}: the LEFT join plus the unmatched t2 rows. */
    private static final String T1_FULL_T2 = "SELECT t1.id, t1.a, t2.k, t2.v, t2.w FROM t1 LEFT JOIN t2 ON t1.a = t2.k "
            + "UNION ALL SELECT NULL, NULL, t2.k, t2.v, t2.w FROM t2 WHERE NOT EXISTS (SELECT 1 FROM t1 WHERE t1.a = t2.k)";

    /** FULL joins, each with the text H2 runs for it (H2 has no FULL JOIN: a LEFT join plus the right side's unmatched rows). */
    static Stream<Arguments> fullJoinQueries() {
        return Stream.of(
                Arguments.of("SELECT t1.id, t1.a, t2.k, t2.v FROM t1 FULL JOIN t2 ON t1.a = t2.k",
                        "SELECT id, a, k, v FROM (" + T1_FULL_T2 + ")"),
                Arguments.of("SELECT t1.id, t2.k, t2.w FROM t1 FULL OUTER JOIN t2 ON t1.a = t2.w AND t2.k < t1.id",
                        "SELECT t1.id, t2.k, t2.w FROM t1 LEFT JOIN t2 ON t1.a = t2.w AND t2.k < t1.id UNION ALL "
                                + "SELECT NULL, t2.k, t2.w FROM t2 WHERE NOT EXISTS (SELECT 1 FROM t1 WHERE t1.a = t2.w AND t2.k < t1.id)"),
                Arguments.of("SELECT t1.id, t2.k FROM t1 FULL JOIN t2 ON t1.a > t2.w + 8",
                        "SELECT t1.id, t2.k FROM t1 LEFT JOIN t2 ON t1.a > t2.w + 8 UNION ALL "
                                + "SELECT NULL, t2.k FROM t2 WHERE NOT EXISTS (SELECT 1 FROM t1 WHERE t1.a > t2.w + 8)"),
                Arguments.of("SELECT COALESCE(t1.a, t2.k) AS kk, COUNT(*), COUNT(t1.id), COUNT(t2.v) FROM t1 FULL JOIN t2 ON t1.a = t2.k "
                                + "GROUP BY COALESCE(t1.a, t2.k)",
                        "SELECT COALESCE(a, k), COUNT(*), COUNT(id), COUNT(v) FROM (" + T1_FULL_T2 + ") GROUP BY COALESCE(a, k)"),
                Arguments.of("SELECT t1.id, t2.k FROM t1 FULL JOIN t2 ON t1.a = t2.k WHERE t1.id IS NULL OR t2.k IS NULL",
                        "SELECT id, k FROM (" + T1_FULL_T2 + ") WHERE id IS NULL OR k IS NULL"),
                Arguments.of("SELECT t1.id, t2.k, x.k FROM t1 FULL JOIN t2 ON t1.a = t2.k FULL JOIN t2 x ON t2.w = x.k",
                        "SELECT u.id, u.k, x.k FROM (" + T1_FULL_T2 + ") u LEFT JOIN t2 x ON u.w = x.k UNION ALL "
                                + "SELECT NULL, NULL, x.k FROM t2 x WHERE NOT EXISTS (SELECT 1 FROM (" + T1_FULL_T2 + ") u WHERE u.w = x.k)"),
                Arguments.of("SELECT e.id, t2.k FROM empty1 e FULL JOIN t2 ON e.a = t2.k", "SELECT NULL, k FROM t2"),
                Arguments.of("SELECT t2.k, e.id FROM t2 FULL JOIN empty1 e ON e.a = t2.k", "SELECT k, NULL FROM t2"),
                Arguments.of("SELECT a.id, b.id FROM t1 a FULL JOIN t1 b ON a.a = b.id",
                        "SELECT a.id, b.id FROM t1 a LEFT JOIN t1 b ON a.a = b.id UNION ALL "
                                + "SELECT NULL, b.id FROM t1 b WHERE NOT EXISTS (SELECT 1 FROM t1 a WHERE a.a = b.id)"));
    }

    @ParameterizedTest
    @MethodSource("fullJoinQueries")
    void fullJoinsAgreeWithH2(String sql, String h2Sql) throws SQLException {
        check(sql, h2Sql);
    }

    /** GROUPING SETS, ROLLUP and CUBE, each with the UNION ALL of GROUP BYs H2 (which has none of them) runs for it. */
    static Stream<Arguments> groupingSetQueries() {
        return Stream.of(
                Arguments.of("SELECT a, c, COUNT(*), SUM(d) FROM t1 GROUP BY ROLLUP(a, c)",
                        "SELECT a, c, COUNT(*), SUM(d) FROM t1 GROUP BY a, c UNION ALL SELECT a, NULL, COUNT(*), SUM(d) FROM t1 GROUP BY a "
                                + "UNION ALL SELECT NULL, NULL, COUNT(*), SUM(d) FROM t1"),
                Arguments.of("SELECT a, c, COUNT(*), GROUPING(a), GROUPING(c), GROUPING(a, c) FROM t1 GROUP BY CUBE(a, c)",
                        "SELECT a, c, COUNT(*), 0, 0, 0 FROM t1 GROUP BY a, c UNION ALL SELECT a, NULL, COUNT(*), 0, 1, 1 FROM t1 GROUP BY a "
                                + "UNION ALL SELECT NULL, c, COUNT(*), 1, 0, 2 FROM t1 GROUP BY c UNION ALL SELECT NULL, NULL, COUNT(*), 1, 1, 3 FROM t1"),
                Arguments.of("SELECT a, c, MIN(f), COUNT(DISTINCT b), AVG(x) FROM t1 GROUP BY GROUPING SETS ((a), (c), ())",
                        "SELECT a, NULL, MIN(f), COUNT(DISTINCT b), AVG(x) FROM t1 GROUP BY a UNION ALL "
                                + "SELECT NULL, c, MIN(f), COUNT(DISTINCT b), AVG(x) FROM t1 GROUP BY c UNION ALL "
                                + "SELECT NULL, NULL, MIN(f), COUNT(DISTINCT b), AVG(x) FROM t1"),
                Arguments.of("SELECT a, SUM(b) FROM t1 WHERE id < 200 GROUP BY ROLLUP(a) HAVING GROUPING(a) = 1 OR SUM(b) > 100000",
                        "SELECT a, SUM(b) FROM t1 WHERE id < 200 GROUP BY a HAVING SUM(b) > 100000 UNION ALL SELECT NULL, SUM(b) FROM t1 WHERE id < 200"),
                Arguments.of("SELECT a, COUNT(*), SUM(d) FROM empty1 GROUP BY ROLLUP(a)", "SELECT NULL, COUNT(*), SUM(d) FROM empty1"),
                Arguments.of("SELECT MOD(id, 3) AS m, a, SUM(d) FROM t1 GROUP BY MOD(id, 3), ROLLUP(a)",
                        "SELECT MOD(id, 3), a, SUM(d) FROM t1 GROUP BY MOD(id, 3), a UNION ALL SELECT MOD(id, 3), NULL, SUM(d) FROM t1 GROUP BY MOD(id, 3)"),
                Arguments.of("SELECT t2.v, t1.c, COUNT(*) FROM t1 JOIN t2 ON t1.a = t2.k GROUP BY CUBE(t2.v, t1.c)",
                        "SELECT t2.v, t1.c, COUNT(*) FROM t1 JOIN t2 ON t1.a = t2.k GROUP BY t2.v, t1.c UNION ALL "
                                + "SELECT t2.v, NULL, COUNT(*) FROM t1 JOIN t2 ON t1.a = t2.k GROUP BY t2.v UNION ALL "
                                + "SELECT NULL, t1.c, COUNT(*) FROM t1 JOIN t2 ON t1.a = t2.k GROUP BY t1.c UNION ALL "
                                + "SELECT NULL, NULL, COUNT(*) FROM t1 JOIN t2 ON t1.a = t2.k"));
    }

    @ParameterizedTest
    @MethodSource("groupingSetQueries")
    void groupingSetsAgreeWithH2(String sql, String h2Sql) throws SQLException {
        check(sql, h2Sql);
    }

    @ParameterizedTest
    @MethodSource("windowQueries")
    void windowFunctionsAgreeWithH2(String sql) throws SQLException {
        check(sql);
    }

    @org.junit.jupiter.api.Test
    void theParallelRunsReallyAreParallel() {
        db.settings(SettingValues.defaults().with(StandardSettings.PARALLELISM_THRESHOLD_ROWS, 0));
        try {
            for (String sql : List.of("SELECT id, ROW_NUMBER() OVER (PARTITION BY a ORDER BY id) FROM ct1 OPTION (MAXDOP 2)",
                    "SELECT ct1.id, ct2.k FROM ct1 FULL JOIN ct2 ON ct1.a = ct2.k WHERE ct1.id > 0 OR ct2.w > 0 OPTION (MAXDOP 2)",
                    "SELECT a, c, COUNT(*) FROM ct1 GROUP BY ROLLUP(a, c) OPTION (MAXDOP 2)")) {
                String plan = db.explain(sql);
                assertTrue(plan.contains("Parallelism"), sql + "\n" + plan);
            }
        } finally {
            db.settings(SettingValues.defaults());
        }
    }

    /** The query on every storage kind and degree of parallelism, compared with H2's rows as multisets. */
    private void check(String sql) throws SQLException {
        check(sql, sql);
    }

    /** {@code sql} on Columba against {@code h2Sql} (the same query as H2 spells it) on H2. */
    private void check(String sql, String h2Sql) throws SQLException {
        List<String> expected = sorted(h2(h2Sql));
        assertTrue(!expected.isEmpty(), "the query returns rows: " + sql);
        for (boolean columnstore : new boolean[] {false, true}) {
            String text = columnstore ? sql.replace("t1", "ct1").replace("t2", "ct2") : sql;
            for (int degree : new int[] {1, 2}) {
                db.settings(SettingValues.defaults().with(StandardSettings.PARALLELISM_THRESHOLD_ROWS, 0));
                try {
                    List<String> actual = sorted(db.query(text + " OPTION (MAXDOP " + degree + ")"));
                    assertEquals(expected, actual, text + " at MAXDOP " + degree + "\nplan:\n" + db.explain(text));
                } finally {
                    db.settings(SettingValues.defaults());
                }
            }
        }
    }

    private List<List<Object>> h2(String sql) throws SQLException {
        try (Statement statement = h2.createStatement(); ResultSet results = statement.executeQuery(sql)) {
            List<List<Object>> rows = new ArrayList<>();
            int columns = results.getMetaData().getColumnCount();
            while (results.next()) {
                List<Object> row = new ArrayList<>();
                for (int column = 1; column <= columns; column++) {
                    Object value = results.getObject(column);
                    row.add(value instanceof java.sql.Date date ? date.toLocalDate() : value);
                }
                rows.add(row);
            }
            return rows;
        }
    }

    /** Each row as text, numbers by value (to 10 significant digits). */
    private static List<String> normalize(List<List<Object>> rows) {
        List<String> normalized = new ArrayList<>();
        for (List<Object> row : rows) {
            List<String> values = new ArrayList<>();
            for (Object value : row) {
                values.add(switch (value) {
                    case Double number -> new BigDecimal(number).round(new MathContext(10)).stripTrailingZeros().toPlainString();
                    case BigDecimal number -> number.round(new MathContext(10)).stripTrailingZeros().toPlainString();
                    case Number number -> new BigDecimal(number.toString()).stripTrailingZeros().toPlainString();
                    case null -> "NULL";
                    default -> value.toString();
                });
            }
            normalized.add(values.toString());
        }
        return normalized;
    }

    private static List<String> sorted(List<List<Object>> rows) {
        List<String> result = normalize(rows);
        result.sort(null);
        return result;
    }
}
