package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rowstore statements whose one transaction is several times a 4 MB buffer pool (a transaction may
 * hold 2 MB of it before it spills): INSERT ... SELECT, COPY and a rolled-back UPDATE of every row,
 * through the driver as a user would run them.
 */
class LargeTransactionTest {
    /** About 300 bytes a row: 60,000 rows are about 18 MB, four and a half times the pool. */
    private static final int ROWS = 60_000;

    /** The payload of the row whose id is in {@code column}. */
    private static String payload(String column) {
        return "REPEAT('payload ', 15 + MOD(" + column + ", 7)) || CAST(" + column + " AS VARCHAR(10))";
    }

    @TempDir
    Path directory;

    private Connection connection;
    private Statement statement;

    @BeforeEach
    void open() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "4MB");
        connection = DriverManager.getConnection("jdbc:columba:" + directory.resolve("db"), properties);
        statement = connection.createStatement();
        // The default read-ahead (500 pages in flight) is as large as this pool: keep it to a fraction.
        statement.execute("SET read_ahead_depth_pages = 64");
        statement.execute("CREATE TABLE src (id INT NOT NULL PRIMARY KEY, payload VARCHAR(400) NOT NULL)");
        assertEquals(ROWS, statement.executeUpdate("INSERT INTO src SELECT n, " + payload("n")
                + " FROM generate_series(1, " + ROWS + ") AS g(n)"));
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    @Test
    void insertSelectOfFourTimesThePoolInOneStatementCopiesEveryRow() throws SQLException {
        // Fully logged, the path of any large transaction: its copies beyond its share of the pool spill.
        statement.execute("ALTER SYSTEM SET minimal_logging = off");
        statement.execute("CREATE TABLE dst (id INT NOT NULL PRIMARY KEY, payload VARCHAR(400) NOT NULL)");
        long spilledBefore = count("SELECT spill_pages_written FROM sys.io_stats");
        assertEquals(ROWS, statement.executeUpdate("INSERT INTO dst SELECT id, payload FROM src"));
        assertTrue(count("SELECT spill_pages_written FROM sys.io_stats") - spilledBefore > 512,
                "the statement's transaction outgrew the pool and spilled");
        assertSameRows("dst");
        statement.execute("CREATE TABLE heap_dst (id INT NOT NULL, payload VARCHAR(400) NOT NULL)");
        assertEquals(ROWS, statement.executeUpdate("INSERT INTO heap_dst SELECT id, payload FROM src"));
        assertSameRows("heap_dst");
        // Minimally logged (the default): the new pages leave memory for the data file, not the spill file.
        statement.execute("ALTER SYSTEM SET minimal_logging = on");
        statement.execute("CREATE TABLE dst_minimal (id INT NOT NULL PRIMARY KEY, payload VARCHAR(400) NOT NULL)");
        spilledBefore = count("SELECT spill_pages_written FROM sys.io_stats");
        assertEquals(ROWS, statement.executeUpdate("INSERT INTO dst_minimal SELECT id, payload FROM src"));
        assertTrue(count("SELECT spill_pages_written FROM sys.io_stats") - spilledBefore < 64,
                "a minimally logged statement spills only pages that existed before it");
        assertSameRows("dst_minimal");
    }

    @Test
    void copyOfFourTimesThePoolInOneStatementLoadsEveryRow() throws Exception {
        Path file = directory.resolve("rows.csv");
        StringBuilder csv = new StringBuilder("id,payload\n");
        try (ResultSet rows = statement.executeQuery("SELECT id, payload FROM src")) {
            while (rows.next()) {
                csv.append(rows.getInt(1)).append(',').append(rows.getString(2)).append('\n');
            }
        }
        Files.writeString(file, csv, StandardCharsets.UTF_8);
        statement.execute("CREATE TABLE copied (id INT NOT NULL PRIMARY KEY, payload VARCHAR(400) NOT NULL)");
        statement.execute("COPY copied FROM '" + file + "' WITH (HEADER)");
        assertSameRows("copied");
    }

    @Test
    void copyOfShuffledRowsIntoATableWithIndexesSortsThemAndFindsDuplicatesAtTheEnd() throws Exception {
        List<String> lines = new ArrayList<>();
        try (ResultSet rows = statement.executeQuery("SELECT id, payload FROM src")) {
            while (rows.next()) {
                lines.add(rows.getInt(1) + "," + (ROWS - rows.getInt(1)) + "," + rows.getString(2));
            }
        }
        Collections.shuffle(lines, new Random(7));
        Path file = directory.resolve("shuffled.csv");
        Files.writeString(file, "id,code,payload\n" + String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        statement.execute("CREATE TABLE copied (id INT NOT NULL PRIMARY KEY, code INT NOT NULL, payload VARCHAR(400)"
                + " NOT NULL)");
        statement.execute("CREATE UNIQUE INDEX copied_code ON copied (code)");
        statement.execute("CREATE INDEX copied_payload ON copied (payload)");
        assertEquals(ROWS, statement.executeUpdate("COPY copied FROM '" + file + "' WITH (HEADER)"));
        assertSameRows("copied");
        for (int id = 1; id <= ROWS; id += 997) {
            assertEquals(id, count("SELECT id FROM copied WHERE code = " + (ROWS - id)), "code of id " + id);
            assertEquals(1, count("SELECT COUNT(*) FROM copied WHERE payload = " + payload(String.valueOf(id))));
        }
        // A code twice in the file: the unique index's sort finds it after the last line; nothing is loaded.
        statement.execute("CREATE TABLE twice (id INT NOT NULL PRIMARY KEY, code INT NOT NULL, payload VARCHAR(400)"
                + " NOT NULL)");
        statement.execute("CREATE UNIQUE INDEX twice_code ON twice (code)");
        lines.add(lines.size() / 3, (ROWS + 1) + ",4242,again");
        Files.writeString(file, "id,code,payload\n" + String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        SQLException error = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                () -> statement.execute("COPY twice FROM '" + file + "' WITH (HEADER)"));
        assertEquals("23505", error.getSQLState(), error.getMessage());
        assertTrue(error.getMessage().contains("[4242]") && error.getMessage().contains("twice_code")
                && error.getMessage().contains("shuffled.csv"), error.getMessage());
        assertEquals(0, count("SELECT COUNT(*) FROM twice"));
    }

    @Test
    void rolledBackUpdateOfEveryRowOfATableLargerThanThePoolRestoresEveryRow() throws SQLException {
        connection.setAutoCommit(false);
        assertEquals(ROWS, statement.executeUpdate("UPDATE src SET payload = 'changed ' || payload"));
        assertEquals(ROWS, count("SELECT COUNT(*) FROM src WHERE payload LIKE 'changed %'"),
                "the transaction sees its own update");
        connection.rollback();
        connection.setAutoCommit(true);
        assertEquals(0, count("SELECT COUNT(*) FROM src WHERE payload LIKE 'changed %'"));
        assertEquals(ROWS, count("SELECT COUNT(*) FROM src WHERE payload = " + payload("id")));
    }

    /** Asserts {@code table} holds exactly the rows of {@code src}: same count, each id with its payload. */
    private void assertSameRows(String table) throws SQLException {
        assertEquals(ROWS, count("SELECT COUNT(*) FROM " + table));
        assertEquals(ROWS, count("SELECT COUNT(*) FROM " + table + " t JOIN src s ON t.id = s.id AND t.payload = s.payload"));
        assertEquals(ROWS, count("SELECT COUNT(DISTINCT id) FROM " + table));
        assertEquals(0, count("SELECT COUNT(*) FROM " + table + " WHERE id < 1 OR id > " + ROWS));
    }

    private long count(String query) throws SQLException {
        try (ResultSet result = statement.executeQuery(query)) {
            assertTrue(result.next(), query);
            return result.getLong(1);
        }
    }
}
