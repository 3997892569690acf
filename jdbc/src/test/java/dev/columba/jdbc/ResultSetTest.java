package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoStats;
import dev.columba.core.type.SqlType;
import dev.columba.planner.session.Session;
import dev.columba.planner.session.StatementStatistics;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTimeoutException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Result sets, their getters for every type, their metadata, and the end of a query (messages,
 * statistics, max rows, buffering, cancel, timeout), over plans a {@link ScriptedPlanner} gives the
 * real session.
 */
class ResultSetTest {
    static final TableSchema EVERY_TYPE = TableSchema.of(
            Column.notNull("id", SqlType.INT),
            Column.nullable("big", SqlType.BIGINT),
            Column.nullable("ratio", SqlType.DOUBLE),
            Column.nullable("price", SqlType.decimal(12, 2)),
            Column.nullable("name", SqlType.varchar(20)),
            Column.nullable("code", SqlType.character(4)),
            Column.nullable("flag", SqlType.BOOLEAN),
            Column.nullable("day", SqlType.DATE),
            Column.nullable("moment", SqlType.TIMESTAMP));

    static final LocalDate DAY = LocalDate.of(2024, 2, 29);
    static final LocalDateTime MOMENT = LocalDateTime.of(2024, 2, 29, 13, 45, 30, 123_456_000);

    static final List<Object[]> EVERY_TYPE_ROWS = List.of(
            new Object[] {1, 9_000_000_000L, 0.5, new BigDecimal("1234.50"), "Ada", "AB", true, DAY, MOMENT},
            new Object[] {2, null, null, null, null, null, null, null, null});

    private final ScriptedPlanner planner = new ScriptedPlanner();
    private Connection connection;
    private Statement statement;

