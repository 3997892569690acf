package dev.columba.planner.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SQL Server's spellings of what other dialects write otherwise (issue 14): {@code SELECT TOP n}
 * beside LIMIT / FETCH FIRST, and {@code STRING_AGG}, against H2 running the same query as H2
 * spells it (LIMIT, LISTAGG), on a clustered rowstore table, a heap and columnstore copies,
 * serially and at MAXDOP 2 with every columnstore scan made parallel. A query with an ORDER BY that
 * decides every row's place is compared row by row; others as multisets.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DialectSqlTest {
    private static final int T1_ROWS = 300;
    private static final int T2_ROWS = 120;

    private TestDatabase db;
    private Connection h2;

    @BeforeAll
    void load(@TempDir Path directory) throws SQLException {
        Random random = new Random(20261127L);
        db = new TestDatabase(directory);
        TableSchema t1 = TableSchema.of(Column.notNull("id", SqlType.INT), Column.nullable("a", SqlType.INT),
                Column.nullable("c", SqlType.varchar(12)), Column.nullable("d", SqlType.decimal(10, 2)));
        TableSchema t2 = TableSchema.of(Column.notNull("k", SqlType.INT), Column.nullable("v", SqlType.varchar(12)));
        db.createRowstore("t1", t1, List.of(0), true);
        db.createRowstore("t2", t2, List.of(), false);
        db.createColumnstore("ct1", t1);
        db.createColumnstore("ct2", t2);
        db.createColumnstore("empty1", t1);
        h2 = DriverManager.getConnection("jdbc:h2:mem:dialect;DEFAULT_NULL_ORDERING=HIGH");
        try (Statement statement = h2.createStatement()) {
            statement.execute("CREATE TABLE t1 (id INT NOT NULL PRIMARY KEY, a INT, c VARCHAR(12), d DECIMAL(10,2))");
            statement.execute("CREATE TABLE t2 (k INT NOT NULL, v VARCHAR(12))");
            statement.execute("CREATE TABLE empty1 (id INT NOT NULL PRIMARY KEY, a INT, c VARCHAR(12), d DECIMAL(10,2))");
        }
        String[] words = {"apple", "berry", "cherry", "date", "fig", ""};
        StringBuilder rows1 = new StringBuilder();
        for (int id = 1; id <= T1_ROWS; id++) {
            String row = "(" + id + ", " + nullable(random, String.valueOf(random.nextInt(12))) + ", "
                    + nullable(random, "'" + words[random.nextInt(words.length)] + "'") + ", "
                    + nullable(random, BigDecimal.valueOf(random.nextInt(20_000) - 5_000, 2).toPlainString()) + ")";
            rows1.append(rows1.isEmpty() ? "" : ", ").append(row);
        }
        StringBuilder rows2 = new StringBuilder();
        for (int row = 0; row < T2_ROWS; row++) {
            rows2.append(rows2.isEmpty() ? "" : ", ").append("(").append(random.nextInt(16) - 2).append(", ")
                    .append(nullable(random, "'" + words[random.nextInt(words.length)] + "'")).append(")");
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

    /** TOP queries, each with the text H2 runs for it, and whether the order of the rows is decided. */
    static Stream<Arguments> topQueries() {
        return Stream.of(
                Arguments.of("SELECT TOP 5 id, a FROM t1 ORDER BY a DESC, id", "SELECT id, a FROM t1 ORDER BY a DESC, id LIMIT 5", true),
                Arguments.of("SELECT TOP (7) id, c FROM t1 ORDER BY c, id DESC", "SELECT id, c FROM t1 ORDER BY c, id DESC LIMIT 7", true),
                Arguments.of("SELECT DISTINCT TOP 3 a FROM t1 WHERE a IS NOT NULL ORDER BY a",
                        "SELECT DISTINCT a FROM t1 WHERE a IS NOT NULL ORDER BY a LIMIT 3", true),
                Arguments.of("SELECT TOP 0 id FROM t1 ORDER BY id", "SELECT id FROM t1 WHERE 1 = 0", true),
                Arguments.of("SELECT TOP 1000 id FROM t1 WHERE a = 3 ORDER BY id", "SELECT id FROM t1 WHERE a = 3 ORDER BY id", true),
                Arguments.of("SELECT COUNT(*) FROM (SELECT TOP 10 id FROM t1) AS x", "SELECT COUNT(*) FROM (SELECT id FROM t1 LIMIT 10) AS x", false),
                Arguments.of("SELECT TOP 4 a, COUNT(*) AS n FROM t1 GROUP BY a ORDER BY n DESC, a",
                        "SELECT a, COUNT(*) AS n FROM t1 GROUP BY a ORDER BY n DESC, a LIMIT 4", true),
                Arguments.of("SELECT id FROM t1 WHERE id IN (SELECT TOP 3 k FROM t2 ORDER BY k DESC, v)",
                        "SELECT id FROM t1 WHERE id IN (SELECT k FROM t2 ORDER BY k DESC, v LIMIT 3)", false),
                Arguments.of("SELECT t1.id, (SELECT TOP 1 v FROM t2 WHERE t2.k = t1.a ORDER BY v) FROM t1 WHERE t1.id < 40",
                        "SELECT t1.id, (SELECT v FROM t2 WHERE t2.k = t1.a ORDER BY v LIMIT 1) FROM t1 WHERE t1.id < 40", false),
                Arguments.of("SELECT TOP 3 t1.id, t2.v FROM t1 JOIN t2 ON t1.a = t2.k ORDER BY t1.id, t2.v, t2.k",
                        "SELECT t1.id, t2.v FROM t1 JOIN t2 ON t1.a = t2.k ORDER BY t1.id, t2.v, t2.k LIMIT 3", true),
                Arguments.of("SELECT TOP 2 id FROM empty1 ORDER BY id", "SELECT id FROM empty1", true));
    }

    @ParameterizedTest
    @MethodSource("topQueries")
    void topAgreesWithH2(String sql, String h2Sql, boolean ordered) throws SQLException {
        check(sql, h2Sql, ordered);
    }

    /**
     * STRING_AGG queries, each with the LISTAGG H2 runs for it, and whether the order of the rows is
     * decided. A text without WITHIN GROUP has no defined order of its values: those queries keep
     * one value per group or compare lengths.
     */
    static Stream<Arguments> stringAggQueries() {
        return Stream.of(
                Arguments.of("SELECT a, STRING_AGG(c, ', ') WITHIN GROUP (ORDER BY c, id) FROM t1 GROUP BY a",
                        "SELECT a, LISTAGG(c, ', ') WITHIN GROUP (ORDER BY c, id) FROM t1 GROUP BY a", false),
                Arguments.of("SELECT a, STRING_AGG(c, '|') WITHIN GROUP (ORDER BY id DESC) AS s, COUNT(*), SUM(d) FROM t1 GROUP BY a ORDER BY a",
                        "SELECT a, LISTAGG(c, '|') WITHIN GROUP (ORDER BY id DESC), COUNT(*), SUM(d) FROM t1 GROUP BY a ORDER BY a", true),
                Arguments.of("SELECT STRING_AGG(c, '') WITHIN GROUP (ORDER BY id) FROM t1 WHERE id < 50",
                        "SELECT LISTAGG(c, '') WITHIN GROUP (ORDER BY id) FROM t1 WHERE id < 50", true),
                Arguments.of("SELECT id, STRING_AGG(c, '-') FROM t1 GROUP BY id", "SELECT id, LISTAGG(c, '-') FROM t1 GROUP BY id", false),
                Arguments.of("SELECT a, LENGTH(STRING_AGG(c, ';')), COUNT(c) FROM t1 GROUP BY a",
                        "SELECT a, LENGTH(LISTAGG(c, ';')), COUNT(c) FROM t1 GROUP BY a", false),
                Arguments.of("SELECT k, STRING_AGG(v, ',') WITHIN GROUP (ORDER BY v DESC) FROM t2 WHERE k > 100 GROUP BY k",
                        "SELECT k, LISTAGG(v, ',') WITHIN GROUP (ORDER BY v DESC) FROM t2 WHERE k > 100 GROUP BY k", false),
                Arguments.of("SELECT STRING_AGG(c, ',') FROM empty1", "SELECT LISTAGG(c, ',') FROM empty1", true),
                Arguments.of("SELECT t2.k, STRING_AGG(t1.c, '/') WITHIN GROUP (ORDER BY t1.id) FROM t1 JOIN t2 ON t1.a = t2.k GROUP BY t2.k",
                        "SELECT t2.k, LISTAGG(t1.c, '/') WITHIN GROUP (ORDER BY t1.id) FROM t1 JOIN t2 ON t1.a = t2.k GROUP BY t2.k", false),
                Arguments.of("SELECT a, STRING_AGG(c, ',') WITHIN GROUP (ORDER BY c) FROM (SELECT DISTINCT a, c FROM t1) AS x GROUP BY a",
                        "SELECT a, LISTAGG(c, ',') WITHIN GROUP (ORDER BY c) FROM (SELECT DISTINCT a, c FROM t1) AS x GROUP BY a", false));
    }

    @ParameterizedTest
    @MethodSource("stringAggQueries")
    void stringAggAgreesWithH2(String sql, String h2Sql, boolean ordered) throws SQLException {
        check(sql, h2Sql, ordered);
    }

    @Test
    void unorderedStringAggJoinsEveryValueOnce() {
        String sql = "SELECT a, STRING_AGG(CAST(id AS VARCHAR(10)), '+') FROM ct1 GROUP BY a OPTION (MAXDOP 2)";
        db.settings(SettingValues.defaults().with(StandardSettings.PARALLELISM_THRESHOLD_ROWS, 0));
        List<List<Object>> rows;
        try {
            assertTrue(db.explain(sql).contains("Parallelism"), db.explain(sql));
            rows = db.query(sql);
        } finally {
            db.settings(SettingValues.defaults());
        }
        StringBuilder all = new StringBuilder();
        for (List<Object> row : rows) {
            all.append(all.isEmpty() ? "" : "+").append(row.get(1));
        }
        String[] parts = all.toString().split("\\+");
        assertEquals(T1_ROWS, parts.length);
        assertEquals(T1_ROWS, java.util.Arrays.stream(parts).distinct().count());
    }

    @Test
    void stringAggMisuseIsRefusedClearly() {
        ColumbaException separator = assertThrows(ColumbaException.class,
                () -> db.query("SELECT STRING_AGG(c, c) FROM t1"));
        assertEquals(ErrorCode.FEATURE_NOT_SUPPORTED, separator.errorCode());
        assertTrue(separator.getMessage().contains("separator"), separator.getMessage());
        // Found by the SQL fuzzing campaign (seed 20261127, index 73): an AssertionError, XX000.
        ColumbaException binary = assertThrows(ColumbaException.class,
                () -> db.query("SELECT COUNT(DISTINCT c), STRING_AGG(c, X'FF') FROM t1"));
        assertTrue(binary.errorCode() != ErrorCode.INTERNAL, binary.getMessage());
        ColumbaException orders = assertThrows(ColumbaException.class, () -> db.query(
                "SELECT STRING_AGG(c, ',') WITHIN GROUP (ORDER BY id), STRING_AGG(c, ',') WITHIN GROUP (ORDER BY c) FROM t1"));
        assertEquals(ErrorCode.FEATURE_NOT_SUPPORTED, orders.errorCode());
    }

    @Test
    void topWithOrderByIsOneTopNSort() {
        String plan = db.explain("SELECT TOP 5 id, a FROM t1 ORDER BY a DESC, id");
        assertEquals(db.explain("SELECT id, a FROM t1 ORDER BY a DESC, id LIMIT 5"), plan);
        assertTrue(plan.toLowerCase().contains("top"), plan);
    }

    @Test
    void topTakesAParameter() {
        assertEquals(List.of(List.of(1), List.of(2)), db.query("SELECT TOP (?) id FROM t1 ORDER BY id", 2));
        assertEquals(List.of(List.of(1), List.of(2), List.of(3)), db.query("SELECT TOP ? id FROM t1 ORDER BY id", 3));
    }

    @Test
    void aColumnMayStillBeCalledTop() {
        db.createRowstore("tops", TableSchema.of(Column.nullable("top", SqlType.INT), Column.nullable("n", SqlType.INT)),
                List.of(), false);
        db.update("INSERT INTO tops VALUES (5, 1), (6, 2)");
        assertEquals(List.of(List.of(6)), db.query("SELECT top FROM tops WHERE top > 5"));
        assertEquals(List.of(List.of(5)), db.query("SELECT TOP 1 top FROM tops ORDER BY top"));
        assertEquals(List.of(List.of(6)), db.query("SELECT TOP (1) top FROM tops ORDER BY top DESC"));
        assertEquals(1L, db.update("UPDATE tops SET top = 7 WHERE top = 6"));
        assertEquals(1L, db.update("DELETE FROM tops WHERE top = 7"));
    }

    @Test
    void topMisuseIsRefusedClearly() {
        ColumbaException both = assertThrows(ColumbaException.class,
                () -> db.query("SELECT TOP 3 id FROM t1 ORDER BY id OFFSET 2 ROWS"));
        assertEquals(ErrorCode.SYNTAX_ERROR, both.errorCode());
        assertTrue(both.getMessage().contains("TOP cannot be used in the same query as OFFSET"), both.getMessage());
        ColumbaException limit = assertThrows(ColumbaException.class, () -> db.query("SELECT TOP 3 id FROM t1 LIMIT 2"));
        assertTrue(limit.getMessage().contains("TOP cannot be used"), limit.getMessage());
        ColumbaException percent = assertThrows(ColumbaException.class,
                () -> db.query("SELECT TOP (10) PERCENT id FROM t1 ORDER BY id"));
        assertEquals(ErrorCode.FEATURE_NOT_SUPPORTED, percent.errorCode());
        assertTrue(percent.getMessage().contains("PERCENT"), percent.getMessage());
        ColumbaException ties = assertThrows(ColumbaException.class,
                () -> db.query("SELECT TOP 2 WITH TIES id FROM t1 ORDER BY a"));
        assertEquals(ErrorCode.FEATURE_NOT_SUPPORTED, ties.errorCode());
        assertTrue(ties.getMessage().contains("WITH TIES"), ties.getMessage());
        for (String statement : List.of("UPDATE TOP (2) t1 SET a = 0", "DELETE TOP (2) FROM t1 WHERE a > 3",
                "INSERT TOP (1) INTO t2 SELECT k, v FROM t2")) {
            ColumbaException dml = assertThrows(ColumbaException.class, () -> db.update(statement));
            assertEquals(ErrorCode.FEATURE_NOT_SUPPORTED, dml.errorCode(), statement);
            assertTrue(dml.getMessage().contains("TOP (n) is not supported"), dml.getMessage());
        }
        ColumbaException huge = assertThrows(ColumbaException.class, () -> db.query("SELECT TOP 99999999999999999999 id FROM t1"));
        assertEquals("22003", huge.errorCode().sqlState(), huge.getMessage());
        ColumbaException negative = assertThrows(ColumbaException.class, () -> db.query("SELECT TOP (?) id FROM t1", -1));
        assertTrue(negative.getMessage().contains("-1"), negative.getMessage());
    }

    /** {@code sql} on Columba against {@code h2Sql} on H2, on every storage kind and degree of parallelism. */
    private void check(String sql, String h2Sql, boolean ordered) throws SQLException {
        List<String> expected = normalize(h2(h2Sql));
        if (!ordered) {
            expected.sort(null);
        }
        for (boolean columnstore : new boolean[] {false, true}) {
            String text = columnstore ? sql.replace("t1", "ct1").replace("t2", "ct2") : sql;
            for (int degree : new int[] {1, 2}) {
                db.settings(SettingValues.defaults().with(StandardSettings.PARALLELISM_THRESHOLD_ROWS, 0));
                try {
                    List<String> actual = normalize(db.query(text + " OPTION (MAXDOP " + degree + ")"));
                    if (!ordered) {
                        actual.sort(null);
                    }
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
                    row.add(results.getObject(column));
                }
                rows.add(row);
            }
            return rows;
        }
    }

    /** Each row as text, numbers by value. */
    private static List<String> normalize(List<List<Object>> rows) {
        List<String> normalized = new ArrayList<>();
        for (List<Object> row : rows) {
            List<String> values = new ArrayList<>();
            for (Object value : row) {
                values.add(switch (value) {
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
}
