package dev.columba.formats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
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
 * Parquet written by DuckDB (its JDBC driver, in this JVM) read by Columba, and Columba's read by
 * DuckDB, with every compression DuckDB writes that COPY reads: the same rows both ways, including
 * NULLs, non-ASCII text, DECIMAL(38,10) at its extremes, dates and timestamps.
 */
class DuckDbParquetInteropTest {
    private static final String DUCKDB_ROWS = "SELECT * FROM (VALUES"
            + " (1, TRUE, 2147483647, 9223372036854775807, 1.5::DOUBLE, 9999999.99::DECIMAL(9,2),"
            + "  9999999999999999999999999999.9999999999::DECIMAL(38,10), 'héllo ✓ 𝄞 日本語', 'ab   ', DATE '9999-12-31',"
            + "  TIMESTAMP '2024-02-29 12:34:56.789012'),"
            + " (2, FALSE, -2147483648, -9223372036854775808, -0.25::DOUBLE, -9999999.99::DECIMAL(9,2),"
            + "  -9999999999999999999999999999.9999999999::DECIMAL(38,10), '', 'abcde', DATE '0001-01-01',"
            + "  TIMESTAMP '1969-12-31 23:59:59.000001'),"
            + " (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL))"
            + " AS t(id, flag, small, big, ratio, amount, wide, name, code, shipped, stamp)";
    private static final String DUCKDB_TYPES = "SELECT id::INTEGER AS id, flag, small::INTEGER AS small, big::BIGINT AS big,"
            + " ratio, amount, wide, name, code, shipped, stamp FROM (" + DUCKDB_ROWS + ")";

    @TempDir
    Path directory;

    private Connection columba;
    private Connection duckdb;

    @BeforeEach
    void open() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "16MB");
        columba = DriverManager.getConnection("jdbc:columba:" + directory.resolve("db"), properties);
        duckdb = DriverManager.getConnection("jdbc:duckdb:");
    }

    @AfterEach
    void close() throws SQLException {
        columba.close();
        duckdb.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"snappy", "zstd", "gzip", "uncompressed", "lz4_raw"})
    void columbaReadsWhatDuckDbWrites(String compression) throws Exception {
        Path file = directory.resolve("duck-" + compression + ".parquet");
        try (Statement statement = duckdb.createStatement()) {
            statement.execute("COPY (" + DUCKDB_TYPES + ") TO '" + file + "' (FORMAT parquet, COMPRESSION " + compression + ")");
        }
        try (Statement statement = columba.createStatement()) {
            statement.execute("CREATE TABLE t (" + FileFormatRoundTripTestBase.COLUMNS + ") WITH (storage = columnstore)");
            assertEquals(3, statement.executeUpdate("COPY t FROM '" + file + "'"), "FORMAT from the file's name");
        }
        assertEquals(rows(duckdb, DUCKDB_TYPES + " ORDER BY id"), rows(columba, "SELECT * FROM t ORDER BY id"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "columnstore"})
    void duckDbReadsWhatColumbaWrites(String kind) throws Exception {
        Path file = directory.resolve("columba.parquet");
        try (Statement statement = columba.createStatement()) {
            statement.execute("CREATE TABLE t (" + FileFormatRoundTripTestBase.COLUMNS + (kind.equals("columnstore")
                    ? ") WITH (storage = columnstore)" : ")"));
            statement.execute("INSERT INTO t VALUES " + String.join(", ", FileFormatRoundTripTestBase.ROWS));
            assertEquals(5, statement.executeUpdate("COPY t TO '" + file + "' WITH (FORMAT parquet)"));
        }
        assertEquals(rows(columba, "SELECT * FROM t ORDER BY id"),
                rows(duckdb, "SELECT * FROM read_parquet('" + file + "') ORDER BY id"));
    }

    /**
     * A file of many row groups, decoded on two workers: the rows arrive whole and in order, and a
     * bad value in a late row group is reported with its row number in the file, the table unchanged.
     */
    @org.junit.jupiter.api.Test
    void rowGroupsDecodedInParallelKeepFileOrderAndRowNumbers() throws Exception {
        Path fine = directory.resolve("groups.parquet");
        Path bad = directory.resolve("bad-groups.parquet");
        String rows = "SELECT i::INTEGER AS id, 'name ' || i AS name, (i * 0.01)::DECIMAL(9,2) AS amount FROM range(1, 20001) t(i)";
        try (Statement statement = duckdb.createStatement()) {
            statement.execute("COPY (" + rows + ") TO '" + fine + "' (FORMAT parquet, ROW_GROUP_SIZE 1000)");
            statement.execute("COPY (SELECT id, CASE WHEN id = 17321 THEN repeat('x', 50) ELSE name END AS name, amount FROM ("
                    + rows + ")) TO '" + bad + "' (FORMAT parquet, ROW_GROUP_SIZE 1000)");
        }
        try (Statement statement = columba.createStatement()) {
            statement.execute("CREATE TABLE t (id INT NOT NULL, name VARCHAR(20), amount DECIMAL(9,2)) WITH (storage = columnstore,"
                    + " bulk_min_rows = 2)");
            java.sql.SQLException failure = org.junit.jupiter.api.Assertions.assertThrows(java.sql.SQLException.class,
                    () -> statement.execute("COPY t FROM '" + bad + "' WITH (MAXDOP 2)"));
            assertEquals("22001", failure.getSQLState(), failure.getMessage());
            org.junit.jupiter.api.Assertions.assertTrue(failure.getMessage().contains("row 17321, column name"),
                    failure.getMessage());
            assertEquals(List.of(List.of(new BigDecimal("0"))), rows(columba, "SELECT count(*) FROM t"));
            assertEquals(20_000, statement.executeUpdate("COPY t FROM '" + fine + "' WITH (MAXDOP 2)"));
        }
        String check = "SELECT count(*), sum(id), sum(amount), min(name), max(name) FROM ";
        assertEquals(rows(duckdb, check + "read_parquet('" + fine + "')"), rows(columba, check + "t"));
        assertEquals(rows(duckdb, rows + " ORDER BY id LIMIT 5"), rows(columba, "SELECT * FROM t ORDER BY id LIMIT 5"));
    }

    /** Rows as Java values both drivers agree on: numbers as BigDecimal, text trimmed of CHAR padding, the rest as strings. */
    private static List<List<Object>> rows(Connection connection, String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                Object[] row = new Object[columns];
                for (int column = 0; column < columns; column++) {
                    Object value = result.getObject(column + 1);
                    row[column] = switch (value) {
                        case null -> null;
                        case Number number when !(value instanceof Double) -> new BigDecimal(number.toString()).stripTrailingZeros();
                        case String text -> text.stripTrailing();
                        default -> value.toString();
                    };
                }
                rows.add(Arrays.asList(row));
            }
        }
        return rows;
    }
}
