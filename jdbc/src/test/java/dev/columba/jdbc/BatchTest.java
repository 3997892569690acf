package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
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
 * {@code executeBatch} of a PreparedStatement: one statement of the session for all parameter
 * sets (an INSERT of one row of values through one insert operator), committed once in
 * autocommit mode, all or nothing on a failure; on a rowstore and a columnstore table.
 */
class BatchTest {
    private static final String COLUMNS = "id BIGINT NOT NULL, small INT, ratio DOUBLE, price DECIMAL(12,2),"
            + " name VARCHAR(10), code CHAR(4), flag BOOLEAN, on_day DATE, at_time TIMESTAMP";

    private static final long FAILED = Statement.EXECUTE_FAILED;

    @TempDir
    Path directory;

    private Connection connection;
    private Statement statement;

    @BeforeEach
    void open() throws SQLException {
        connection = DriverManager.getConnection("jdbc:columba:" + directory, DriverTest.small());
        statement = connection.createStatement();
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    private void create(String storage) throws SQLException {
        statement.execute(storage.equals("columnstore")
                ? "CREATE TABLE t (" + COLUMNS + ") WITH (storage = columnstore, bulk_min_rows = 100)"
                : "CREATE TABLE t (" + COLUMNS + ", PRIMARY KEY (id))");
    }

    /** The values of row {@code id}, every ninth column NULL in turn (id % 9 picks which; 0: none). */
    private static Object[] row(long id) {
        Object[] values = {id, (int) (id * 7 - 500), id / 4.0, new BigDecimal(id).movePointLeft(2).add(BigDecimal.ONE),
                "n" + id, "c" + (id % 10), id % 2 == 0, LocalDate.of(2020, 1, 1).plusDays(id),
                LocalDateTime.of(2021, 6, 1, 12, 0).plusMinutes(id)};
        int nulled = (int) (id % 9);
        if (nulled > 0) {
            values[nulled] = null;
        }
        return values;
    }

    private static void bind(PreparedStatement insert, Object[] values) throws SQLException {
        insert.setLong(1, (Long) values[0]);
        if (values[1] == null) {
            insert.setNull(2, Types.INTEGER);
        } else {
            insert.setInt(2, (Integer) values[1]);
        }
        if (values[2] == null) {
            insert.setNull(3, Types.DOUBLE);
        } else {
            insert.setDouble(3, (Double) values[2]);
        }
        insert.setBigDecimal(4, (BigDecimal) values[3]);
        insert.setString(5, (String) values[4]);
        insert.setString(6, (String) values[5]);
        if (values[6] == null) {
            insert.setNull(7, Types.BOOLEAN);
        } else {
            insert.setBoolean(7, (Boolean) values[6]);
        }
        insert.setDate(8, values[7] == null ? null : Date.valueOf((LocalDate) values[7]));
        insert.setTimestamp(9, values[8] == null ? null : Timestamp.valueOf((LocalDateTime) values[8]));
    }

    private List<List<Object>> rows(String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement reading = connection.createStatement(); ResultSet result = reading.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<Object> row = new ArrayList<>();
                for (int column = 1; column <= columns; column++) {
                    Object value = result.getObject(column);
                    row.add(switch (value) {
                        case Date date -> date.toLocalDate();
                        case Timestamp timestamp -> timestamp.toLocalDateTime();
                        case null, default -> value;
                    });
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private long count(String table) throws SQLException {
        return (Long) rows("SELECT COUNT(*) FROM " + table).getFirst().getFirst();
    }

    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "columnstore"})
    void aBatchInsertsTheRowOfEverySetWithEveryTypeAndNulls(String storage) throws SQLException {
        create(storage);
        int sets = 250;
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (long id = 1; id <= sets; id++) {
                bind(insert, row(id));
                insert.addBatch();
            }
            int[] counts = insert.executeBatch();
            int[] ones = new int[sets];
            Arrays.fill(ones, 1);
            assertArrayEquals(ones, counts);
        }
        List<List<Object>> expected = new ArrayList<>();
        for (long id = 1; id <= sets; id++) {
            Object[] values = row(id);
            if (values[5] != null) {
                values[5] = values[5] + "  "; // CHAR(4) pads 'c1' to four characters
            }
            expected.add(Arrays.asList(values));
        }
        assertEquals(expected, rows("SELECT * FROM t ORDER BY id"));
        assertTrue(connection.getAutoCommit());
    }

