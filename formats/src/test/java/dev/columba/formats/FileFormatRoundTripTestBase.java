package dev.columba.formats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What every COPY file format must do, on a rowstore and a columnstore table, through SQL: a table
 * of every Columba type, with NULLs, non-ASCII text and extreme values, exported and imported back
 * equal, through the bulk path too. Each format's test extends this (the self-describing ones
 * through {@link SelfDescribingFormatTestBase}).
 */
abstract class FileFormatRoundTripTestBase {
    static final String COLUMNS = "id INT NOT NULL, flag BOOLEAN, small INT, big BIGINT, ratio DOUBLE, amount DECIMAL(9,2),"
            + " wide DECIMAL(38,10), name VARCHAR(40), code CHAR(5), shipped DATE, stamp TIMESTAMP";
    static final String[] ROWS = {
        "(1, TRUE, 2147483647, 9223372036854775807, 1.5e300, 9999999.99, 9999999999999999999999999999.9999999999,"
                + " 'héllo wörld ✓ 𝄞 日本語', 'ab', DATE '9999-12-31', TIMESTAMP '9999-12-31 23:59:59.999999')",
        "(2, FALSE, -2147483648, -9223372036854775808, -4.9e-324, -9999999.99, -9999999999999999999999999999.9999999999,"
                + " '', 'abcde', DATE '0001-01-01', TIMESTAMP '0001-01-01 00:00:00')",
        "(3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)",
        "(4, TRUE, 0, 0, 0.0, 0.01, 0.0000000001, 'a,b \"c\"\nnext line', '日本', DATE '1969-12-31',"
                + " TIMESTAMP '1969-12-31 23:59:59.000001')",
        "(5, FALSE, -1, 1234567890123, -123.456, -0.01, 12345678901234567.8901234567, 'plain', 'x', DATE '2024-02-29',"
                + " TIMESTAMP '2024-02-29 12:34:56.789012')",
    };

    @TempDir
    Path directory;

    Connection connection;
    Statement statement;

    /** The FORMAT option's value. */
    abstract String format();

    /** The file name's extension. */
    abstract String extension();

    @BeforeEach
    void open() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "16MB");
        connection = DriverManager.getConnection("jdbc:columba:" + directory.resolve("db"), properties);
        statement = connection.createStatement();
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    void create(String table, String kind) throws SQLException {
        statement.execute("CREATE TABLE " + table + " (" + COLUMNS + (kind.equals("columnstore")
                ? ") WITH (storage = columnstore, bulk_min_rows = 2)" : ", PRIMARY KEY (id))"));
    }

    List<List<Object>> rows(String table) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (ResultSet result = statement.executeQuery("SELECT * FROM " + table + " ORDER BY id")) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                Object[] row = new Object[columns];
                for (int column = 0; column < columns; column++) {
                    row[column] = result.getObject(column + 1);
                }
                rows.add(Arrays.asList(row));
            }
        }
        return rows;
    }

    String with() {
        return " WITH (FORMAT " + format() + ")";
    }

    void assertRejected(String table, String sqlState, String sql, String... fragments) throws SQLException {
        List<List<Object>> before = rows(table);
        SQLException failure = assertThrows(SQLException.class, () -> statement.execute(sql), sql);
        assertEquals(sqlState, failure.getSQLState(), () -> sql + ": " + failure.getMessage());
        for (String fragment : fragments) {
            assertTrue(failure.getMessage().contains(fragment), () -> "'" + fragment + "' not in " + failure.getMessage());
        }
        assertEquals(before, rows(table), () -> "the failed " + sql + " changed nothing");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "columnstore"})
    void everyTypeRoundTrips(String kind) throws Exception {
        create("source", kind);
        statement.execute("INSERT INTO source VALUES " + String.join(", ", ROWS));
        List<List<Object>> expected = rows("source");
        assertEquals(5, expected.size());
        Path file = directory.resolve("all." + extension());
        assertEquals(5, statement.executeUpdate("COPY source TO '" + file + "'" + with()));
        assertTrue(Files.size(file) > 0);
        create("target", kind);
        assertEquals(5, statement.executeUpdate("COPY target FROM '" + file + "'" + with()));
        assertEquals(expected, rows("target"));

        Path query = directory.resolve("query." + extension());
        assertEquals(2, statement.executeUpdate("COPY (SELECT id, name, wide FROM source WHERE id IN (1, 3)) TO '"
                + query + "'" + with()));
        statement.execute("DELETE FROM target");
        assertEquals(2, statement.executeUpdate("COPY target (id, name, wide) FROM '" + query + "'" + with()));
        List<List<Object>> subset = rows("target");
        assertEquals(2, subset.size());
        assertEquals(expected.get(0).get(7), subset.get(0).get(7));
        assertEquals(expected.get(0).get(6), subset.get(0).get(6));
        assertEquals(null, subset.get(0).get(1), "a column outside the list is NULL");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "columnstore"})
    void manyRowsRoundTripThroughTheBulkPath(String kind) throws Exception {
        create("source", kind);
        statement.execute("INSERT INTO source SELECT CAST(value AS INT), value % 2 = 0, CAST(value % 1000 AS INT), value * 1000,"
                + " value / 7.0, CAST(value % 100000 AS DECIMAL(9,2)) / 100, CAST(value AS DECIMAL(38,10)) / 3,"
                + " 'name ' || CAST(value % 5000 AS VARCHAR), 'c' || CAST(value % 10 AS VARCHAR),"
                + " DATEADD(day, CAST(value % 3000 AS INT), DATE '2000-01-01'), NULL FROM generate_series(1, 200000) AS g (value)");
        Path file = directory.resolve("many." + extension());
        assertEquals(200_000, statement.executeUpdate("COPY source TO '" + file + "'" + with()));
        create("target", kind);
        assertEquals(200_000, statement.executeUpdate("COPY target FROM '" + file + "'" + with()));
        String check = "SELECT count(*), sum(big), sum(amount), sum(wide), count(DISTINCT name), max(shipped), count(stamp) FROM ";
        assertEquals(aggregate(check + "source"), aggregate(check + "target"));
    }

    List<Object> aggregate(String sql) throws SQLException {
        try (ResultSet result = statement.executeQuery(sql)) {
            result.next();
            List<Object> values = new ArrayList<>();
            for (int column = 1; column <= result.getMetaData().getColumnCount(); column++) {
                values.add(result.getObject(column));
            }
            return values;
        }
    }
}
