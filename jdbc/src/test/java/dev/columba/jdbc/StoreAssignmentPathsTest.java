package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A value that does not fit its column is an error on every write path, never cut to fit: a
 * string longer than its column fails with 22001, a number outside its column's precision or
 * range with 22003, and the failed statement leaves the table as it was. Each path runs against
 * the four kinds of table: rowstore with a clustered key, rowstore heap, columnstore, and a
 * clustered rowstore with a nonclustered index on the string column (MERGE, JDBC batches and the
 * appender too). The statements of issue 15 are here as
 * they were reported: a BIGINT key beside the string made Calcite cast the whole VALUES row to
 * the column types, and COPY cast each field as CAST does.
 */
class StoreAssignmentPathsTest {
    private static final String COLUMNS = "id BIGINT NOT NULL, name VARCHAR(5), amount DECIMAL(5,2), ratio DOUBLE, qty INT";
    private static final List<List<Object>> BASELINE = List.of(
            Arrays.asList(1L, "abc", new BigDecimal("1.50"), 0.5, 7));

    @TempDir
    Path directory;

    private Connection connection;
    private Statement statement;

    @BeforeEach
    void open() throws SQLException {
        connection = DriverManager.getConnection("jdbc:columba:" + directory.resolve("db"), DriverTest.small());
        statement = connection.createStatement();
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    /** Creates {@code name} as a table of {@code kind} with {@code columns} and, for a key, {@code id} as key. */
    private void create(String kind, String name, String columns) throws SQLException {
        switch (kind) {
            case "clustered" -> statement.execute("CREATE TABLE " + name + " (" + columns + ", PRIMARY KEY (id))");
            case "heap" -> statement.execute("CREATE TABLE " + name + " (" + columns + ")");
            case "columnstore" -> statement.execute("CREATE TABLE " + name + " (" + columns
                    + ") WITH (storage = columnstore, bulk_min_rows = 100)");
            case "indexed" -> {
                statement.execute("CREATE TABLE " + name + " (" + columns + ", PRIMARY KEY (id))");
                statement.execute("CREATE INDEX ix_" + name + " ON " + name + " (name)");
            }
            default -> throw new IllegalArgumentException(kind);
        }
    }

    private void createTarget(String kind) throws SQLException {
        create(kind, "t", COLUMNS);
        statement.execute("INSERT INTO t VALUES (1, 'abc', 1.5, 0.5, 7)");
        assertEquals(BASELINE, rows("SELECT * FROM t"));
    }

    private List<List<Object>> rows(String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<Object> row = new ArrayList<>();
                for (int column = 1; column <= columns; column++) {
                    row.add(result.getObject(column));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** {@code action} fails with {@code sqlState} and messages holding {@code fragments}; t is unchanged. */
    private void assertRejected(String sqlState, String what, SqlAction action, String... fragments) throws SQLException {
        SQLException failure = assertThrows(SQLException.class, action::run, what);
        assertEquals(sqlState, failure.getSQLState(), () -> what + ": " + failure.getMessage());
        for (String fragment : fragments) {
            assertTrue(failure.getMessage().contains(fragment), () -> what + ": '" + fragment + "' not in "
                    + failure.getMessage());
        }
        assertEquals(BASELINE, rows("SELECT * FROM t"), () -> "the failed " + what + " changed nothing");
    }

    private void assertRejected(String sqlState, String sql, String... fragments) throws SQLException {
        assertRejected(sqlState, sql, () -> statement.execute(sql), fragments);
    }

    private interface SqlAction {
        void run() throws Exception;
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore", "indexed"})
    void insertValuesWithImplicitConversionsRejectsWhatDoesNotFit(String kind) throws SQLException {
        createTarget(kind);
        // Issue 15: the BIGINT key (an INT literal cast to BIGINT) made the string be cast too.
        assertRejected("22001", "INSERT INTO t VALUES (2, 'abcdefgh', 1, 1, 1)",
                "String or binary data would be truncated in table 't', column 'name'", "'abcdefgh'", "8 characters");
        assertRejected("22001", "INSERT INTO t VALUES (2, 'ab', 1, 1.5E0, 1), (3, 'abcdefgh', 2, 2, 2)", "column 'name'");
        assertRejected("22001", "INSERT INTO t VALUES (2, 'abc' || 'def', 1, 1, 1)", "'abcdef'");
        assertRejected("22001", "INSERT INTO t (id, name) VALUES (2, 123456)", "'123456'", "6 characters");
        assertRejected("22001", "INSERT INTO t (id, name) VALUES (2, 'xy'), (3, 'abcdefgh')", "column 'name'");
        assertRejected("22003", "INSERT INTO t VALUES (2, 'a', 12345.6, 1, 1)", "12345.6", "DECIMAL(5,2)");
        assertRejected("22003", "INSERT INTO t VALUES (2, 'a', 1, 1, 3000000000)", "3000000000", "INT");
        assertRejected("22003", "INSERT INTO t VALUES (2, 'a', 1, 1, 1E10)", "INT");
        assertRejected("22001", "prepared INSERT with a long parameter", () -> {
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?, ?)")) {
                insert.setLong(1, 2);
                insert.setString(2, "abcdefgh");
                insert.setBigDecimal(3, BigDecimal.ONE);
                insert.setDouble(4, 1);
                insert.setInt(5, 1);
                insert.executeUpdate();
            }
        }, "column 'name'");
        assertRejected("22003", "prepared INSERT with a parameter too large", () -> {
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO t (id, amount) VALUES (?, ?)")) {
                insert.setInt(1, 2);
                insert.setBigDecimal(2, new BigDecimal("1000.5"));
                insert.executeUpdate();
            }
        }, "parameter 2", "DECIMAL(5,2)");

        // What fits goes in whole; trailing spaces beyond the length are dropped, as the standard says.
        assertEquals(2, statement.executeUpdate("INSERT INTO t VALUES (2, 'abcde', 999.99, 1, 1), (3, 'ab      ', 1, 2, 3)"));
        assertEquals(List.of(List.of("abcde"), List.of("ab   ")), rows("SELECT name FROM t WHERE id > 1 ORDER BY id"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore", "indexed"})
    void insertSelectRejectsWhatDoesNotFit(String kind) throws SQLException {
        createTarget(kind);
        statement.execute("CREATE TABLE source (id INT NOT NULL, text VARCHAR(20), amount DECIMAL(10,2), big BIGINT)");
        statement.execute("INSERT INTO source VALUES (10, 'fits', 1, 1), (11, 'much too long', 2, 2),"
                + " (12, 'x', 12345.67, 3), (13, 'y', 1, 5000000000)");
        assertRejected("22001", "INSERT INTO t (id, name) SELECT id, text FROM source", "'much too long'");
        assertRejected("22001", "INSERT INTO t (id, name, qty) SELECT id, text, 1 FROM source WHERE id < 12");
        assertRejected("22003", "INSERT INTO t (id, amount) SELECT id, amount FROM source", "DECIMAL(5,2)");
        assertRejected("22003", "INSERT INTO t (id, qty) SELECT id, big FROM source", "5000000000");
        assertRejected("22001", "INSERT INTO t (id, name) SELECT id, text FROM source WHERE id = 10"
                + " UNION ALL SELECT id, text FROM source WHERE id = 11");
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore", "indexed"})
    void updateRejectsWhatDoesNotFit(String kind) throws SQLException {
        createTarget(kind);
        assertRejected("22001", "UPDATE t SET name = 'abcdefgh', id = 2", "column 'name'", "'abcdefgh'");
        assertRejected("22001", "UPDATE t SET name = name || 'def', amount = 2");
        assertRejected("22001", "UPDATE t SET name = 123456", "'123456'");
        assertRejected("22003", "UPDATE t SET amount = amount * 1000", "DECIMAL(5,2)");
        assertRejected("22003", "UPDATE t SET qty = 3000000000", "3000000000");
        assertRejected("22003", "UPDATE t SET qty = ratio * 1E10");
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore", "indexed"})
    void copyRejectsWhatDoesNotFitNamingTheLineAndColumn(String kind) throws Exception {
        createTarget(kind);
        Path tooLong = csv("too-long.csv", "id,name,amount,ratio,qty\n2,ab,1,1,1\n3,\"" + "x".repeat(80) + "\",1,1,1\n");
        assertRejected("22001", "COPY of an 80-character name", () -> copy(tooLong),
                "line 3, column name", "String or binary data would be truncated in table 't', column 'name'",
                "80 characters");
        Path tooPrecise = csv("too-precise.csv", "id,name,amount,ratio,qty\n2,ab,1,1,1\n3,ab,2,1,1\n4,ab,12345.6,1,1\n");
        assertRejected("22003", "COPY of an amount too large", () -> copy(tooPrecise), "line 4, column amount",
                "DECIMAL(5,2)");
        Path outOfRange = csv("out-of-range.csv", "id,name,amount,ratio,qty\n2,ab,1,1,3000000000\n");
        assertRejected("22003", "COPY of a qty out of range", () -> copy(outOfRange), "line 2, column qty");
        Path missingId = csv("missing-id.csv", "id,name,amount,ratio,qty\n2,ab,1,1,1\n,ab,1,1,1\n");
        assertRejected("23502", "COPY of a NULL id", () -> copy(missingId), "line 3", "column 'id'");
        if (!kind.equals("heap") && !kind.equals("columnstore")) {
            Path duplicate = csv("duplicate.csv", "id,name,amount,ratio,qty\n2,ab,1,1,1\n1,ab,1,1,1\n");
            assertRejected("23505", "COPY of a duplicate key", () -> copy(duplicate), "line 3");
        }
        Path unterminated = csv("unterminated.csv", "id,name,amount,ratio,qty\n2,ab,1,1,1\n3,\"ab,1,1,1\n");
        assertRejected("22023", "COPY of an unterminated quote", () -> copy(unterminated), "line 3");

        Path fits = csv("fits.csv", "id,name,amount,ratio,qty\n2,abcde,999.99,1,1\n3,\"ab     \",1,1,1\n");
        copy(fits);
        assertEquals(List.of(List.of("abcde"), List.of("ab   ")), rows("SELECT name FROM t WHERE id > 1 ORDER BY id"));
    }

    /** The columnstore bulk path (rowgroups compressed directly, here from 100 rows) and its delta store. */
    @ParameterizedTest
    @ValueSource(strings = {"insert", "copy"})
    void theColumnstoreBulkPathRejectsWhatDoesNotFit(String path) throws Exception {
        createTarget("columnstore");
        StringBuilder file = new StringBuilder("id,name,amount,ratio,qty\n");
        for (int row = 2; row <= 300; row++) {
            file.append(row).append(',').append(row == 250 ? "abcdefgh" : "r" + row % 1000).append(",1,1,1\n");
        }
        Path bulk = csv("bulk.csv", file.toString());
        statement.execute("CREATE TABLE source (id INT NOT NULL, text VARCHAR(20))");
        statement.execute("INSERT INTO source SELECT generate_series, CASE WHEN generate_series = 250 THEN 'abcdefgh'"
                + " ELSE 'r' || CAST(generate_series AS VARCHAR(10)) END FROM generate_series(2, 300)");
        if (path.equals("insert")) {
            assertRejected("22001", "INSERT INTO t (id, name) SELECT id, text FROM source", "'abcdefgh'");
            assertEquals(299, statement.executeUpdate("INSERT INTO t (id, name)"
                    + " SELECT id, CASE WHEN id = 250 THEN 'abcde' ELSE text END FROM source"));
        } else {
            assertRejected("22001", "bulk COPY", () -> copy(bulk), "line 250, column name", "'abcdefgh'");
            copy(csv("bulk-fits.csv", file.toString().replace("abcdefgh", "abcde")));
        }
        assertEquals(List.of(List.of(300L)), rows("SELECT COUNT(*) FROM t"));
        assertEquals(List.of(List.of("r123"), List.of("abcde")), rows("SELECT name FROM t WHERE id IN (123, 250) ORDER BY id"));
    }

    /**
     * The write paths beside INSERT, UPDATE and COPY, on the four kinds: MERGE's insert and update
     * branches, a JDBC batch (one statement, many parameter sets) and the appender.
     */
    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore", "indexed"})
    void mergeBatchAndAppenderRejectWhatDoesNotFit(String kind) throws SQLException {
        createTarget(kind);
        assertRejected("22001", "MERGE t USING (VALUES (2, 'abcdefgh')) AS s (id, name) ON t.id = s.id"
                + " WHEN NOT MATCHED THEN INSERT (id, name) VALUES (s.id, s.name)", "column 'name'", "'abcdefgh'");
        assertRejected("22001", "MERGE t USING (VALUES (1, 'abcdefgh')) AS s (id, name) ON t.id = s.id"
                + " WHEN MATCHED THEN UPDATE SET name = s.name", "column 'name'", "'abcdefgh'");
        assertRejected("22003", "MERGE t USING (VALUES (1, 12345.6)) AS s (id, amount) ON t.id = s.id"
                + " WHEN MATCHED THEN UPDATE SET amount = s.amount", "DECIMAL(5,2)");
        assertRejected("22001", "a batch whose second set is too long", () -> {
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO t (id, name) VALUES (?, ?)")) {
                insert.setLong(1, 2);
                insert.setString(2, "abcde");
                insert.addBatch();
                insert.setLong(1, 3);
                insert.setString(2, "abcdefgh");
                insert.addBatch();
                insert.executeBatch();
            }
        }, "parameter set 2 of 2", "name");
        assertRejected("22001", "an appender flush with a value too long", () -> {
            try (ColumbaAppender appender = connection.unwrap(ColumbaConnection.class).appender("t")) {
                appender.appendRow(2L, "abcde", null, null, null);
                appender.appendRow(3L, "abcdefgh", null, null, null);
                appender.flush();
            }
        }, "parameter set 2 of 2", "name");
        assertRejected("22003", "an appender flush with a number too large", () -> {
            try (ColumbaAppender appender = connection.unwrap(ColumbaConnection.class).appender("t")) {
                appender.appendRow(2L, "ab", null, null, 3_000_000_000L);
                appender.flush();
            }
        });
        assertEquals(1, statement.executeUpdate("MERGE t USING (VALUES (2, 'abcde')) AS s (id, name) ON t.id = s.id"
                + " WHEN NOT MATCHED THEN INSERT (id, name) VALUES (s.id, s.name)"));
        assertEquals(List.of(List.of("abc"), List.of("abcde")), rows("SELECT name FROM t ORDER BY id"));
    }

    private Path csv(String name, String content) throws Exception {
        return Files.writeString(directory.resolve(name), content, StandardCharsets.UTF_8);
    }

    private void copy(Path file) throws SQLException {
        statement.execute("COPY t FROM '" + file + "' WITH (HEADER)");
    }
}
