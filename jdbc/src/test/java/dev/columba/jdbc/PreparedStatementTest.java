package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.type.SqlType;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.Date;
import java.sql.JDBCType;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Calendar;
import java.util.TimeZone;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Parameters reach the session in Columba's Java representation of each setter's type: the
 * scripted plan echoes them back as a row, typed as the planner would have typed the markers.
 */
class PreparedStatementTest {
    private final ScriptedPlanner planner = new ScriptedPlanner();
    private Connection connection;

    @BeforeEach
    void open() throws SQLException {
        connection = ColumbaDriver.connect("jdbc:columba:mem:prepared-" + System.nanoTime(), DriverTest.small(), planner);
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    @Test
    void everySetterBindsItsNaturalType() throws SQLException {
        planner.willPlan(ScriptedPlanner.echo(SqlType.INT, SqlType.BIGINT, SqlType.DOUBLE, SqlType.decimal(10, 2),
                SqlType.varchar(20), SqlType.BOOLEAN, SqlType.DATE, SqlType.TIMESTAMP, SqlType.INT));
        try (PreparedStatement prepared = connection.prepareStatement(
                "SELECT * FROM t WHERE a = ? AND b = ? AND c = ? AND d = ? AND e = ? AND f = ? AND g = ? AND h = ? AND i = ?")) {
            prepared.setInt(1, 7);
            prepared.setLong(2, 1L << 40);
            prepared.setDouble(3, 2.5);
            prepared.setBigDecimal(4, new BigDecimal("12.30"));
            prepared.setString(5, "text");
            prepared.setBoolean(6, true);
            prepared.setDate(7, Date.valueOf("2024-02-29"));
            prepared.setTimestamp(8, Timestamp.valueOf("2024-02-29 23:59:59.999999"));
            prepared.setNull(9, Types.INTEGER);
            try (ResultSet echoed = prepared.executeQuery()) {
                assertTrue(echoed.next());
                assertEquals(7, echoed.getInt(1));
                assertEquals(1L << 40, echoed.getLong(2));
                assertEquals(2.5, echoed.getDouble(3));
                assertEquals(new BigDecimal("12.30"), echoed.getBigDecimal(4));
                assertEquals("text", echoed.getString(5));
                assertTrue(echoed.getBoolean(6));
                assertEquals(LocalDate.of(2024, 2, 29), echoed.getObject(7, LocalDate.class));
                assertEquals(LocalDateTime.of(2024, 2, 29, 23, 59, 59, 999_999_000), echoed.getObject(8, LocalDateTime.class));
                assertNull(echoed.getObject(9));
            }
        }
    }

    @Test
    void setObjectConvertsJavaAndJdbcTypes() throws SQLException {
        planner.willPlan(ScriptedPlanner.echo(SqlType.INT, SqlType.INT, SqlType.DOUBLE, SqlType.decimal(38, 0),
                SqlType.varchar(10), SqlType.DATE, SqlType.TIMESTAMP, SqlType.INT, SqlType.decimal(10, 2),
                SqlType.varchar(10)));
        try (PreparedStatement prepared = connection.prepareStatement("SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?")) {
            prepared.setObject(1, (short) 12);
            prepared.setByte(2, (byte) -3);
            prepared.setFloat(3, 0.1f);
            prepared.setObject(4, new BigInteger("123456789012345678901234567890"));
            prepared.setObject(5, 'x');
            prepared.setObject(6, LocalDate.of(2000, 1, 1));
            prepared.setObject(7, LocalDateTime.of(2000, 1, 1, 12, 0));
            prepared.setObject(8, "42", Types.INTEGER);
            prepared.setObject(9, 3.14159, JDBCType.DECIMAL, 2);
            prepared.setCharacterStream(10, new StringReader("streamed"));
            try (ResultSet echoed = prepared.executeQuery()) {
                assertTrue(echoed.next());
                assertEquals(12, echoed.getInt(1));
                assertEquals(-3, echoed.getInt(2));
                assertEquals(0.1, echoed.getDouble(3), "0.1f binds as the decimal 0.1, not its binary expansion");
                assertEquals(new BigDecimal("123456789012345678901234567890"), echoed.getBigDecimal(4));
                assertEquals("x", echoed.getString(5));
                assertEquals(Date.valueOf("2000-01-01"), echoed.getDate(6));
                assertEquals(Timestamp.valueOf("2000-01-01 12:00:00"), echoed.getTimestamp(7));
                assertEquals(42, echoed.getInt(8));
                assertEquals(new BigDecimal("3.14"), echoed.getBigDecimal(9));
                assertEquals("streamed", echoed.getString(10));
            }
        }
    }

    @Test
    void calendarsMoveInstantsIntoTheirZone() throws SQLException {
        planner.willPlan(ScriptedPlanner.echo(SqlType.DATE, SqlType.TIMESTAMP));
        try (PreparedStatement prepared = connection.prepareStatement("SELECT ?, ?")) {
            Calendar tokyo = Calendar.getInstance(TimeZone.getTimeZone("Asia/Tokyo"));
            java.time.Instant instant = java.time.Instant.parse("2024-03-01T20:30:00Z");
            prepared.setDate(1, new Date(instant.toEpochMilli()), tokyo);
            prepared.setTimestamp(2, Timestamp.from(instant), tokyo);
            try (ResultSet echoed = prepared.executeQuery()) {
                assertTrue(echoed.next());
                assertEquals(LocalDate.of(2024, 3, 2), echoed.getObject(1, LocalDate.class));
                assertEquals(LocalDateTime.of(2024, 3, 2, 5, 30), echoed.getObject(2, LocalDateTime.class));
            }
        }
    }

    @Test
    void parameterIndexesAndMissingValuesAreChecked() throws SQLException {
        // Describing the statement plans it (the scripted plan), as running it would.
        planner.willPlan(ScriptedPlanner.echo(SqlType.INT, SqlType.BIGINT));
        try (PreparedStatement prepared = connection.prepareStatement("SELECT * FROM t WHERE a = ? AND b = '?' AND c = ?")) {
            ParameterMetaData parameters = prepared.getParameterMetaData();
            assertEquals(2, parameters.getParameterCount());
            assertEquals(java.sql.Types.INTEGER, parameters.getParameterType(1));
            assertEquals(java.sql.Types.BIGINT, parameters.getParameterType(2));
            assertEquals(Long.class.getName(), parameters.getParameterClassName(2));
            assertEquals(ParameterMetaData.parameterModeIn, parameters.getParameterMode(2));
            assertEquals("22023", assertThrows(SQLException.class, () -> prepared.setInt(0, 1)).getSQLState());
            assertEquals("22023", assertThrows(SQLException.class, () -> prepared.setInt(3, 1)).getSQLState());
            prepared.setInt(1, 1);
            SQLException missing = assertThrows(SQLException.class, prepared::executeQuery);
            assertEquals("22023", missing.getSQLState());
            assertTrue(missing.getMessage().contains("parameter 2 of 2"), missing.getMessage());
            prepared.setInt(2, 2);
            prepared.clearParameters();
            assertEquals("22023", assertThrows(SQLException.class, prepared::execute).getSQLState());
            assertEquals("22023", assertThrows(SQLException.class, () -> prepared.execute("SELECT 1")).getSQLState());
            assertThrows(SQLFeatureNotSupportedException.class, () -> prepared.setTime(1, java.sql.Time.valueOf("10:00:00")));
            assertEquals("42804", assertThrows(SQLException.class, () -> prepared.setObject(1, new Object())).getSQLState());
            assertEquals(2, prepared.getMetaData().getColumnCount(), "the planned result's columns, before it runs");
            assertEquals("p2", prepared.getMetaData().getColumnLabel(2));
        }
    }

    @Test
    void theSessionChecksTheCountAgainstThePlan() throws SQLException {
        planner.willPlan(ScriptedPlanner.echo(SqlType.INT, SqlType.INT));
        try (PreparedStatement prepared = connection.prepareStatement("SELECT ?")) {
            prepared.setInt(1, 1);
            SQLException mismatch = assertThrows(SQLException.class, prepared::executeQuery);
            assertEquals("22023", mismatch.getSQLState());
            assertTrue(mismatch.getMessage().contains("2 parameters, 1 values"), mismatch.getMessage());
        }
    }

    @Test
    void batchesRunEachParameterSet() throws SQLException {
        planner.willPlan(ScriptedPlanner.update(1, SqlType.INT));
        try (PreparedStatement prepared = connection.prepareStatement("DELETE FROM t WHERE id = ?")) {
            for (int id = 1; id <= 3; id++) {
                prepared.setInt(1, id);
                prepared.addBatch();
            }
            assertArrayEquals(new int[] {1, 1, 1}, prepared.executeBatch());
            assertArrayEquals(new int[0], prepared.executeBatch());
            prepared.setInt(1, 9);
            assertEquals(1, prepared.executeUpdate());
        }
    }
}
