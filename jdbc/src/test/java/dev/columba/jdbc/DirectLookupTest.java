package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.stats.IoStats;
import dev.columba.planner.session.StatementStatistics;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Point lookups read straight from the leaf ({@code direct_lookups}, on by default) against the
 * same plans run through their operator tree ({@code SET direct_lookups = off}) on a second
 * connection to the same database: the same rows, values, types and NULLs through every getter,
 * the same STATISTICS IO counters, over present, missing and NULL keys, after updates and deletes,
 * inside a transaction that changed the row, after DDL that invalidates the cached plan, and under
 * concurrent sessions.
 */
class DirectLookupTest {
    private static final String COLUMNS = "id BIGINT PRIMARY KEY, small INT, big BIGINT, ratio DOUBLE, price DECIMAL(12,3),"
            + " name VARCHAR(30), code CHAR(4), flag BOOLEAN, on_day DATE, at_time TIMESTAMP";
    private static final String LOOKUP = "SELECT small, big, ratio, price, name, code, flag, on_day, at_time, id FROM t WHERE id = ?";
    private static final int ROWS = 2_000;

    @TempDir
    Path directory;

    private Connection direct;
    private Connection operators;

    @BeforeEach
    void open() throws SQLException {
        direct = DriverManager.getConnection("jdbc:columba:" + directory, DriverTest.small());
        operators = DriverManager.getConnection("jdbc:columba:" + directory, DriverTest.small());
        try (Statement statement = operators.createStatement()) {
            statement.execute("SET direct_lookups = off");
        }
        try (Statement statement = direct.createStatement()) {
            statement.execute("CREATE TABLE t (" + COLUMNS + ")");
            // Every third row has NULLs in its nullable columns; keys 1..2*ROWS by twos, so odd keys are missing.
            statement.execute("INSERT INTO t SELECT 2 * generate_series,"
                    + " CASE WHEN generate_series % 3 = 0 THEN NULL ELSE CAST(generate_series % 1000 - 500 AS INT) END,"
                    + " CASE WHEN generate_series % 3 = 0 THEN NULL ELSE CAST(generate_series AS BIGINT) * 1000000007 END,"
                    + " CASE WHEN generate_series % 3 = 0 THEN NULL ELSE generate_series / 7.0 END,"
                    + " CASE WHEN generate_series % 3 = 0 THEN NULL ELSE CAST(generate_series * 1.125 AS DECIMAL(12,3)) END,"
                    + " CASE WHEN generate_series % 3 = 0 THEN NULL ELSE 'name ' || CAST(generate_series AS VARCHAR(20)) END,"
                    + " CASE WHEN generate_series % 3 = 0 THEN NULL ELSE CAST(generate_series % 97 AS VARCHAR(4)) END,"
                    + " CASE WHEN generate_series % 3 = 0 THEN NULL ELSE generate_series % 2 = 0 END,"
                    + " CASE WHEN generate_series % 3 = 0 THEN NULL ELSE DATE '2020-01-01' + CAST(generate_series AS INT) * INTERVAL '1' DAY END,"
                    + " CASE WHEN generate_series % 3 = 0 THEN NULL ELSE TIMESTAMP '2021-06-01 10:00:00' + generate_series * INTERVAL '1' MINUTE END"
                    + " FROM generate_series(1, " + ROWS + ")");
        }
    }

    @AfterEach
    void close() throws SQLException {
        direct.close();
        operators.close();
    }