    @BeforeEach
    void open() throws SQLException {
        connection = ColumbaDriver.connect("jdbc:columba:mem:results-" + System.nanoTime(), DriverTest.small(), planner);
        statement = connection.createStatement();
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    private static TableSchema ints() {
        return TableSchema.of(Column.notNull("n", SqlType.INT));
    }

    private static List<Object[]> count(int rows) {
        List<Object[]> values = new ArrayList<>();
        for (int n = 1; n <= rows; n++) {
            values.add(new Object[] {n});
        }
        return values;
    }

    private static List<String> messages(SQLWarning chain) {
        List<String> messages = new ArrayList<>();
        for (SQLWarning warning = chain; warning != null; warning = warning.getNextWarning()) {
            messages.add(warning.getMessage());
        }
        return messages;
    }

    private static List<Integer> readInts(ResultSet result) throws SQLException {
        List<Integer> values = new ArrayList<>();
        while (result.next()) {
            values.add(result.getInt(1));
        }
        return values;
    }

    @Test
    void gettersReadEveryTypeAsItsNaturalJavaClass() throws SQLException {
        planner.willPlan(ScriptedPlanner.rows(EVERY_TYPE, EVERY_TYPE_ROWS));
        try (ResultSet result = statement.executeQuery("SELECT * FROM every_type")) {
            assertTrue(result.next());
            assertEquals(1, result.getInt("ID"));
            assertEquals(9_000_000_000L, result.getLong("big"));
            assertEquals(0.5, result.getDouble("ratio"));
            assertEquals(new BigDecimal("1234.50"), result.getBigDecimal("price"));
            assertEquals("Ada", result.getString("name"));
            assertEquals("AB  ", result.getString("code"), "CHAR is blank-padded");
            assertTrue(result.getBoolean("flag"));
            assertEquals(Date.valueOf(DAY), result.getDate("day"));
            assertEquals(Timestamp.valueOf(MOMENT), result.getTimestamp("moment"));
            assertFalse(result.wasNull());

            assertEquals(List.of(1, 9_000_000_000L, 0.5, new BigDecimal("1234.50"), "Ada", "AB  ", true, Date.valueOf(DAY),
                    Timestamp.valueOf(MOMENT)), objects(result));
            assertEquals(DAY, result.getObject("day", LocalDate.class));
            assertEquals(MOMENT, result.getObject("moment", LocalDateTime.class));
            assertEquals(DAY.atStartOfDay(), result.getObject("day", LocalDateTime.class));
            assertEquals(DAY, result.getObject("moment", LocalDate.class));
            assertEquals(Integer.valueOf(1), result.getObject(1, Integer.class));
            assertEquals(BigInteger.valueOf(1235), result.getObject("price", BigInteger.class));

            assertTrue(result.next());
            for (int column = 1; column <= EVERY_TYPE.size(); column++) {
                Object value = result.getObject(column);
                if (column == 1) {
                    assertEquals(2, value);
                    continue;
                }
                assertNull(value, "column " + column);
                assertTrue(result.wasNull());
                assertNull(result.getString(column));
                assertTrue(result.wasNull());
            }
            assertEquals(0, result.getLong("big"));
            assertTrue(result.wasNull());
            assertEquals(0.0, result.getDouble("ratio"));
            assertFalse(result.getBoolean("flag"));
            assertNull(result.getBigDecimal("price"));
            assertNull(result.getDate("day"));
            assertNull(result.getTimestamp("moment"));
            assertNull(result.getObject("moment", LocalDateTime.class));
            assertNull(result.getObject("big", Long.class));
            assertFalse(result.next());
        }
    }

    private static List<Object> objects(ResultSet result) throws SQLException {
        List<Object> values = new ArrayList<>();
        for (int column = 1; column <= result.getMetaData().getColumnCount(); column++) {
            values.add(result.getObject(column));
        }
        return values;
    }

    @Test
    void gettersConvertLikeCastAndRefuseWhatDoesNotConvert() throws SQLException {
        planner.willPlan(ScriptedPlanner.rows(EVERY_TYPE, EVERY_TYPE_ROWS));
        try (ResultSet result = statement.executeQuery("SELECT * FROM every_type")) {
            assertTrue(result.next());
            assertEquals("1", result.getString("id"));
            assertEquals(1L, result.getLong("id"));
            assertEquals(1.0, result.getDouble("id"));
            assertEquals(new BigDecimal("1"), result.getBigDecimal("id"));
            assertEquals(1235, result.getInt("price"), "DECIMAL to INT rounds half away from zero");
            assertEquals(1234.5, result.getDouble("price"));
            assertEquals((short) 1, result.getShort("id"));
            assertEquals((byte) 1, result.getByte("id"));
            assertEquals(0.5f, result.getFloat("ratio"));
            assertEquals("1234.50", result.getString("price"));
            assertEquals("TRUE", result.getString("flag"));
            assertEquals("2024-02-29", result.getString("day"));
            assertEquals("2024-02-29 13:45:30.123456", result.getString("moment"));
            assertEquals(1, result.getInt("flag"));
            assertTrue(result.getBoolean("ratio"), "a non-zero number is true");
            assertEquals(Timestamp.valueOf(DAY.atStartOfDay()), result.getTimestamp("day"));
            assertEquals(Date.valueOf(DAY), result.getDate("moment"));
            assertEquals("13:45:30", result.getTime("moment").toString());

            SQLException range = assertThrows(SQLException.class, () -> result.getInt("big"));
            assertEquals("22003", range.getSQLState());
            assertEquals("22003", assertThrows(SQLException.class, () -> result.getShort("big")).getSQLState());
            SQLException text = assertThrows(SQLException.class, () -> result.getInt("name"));
            assertEquals("22018", text.getSQLState());
            assertTrue(text.getMessage().contains("'Ada'"), text.getMessage());
            assertEquals("42804", assertThrows(SQLException.class, () -> result.getDate("id")).getSQLState());
            assertEquals("42804", assertThrows(SQLException.class, () -> result.getObject("id", StringBuilder.class))
                    .getSQLState());
            // Text reads as bytes as CAST reads it, as hexadecimal digits: a name is not.
            assertEquals("22018", assertThrows(SQLException.class, () -> result.getBytes("name")).getSQLState());
        }
    }

    @Test
    void timeZonesApplyOnlyWhenACalendarIsGiven() throws SQLException {
        planner.willPlan(ScriptedPlanner.rows(EVERY_TYPE, EVERY_TYPE_ROWS));
        try (ResultSet result = statement.executeQuery("SELECT * FROM every_type")) {
            assertTrue(result.next());
            Calendar utc = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
            assertEquals(MOMENT.toInstant(java.time.ZoneOffset.UTC), result.getTimestamp("moment", utc).toInstant());
            assertEquals(DAY.atStartOfDay(java.time.ZoneOffset.UTC).toInstant().toEpochMilli(),
                    result.getDate("day", utc).getTime());
        }
    }

    @Test
    void metadataDescribesEveryColumn() throws SQLException {
        planner.willPlan(ScriptedPlanner.rows(EVERY_TYPE, EVERY_TYPE_ROWS));
        try (ResultSet result = statement.executeQuery("SELECT * FROM every_type")) {
            ResultSetMetaData metaData = result.getMetaData();
            assertEquals(9, metaData.getColumnCount());
            int[] types = new int[9];
            String[] names = new String[9];
            String[] classes = new String[9];
            int[] precisions = new int[9];
            for (int column = 1; column <= 9; column++) {
                types[column - 1] = metaData.getColumnType(column);
                names[column - 1] = metaData.getColumnTypeName(column);
                classes[column - 1] = metaData.getColumnClassName(column);
                precisions[column - 1] = metaData.getPrecision(column);
            }
            assertArrayEquals(new int[] {Types.INTEGER, Types.BIGINT, Types.DOUBLE, Types.DECIMAL, Types.VARCHAR, Types.CHAR,
                    Types.BOOLEAN, Types.DATE, Types.TIMESTAMP}, types);
            assertArrayEquals(new String[] {"INT", "BIGINT", "DOUBLE", "DECIMAL", "VARCHAR", "CHAR", "BOOLEAN", "DATE",
                    "TIMESTAMP"}, names);
            assertArrayEquals(new String[] {"java.lang.Integer", "java.lang.Long", "java.lang.Double", "java.math.BigDecimal",
                    "java.lang.String", "java.lang.String", "java.lang.Boolean", "java.sql.Date", "java.sql.Timestamp"}, classes);
            assertArrayEquals(new int[] {10, 19, 17, 12, 20, 4, 1, 10, 26}, precisions);
            assertEquals(2, metaData.getScale(4));
            assertEquals(6, metaData.getScale(9));
            assertEquals(ResultSetMetaData.columnNoNulls, metaData.isNullable(1));
            assertEquals(ResultSetMetaData.columnNullable, metaData.isNullable(2));
            assertEquals("price", metaData.getColumnLabel(4));
            assertTrue(metaData.isSigned(4));
            assertFalse(metaData.isSigned(5));
            assertEquals(14, metaData.getColumnDisplaySize(4));
            assertEquals("22023", assertThrows(SQLException.class, () -> metaData.getColumnType(10)).getSQLState());
            for (int column = 1; column <= 9; column++) {
                assertEquals(EVERY_TYPE.column(column - 1).name(), metaData.getColumnName(column));
                assertEquals(column, result.findColumn(EVERY_TYPE.column(column - 1).name().toUpperCase()));
            }
            assertEquals("42703", assertThrows(SQLException.class, () -> result.findColumn("nope")).getSQLState());
        }
    }

    @Test
    void statisticsArriveAsWarningsOnceTheRowsAreRead() throws SQLException {
        IoStats rowstore = ScriptedPlanner.io(1, 5, 1, 2, 0, 0, 0, 2, 0, 0, 0);
        IoStats columnstore = ScriptedPlanner.io(1, 0, 0, 0, 40, 3, 37, 30, 7, 4, 2);
        planner.willPlan(ScriptedPlanner.rows(ints(), count(3), ScriptedPlanner.tables("TestTable", rowstore, "Facts",
                columnstore)));
        statement.execute("SET STATISTICS IO ON");
        ColumbaStatement typed = statement.unwrap(ColumbaStatement.class);
        try (ResultSet result = statement.executeQuery("SELECT * FROM TestTable")) {
            assertTrue(result.next());
            assertNull(statement.getWarnings(), "the query is not finished");
            assertNull(result.getWarnings());
            assertSame(StatementStatistics.NONE, typed.statistics());
            assertEquals(List.of(1, 2, 3), List.of(result.getInt(1), next(result), next(result)));
            assertFalse(result.next());
            List<String> expected = List.of(
                    "Table 'TestTable'. Scan count 1, logical reads 5, physical reads 1, read-ahead reads 2, lob logical reads"
                            + " 0, lob physical reads 0, lob read-ahead reads 0.",
                    "Table 'Facts'. Scan count 1, logical reads 0, physical reads 0, read-ahead reads 0, lob logical reads 40,"
                            + " lob physical reads 3, lob read-ahead reads 37.",
                    "Table 'Facts'. Segment reads 4, segment skipped 2.");
            assertEquals(expected, messages(result.getWarnings()));
            assertEquals(expected, messages(statement.getWarnings()));
            assertEquals(expected, typed.messages());
            Map<String, IoStats> tables = typed.statistics().tables();
            assertEquals(List.of("TestTable", "Facts"), List.copyOf(tables.keySet()));
            assertEquals(30, tables.get("Facts").readAheadUsed());
            assertEquals(7, tables.get("Facts").readAheadWasted());
            assertEquals(2, tables.get("TestTable").readAheadUsed());
            assertEquals(1 + 2 + 3 + 37, typed.statistics().total().pagesFromStorage());
        }
    }

    private static int next(ResultSet result) throws SQLException {
        assertTrue(result.next());
        return result.getInt(1);
    }

    @Test
    void statisticsTimeFollowsSqlServersFormat() throws SQLException {
        planner.willPlan(ScriptedPlanner.rows(ints(), count(1)));
        statement.execute("SET STATISTICS TIME ON");
        ResultSet result = statement.executeQuery("SELECT 1");
        assertNull(statement.getWarnings());
        result.close();
        List<String> messages = messages(statement.getWarnings());
        assertEquals(2, messages.size(), "closing an unread result finishes its query");
        assertTrue(messages.getFirst().matches("SQL Server parse and compile time: \\R   CPU time = \\d+ ms, elapsed time = \\d+ ms\\."),
                messages.getFirst());
        assertTrue(messages.get(1).matches(" SQL Server Execution Times:\\R   CPU time = \\d+ ms,  elapsed time = \\d+ ms\\."),
                messages.get(1));
    }

    @Test
    void maxRowsEndsTheQueryEarly() throws SQLException {
        planner.willPlan(ScriptedPlanner.rows(ints(), count(10)));
        statement.execute("SET batch_size = 3");
        statement.setMaxRows(4);
        statement.execute("SET STATISTICS IO ON");
        try (ResultSet result = statement.executeQuery("SELECT n FROM t")) {
            assertEquals(List.of(1, 2, 3, 4), readInts(result));
            assertTrue(result.isAfterLast());
            assertEquals(0, result.getRow());
            assertEquals("24000", assertThrows(SQLException.class, () -> result.getInt(1)).getSQLState());
        }
        assertEquals(4, statement.getMaxRows());
    }

    @Test
    void cursorPositionIsKnownWithoutScrolling() throws SQLException {
        planner.willPlan(ScriptedPlanner.rows(ints(), count(2)));
        try (ResultSet result = statement.executeQuery("SELECT n FROM t")) {
            assertEquals("24000", assertThrows(SQLException.class, () -> result.getInt(1)).getSQLState());
            assertTrue(result.isBeforeFirst());
            assertFalse(result.isFirst());
            assertTrue(result.next());
            assertTrue(result.isFirst());
            assertEquals(1, result.getRow());
            assertEquals(1, result.getInt(1));
            assertTrue(result.next());
            assertFalse(result.next());
            assertTrue(result.isAfterLast());
            assertThrows(SQLFeatureNotSupportedException.class, result::previous);
            assertThrows(SQLFeatureNotSupportedException.class, () -> result.updateInt(1, 3));
            assertEquals(ResultSet.TYPE_FORWARD_ONLY, result.getType());
            assertEquals(ResultSet.CONCUR_READ_ONLY, result.getConcurrency());
        }
        planner.willPlan(ScriptedPlanner.rows(ints(), List.of()));
        try (ResultSet empty = statement.executeQuery("SELECT n FROM t WHERE 1 = 0")) {
            assertFalse(empty.isBeforeFirst(), "a result without rows is never before its first row");
            assertFalse(empty.next());
            assertFalse(empty.isAfterLast());
        }
    }

    @Test
    void runningAnotherStatementBuffersTheUnreadRows() throws SQLException {
        IoStats scan = ScriptedPlanner.io(1, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        planner.willPlan(ScriptedPlanner.rows(ints(), count(7), ScriptedPlanner.tables("t", scan)));
        statement.execute("SET batch_size = 2");
        statement.execute("SET STATISTICS IO ON");
        ResultSet first = statement.executeQuery("SELECT n FROM t");
        assertTrue(first.next());
        assertTrue(first.next());
        assertTrue(first.next());
        assertNull(first.getWarnings());
        try (Statement other = connection.createStatement()) {
            other.execute("PRINT 'in between'");
            assertEquals(List.of("in between"), messages(other.getWarnings()));
        }
        assertEquals(3, first.getInt(1), "the current row survives buffering");
        List<String> finished = List.of(scan.statisticsIoLine("t"));
        assertEquals(finished, messages(first.getWarnings()), "the query finished when its rows were buffered");
        assertEquals(finished, messages(statement.getWarnings()));
        assertEquals(4, statement.unwrap(ColumbaStatement.class).statistics().total().logicalReads());
        assertEquals(List.of(4, 5, 6, 7), readInts(first));
        first.close();
        assertTrue(first.isClosed());
        assertNull(statement.getResultSet(), "closing the result set detaches it from its statement");
    }

    @Test
    void commitKeepsOpenResults() throws SQLException {
        planner.willPlan(ScriptedPlanner.rows(ints(), count(3)));
        connection.setAutoCommit(false);
        try (ResultSet result = statement.executeQuery("SELECT n FROM t")) {
            assertTrue(result.next());
            connection.commit();
            assertEquals(1, result.getInt(1));
            assertEquals(List.of(2, 3), readInts(result));
            assertEquals(ResultSet.HOLD_CURSORS_OVER_COMMIT, result.getHoldability());
        }
    }

    @Test
    void executingAgainClosesThePreviousResult() throws SQLException {
        planner.willPlan(ScriptedPlanner.rows(ints(), count(3)));
        ResultSet first = statement.executeQuery("SELECT n FROM t");
        assertTrue(first.next());
        ResultSet second = statement.executeQuery("SELECT n FROM t");
        assertTrue(first.isClosed());
        assertEquals("08003", assertThrows(SQLException.class, first::next).getSQLState());
        assertSame(second, statement.getResultSet());
        assertEquals(-1, statement.getUpdateCount());
        assertFalse(statement.getMoreResults());
        assertTrue(second.isClosed());
        assertNull(statement.getResultSet());
    }

    @Test
    void closeOnCompletionClosesTheStatementWithItsResult() throws SQLException {
        planner.willPlan(ScriptedPlanner.rows(ints(), count(1)));
        statement.closeOnCompletion();
        ResultSet result = statement.executeQuery("SELECT n FROM t");
        assertSame(statement, result.getStatement());
        result.close();
        assertTrue(statement.isClosed());
    }

    @Test
    void executeUpdateRefusesAQueryAndExecuteQueryAnUpdate() throws SQLException {
        planner.willPlan(ScriptedPlanner.rows(ints(), count(1)));
        assertEquals("0100E", assertThrows(SQLException.class, () -> statement.executeUpdate("SELECT 1")).getSQLState());
        planner.willPlan(ScriptedPlanner.update(3));
        assertEquals("02000", assertThrows(SQLException.class, () -> statement.executeQuery("DELETE FROM t")).getSQLState());
        assertEquals(3, statement.executeUpdate("DELETE FROM t"));
        assertEquals(3, statement.getUpdateCount());
        assertEquals(3L, statement.getLargeUpdateCount());
    }

    @Test
    void modificationsRunInTheTransaction() throws SQLException {
        planner.willPlan(ScriptedPlanner.update(2));
        connection.setAutoCommit(false);
        assertEquals(2, statement.executeUpdate("UPDATE t SET n = 1"));
        assertTrue(connection.unwrap(Session.class).inTransaction());
        connection.rollback();
        assertFalse(connection.unwrap(Session.class).inTransaction());
    }

    @Test
    void cancelStopsTheRunningQueryAndTheConnectionCarriesOn() throws SQLException {
        planner.willPlan(ScriptedPlanner.untilCancelled(() -> {
            try {
                statement.cancel();
            } catch (SQLException e) {
                throw new AssertionError(e);
            }
        }));
        ResultSet result = statement.executeQuery("SELECT n FROM slow");
        SQLException cancelled = assertThrows(SQLException.class, result::next);
        assertEquals("57014", cancelled.getSQLState());
        assertFalse(cancelled instanceof SQLTimeoutException, "a cancel is not a timeout");
        planner.willPlan(ScriptedPlanner.rows(ints(), count(2)));
        try (ResultSet after = statement.executeQuery("SELECT n FROM t")) {
            assertEquals(List.of(1, 2), readInts(after), "a later statement is not cancelled");
        }
    }

    @Test
    void anotherThreadCancelsTheRunningQuery() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        planner.willPlan(ScriptedPlanner.untilCancelled(running::countDown));
        Thread canceller = Thread.ofPlatform().name("canceller").start(() -> {
            try {
                running.await();
                statement.cancel();
            } catch (InterruptedException | SQLException e) {
                throw new AssertionError(e);
            }
        });
        ResultSet result = statement.executeQuery("SELECT n FROM slow");
        assertEquals("57014", assertThrows(SQLException.class, result::next).getSQLState());
        canceller.join();
    }

    @Test
    void aCancelDuringPlanningStopsTheQueryOnceItRuns() throws SQLException {
        planner.whilePlanning(() -> {
            try {
                statement.cancel();
            } catch (SQLException e) {
                throw new AssertionError(e);
            }
        });
        planner.willPlan(ScriptedPlanner.untilCancelled(() -> {
        }));
        ResultSet result = statement.executeQuery("SELECT n FROM slow");
        assertEquals("57014", assertThrows(SQLException.class, result::next).getSQLState());
    }

    @Test
    void aQueryOverItsTimeoutIsCancelled() throws SQLException {
        planner.willPlan(ScriptedPlanner.untilCancelled(() -> {
        }));
        statement.setQueryTimeout(1);
        ResultSet result = statement.executeQuery("SELECT n FROM slow");
        SQLTimeoutException timeout = assertThrows(SQLTimeoutException.class, result::next);
        assertEquals("57014", timeout.getSQLState());
        assertTrue(timeout.getMessage().contains("query timeout of 1 s"), timeout.getMessage());
        assertInstanceOf(SQLException.class, timeout.getCause());
    }

    @Test
    void generatedKeysAreEmptyBeforeAnyInsertAndTheArgumentIsChecked() throws SQLException {
        try (ResultSet keys = statement.getGeneratedKeys()) {
            assertFalse(keys.next());
        }
        assertEquals("22023", assertThrows(SQLException.class, () -> statement.executeUpdate("DELETE FROM t", 7)).getSQLState());
    }
}
