package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Joins of many tables (JoinOrdering orders up to ten factors by dynamic programming over every
 * subset and more greedily): chains, stars and a mesh of 10 to 36 generated tables, each answer
 * checked against H2 on the same data; both sides of the ten-factor threshold give H2's answers,
 * and every table of a wide join is in its plan, joined without a cross product.
 */
class WideJoinTest {
    private static final int TABLES = 36;
    private static final int ROWS = 12;

    @TempDir
    Path directory;

    private Engine engine;
    private Session session;
    private Connection h2;

    @BeforeEach
    void open() throws SQLException {
        engine = SessionRows.open(directory);
        session = engine.openSession();
        h2 = DriverManager.getConnection("jdbc:h2:mem:widejoin" + System.nanoTime());
        Random random = new Random(20261126);
        try (Statement statement = h2.createStatement()) {
            for (int table = 0; table < TABLES; table++) {
                String create = "CREATE TABLE t" + table + " (id INT NOT NULL PRIMARY KEY, f INT, g INT, v INT)";
                session.execute(create).close();
                statement.execute(create);
                // f points at a row of the next table (a permutation of the ids 0..11, so that paths
                // do not merge); in every fourth table, one row in six points nowhere or is NULL. g
                // has few values, so joins on it repeat rows.
                List<Integer> targets = new ArrayList<>(IntStream.range(0, ROWS).boxed().toList());
                java.util.Collections.shuffle(targets, random);
                StringBuilder rows = new StringBuilder();
                for (int id = 0; id < ROWS; id++) {
                    boolean lost = table % 4 == 3 && random.nextInt(6) == 0;
                    String f = !lost ? String.valueOf(targets.get(id))
                            : random.nextBoolean() ? "NULL" : String.valueOf(ROWS + random.nextInt(3));
                    rows.append(id == 0 ? "" : ", ").append('(').append(id).append(", ").append(f).append(", ")
                            .append(random.nextInt(6)).append(", ").append(random.nextInt(1000) - 300).append(')');
                }
                String insert = "INSERT INTO t" + table + " VALUES " + rows;
                assertEquals(ROWS, update(session, insert));
                statement.execute(insert);
            }
        }
    }

    @AfterEach
    void close() throws SQLException {
        h2.close();
        session.close();
        engine.close();
    }

    private static String tables(int count) {
        return IntStream.range(0, count).mapToObj(table -> "t" + table).collect(Collectors.joining(", "));
    }

    /** t0.f = t1.id AND t1.f = t2.id ...: each row of t0 follows at most one path. */
    private static String chain(int count) {
        return "SELECT COUNT(*), SUM(t0.v), SUM(t" + (count - 1) + ".v), MIN(t" + (count / 2) + ".g) FROM " + tables(count)
                + " WHERE " + IntStream.range(0, count - 1).mapToObj(table -> "t" + table + ".f = t" + (table + 1) + ".id")
                .collect(Collectors.joining(" AND "));
    }

    /** Every dimension's key equal to the center's f, some dimensions filtered. */
    private static String star(int count) {
        return "SELECT t0.id, t0.v, t1.v, t" + (count - 1) + ".g FROM " + tables(count) + " WHERE "
                + IntStream.range(1, count).mapToObj(table -> "t0.f = t" + table + ".id"
                        + (table % 5 == 0 ? " AND t" + table + ".g < 5" : ""))
                .collect(Collectors.joining(" AND "));
    }

    /** A chain whose neighbours also share g (many to many) and a condition over three tables. */
    private static String mesh(int count) {
        List<String> conditions = new ArrayList<>();
        for (int table = 0; table + 1 < count; table++) {
            conditions.add(table % 3 == 2 ? "t" + table + ".g = t" + (table + 1) + ".g"
                    : "t" + table + ".f = t" + (table + 1) + ".id");
        }
        conditions.add("t0.v + t1.v < t2.v + 500");
        return "SELECT COUNT(*), SUM(t0.v), MAX(t" + (count - 1) + ".v), SUM(t1.g) FROM " + tables(count) + " WHERE "
                + String.join(" AND ", conditions);
    }

    private List<List<Object>> h2(String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement statement = h2.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<Object> row = new ArrayList<>();
                for (int column = 1; column <= columns; column++) {
                    Object value = result.getObject(column);
                    row.add(value == null ? null : value instanceof Number number ? number.longValue() : value);
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private List<List<Object>> columba(String sql) {
        List<List<Object>> rows = new ArrayList<>();
        for (List<Object> row : query(session, sql)) {
            List<Object> values = new ArrayList<>();
            for (Object value : row) {
                values.add(value instanceof Number number ? (Object) number.longValue() : value);
            }
            rows.add(values);
        }
        return rows;
    }

    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort((left, right) -> String.valueOf(left).compareTo(String.valueOf(right)));
        return copy;
    }

    private void agrees(String sql) throws SQLException {
        List<List<Object>> expected = sorted(h2(sql));
        assertEquals(expected, sorted(columba(sql)), sql);
    }

    @Test
    void chainsAgreeWithH2OnBothSidesOfTheExhaustiveThreshold() throws SQLException {
        for (int count : new int[] {9, 10, 11, 12, 20, TABLES}) {
            agrees(chain(count));
        }
        List<List<Object>> twenty = h2(chain(20));
        assertTrue((Long) twenty.getFirst().getFirst() > 0, "the data makes a chain of twenty find rows: " + twenty);
    }

    @Test
    void starsAgreeWithH2() throws SQLException {
        for (int count : new int[] {10, 12, 24, 32}) {
            agrees(star(count));
        }
        assertTrue(h2(star(24)).size() > 0, "the data makes the star find rows");
    }

    @Test
    void meshesWithManyToManyJoinsAgreeWithH2() throws SQLException {
        for (int count : new int[] {10, 11, 16, 30}) {
            agrees(mesh(count));
        }
    }

    @Test
    void aWideJoinsPlanJoinsEveryTableWithoutACrossProduct() {
        String plan = query(session, "EXPLAIN " + chain(30)).stream().map(row -> String.valueOf(row.getFirst()))
                .collect(Collectors.joining("\n"));
        for (int table = 0; table < 30; table++) {
            assertTrue(plan.contains("[t" + table + ","), "t" + table + " in\n" + plan);
        }
        assertTrue(!plan.contains("NestedLoop"), "hash joins on the chain's keys, no cross product:\n" + plan);
    }
}