    /** Every getter's view of a result: metadata, then per row and column the value, string, NULL-ness and numbers. */
    private static List<String> read(ResultSet rows) throws SQLException {
        List<String> seen = new ArrayList<>();
        ResultSetMetaData metadata = rows.getMetaData();
        for (int column = 1; column <= metadata.getColumnCount(); column++) {
            seen.add(metadata.getColumnLabel(column) + " " + metadata.getColumnType(column) + " "
                    + metadata.getColumnTypeName(column) + " " + metadata.isNullable(column));
        }
        while (rows.next()) {
            for (int column = 1; column <= metadata.getColumnCount(); column++) {
                Object value = rows.getObject(column);
                String text = rows.getString(column);
                boolean wasNull = rows.wasNull();
                String numbers = "";
                int type = metadata.getColumnType(column);
                if (type == java.sql.Types.INTEGER) {
                    numbers = rows.getLong(column) + "/" + rows.getInt(column) + "/" + rows.getDouble(column);
                } else if (type == java.sql.Types.BIGINT) {
                    numbers = rows.getLong(column) + "/" + rows.getDouble(column);
                } else if (type == java.sql.Types.DOUBLE || type == java.sql.Types.DECIMAL) {
                    numbers = rows.getDouble(column) + "/" + rows.getBigDecimal(column);
                }
                seen.add(column + ": " + (value == null ? "null" : value.getClass().getSimpleName() + " " + value)
                        + " | " + text + " | " + wasNull + " | " + numbers);
            }
            seen.add("end of row");
        }
        return seen;
    }

    private static List<String> lookUp(PreparedStatement statement, Long key) throws SQLException {
        if (key == null) {
            statement.setNull(1, java.sql.Types.BIGINT);
        } else {
            statement.setLong(1, key);
        }
        try (ResultSet rows = statement.executeQuery()) {
            return read(rows);
        }
    }

    /** Looks up every key of {@code keys} on both connections and compares; returns how many rows were found. */
    private int compare(List<Long> keys) throws SQLException {
        int found = 0;
        try (PreparedStatement onDirect = direct.prepareStatement(LOOKUP);
             PreparedStatement onOperators = operators.prepareStatement(LOOKUP)) {
            for (Long key : keys) {
                List<String> expected = lookUp(onOperators, key);
                List<String> actual = lookUp(onDirect, key);
                assertEquals(expected, actual, "key " + key);
                if (actual.contains("end of row")) {
                    found++;
                }
            }
        }
        return found;
    }