    /** Commits, log syncs ({@code fdatasync}) and groups appended to the log since the database opened. */
    private List<Object> logStats() throws SQLException {
        return rows("SELECT full_commits, log_syncs, groups_appended FROM sys.log_stats").getFirst();
    }

    @Test
    void anAutocommitBatchIsOneCommitOfOneLogGroupAndOneSync() throws SQLException {
        create("rowstore");
        int sets = 1000;
        List<Object> before = logStats();
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO t (id, small, name) VALUES (?, ?, ?)")) {
            for (long id = 1; id <= sets; id++) {
                insert.setLong(1, id);
                insert.setInt(2, (int) id % 1000);
                insert.setString(3, "row " + id);
                insert.addBatch();
            }
            assertEquals(sets, insert.executeBatch().length);
        }
        List<Object> after = logStats();
        assertEquals(1L, (Long) after.get(0) - (Long) before.get(0), "one commit for the batch");
        assertEquals(1L, (Long) after.get(2) - (Long) before.get(2), "its pages and commit record in one log group");
        assertEquals(1L, (Long) after.get(1) - (Long) before.get(1), "one fdatasync of the log before executeBatch returns");
        assertEquals(List.of(List.of((long) sets, 1L, (long) sets)), rows("SELECT COUNT(*), MIN(id), MAX(id) FROM t"));
        assertEquals(List.of(List.of(777L, 777, "row 777")), rows("SELECT id, small, name FROM t WHERE id = 777"));
    }

    @Test
    void aColumnstoreBatchAboveTheBulkThresholdIsCompressedDirectly() throws SQLException {
        create("columnstore");
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (long id = 1; id <= 150; id++) {
                bind(insert, row(id));
                insert.addBatch();
            }
            insert.executeBatch();
            for (long id = 151; id <= 160; id++) {
                bind(insert, row(id));
                insert.addBatch();
            }
            insert.executeBatch();
        }
        // 150 rows (above bulk_min_rows = 100): one compressed rowgroup; 10 rows: the delta store.
        assertEquals(List.of(List.of("COMPRESSED", 150L), List.of("OPEN", 10L)),
                rows("SELECT state, total_rows FROM sys.column_store_row_groups WHERE table_name = 't'"
                        + " ORDER BY row_group_id"));
        assertEquals(160L, count("t"));
    }

    @Test
    void aBatchNamingSomeColumnsFillsTheOthersWithDefaultsIdentityAndComputedValues() throws SQLException {
        statement.execute("CREATE TABLE g (id INT IDENTITY(10, 5) PRIMARY KEY, name VARCHAR(10), note VARCHAR(10),"
                + " twice AS CAST(id * 2 AS int) PERSISTED)");
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO g (name) VALUES (?)")) {
            for (String name : List.of("a", "bb", "ccc")) {
                insert.setString(1, name);
                insert.addBatch();
            }
            assertArrayEquals(new int[] {1, 1, 1}, insert.executeBatch());
        }
        assertEquals(List.of(Arrays.asList(10, "a", null, 20), Arrays.asList(15, "bb", null, 30),
                Arrays.asList(20, "ccc", null, 40)), rows("SELECT id, name, note, twice FROM g ORDER BY id"));
    }

    @Test
    void parametersNamedOutOfTableOrderLandInTheirColumns() throws SQLException {
        // Every value a parameter, picked in another order than the parameters': the rows go to
        // the insert as they are, reordered, as the projection would have produced them.
        statement.execute("CREATE TABLE r (id BIGINT PRIMARY KEY, name VARCHAR(10), code CHAR(3))");
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO r (code, name, id) VALUES (?, ?, ?)")) {
            for (int id = 1; id <= 3; id++) {
                insert.setString(1, "c" + id);
                insert.setString(2, "n" + id);
                insert.setLong(3, id);
                insert.addBatch();
            }
            insert.executeBatch();
            insert.setString(1, "c4");
            insert.setString(2, "eleven char");
            insert.setLong(3, 4);
            insert.addBatch();
            BatchUpdateException tooLong = assertThrows(BatchUpdateException.class, insert::executeBatch);
            assertEquals("22001", tooLong.getSQLState());
            assertTrue(tooLong.getMessage().contains("name"), tooLong.getMessage());
        }
        assertEquals(List.of(List.of(1L, "n1", "c1 "), List.of(2L, "n2", "c2 "), List.of(3L, "n3", "c3 ")),
                rows("SELECT * FROM r ORDER BY id"));
    }

    @Test
    void literalsAndExpressionsBesideParametersAreEvaluatedForEverySet() throws SQLException {
        statement.execute("CREATE TABLE e (id BIGINT PRIMARY KEY, label VARCHAR(20), amount INT)");
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO e VALUES (? + 100, 'row ' || CAST(? AS VARCHAR(10)), 7)")) {
            for (int id = 1; id <= 3; id++) {
                insert.setLong(1, id);
                insert.setString(2, "x" + id);
                insert.addBatch();
            }
            insert.executeBatch();
        }
        assertEquals(List.of(List.of(101L, "row x1", 7), List.of(102L, "row x2", 7), List.of(103L, "row x3", 7)),
                rows("SELECT * FROM e ORDER BY id"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "columnstore"})
    void aFailingSetLeavesTheTableAsBeforeTheBatchAndNamesTheSet(String storage) throws SQLException {
        create(storage);
        statement.execute("INSERT INTO t (id, name) VALUES (0, 'before')");
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO t (id, name) VALUES (?, ?)")) {
            for (String name : List.of("ok", "ok too", "far too long", "ok")) {
                insert.setLong(1, 1 + name.length());
                insert.setString(2, name);
                insert.addBatch();
            }
            BatchUpdateException failure = assertThrows(BatchUpdateException.class, insert::executeBatch);
            assertEquals("22001", failure.getSQLState());
            assertArrayEquals(new long[] {FAILED, FAILED, FAILED, FAILED}, failure.getLargeUpdateCounts(),
                    "no set's row remains");
            assertTrue(failure.getMessage().contains("parameter set 3 of 4"), failure.getMessage());
            assertTrue(failure.getMessage().contains("name"), failure.getMessage());

            insert.setString(1, "not a number");
            insert.setString(2, "x");
            insert.addBatch();
            BatchUpdateException wrongType = assertThrows(BatchUpdateException.class, insert::executeBatch);
            assertTrue(wrongType.getSQLState().startsWith("22") || wrongType.getSQLState().equals("42804"),
                    wrongType.getSQLState());
            assertTrue(wrongType.getMessage().contains("parameter set 1 of 1, parameter 1"), wrongType.getMessage());
        }
        assertEquals(List.of(List.of(0L, "before")), rows("SELECT id, name FROM t"));
        assertTrue(connection.getAutoCommit());
    }

    @Test
    void aDuplicateKeyFailsTheWholeBatch() throws SQLException {
        create("rowstore");
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO t (id, small) VALUES (?, ?)")) {
            for (long id : new long[] {1, 2, 3, 2, 4}) {
                insert.setLong(1, id);
                insert.setInt(2, (int) id);
                insert.addBatch();
            }
            BatchUpdateException failure = assertThrows(BatchUpdateException.class, insert::executeBatch);
            assertEquals("23505", failure.getSQLState());
            assertTrue(failure.getMessage().contains("parameter set 4 of 5"), failure.getMessage());
            assertArrayEquals(new long[] {FAILED, FAILED, FAILED, FAILED, FAILED}, failure.getLargeUpdateCounts());
        }
        assertEquals(0L, count("t"));
        statement.execute("INSERT INTO t (id) VALUES (2)");
        assertEquals(1L, count("t"), "the failed batch left no key behind");
    }

    @Test
    void insideATransactionAFailedBatchRollsTheTransactionBackAsAFailedStatementDoes() throws SQLException {
        create("rowstore");
        connection.setAutoCommit(false);
        statement.execute("INSERT INTO t (id) VALUES (100)");
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO t (id) VALUES (?)")) {
            insert.setLong(1, 1);
            insert.addBatch();
            insert.setLong(1, 2);
            insert.addBatch();
            assertArrayEquals(new int[] {1, 1}, insert.executeBatch());
            assertEquals(3L, count("t"), "the transaction sees its batch");
            insert.setLong(1, 3);
            insert.addBatch();
            insert.setLong(1, 100);
            insert.addBatch();
            BatchUpdateException failure = assertThrows(BatchUpdateException.class, insert::executeBatch);
            assertEquals("23505", failure.getSQLState());
        }
        connection.commit();
        connection.setAutoCommit(true);
        assertEquals(0L, count("t"));
    }

    @Test
    void anUpdateBatchRunsOnePlanOncePerSetInOneTransaction() throws SQLException {
        statement.execute("CREATE TABLE u (id BIGINT PRIMARY KEY, v INT)");
        statement.execute("INSERT INTO u SELECT generate_series, 0 FROM generate_series(1, 20)");
        String sql = "UPDATE u SET v = v + ? WHERE id = ?";
        try (PreparedStatement update = connection.prepareStatement(sql)) {
            for (int round = 0; round < 2; round++) {
                for (long id = 1; id <= 10; id++) {
                    update.setInt(1, (int) id);
                    update.setLong(2, id * 2);
                    update.addBatch();
                }
                update.setInt(1, 1);
                update.setLong(2, 99);
                update.addBatch();
                int[] expected = new int[11];
                Arrays.fill(expected, 0, 10, 1);
                assertArrayEquals(expected, update.executeBatch(), "the last set matches no row");
            }
        }
        assertEquals(List.of(List.of(2L, 2), List.of(4L, 4), List.of(20L, 20)),
                rows("SELECT id, v FROM u WHERE id IN (2, 4, 20) ORDER BY id"));
        assertEquals(0L, count("u WHERE MOD(id, 2) = 1 AND v <> 0"));
        // Planned once by the first batch, found by the second: one plan, used once per batch, not per set.
        assertEquals(List.of(List.of(2L)), rows("SELECT use_count FROM sys.plan_cache WHERE sql_text = '" + sql + "'"));
    }

    @Test
    void aBatchOfAQueryFails() throws SQLException {
        create("rowstore");
        try (PreparedStatement select = connection.prepareStatement("SELECT * FROM t WHERE id = ?")) {
            select.setLong(1, 1);
            select.addBatch();
            BatchUpdateException failure = assertThrows(BatchUpdateException.class, select::executeBatch);
            assertEquals("42000", failure.getSQLState());
        }
    }

    @Test
    void anEmptyBatchDoesNothingAndABatchEmptiesItself() throws SQLException {
        create("rowstore");
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO t (id) VALUES (?)")) {
            assertArrayEquals(new int[0], insert.executeBatch());
            insert.setLong(1, 1);
            insert.addBatch();
            insert.clearBatch();
            assertArrayEquals(new int[0], insert.executeBatch());
            insert.addBatch();
            assertArrayEquals(new int[] {1}, insert.executeBatch());
            assertArrayEquals(new int[0], insert.executeBatch());
        }
        assertEquals(1L, count("t"));
        assertNull(statement.getWarnings());
        assertFalse(connection.isClosed());
    }

    /** A batch of a statement without parameters runs it once per addBatch (it had no parameter rows to insert from: XX000). */
    @Test
    void aBatchOfAStatementWithoutParametersRunsItOncePerSet() throws SQLException {
        statement.execute("CREATE TABLE plain (id INT, s VARCHAR(5))");
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO plain VALUES (7, 'x')")) {
            insert.addBatch();
            insert.addBatch();
            assertArrayEquals(new int[] {1, 1}, insert.executeBatch());
        }
        try (ResultSet rows = statement.executeQuery("SELECT count(*), min(id), max(s) FROM plain")) {
            assertTrue(rows.next());
            assertEquals(2, rows.getLong(1));
            assertEquals(7, rows.getInt(2));
            assertEquals("x", rows.getString(3));
        }
    }
}
