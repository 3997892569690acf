package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ErrorCode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every failure is a SQLException with the error code's SQLSTATE, its number and its message. */
class ErrorTest {
    private Connection connection;
    private Statement statement;

    @BeforeEach
    void open() throws SQLException {
        connection = DriverManager.getConnection("jdbc:columba:mem:errors-" + System.nanoTime(), DriverTest.small());
        statement = connection.createStatement();
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    private SQLException failure(String sql) {
        return assertThrows(SQLException.class, () -> statement.execute(sql), sql);
    }

    private static void assertCode(ErrorCode code, SQLException failure) {
        assertEquals(code.sqlState(), failure.getSQLState(), failure::getMessage);
        assertEquals(code.code(), failure.getErrorCode(), failure::getMessage);
        assertTrue(failure.getMessage().startsWith("[" + code.name() + "] "), failure.getMessage());
    }

    @Test
    void syntaxErrorsAre42601WithTheirPosition() {
        SQLException keyword = failure("SELECT a,\n  FROM t");
        assertInstanceOf(SQLSyntaxErrorException.class, keyword);
        assertCode(ErrorCode.SYNTAX_ERROR, keyword);
        assertTrue(keyword.getMessage().contains("near the keyword 'FROM' at line 2, column 3"), keyword.getMessage());

        SQLException dbcc = failure("DBCC FREEPROCCACHE");
        assertCode(ErrorCode.SYNTAX_ERROR, dbcc);
        assertTrue(dbcc.getMessage().endsWith("(at line 1, column 6)"), "the position is added when the message lacks it: "
                + dbcc.getMessage());

        SQLException two = failure("PRINT 'a'; PRINT 'b'");
        assertCode(ErrorCode.SYNTAX_ERROR, two);
        assertTrue(two.getMessage().contains("Expected one statement, found 2"), two.getMessage());
    }

    @Test
    void catalogErrorsNameTheObject() throws SQLException {
        SQLException unknown = failure("DROP TABLE nothing");
        assertInstanceOf(SQLSyntaxErrorException.class, unknown);
        assertCode(ErrorCode.OBJECT_NOT_FOUND, unknown);
        assertTrue(unknown.getMessage().contains("nothing"), unknown.getMessage());

        statement.execute("CREATE TABLE t (id INT)");
        assertCode(ErrorCode.OBJECT_ALREADY_EXISTS, failure("CREATE TABLE T (id INT)"));
    }

    @Test
    void settingErrors() {
        assertCode(ErrorCode.UNKNOWN_SETTING, failure("SET nonsense = 1"));
        SQLException badValue = failure("SET batch_size = 'many'");
        assertInstanceOf(SQLDataException.class, badValue);
        assertCode(ErrorCode.INVALID_SETTING_VALUE, badValue);
        assertCode(ErrorCode.SETTING_NOT_SESSION_SCOPED, failure("SET buffer_pool_size = '1GB'"));
        assertCode(ErrorCode.INVALID_SETTING_VALUE, failure(
                "CREATE TABLE d (id INT) WITH (storage = columnstore, dictionary_overflow = sometimes)"));
    }

    @Test
    void absurdNestingFailsTheStatementNotTheJvm() throws SQLException {
        String nested = "PRINT " + "(".repeat(200_000) + "1" + ")".repeat(200_000);
        SQLException failure = failure(nested);
        assertCode(ErrorCode.SYNTAX_ERROR, failure);
        assertTrue(failure.getMessage().contains("nested too deeply"), failure.getMessage());
        statement.execute("PRINT 'still here'");
        assertEquals("still here", statement.getWarnings().getMessage());
    }

    @Test
    void storeAssignmentErrorsName22001And23502AndTheColumn() throws SQLException {
        statement.execute("CREATE TABLE t (id INT NOT NULL, code VARCHAR(3))");
        statement.execute("CREATE TABLE c (id INT NOT NULL, code CHAR(3)) WITH (storage = columnstore)");
        for (String table : new String[] {"t", "c"}) {
            SQLException tooLong = failure("INSERT INTO " + table + " VALUES (1, 'abcd')");
            assertInstanceOf(SQLDataException.class, tooLong);
            assertCode(ErrorCode.STRING_TOO_LONG, tooLong);
            assertEquals("22001", tooLong.getSQLState());
            assertTrue(tooLong.getMessage().contains("column 'code'") && tooLong.getMessage().contains("4 characters"),
                    tooLong.getMessage());
            SQLException missing = failure("INSERT INTO " + table + " VALUES (NULL, 'abc')");
            assertCode(ErrorCode.NULL_NOT_ALLOWED, missing);
            assertEquals("23502", missing.getSQLState());
            assertTrue(missing.getMessage().contains("column 'id', table '" + table + "'"), missing.getMessage());
        }
        statement.execute("INSERT INTO t VALUES (1, 'abc')");
        assertCode(ErrorCode.NULL_NOT_ALLOWED, failure("UPDATE t SET id = NULL"));
        assertCode(ErrorCode.STRING_TOO_LONG, failure("UPDATE t SET code = code || 'x'"));
        assertCode(ErrorCode.STRING_TOO_LONG, failure("INSERT INTO c SELECT id, code || 'x' FROM t"));
    }

    @Test
    void selectIntoAnExistingTableIs42P07() throws SQLException {
        statement.execute("CREATE TABLE t (id INT)");
        assertEquals(0, statement.executeUpdate("SELECT id, id + 1 AS successor INTO u FROM t"));
        assertCode(ErrorCode.OBJECT_ALREADY_EXISTS, failure("SELECT id INTO u FROM t"));
        SQLException unnamed = failure("CREATE TABLE v AS SELECT id + 1 FROM t");
        assertCode(ErrorCode.INVALID_STATEMENT, unnamed);
        assertTrue(unnamed.getMessage().contains("No column name was specified for column 1"), unnamed.getMessage());
    }

    @Test
    void aCopyFileNameTheSystemCannotHoldIsAnArgumentError() throws SQLException {
        statement.execute("CREATE TABLE t (a INT)");
        SQLException failure = failure("COPY t FROM 'data\u0000.csv'");
        assertCode(ErrorCode.INVALID_ARGUMENT, failure);
        assertTrue(failure.getMessage().contains("'data\\0.csv' is not a file name"), failure.getMessage());
    }

    @Test
    void typesOutsideColumbasBoundsAreArgumentErrors() throws SQLException {
        assertCode(ErrorCode.INVALID_ARGUMENT, failure("CREATE TABLE t (a BIGINT, b CHAR(0))"));
        assertCode(ErrorCode.INVALID_ARGUMENT, failure("CREATE TABLE t (a BIGINT, b VARCHAR(0))"));
        assertCode(ErrorCode.INVALID_ARGUMENT, failure("CREATE TABLE t (a BIGINT, d DECIMAL(0, 0))"));
        // A negative scale was silently taken as 0.
        assertCode(ErrorCode.INVALID_ARGUMENT, failure("CREATE TABLE t (a BIGINT, d DECIMAL(10, -1))"));
        SQLException tooWide = failure("SELECT CAST(1 AS CHAR(8001))");
        assertCode(ErrorCode.INVALID_ARGUMENT, tooWide);
        assertTrue(tooWide.getMessage().contains("CHAR length must be 1..8000, was 8001"), tooWide.getMessage());
        statement.execute("CREATE TABLE t (i INT)");
        assertCode(ErrorCode.INVALID_STATEMENT, failure("SELECT CAST(i AS DECIMAL(10, -1)) FROM t"));
    }

    @Test
    void nullSqlIsAnArgumentError() {
        assertEquals("22023", assertThrows(SQLException.class, () -> statement.execute(null)).getSQLState());
    }
}