    private static List<Long> keys(long seed, int count) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Long> keys = new ArrayList<>();
        keys.add(null);
        keys.add(0L);
        keys.add(-2L);
        keys.add(2L);
        keys.add(2L * ROWS);
        keys.add(2L * ROWS + 2);
        keys.add(Long.MAX_VALUE);
        keys.add(Long.MIN_VALUE);
        for (int index = 0; index < count; index++) {
            keys.add(random.nextLong(-10, 2L * ROWS + 10));
        }
        return keys;
    }

    @Test
    void directLookupsReadWhatTheOperatorTreeReads() throws SQLException {
        long seed = System.nanoTime();
        int found = compare(keys(seed, 400));
        // About half the random keys exist (even ones), and the fixed ones 2 and 2 * ROWS: the comparison saw rows.
        assertTrue(found > 100, "seed " + seed + ": " + found + " rows found");
    }

    @Test
    void statisticsIoCountsTheSameReads() throws SQLException {
        for (Connection connection : List.of(direct, operators)) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("SET STATISTICS IO ON");
            }
        }
        try (PreparedStatement onDirect = direct.prepareStatement(LOOKUP);
             PreparedStatement onOperators = operators.prepareStatement(LOOKUP)) {
            for (long key : new long[] {2, 3, 1000, 2L * ROWS, 2L * ROWS + 1, -5}) {
                lookUp(onOperators, key);
                lookUp(onDirect, key);
                StatementStatistics expected = onOperators.unwrap(ColumbaStatement.class).statistics();
                StatementStatistics actual = onDirect.unwrap(ColumbaStatement.class).statistics();
                assertEquals(expected.tables(), actual.tables(), "key " + key);
                IoStats table = actual.tables().get("t");
                assertNotEquals(null, table, "key " + key + ": " + actual.tables());
                assertTrue(table.logicalReads() > 0, "key " + key + ": " + table);
                assertEquals(onOperators.unwrap(ColumbaStatement.class).messages(),
                        onDirect.unwrap(ColumbaStatement.class).messages(), "key " + key);
                assertEquals(1, onDirect.unwrap(ColumbaStatement.class).messages().size());
            }
        }
    }

    @Test
    void lookupsAfterUpdatesAndDeletesAndInsideATransaction() throws SQLException {
        try (Statement statement = direct.createStatement()) {
            statement.execute("UPDATE t SET name = 'changed', small = NULL WHERE id BETWEEN 100 AND 300");
            statement.execute("DELETE FROM t WHERE id BETWEEN 400 AND 600");
            statement.execute("INSERT INTO t (id, name) VALUES (401, 'new odd key')");
        }
        List<Long> keys = new ArrayList<>();
        for (long key = 90; key <= 620; key++) {
            keys.add(key);
        }
        // Even keys 90..620 (266) less the 101 deleted, and the inserted odd one.
        assertEquals(266 - 101 + 1, compare(keys));
        // A transaction's own uncommitted change is what both paths read within it.
        direct.setAutoCommit(false);
        operators.setAutoCommit(false);
        try (Statement onDirect = direct.createStatement(); Statement onOperators = operators.createStatement()) {
            onDirect.execute("UPDATE t SET name = 'mine' WHERE id = 2");
            onOperators.execute("UPDATE t SET name = 'mine' WHERE id = 4");
        }
        try (PreparedStatement onDirect = direct.prepareStatement("SELECT name FROM t WHERE id = ?");
             PreparedStatement onOperators = operators.prepareStatement("SELECT name FROM t WHERE id = ?")) {
            onDirect.setLong(1, 2);
            onOperators.setLong(1, 4);
            try (ResultSet mine = onDirect.executeQuery(); ResultSet theirs = onOperators.executeQuery()) {
                assertTrue(mine.next());
                assertTrue(theirs.next());
                assertEquals("mine", mine.getString(1));
                assertEquals("mine", theirs.getString(1));
            }
        }
        direct.rollback();
        operators.rollback();
        direct.setAutoCommit(true);
        operators.setAutoCommit(true);
        assertEquals(2, compare(List.of(2L, 4L)));
    }

    @Test
    void aCachedLookupIsInvalidatedByDdl() throws SQLException {
        try (PreparedStatement onDirect = direct.prepareStatement("SELECT * FROM t WHERE id = ?")) {
            onDirect.setLong(1, 2);
            try (ResultSet rows = onDirect.executeQuery()) {
                assertEquals(10, rows.getMetaData().getColumnCount());
            }
            try (Statement statement = operators.createStatement()) {
                statement.execute("DROP TABLE t");
                statement.execute("CREATE TABLE t (id INT PRIMARY KEY, label VARCHAR(10))");
                statement.execute("INSERT INTO t VALUES (2, 'two'), (3, NULL)");
            }
            for (long key : new long[] {2, 3, 4}) {
                onDirect.setLong(1, key);
                try (ResultSet rows = onDirect.executeQuery(); PreparedStatement onOperators =
                        operators.prepareStatement("SELECT * FROM t WHERE id = ?")) {
                    onOperators.setLong(1, key);
                    try (ResultSet expected = onOperators.executeQuery()) {
                        assertEquals(read(expected), read(rows), "key " + key);
                    }
                }
            }
            onDirect.setLong(1, 2);
            try (ResultSet rows = onDirect.executeQuery()) {
                assertEquals(2, rows.getMetaData().getColumnCount());
                assertTrue(rows.next());
                assertEquals("two", rows.getString("label"));
            }
        }
    }

    @Test
    void compositeKeysAndKeysOfOtherTypes() throws SQLException {
        try (Statement statement = direct.createStatement()) {
            statement.execute("CREATE TABLE pair (k1 INT NOT NULL, k2 VARCHAR(10) NOT NULL, v DECIMAL(9,2), PRIMARY KEY (k1, k2))");
            statement.execute("INSERT INTO pair SELECT CAST(generate_series % 7 AS INT), 'k' || CAST(generate_series AS VARCHAR(10)),"
                    + " CASE WHEN generate_series % 5 = 0 THEN NULL ELSE CAST(generate_series / 3.0 AS DECIMAL(9,2)) END"
                    + " FROM generate_series(1, 500)");
        }
        String sql = "SELECT v, k2 FROM pair WHERE k1 = ? AND k2 = ?";
        int found = 0;
        try (PreparedStatement onDirect = direct.prepareStatement(sql);
             PreparedStatement onOperators = operators.prepareStatement(sql)) {
            for (int number = 0; number < 520; number += 3) {
                for (PreparedStatement statement : List.of(onDirect, onOperators)) {
                    statement.setInt(1, number % 7);
                    statement.setString(2, "k" + number);
                }
                List<String> expected;
                try (ResultSet rows = onOperators.executeQuery()) {
                    expected = read(rows);
                }
                try (ResultSet rows = onDirect.executeQuery()) {
                    List<String> actual = read(rows);
                    assertEquals(expected, actual, "key " + number);
                    found += actual.contains("end of row") ? 1 : 0;
                }
            }
        }
        assertEquals(166, found);
        // Ad hoc statements run the parameterized plan too.
        try (Statement onDirect = direct.createStatement(); Statement onOperators = operators.createStatement()) {
            for (long key = 0; key < 50; key++) {
                String adHoc = "SELECT name, id FROM t WHERE id = " + key;
                try (ResultSet expected = onOperators.executeQuery(adHoc); ResultSet actual = onDirect.executeQuery(adHoc)) {
                    assertEquals(read(expected), read(actual), adHoc);
                }
            }
        }
    }

    @Test
    void concurrentSessionsLookUpWhileAnotherUpdates() throws Exception {
        int readers = 3;
        ExecutorService pool = Executors.newFixedThreadPool(readers + 1);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int reader = 0; reader < readers; reader++) {
                long seed = 17 + reader;
                results.add(pool.submit(() -> {
                    int checked = 0;
                    try (Connection connection = DriverManager.getConnection("jdbc:columba:" + directory, DriverTest.small());
                         PreparedStatement lookup = connection.prepareStatement("SELECT big, small FROM t WHERE id = ?")) {
                        SplittableRandom random = new SplittableRandom(seed);
                        for (int round = 0; round < 2_000; round++) {
                            long number = 1 + random.nextLong(ROWS);
                            if (number % 3 == 0) {
                                continue;
                            }
                            lookup.setLong(1, 2 * number);
                            try (ResultSet rows = lookup.executeQuery()) {
                                assertTrue(rows.next(), "key " + 2 * number);
                                // The writer adds one to both columns in one statement: their difference stays as loaded.
                                long big = rows.getLong(1);
                                int small = rows.getInt(2);
                                assertEquals(number * 1000000007L - (number % 1000 - 500), big - small, "key " + 2 * number);
                                assertFalse(rows.next());
                                checked++;
                            }
                        }
                    }
                    return checked;
                }));
            }
            Future<Integer> writer = pool.submit(() -> {
                int updates = 0;
                try (Connection connection = DriverManager.getConnection("jdbc:columba:" + directory, DriverTest.small());
                     PreparedStatement update = connection.prepareStatement(
                             "UPDATE t SET small = small + 1, big = big + 1 WHERE id = ?")) {
                    SplittableRandom random = new SplittableRandom(5);
                    for (int round = 0; round < 300; round++) {
                        update.setLong(1, 2 * (1 + random.nextLong(ROWS)));
                        updates += update.executeUpdate();
                    }
                }
                return updates;
            });
            assertTrue(writer.get() > 0);
            for (Future<Integer> result : results) {
                assertTrue(result.get() > 1_000);
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(compare(keys(3, 200)) > 50);
    }
}
