package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * COPY's options through SQL, on a rowstore and a columnstore table: each option's effect, each
 * bad option an error with its SQLSTATE, and a failed COPY leaving the table as it was.
 */
class CopyTest {
    private static final String COLUMNS = "id BIGINT NOT NULL, name VARCHAR(20), amount DECIMAL(9,2), shipped DATE";

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

    private void create(String kind) throws SQLException {
        statement.execute(kind.equals("columnstore")
                ? "CREATE TABLE t (" + COLUMNS + ") WITH (storage = columnstore, bulk_min_rows = 2)"
                : "CREATE TABLE t (" + COLUMNS + ", PRIMARY KEY (id))");
        statement.execute("INSERT INTO t VALUES (0, 'before', 1.5, DATE '2000-01-01')");
    }

    private Path file(String name, String content) throws Exception {
        return Files.writeString(directory.resolve(name), content, StandardCharsets.UTF_8);
    }

    private List<List<Object>> rows() throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (ResultSet result = statement.executeQuery("SELECT id, name, amount, shipped FROM t ORDER BY id")) {
            while (result.next()) {
                rows.add(Arrays.asList(result.getLong(1), result.getString(2), result.getBigDecimal(3),
                        result.getDate(4)));
            }
        }
        return rows;
    }

    private void assertRejected(String sqlState, String sql, String... fragments) throws SQLException {
        List<List<Object>> before = rows();
        SQLException failure = assertThrows(SQLException.class, () -> statement.execute(sql), sql);
        assertEquals(sqlState, failure.getSQLState(), () -> sql + ": " + failure.getMessage());
        for (String fragment : fragments) {
            assertTrue(failure.getMessage().contains(fragment), () -> "'" + fragment + "' not in " + failure.getMessage());
        }
        assertEquals(before, rows(), () -> "the failed " + sql + " changed nothing");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "columnstore"})
    void optionsApply(String kind) throws Exception {
        create(kind);
        Path pipes = file("pipes.csv", "ID|NAME|AMOUNT|SHIPPED\n1|'a|b'|\\N|2020-01-02\n2|'it\\'s'|3.25|\\N\n3||-1|1999-12-31\n");
        assertEquals(3, statement.executeUpdate("COPY t FROM '" + pipes + "' WITH (FORMAT csv, HEADER true,"
                + " DELIMITER '|', QUOTE '''', ESCAPE '\\', NULL '\\N', ENCODING 'UTF-8', MAXDOP 2)"));
        Path subset = file("subset.csv", "shipped,id\n2021-03-04,4\n,5\n");
        assertEquals(2, statement.executeUpdate("COPY t (shipped, id) FROM '" + subset + "' (HEADER)"));
        assertEquals(List.of(
                Arrays.asList(0L, "before", new BigDecimal("1.50"), Date.valueOf("2000-01-01")),
                Arrays.asList(1L, "a|b", null, Date.valueOf("2020-01-02")),
                Arrays.asList(2L, "it's", new BigDecimal("3.25"), null),
                Arrays.asList(3L, "", new BigDecimal("-1.00"), Date.valueOf("1999-12-31")),
                Arrays.asList(4L, null, null, Date.valueOf("2021-03-04")),
                Arrays.asList(5L, null, null, null)), rows());
    }

    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "columnstore"})
    void filesInOtherEncodingsAreReadAndWrittenWithoutLoss(String kind) throws Exception {
        create(kind);
        statement.execute("DELETE FROM t");
        Path latin1 = directory.resolve("latin1.csv");
        Files.writeString(latin1, "1,Café crème,2.50,2024-01-02\n2,Größe,3.00,\n", StandardCharsets.ISO_8859_1);
        Path sjis = directory.resolve("sjis.csv");
        Files.write(sjis, "3,日本語,4.00,2024-03-04\n".getBytes(java.nio.charset.Charset.forName("Shift_JIS")));
        assertEquals(2, statement.executeUpdate("COPY t FROM '" + latin1 + "' (ENCODING 'LATIN1')"));
        assertEquals(1, statement.executeUpdate("COPY t FROM '" + sjis + "' (ENCODING 'SJIS', MAXDOP 2)"));
        assertEquals(List.of("Café crème", "Größe", "日本語"), rows().stream().map(row -> (String) row.get(1)).toList());
        // Bytes that are not UTF-8 read as UTF-8 are an error naming the line, not replaced.
        assertRejected("22023", "COPY t FROM '" + latin1 + "'", "line 1");
        Path out = directory.resolve("out-1252.csv");
        assertEquals(2, statement.executeUpdate("COPY (SELECT id, name FROM t WHERE id < 3 ORDER BY id) TO '" + out
                + "' (ENCODING 'WIN1252')"));
        assertEquals("1,Café crème\n2,Größe\n", Files.readString(out, java.nio.charset.Charset.forName("windows-1252")));
        Path never = directory.resolve("never.csv");
        assertRejected("22023", "COPY (SELECT name FROM t WHERE id = 3) TO '" + never + "' (ENCODING 'LATIN1')",
                "ISO-8859-1 cannot encode");
        assertFalse(Files.exists(never), "a failed export writes no file");
        try (var files = Files.list(directory.resolve("db").resolve("temp"))) {
            assertEquals(List.of(), files.filter(file -> file.getFileName().toString().startsWith("copy-")).toList(),
                    "no transcoded copy is left behind");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "columnstore"})
    void badOptionsAreErrorsNotIgnored(String kind) throws Exception {
        create(kind);
        Path data = file("data.csv", "9,x,1,2020-01-01\n");
        String copy = "COPY t FROM '" + data + "' WITH ";
        assertRejected("42601", copy + "(HEADER, FORCE_NOT_NULL true)", "FORCE_NOT_NULL");
        assertRejected("42601", copy + "(SAMPLE_SIZE 10)", "unknown COPY option SAMPLE_SIZE", "DELIMITER");
        assertRejected("0A000", copy + "(FORMAT parquet)", "dev.columba:columba-formats");
        assertRejected("22023", copy + "(FORMAT xml)", "xml");
        assertRejected("22023", copy + "(ENCODING 'KLINGON')", "KLINGON");
        assertRejected("22023", copy + "(DELIMITER ';;')", "DELIMITER must be one ASCII character");
        assertRejected("22023", copy + "(DELIMITER '\"')", "DELIMITER and QUOTE must differ");
        assertRejected("22023", copy + "(HEADER maybe)", "true or false");
        assertRejected("22023", copy + "(MAXDOP -1)", "MAXDOP");
        assertRejected("22023", copy + "(NULL 'a,b')", "NULL");
        assertRejected("42703", "COPY t (id, nope) FROM '" + data + "'", "nope");
        assertRejected("22023", "COPY t (id, id) FROM '" + data + "'", "named twice");
        statement.execute(copy + "(MAXDOP 0, HEADER false)");
        assertEquals(2, rows().size(), "the table's row and the file's");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "columnstore"})
    void aHeaderThatDoesNotNameTheColumnsIsRefused(String kind) throws Exception {
        create(kind);
        Path data = file("renamed.csv", "id,label,amount,shipped\n9,x,1,2020-01-01\n");
        assertRejected("22023", "COPY t FROM '" + data + "' WITH (HEADER)", "renamed.csv line 1",
                "column 2 is 'label', COPY expects 'name'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "columnstore"})
    void anErrorDeepInALargeFileNamesItsLineAndChangesNothing(String kind) throws Exception {
        create(kind);
        StringBuilder text = new StringBuilder();
        for (int id = 1; id <= 50_000; id++) {
            text.append(id).append(",\"name\n").append(id).append("\",").append(id % 1000).append(".5,2020-01-01\n");
        }
        text.append("50001,\"").append("x".repeat(21)).append("\",1,2020-01-01\n");
        Path large = file("large.csv", text.toString());
        assertRejected("22001", "COPY t FROM '" + large + "' WITH (MAXDOP 2)", "large.csv line 100001, column name");
        Path fine = file("fine.csv", text.substring(0, text.lastIndexOf("50001,")));
        assertEquals(50_000, statement.executeUpdate("COPY t FROM '" + fine + "' WITH (MAXDOP 2)"));
        try (ResultSet result = statement.executeQuery("SELECT count(*), sum(amount) FROM t")) {
            result.next();
            assertEquals(50_001, result.getLong(1));
            assertEquals(new BigDecimal("25000001.50"), result.getBigDecimal(2));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "columnstore"})
    void exportThenImportGivesTheSameRows(String kind) throws Exception {
        create(kind);
        statement.execute("INSERT INTO t VALUES (1, '', NULL, NULL), (2, 'a,b \"c\"', -1234567.89, DATE '0001-01-01'),"
                + " (4, '日本語😀', 9999999.99, DATE '2024-02-29'), (5, NULL, 0, NULL)");
        try (var insert = connection.prepareStatement("INSERT INTO t VALUES (3, ?, 0.01, DATE '9999-12-31')")) {
            insert.setString(1, "two\nlines");
            insert.executeUpdate();
        }
        List<List<Object>> before = rows();
        Path out = directory.resolve("out.csv");
        assertEquals(6, statement.executeUpdate("COPY t TO '" + out + "' WITH (HEADER)"));
        assertTrue(Files.readString(out).toLowerCase(java.util.Locale.ROOT).startsWith("id,name,amount,shipped\n"),
                () -> "the header names the columns: " + out);
        Path custom = directory.resolve("custom.csv");
        assertEquals(6, statement.executeUpdate("COPY (SELECT id, name, amount, shipped FROM t ORDER BY id DESC) TO '"
                + custom + "' (DELIMITER '|', QUOTE '''', ESCAPE '\\', NULL '\\N')"));
        statement.execute("DELETE FROM t");
        assertEquals(6, statement.executeUpdate("COPY t FROM '" + out + "' WITH (HEADER)"));
        assertEquals(before, rows(), "the default format round-trips, the empty string and NULL apart");
        statement.execute("DELETE FROM t");
        assertEquals(6, statement.executeUpdate("COPY t FROM '" + custom + "' (DELIMITER '|', QUOTE '''', ESCAPE '\\',"
                + " NULL '\\N', MAXDOP 2)"));
        assertEquals(before, rows(), "the custom format round-trips");
        assertEquals(6, statement.executeUpdate("COPY t (id, name) TO '" + out + "' (HEADER false)"));
        assertEquals("0,before\n1,\"\"\n2,\"a,b \"\"c\"\"\"\n3,\"two\nlines\"\n4,日本語😀\n5,\n",
                sorted(Files.readString(out)));
        Path never = directory.resolve("never.csv");
        assertRejected("42P01", "COPY nope TO '" + never + "'");
        assertRejected("42P01", "COPY (SELECT * FROM nope) TO '" + never + "'");
        assertRejected("22012", "COPY (SELECT id / (id - 3) FROM t) TO '" + never + "'");
        assertFalse(Files.exists(never), "a failed export writes no file");
    }

    /**
     * The bulk path's column-wise hand-over at MAXDOP 1 and 2 (blocks parsed in parallel) loads the
     * very rows the row-at-a-time rowstore path loads: every type, NULLs, quoted and non-ASCII text,
     * CHAR padding, numbers and dates the fast paths leave to store assignment, several rowgroups and
     * a dictionary that overflows.
     */
    @Test
    void aColumnstoreLoadAtEveryMaxdopHoldsTheRowsARowstoreLoadHolds() throws Exception {
        String columns = "id BIGINT NOT NULL, small INTEGER, amount DECIMAL(9,2), wide DECIMAL(30,4), shipped DATE,"
                + " flag CHAR(3), mode VARCHAR(12), note VARCHAR(40), ratio DOUBLE, done BOOLEAN";
        StringBuilder csv = new StringBuilder("id,small,amount,wide,shipped,flag,mode,note,ratio,done\n");
        String[] modes = {"AIR", "\"R,AIL\"", "日本", "\"\"", "MAIL", "\"two\nlines\""};
        String[] amounts = {"12.5", "-0.07", "+3", "1e2", "  4.10 ", "9999999.99", ""};
        String[] days = {"2020-02-29", "1999-12-31", "0001-01-01", "2024-1-5", ""};
        java.util.Random random = new java.util.Random(42);
        for (int id = 0; id < 30_000; id++) {
            csv.append(id).append(',')
                    .append(random.nextInt(6) == 0 ? "" : String.valueOf(random.nextInt() / 2)).append(',')
                    .append(amounts[random.nextInt(amounts.length)]).append(',')
                    .append(random.nextInt(4) == 0 ? "" : random.nextLong() / 7 + ".1234").append(',')
                    .append(days[random.nextInt(days.length)]).append(',')
                    .append(random.nextInt(5) == 0 ? "" : random.nextBoolean() ? "ab" : "xyz").append(',')
                    .append(modes[random.nextInt(modes.length)]).append(',')
                    .append(random.nextInt(8) == 0 ? "" : "note " + random.nextInt(1 + id)).append(',')
                    .append(random.nextInt(5) == 0 ? "" : String.valueOf(random.nextDouble())).append(',')
                    .append(random.nextInt(5) == 0 ? "" : random.nextBoolean()).append('\n');
        }
        Path file = file("every-type.csv", csv.toString());
        statement.execute("CREATE TABLE r (" + columns + ", PRIMARY KEY (id))");
        statement.execute("CREATE TABLE c1 (" + columns + ") WITH (storage = columnstore, bulk_min_rows = 2,"
                + " rowgroup_max_rows = 7000, dictionary_cap = '64KB')");
        statement.execute("CREATE TABLE c2 (" + columns + ") WITH (storage = columnstore, bulk_min_rows = 2,"
                + " rowgroup_max_rows = 7000, dictionary_cap = '64KB')");
        assertEquals(30_000, statement.executeUpdate("COPY r FROM '" + file + "' WITH (HEADER, MAXDOP 1)"));
        assertEquals(30_000, statement.executeUpdate("COPY c1 FROM '" + file + "' WITH (HEADER, MAXDOP 1)"));
        assertEquals(30_000, statement.executeUpdate("COPY c2 FROM '" + file + "' WITH (HEADER, MAXDOP 2)"));
        List<List<Object>> expected = everyColumn("r");
        assertEquals(30_000, expected.size());
        assertEquals(expected, everyColumn("c1"), "MAXDOP 1");
        assertEquals(expected, everyColumn("c2"), "MAXDOP 2");
        try (ResultSet result = statement.executeQuery("SELECT count(DISTINCT note), count(*) - count(note) FROM c2")) {
            assertTrue(result.next());
            assertTrue(result.getLong(1) > 10_000, "enough distinct notes to overflow a 64 KB dictionary");
            assertTrue(result.getLong(2) > 0, "some notes are NULL");
        }
    }

    private List<List<Object>> everyColumn(String table) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (ResultSet result = statement.executeQuery("SELECT id, small, amount, wide, shipped, flag, mode, note, ratio,"
                + " done FROM " + table + " ORDER BY id")) {
            while (result.next()) {
                List<Object> row = new ArrayList<>();
                for (int column = 1; column <= 10; column++) {
                    row.add(result.getObject(column));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** The export's records in id order (a query without ORDER BY may return them in any). */
    private static String sorted(String csv) {
        List<String> records = new ArrayList<>();
        StringBuilder record = new StringBuilder();
        boolean quoted = false;
        for (char c : csv.toCharArray()) {
            record.append(c);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == '\n' && !quoted) {
                records.add(record.toString());
                record.setLength(0);
            }
        }
        records.sort(java.util.Comparator.comparingInt(text -> Integer.parseInt(text.substring(0, text.indexOf(',')))));
        return String.join("", records);
    }
}
