package dev.columba.planner.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.columba.core.schema.Column;
import dev.columba.core.settings.SettingValues;
import dev.columba.core.settings.StandardSettings;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Columba against H2 on the same generated data: random queries (filters with NULLs, key ranges,
 * IN lists, LIKE, expressions, joins of every kind, IN/EXISTS sub-queries, aggregates with
 * DISTINCT, ORDER BY with OFFSET/FETCH, UNION, window functions; joins under MERGE JOIN too) over rowstore tables (clustered and heap) and over
 * columnstore copies, compared as multisets (as lists where ORDER BY fixes the order). Numbers
 * compare by value (DOUBLE to 10 significant digits). Replay with {@code -Dcolumba.seed=<seed>}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DifferentialTest {
    private static final int QUERIES = 1500;
    private static final int T1_ROWS = 400;
    private static final int T2_ROWS = 150;

    private TestDatabase db;
    private Connection h2;
    private long seed;

    @BeforeAll
    void load(@TempDir Path directory) throws SQLException {
        seed = Long.getLong("columba.seed", System.nanoTime());
        System.out.println("DifferentialTest seed " + seed + " (replay with -Dcolumba.seed=" + seed + ")");
        Random random = new Random(seed);
        db = new TestDatabase(directory);
        TableSchema t1 = TableSchema.of(Column.notNull("id", SqlType.INT), Column.nullable("a", SqlType.INT),
                Column.nullable("b", SqlType.BIGINT), Column.nullable("c", SqlType.varchar(12)),
                Column.nullable("d", SqlType.decimal(10, 2)), Column.nullable("f", SqlType.DATE));
        TableSchema t2 = TableSchema.of(Column.notNull("k", SqlType.INT), Column.nullable("v", SqlType.varchar(12)),
                Column.nullable("w", SqlType.INT));
        db.createRowstore("t1", t1, List.of(0), true);
        db.createRowstore("t2", t2, List.of(), false);
        db.createColumnstore("ct1", t1);
        db.createColumnstore("ct2", t2);
        h2 = DriverManager.getConnection("jdbc:h2:mem:differential" + seed);
        try (Statement statement = h2.createStatement()) {
            statement.execute("CREATE TABLE t1 (id INT NOT NULL PRIMARY KEY, a INT, b BIGINT, c VARCHAR(12), d DECIMAL(10,2), f DATE)");
            statement.execute("CREATE TABLE t2 (k INT NOT NULL, v VARCHAR(12), w INT)");
        }
        StringBuilder rows1 = new StringBuilder();
        for (int id = 1; id <= T1_ROWS; id++) {
            String row = "(" + id + ", " + nullable(random, String.valueOf(random.nextInt(40) - 5)) + ", "
                    + nullable(random, String.valueOf(random.nextLong(-1000, 100_000))) + ", "
                    + nullable(random, "'" + word(random) + "'") + ", "
                    + nullable(random, BigDecimal.valueOf(random.nextInt(200_000) - 50_000, 2).toPlainString()) + ", "
                    + nullable(random, "DATE '" + LocalDate.of(2019, 1, 1).plusDays(random.nextInt(900)) + "'") + ")";
            rows1.append(rows1.isEmpty() ? "" : ", ").append(row);
        }
        StringBuilder rows2 = new StringBuilder();
        for (int row = 0; row < T2_ROWS; row++) {
            String values = "(" + (random.nextInt(50) - 5) + ", " + nullable(random, "'" + word(random) + "'") + ", "
                    + nullable(random, String.valueOf(random.nextInt(30))) + ")";
            rows2.append(rows2.isEmpty() ? "" : ", ").append(values);
        }
        for (String table : List.of("t1", "ct1")) {
            assertEquals(T1_ROWS, db.update("INSERT INTO " + table + " VALUES " + rows1));
        }
        for (String table : List.of("t2", "ct2")) {
            assertEquals(T2_ROWS, db.update("INSERT INTO " + table + " VALUES " + rows2));
        }
        try (Statement statement = h2.createStatement()) {
            statement.execute("INSERT INTO t1 VALUES " + rows1);
            statement.execute("INSERT INTO t2 VALUES " + rows2);
        }
    }

    @AfterAll
    void close() throws SQLException {
        h2.close();
        db.close();
    }

    private static String nullable(Random random, String value) {
        return random.nextInt(8) == 0 ? "NULL" : value;
    }

    private static final String[] WORDS = {"apple", "Apricot", "banana", "berry", "cherry", "date", "fig", "grape", "kiwi", "lemon", ""};

    private static String word(Random random) {
        return WORDS[random.nextInt(WORDS.length)] + (random.nextBoolean() ? "" : String.valueOf(random.nextInt(10)));
    }

    @Test
    void randomQueriesAgreeWithH2OnBothStorageKinds() throws SQLException {
        Random random = new Random(seed ^ 0x5DEECE66DL);
        int checked = 0;
        for (int query = 0; query < QUERIES; query++) {
            Generated generated = generate(random);
            List<List<Object>> expected = h2(generated.sql());
            for (boolean columnstore : new boolean[] {false, true}) {
                String sql = columnstore ? generated.sql().replace("t1", "ct1").replace("t2", "ct2") : generated.sql();
                List<List<Object>> actual;
                try {
                    actual = normalize(db.query(sql));
                } catch (RuntimeException e) {
                    throw new AssertionError("seed " + seed + ", query " + query + " failed: " + sql + "\n" + e, e);
                }
                List<List<Object>> expectedRows = expected;
                if (!generated.ordered()) {
                    actual = sorted(actual);
                    expectedRows = sorted(expected);
                }
                if (!expectedRows.equals(actual)) {
                    fail("seed " + seed + ", query " + query + ": " + sql + "\nexpected " + expectedRows + "\nactual   " + actual
                            + "\nplan:\n" + db.explain(sql));
                }
                checked++;
            }
        }
        System.out.println("DifferentialTest: " + checked + " query runs agreed with H2");
    }

    /**
     * Full sorts (ORDER BY without OFFSET or FETCH) by one or two random columns, ascending or
     * descending, NULLs placed explicitly (H2 sorts them low by default, Columba high), ending in
     * the unique id so that the order is one: the same ordered rows as H2's at MAXDOP 1 to 4, where
     * parallel plans sort per worker and merge in order (every fragment parallel: threshold 0).
     */
    @Test
    void fullSortsAgreeWithH2AtEveryDegree() throws SQLException {
        Random random = new Random(seed ^ 0x50525431L);
        String[] columns = {"a", "b", "c", "d", "f"};
        int checked = 0;
        db.settings(SettingValues.defaults().with(StandardSettings.PARALLELISM_THRESHOLD_ROWS, 0));
        try {
            for (int query = 0; query < 150; query++) {
                StringBuilder order = new StringBuilder();
                for (int key = 0; key < 1 + random.nextInt(2); key++) {
                    order.append(columns[random.nextInt(columns.length)]).append(random.nextBoolean() ? " DESC" : "")
                            .append(random.nextBoolean() ? " NULLS FIRST" : " NULLS LAST").append(", ");
                }
                String sql = "SELECT id, " + projections(random) + " FROM t1 WHERE " + predicate(random, "t1")
                        + " ORDER BY " + order + "id" + (random.nextBoolean() ? " DESC" : "");
                List<List<Object>> expected = h2(sql);
                for (String text : List.of(sql, sql.replace("t1", "ct1"))) {
                    for (int degree = 1; degree <= 4; degree++) {
                        List<List<Object>> actual = normalize(db.query(text + " OPTION (MAXDOP " + degree + ")"));
                        if (!expected.equals(actual)) {
                            fail("seed " + seed + ", query " + query + " at MAXDOP " + degree + ": " + text + "\nexpected " + expected
                                    + "\nactual   " + actual + "\nplan:\n" + db.explain(text + " OPTION (MAXDOP " + degree + ")"));
                        }
                        checked++;
                    }
                }
            }
            String plan = db.explain("SELECT id, c FROM ct1 ORDER BY c DESC NULLS LAST, id OPTION (MAXDOP 3)");
            assertEquals(true, plan.contains("merging in order"), "the columnstore sort is parallel:\n" + plan);
        } finally {
            db.settings(SettingValues.defaults());
        }
        System.out.println("DifferentialTest: " + checked + " ordered runs agreed with H2");
    }

    /**
     * Joins under {@code OPTION (MERGE JOIN)}: inner and left joins (on duplicate and NULL keys,
     * with and without a residual condition), self-joins on the clustered key and on a
     * non-key column, EXISTS, NOT EXISTS and IN, on both storage kinds at MAXDOP 1 to 4 with every
     * fragment parallel (threshold 0): H2's rows every time, no plan joins otherwise, and nearly
     * every plan merges (a few fold to no rows without a join).
     */
    @Test
    void mergeJoinsAgreeWithH2AtEveryDegree() throws SQLException {
        Random random = new Random(seed ^ 0x4D45524CL);
        int checked = 0;
        int merged = 0;
        db.settings(SettingValues.defaults().with(StandardSettings.PARALLELISM_THRESHOLD_ROWS, 0));
        try {
            for (int query = 0; query < 120; query++) {
                String sql = switch (random.nextInt(5)) {
                    case 0 -> "SELECT t1.id, t1.c, t2.k, t2.v FROM t1 " + (random.nextBoolean() ? "JOIN" : "LEFT JOIN") + " t2 ON "
                            + (random.nextBoolean() ? "t1.a = t2.k" : "t1.a = t2.w AND t2.k < t1.id") + " WHERE " + predicate(random, "t1");
                    case 1 -> "SELECT x.id, x.a, y.id, y.b FROM (SELECT * FROM t1 WHERE " + predicate(random, "t1") + ") x "
                            + (random.nextBoolean() ? "JOIN" : "LEFT JOIN") + " t1 y ON "
                            + (random.nextBoolean() ? "x.id = y.id" : "x.a = y.a AND x.id <> y.id");
                    case 2 -> "SELECT id, a FROM t1 WHERE " + (random.nextBoolean() ? "" : "NOT ") + "EXISTS (SELECT 1 FROM t2"
                            + " WHERE t2.k = t1.a" + (random.nextBoolean() ? " AND t2.w > 10" : "") + ")";
                    case 3 -> "SELECT id, c FROM t1 WHERE a IN (SELECT w FROM t2 WHERE " + predicate(random, "t2") + ") AND "
                            + predicate(random, "t1");
                    default -> "SELECT t2.k, t2.w, t1.c FROM t2 LEFT JOIN t1 ON t1.id = t2.k AND t1.a = t2.w WHERE "
                            + predicate(random, "t2");
                };
                List<List<Object>> expected = sorted(h2(sql));
                for (String text : List.of(sql, sql.replace("t1", "ct1").replace("t2", "ct2"))) {
                    String plan = db.explain(text + " OPTION (MERGE JOIN)");
                    if (plan.contains("HashJoin") || plan.contains("NestedLoopJoin")) {
                        fail("seed " + seed + ", query " + query + ": another join under the hint: " + text + "\n" + plan);
                    }
                    merged += plan.contains("MergeJoin") ? 1 : 0;
                    for (int degree = 1; degree <= 4; degree++) {
                        String hinted = text + " OPTION (MERGE JOIN, MAXDOP " + degree + ")";
                        List<List<Object>> actual = sorted(normalize(db.query(hinted)));
                        if (!expected.equals(actual)) {
                            fail("seed " + seed + ", query " + query + ": " + hinted + "\nexpected " + expected + "\nactual   "
                                    + actual + "\nplan:\n" + db.explain(hinted));
                        }
                        checked++;
                    }
                }
            }
        } finally {
            db.settings(SettingValues.defaults());
        }
        // The others were planned without a join at all (a contradiction folded to no rows).
        assertEquals(true, merged > 120, merged + " of 240 plans merge");
        System.out.println("DifferentialTest: " + checked + " merge-join runs agreed with H2 (" + merged + " of 240 plans merge)");
    }

    private record Generated(String sql, boolean ordered) {
    }

    private Generated generate(Random random) {
        return switch (random.nextInt(10)) {
            case 0, 1 -> new Generated("SELECT " + projections(random) + " FROM t1 WHERE " + predicate(random, "t1"), false);
            case 2 -> new Generated("SELECT id, " + projections(random) + " FROM t1 WHERE " + predicate(random, "t1")
                    + " ORDER BY id" + (random.nextBoolean() ? " DESC" : "") + " OFFSET " + random.nextInt(20)
                    + " ROWS FETCH NEXT " + (1 + random.nextInt(30)) + " ROWS ONLY", true);
            case 3 -> {
                String group = random.nextBoolean() ? "a" : "MOD(id, 7)";
                yield new Generated("SELECT " + group + ", COUNT(*), SUM(b), MIN(c), MAX(d), COUNT(DISTINCT a), AVG(a), SUM(d)"
                        + " FROM t1 WHERE " + predicate(random, "t1") + " GROUP BY " + group
                        + (random.nextBoolean() ? " HAVING COUNT(*) > " + random.nextInt(3) : ""), false);
            }
            case 4 -> {
                String join = switch (random.nextInt(3)) {
                    case 0 -> "JOIN";
                    case 1 -> "LEFT JOIN";
                    default -> "INNER JOIN";
                };
                String on = random.nextBoolean() ? "t1.a = t2.k" : "t1.a = t2.w AND t2.k < t1.id";
                yield new Generated("SELECT t1.id, t1.c, t2.k, t2.v FROM t1 " + join + " t2 ON " + on + " WHERE "
                        + predicate(random, "t1"), false);
            }
            case 5 -> new Generated("SELECT id, a FROM t1 WHERE " + (random.nextBoolean() ? "" : "NOT ")
                    + "EXISTS (SELECT 1 FROM t2 WHERE t2.k = t1.a" + (random.nextBoolean() ? " AND t2.w > 10" : "") + ")", false);
            case 6 -> new Generated("SELECT id, c FROM t1 WHERE a IN (SELECT w FROM t2 WHERE " + predicate(random, "t2") + ")"
                    + " AND " + predicate(random, "t1"), false);
            case 7 -> new Generated("SELECT a FROM t1 WHERE " + predicate(random, "t1") + " UNION"
                    + (random.nextBoolean() ? " ALL" : "") + " SELECT w FROM t2 WHERE " + predicate(random, "t2"), false);
            case 8 -> new Generated("SELECT COUNT(*), COUNT(a), SUM(a), MIN(f), MAX(b) FROM t1 WHERE " + predicate(random, "t1"),
                    false);
            default -> new Generated("SELECT id, " + window(random) + ", " + window(random) + " FROM t1 WHERE " + predicate(random, "t1"),
                    false);
        };
    }

    /**
     * A window function whose result does not depend on how ties are broken: orders end in the
     * unique id, or the function sees whole peer groups (RANK, RANGE frames); NULLs are placed
     * explicitly (H2 sorts them low by default, Columba high).
     */
    private static String window(Random random) {
        String partition = switch (random.nextInt(4)) {
            case 0 -> "";
            case 1 -> "PARTITION BY a ";
            case 2 -> "PARTITION BY c ";
            default -> "PARTITION BY MOD(id, 5) ";
        };
        String direction = random.nextBoolean() ? "" : " DESC";
        String byId = "ORDER BY id" + direction;
        String byA = "ORDER BY a" + direction + (random.nextBoolean() ? " NULLS FIRST" : " NULLS LAST");
        String frame = switch (random.nextInt(4)) {
            case 0 -> "";
            case 1 -> " ROWS BETWEEN " + random.nextInt(4) + " PRECEDING AND CURRENT ROW";
            case 2 -> " ROWS BETWEEN CURRENT ROW AND " + random.nextInt(4) + " FOLLOWING";
            default -> " ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING";
        };
        return switch (random.nextInt(10)) {
            case 0 -> "ROW_NUMBER() OVER (" + partition + byId + ")";
            case 1 -> "RANK() OVER (" + partition + byA + ")";
            case 2 -> "DENSE_RANK() OVER (" + partition + byA + ")";
            case 3 -> "NTILE(" + (1 + random.nextInt(5)) + ") OVER (" + partition + byId + ")";
            case 4 -> "LAG(c, " + (1 + random.nextInt(3)) + ") OVER (" + partition + byId + ")";
            case 5 -> "LEAD(a, 1, -1) OVER (" + partition + byId + ")";
            case 6 -> "FIRST_VALUE(d) OVER (" + partition + byId + frame + ")";
            case 7 -> "SUM(d) OVER (" + partition + byA + ")";
            case 8 -> "COUNT(f) OVER (" + partition + byId + frame + ")";
            default -> (random.nextBoolean() ? "MIN(b)" : "MAX(c)") + " OVER (" + partition + byId + frame + ")";
        };
    }

    private static String projections(Random random) {
        List<String> all = List.of("a", "b", "c", "d", "f", "a + 1", "b * 2", "COALESCE(a, -1)", "CASE WHEN a > 10 THEN 'big' ELSE 'small' END",
                "UPPER(c)", "SUBSTRING(c, 2, 3)", "CHAR_LENGTH(c)", "EXTRACT(YEAR FROM f)", "d * 3", "a / 3", "MOD(b, 10)",
                "c || 'x'", "ABS(a - 20)", "f + INTERVAL '3' DAY");
        List<String> chosen = new ArrayList<>();
        int count = 1 + random.nextInt(3);
        for (int index = 0; index < count; index++) {
            chosen.add(all.get(random.nextInt(all.size())) + " AS p" + index);
        }
        return String.join(", ", chosen);
    }

    private static String predicate(Random random, String table) {
        String predicate = atom(random, table);
        int more = random.nextInt(3);
        for (int index = 0; index < more; index++) {
            predicate = "(" + predicate + (random.nextInt(3) == 0 ? " OR " : " AND ") + atom(random, table) + ")";
        }
        return predicate;
    }

    private static String atom(Random random, String table) {
        if (table.equals("t2")) {
            return switch (random.nextInt(5)) {
                case 0 -> "k < " + random.nextInt(50);
                case 1 -> "w IS NULL";
                case 2 -> "v LIKE '" + "abcgk".charAt(random.nextInt(5)) + "%'";
                case 3 -> "w BETWEEN " + random.nextInt(10) + " AND " + (10 + random.nextInt(20));
                default -> "k IN (" + random.nextInt(40) + ", " + random.nextInt(40) + ", " + random.nextInt(40) + ")";
            };
        }
        return switch (random.nextInt(14)) {
            case 0 -> "id < " + random.nextInt(T1_ROWS + 20);
            case 1 -> "id BETWEEN " + random.nextInt(200) + " AND " + (150 + random.nextInt(300));
            case 2 -> "id = " + random.nextInt(T1_ROWS + 5);
            case 3 -> "a < " + (random.nextInt(40) - 5);
            case 4 -> "a = " + random.nextInt(35);
            case 5 -> "a IS NULL";
            case 6 -> "c IS NOT NULL";
            case 7 -> "c LIKE '%" + "aeiry".charAt(random.nextInt(5)) + "%'";
            case 8 -> "b > " + random.nextInt(100_000);
            case 9 -> "d >= " + (random.nextInt(1000) - 200) + ".5";
            case 10 -> "f < DATE '2020-0" + (1 + random.nextInt(9)) + "-15'";
            case 11 -> "a IN (" + random.nextInt(30) + ", " + random.nextInt(30) + ", " + random.nextInt(30) + ")";
            case 12 -> "NOT (a > " + random.nextInt(30) + ")";
            default -> "c = '" + WORDS[random.nextInt(WORDS.length)] + "'";
        };
    }

    private List<List<Object>> h2(String sql) throws SQLException {
        try (PreparedStatement statement = h2.prepareStatement(sql); ResultSet results = statement.executeQuery()) {
            List<List<Object>> rows = new ArrayList<>();
            int columns = results.getMetaData().getColumnCount();
            while (results.next()) {
                List<Object> row = new ArrayList<>();
                for (int column = 1; column <= columns; column++) {
                    Object value = results.getObject(column);
                    if (value instanceof java.sql.Date date) {
                        value = date.toLocalDate();
                    }
                    row.add(value);
                }
                rows.add(row);
            }
            return normalize(rows);
        }
    }

    /** Numbers by value (doubles to 10 significant digits), everything else as is. */
    private static List<List<Object>> normalize(List<List<Object>> rows) {
        List<List<Object>> normalized = new ArrayList<>();
        for (List<Object> row : rows) {
            List<Object> values = new ArrayList<>();
            for (Object value : row) {
                values.add(switch (value) {
                    case Double number -> new BigDecimal(number).round(new MathContext(10)).stripTrailingZeros().toPlainString();
                    case Float number -> new BigDecimal(number).round(new MathContext(10)).stripTrailingZeros().toPlainString();
                    case BigDecimal number -> number.round(new MathContext(10)).stripTrailingZeros().toPlainString();
                    case Number number -> new BigDecimal(number.toString()).stripTrailingZeros().toPlainString();
                    case null -> "NULL";
                    default -> value.toString();
                });
            }
            normalized.add(values);
        }
        return normalized;
    }

    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort((left, right) -> left.toString().compareTo(right.toString()));
        return copy;
    }
}
