package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
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

/** {@code connection.unwrap(ColumbaConnection.class).appender(table)}: rows value by value, flushed as one batch. */
class AppenderTest {
    private static final String COLUMNS = "id BIGINT NOT NULL, small INT, ratio DOUBLE, price DECIMAL(12,2),"
            + " name VARCHAR(10), code CHAR(4), flag BOOLEAN, on_day DATE, at_time TIMESTAMP";

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

    private ColumbaAppender appender(String table) throws SQLException {
        return connection.unwrap(ColumbaConnection.class).appender(table);
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

    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "columnstore"})
    void appendsEveryTypeAndNullsWithTypedMethodsAndWholeRows(String storage) throws SQLException {
        create(storage);
        List<List<Object>> expected = new ArrayList<>();
        try (ColumbaAppender appender = appender("T")) {
            assertEquals(List.of("id", "small", "ratio", "price", "name", "code", "flag", "on_day", "at_time"),
                    appender.columns());
            for (long id = 1; id <= 150; id++) {
                LocalDate day = LocalDate.of(2020, 1, 1).plusDays(id);
                LocalDateTime time = LocalDateTime.of(2021, 6, 1, 12, 0).plusSeconds(id);
                BigDecimal price = BigDecimal.valueOf(id * 101, 2);
                if (id % 3 == 0) {
                    appender.appendRow(id, null, id / 8.0, price, "r" + id, null, true, java.sql.Date.valueOf(day), null);
                    expected.add(Arrays.asList(id, null, id / 8.0, price, "r" + id, null, true, day, null));
                } else {
                    appender.appendLong(id).appendInt((int) -id).appendDouble(id / 8.0).appendDecimal(price)
                            .appendString("t" + id).appendString("c").appendBoolean(false).appendDate(day)
                            .appendTimestamp(time).endRow();
                    expected.add(Arrays.asList(id, (int) -id, id / 8.0, price, "t" + id, "c   ", false, day, time));
                }
            }
            appender.appendLong(151).appendNull().appendNull().appendNull().appendNull().appendNull().appendNull()
                    .appendNull().appendNull().endRow();
            expected.add(Arrays.asList(151L, null, null, null, null, null, null, null, null));
        }
        assertEquals(expected, rows("SELECT * FROM t ORDER BY id"));
    }

    @Test
    void aValueOfTheWrongTypeFailsAtOnceNamingTheColumnAndDropsOnlyTheUnfinishedRow() throws SQLException {
        create("rowstore");
        try (ColumbaAppender appender = appender("t")) {
            appender.appendRow(1L, 1, 1.0, BigDecimal.ONE, "a", "b", true, LocalDate.of(2020, 1, 1), null);
            appender.appendLong(2);
            SQLException wrong = assertThrows(SQLException.class, () -> appender.appendString("not an int"));
            assertEquals("42804", wrong.getSQLState());
            assertTrue(wrong.getMessage().contains("column small of t is INT"), wrong.getMessage());
            SQLException unknown = assertThrows(SQLException.class,
                    () -> appender.appendRow(3L, new Object(), null, null, null, null, null, null, null));
            assertEquals("42804", unknown.getSQLState());
            SQLException shortRow = assertThrows(SQLException.class, () -> appender.appendLong(4).endRow());
            assertEquals("22023", shortRow.getSQLState());
        }
        assertEquals(List.of(List.of(1L)), rows("SELECT id FROM t"));
    }

    @Test
    void aFailingFlushCommitsNoneOfItsRowsAndTheAppenderGoesOn() throws SQLException {
        create("rowstore");
        try (ColumbaAppender appender = appender("t")) {
            appender.appendRow(1L, null, null, null, "first", null, null, null, null);
            appender.appendRow(2L, null, null, null, "second", null, null, null, null);
            appender.flush();
            appender.appendRow(3L, null, null, null, "third", null, null, null, null);
            appender.appendRow(4L, null, null, null, "much too long", null, null, null, null);
            SQLException tooLong = assertThrows(SQLException.class, appender::flush);
            assertEquals("22001", tooLong.getSQLState());
            assertTrue(tooLong.getMessage().contains("parameter set 2 of 2"), tooLong.getMessage());
            assertEquals(List.of(List.of(1L), List.of(2L)), rows("SELECT id FROM t ORDER BY id"));

            appender.appendRow(5L, null, null, null, null, null, null, null, null);
            appender.appendRow(1L, null, null, null, null, null, null, null, null);
            SQLException duplicate = assertThrows(SQLException.class, appender::flush);
            assertEquals("23505", duplicate.getSQLState());
            appender.appendRow(null, null, null, null, null, null, null, null, null);
            assertEquals("23502", assertThrows(SQLException.class, appender::flush).getSQLState());
            appender.appendRow(Integer.valueOf(6), 2_147_483_647L, null, null, null, null, null, null, null);
            appender.appendRow(7L, 2_147_483_648L, null, null, null, null, null, null, null);
            assertEquals("22003", assertThrows(SQLException.class, appender::flush).getSQLState());
            appender.appendRow(8L, null, null, null, "last", null, null, null, null);
        }
        assertEquals(List.of(List.of(1L), List.of(2L), List.of(8L)), rows("SELECT id FROM t ORDER BY id"));
    }

    @Test
    void withAutocommitOffTheRowsJoinTheOpenTransaction() throws SQLException {
        create("columnstore");
        connection.setAutoCommit(false);
        try (ColumbaAppender appender = appender("t")) {
            for (long id = 1; id <= 200; id++) {
                appender.appendRow(id, null, null, null, null, null, null, null, null);
            }
        }
        assertEquals(List.of(List.of(200L)), rows("SELECT COUNT(*) FROM t"));
        connection.rollback();
        assertEquals(List.of(List.of(0L)), rows("SELECT COUNT(*) FROM t"));
        connection.setAutoCommit(true);
    }

    @Test
    void identityAndComputedColumnsAreFilledByTheInsert() throws SQLException {
        statement.execute("CREATE TABLE g (id INT IDENTITY(1, 1) PRIMARY KEY, name VARCHAR(10),"
                + " twice AS CAST(id * 2 AS int) PERSISTED)");
        try (ColumbaAppender appender = appender("g")) {
            assertEquals(List.of("name"), appender.columns());
            appender.appendString("a").endRow();
            appender.appendRow("b");
        }
        assertEquals(List.of(List.of(1, "a", 2), List.of(2, "b", 4)), rows("SELECT * FROM g ORDER BY id"));
    }

    @Test
    void anUnknownTableAndAClosedAppenderFail() throws SQLException {
        assertEquals("42P01", assertThrows(SQLException.class, () -> appender("missing")).getSQLState());
        create("rowstore");
        ColumbaAppender appender = appender("t");
        appender.close();
        appender.close();
        assertEquals("08003", assertThrows(SQLException.class, () -> appender.appendLong(1)).getSQLState());
    }
}
