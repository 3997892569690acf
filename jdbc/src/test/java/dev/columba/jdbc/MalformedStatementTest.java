package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ErrorCode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The minimal reproductions of issue 15's SQL fuzzing: statements a user can type that ended as
 * {@code XX000} internal errors (or a parser exception with the wrong cause) end with the SQLSTATE
 * of their real fault and the position where one exists, and the session goes on.
 */
class MalformedStatementTest {
    private Connection connection;
    private Statement statement;

    @BeforeEach
    void open() throws SQLException {
        connection = DriverManager.getConnection("jdbc:columba:mem:malformed-" + System.nanoTime(), DriverTest.small());
        statement = connection.createStatement();
        statement.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, i INT, s VARCHAR(20), d INT, dc DECIMAL(10, 2))");
        statement.execute("INSERT INTO t VALUES (1, 1, 'a', 1, 1.5), (2, 6, 'b', 2, NULL)");
        statement.execute("CREATE TABLE a (id INT, s VARCHAR(10))");
        statement.execute("CREATE TABLE b (id INT, s VARCHAR(10))");
        statement.execute("INSERT INTO a VALUES (1, 'x')");
        statement.execute("INSERT INTO b VALUES (2, 'y')");
        statement.execute("CREATE TABLE lineitem (l_orderkey INT, l_quantity DECIMAL(15, 2))");
        statement.execute("INSERT INTO lineitem VALUES (1, 5), (1, 6), (2, 7)");
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    private SQLException failure(String sql) {
        SQLException failure = assertThrows(SQLException.class, () -> statement.execute(sql), sql);
        assertNotEquals(ErrorCode.INTERNAL.sqlState(), failure.getSQLState(), failure::getMessage);
        return failure;
    }

    private void assertSessionGoesOn() throws SQLException {
        try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM t")) {
            assertTrue(rows.next());
            assertEquals(2, rows.getLong(1));
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "SELECT id FROM t LIMIT 99999999999999999999999999999999999999999 | VALUE_OUT_OF_RANGE | LIMIT",
        "SELECT id FROM t LIMIT 1e308                                       | VALUE_OUT_OF_RANGE | LIMIT",
        "SELECT id, s FROM a UNION SELECT id, s FROM b ORDER BY 1 LIMIT 1e308 | VALUE_OUT_OF_RANGE | LIMIT",
        "SELECT id FROM t OFFSET 99999999999999999999999 ROWS              | VALUE_OUT_OF_RANGE | OFFSET",
        "SELECT id FROM t LIMIT 1e-39                                       | INVALID_ARGUMENT   | LIMIT",
        "SELECT id FROM t ORDER BY id LIMIT 5 OFFSET 1.5                    | INVALID_ARGUMENT   | OFFSET",
    })
    void rowCountsOutsideALongAreDataErrorsNamingTheClause(String sql, ErrorCode code, String clause) {
        SQLException failure = failure(sql);
        assertInstanceOf(SQLDataException.class, failure);
        assertEquals(code.sqlState(), failure.getSQLState(), failure::getMessage);
        assertTrue(failure.getMessage().contains("row count of " + clause), failure.getMessage());
        assertTrue(failure.getMessage().contains("at line 1, column "), failure.getMessage());
    }

    @Test
    void aParameterAsASortKeyIsAStatementError() {
        for (String sql : new String[] {"SELECT s FROM t ORDER BY ?", "SELECT s FROM t ORDER BY ? DESC"}) {
            SQLException failure = assertThrows(SQLException.class, () -> {
                try (PreparedStatement prepared = connection.prepareStatement(sql)) {
                    prepared.setInt(1, 1);
                    prepared.executeQuery().close();
                }
            }, sql);
            assertInstanceOf(SQLSyntaxErrorException.class, failure);
            assertEquals(ErrorCode.INVALID_STATEMENT.sqlState(), failure.getSQLState(), failure::getMessage);
            assertTrue(failure.getMessage().contains("cannot be a parameter"), failure.getMessage());
            assertTrue(failure.getMessage().contains("at line 1, column 26"), failure.getMessage());
        }
    }

    @Test
    void existsOfSomethingOtherThanASubQueryIsAStatementError() throws SQLException {
        SQLException failure = failure("SELECT COUNT(*) FROM t x WHERE EXISTS EXISTS (SELECT 1 FROM t)");
        assertEquals(ErrorCode.INVALID_STATEMENT.sqlState(), failure.getSQLState(), failure::getMessage);
        assertTrue(failure.getMessage().contains("EXISTS needs a sub-query"), failure.getMessage());
        assertSessionGoesOn();
    }

    @Test
    void likeWithANullPatternIsNullOnEveryRow() throws SQLException {
        try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM t WHERE (i/2) LIKE NULL")) {
            assertTrue(rows.next());
            assertEquals(0, rows.getLong(1));
        }
        try (ResultSet rows = statement.executeQuery("SELECT (i/2) LIKE NULL, (i/2) NOT LIKE CAST(NULL AS VARCHAR(3)),"
                + " s LIKE 'a' ESCAPE NULL FROM t ORDER BY id")) {
            assertTrue(rows.next());
            assertEquals(null, rows.getObject(1));
            assertEquals(null, rows.getObject(2));
            assertEquals(null, rows.getObject(3));
        }
    }

    @Test
    void arithmeticWithAnUntypedNullIsNullAndAggregatesOverItPlan() throws SQLException {
        try (ResultSet rows = statement.executeQuery("SELECT l_orderkey FROM lineitem GROUP BY l_orderkey"
                + " HAVING SUM(l_quantity * NULL) > (SELECT AVG(l_quantity) FROM lineitem)")) {
            assertTrue(!rows.next(), "SUM of NULLs is NULL, and NULL > x is not true");
        }
        try (ResultSet rows = statement.executeQuery("SELECT i * NULL, NULL + i, NULL / 0, dc % NULL FROM t ORDER BY id")) {
            assertTrue(rows.next());
            for (int column = 1; column <= 4; column++) {
                assertEquals(null, rows.getObject(column), "column " + column);
            }
        }
    }

    @Test
    void aCaseWithAParameterResultPlans() throws SQLException {
        try (PreparedStatement prepared = connection.prepareStatement(
                "SELECT CASE WHEN i > 5 THEN ? WHEN dc IS NULL THEN 2 ELSE 3 END FROM t ORDER BY id")) {
            prepared.setInt(1, 9);
            try (ResultSet rows = prepared.executeQuery()) {
                assertTrue(rows.next());
                assertEquals(3, rows.getInt(1));
                assertTrue(rows.next());
                assertEquals(9, rows.getInt(1));
            }
        }
    }

    @Test
    void aCaseWithAParameterAmongStringResultsPlans() throws SQLException {
        statement.execute("INSERT INTO t VALUES (3, NULL, 'c', 3, 3)");
        try (PreparedStatement prepared = connection.prepareStatement(
                "SELECT CASE WHEN i > 5 THEN 'big' WHEN i IS NULL THEN ? ELSE 'small' END FROM t ORDER BY id")) {
            prepared.setString(1, "none");
            try (ResultSet rows = prepared.executeQuery()) {
                assertTrue(rows.next());
                assertEquals("small", rows.getString(1).strip());
                assertTrue(rows.next());
                assertEquals("big", rows.getString(1).strip());
                assertTrue(rows.next());
                assertEquals("none", rows.getString(1).strip());
            }
        }
    }

    @Test
    void anUpdateSetValueOfTheWrongTypeIs42804() throws SQLException {
        SQLException named = failure("UPDATE t SET d = TRUE");
        assertEquals(ErrorCode.WRONG_TYPE.sqlState(), named.getSQLState(), named::getMessage);
        assertTrue(named.getMessage().contains("column 'd'"), named.getMessage());
        SQLException comparison = failure("UPDATE t SET s = 'upd', d = d < 2147483648");
        assertEquals(ErrorCode.WRONG_TYPE.sqlState(), comparison.getSQLState(), comparison::getMessage);
        try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM t WHERE s = 'upd'")) {
            assertTrue(rows.next());
            assertEquals(0, rows.getLong(1), "the failed UPDATE changed nothing");
        }
    }

    @Test
    void aLiteralTooLargeForADecimalInHavingIsAStatementError() throws SQLException {
        SQLException failure = failure("SELECT l_orderkey FROM lineitem WHERE l_orderkey IN (SELECT l_orderkey FROM lineitem"
                + " GROUP BY l_orderkey HAVING SUM(l_quantity) > 999999999999999999999999999999999999999)");
        assertEquals(ErrorCode.INVALID_STATEMENT.sqlState(), failure.getSQLState(), failure::getMessage);
        assertTrue(failure.getMessage().contains("out of range"), failure.getMessage());
        assertSessionGoesOn();
    }

    @Test
    void valuesThatNoTypeHoldsOrThatHoldAWindowFunctionAreStatementErrors() throws SQLException {
        SQLException mixed = failure("VALUES (DATE '0001-01-01', 'a'), (2147483647, 'b')");
        assertEquals(ErrorCode.WRONG_TYPE.sqlState(), mixed.getSQLState(), mixed::getMessage);
        assertTrue(mixed.getMessage().contains("column 1 of VALUES"), mixed.getMessage());
        SQLException window = failure("VALUES (1, 'a'), (ROW_NUMBER() OVER (ORDER BY 2), 'b')");
        assertEquals(ErrorCode.INVALID_STATEMENT.sqlState(), window.getSQLState(), window::getMessage);
        SQLException wide = failure("INSERT INTO a VALUES (1, 'x', 3)");
        assertEquals(ErrorCode.INVALID_STATEMENT.sqlState(), wide.getSQLState(), wide::getMessage);
        assertTrue(wide.getMessage().contains("more values than table"), wide.getMessage());
        SQLException wideSelect = failure("INSERT INTO a SELECT id, i, s FROM t");
        assertEquals(ErrorCode.INVALID_STATEMENT.sqlState(), wideSelect.getSQLState(), wideSelect::getMessage);
        assertSessionGoesOn();
    }

    @Test
    void textThatIsNotADateForADateParameterIs42804() throws SQLException {
        try (PreparedStatement prepared = connection.prepareStatement("SELECT CAST(? AS DATE) FROM t")) {
            prepared.setString(1, "1");
            SQLException failure = assertThrows(SQLException.class, () -> prepared.executeQuery().close());
            assertEquals(ErrorCode.WRONG_TYPE.sqlState(), failure.getSQLState(), failure::getMessage);
            assertTrue(failure.getMessage().contains("parameter 1"), failure.getMessage());
        }
        assertSessionGoesOn();
    }

    @Test
    void aStringLiteralLongerThanACharIs22023EvenInACorrelatedSubQuery() throws SQLException {
        String longText = "w".repeat(9000);
        for (String sql : new String[] {"SELECT id FROM t WHERE id < CAST('" + longText + "' AS DECIMAL(38, 0))",
                "SELECT id FROM t WHERE i IN (SELECT l_orderkey FROM lineitem WHERE t.id < CAST('" + longText
                        + "' AS DECIMAL(38, 0))) OR s IS NULL"}) {
            SQLException failure = failure(sql);
            assertEquals(ErrorCode.INVALID_ARGUMENT.sqlState(), failure.getSQLState(), failure::getMessage);
            assertTrue(failure.getMessage().contains("9000 characters is longer than the 8000"), failure.getMessage());
        }
        assertSessionGoesOn();
    }

    @Test
    void anEscapeThatIsNotOneCharacterIs22025() throws SQLException {
        for (String sql : new String[] {"SELECT id FROM t WHERE s LIKE '%e' ESCAPE ''", "SELECT id FROM t WHERE s LIKE 'a' ESCAPE 'ab'"}) {
            SQLException failure = failure(sql);
            assertEquals(ErrorCode.INVALID_ESCAPE_SEQUENCE.sqlState(), failure.getSQLState(), failure::getMessage);
            assertTrue(failure.getMessage().contains("must be one character"), failure.getMessage());
        }
        assertSessionGoesOn();
    }

    @Test
    void aSubQueryInAWindowFunctionIsNotSupported() throws SQLException {
        for (String sql : new String[] {"SELECT id, ROW_NUMBER() OVER (PARTITION BY i ORDER BY EXISTS (SELECT id)) FROM t",
                "SELECT id, SUM((SELECT 1 FROM a)) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t"}) {
            SQLException failure = failure(sql);
            assertEquals("0A000", failure.getSQLState(), failure::getMessage);
            assertTrue(failure.getMessage().contains("sub-query in a window function"), failure.getMessage());
        }
        assertSessionGoesOn();
    }

    /** Found by the 100,000-statement fuzzing run (bench/results/rel15b-20261127.md): XX000 in Calcite's decorrelator. */
    @Test
    void aCorrelatedInUnderOrThatCannotBeDecorrelatedIsNotSupported() throws SQLException {
        for (String sql : new String[] {"SELECT id FROM t WHERE i IN (SELECT l_orderkey FROM lineitem WHERE t.id < 10) OR s IS NULL",
                "SELECT id FROM t WHERE i IN (SELECT i FROM (SELECT 1 FROM t) WHERE d < 10) OR s IS NULL"}) {
            SQLException failure = failure(sql);
            assertEquals("0A000", failure.getSQLState(), failure::getMessage);
            assertTrue(failure.getMessage().contains("correlated sub-query"), failure.getMessage());
        }
        assertSessionGoesOn();
    }

    /**
     * Found by the 100,000-statement fuzzing runs: a window ordered or partitioned only by a literal
     * failed Calcite's field trimmer over a table ("Expected identity mapping", 0A000 since rel15b) and
     * ended as XX000 without FROM (seeds 20261228 and 20261230: ArrayIndexOutOfBoundsException, and
     * ValuesReduceRule's assertion with assertions on, as here). Such a key orders nothing: the
     * window runs as if it had none, every row a peer of the others.
     */
    @Test
    void aWindowOrderedOrPartitionedOnlyByAConstantRunsUnordered() throws SQLException {
        assertRows("SELECT CAST('2024-01-01' AS DATE), CAST(ROW_NUMBER() OVER (ORDER BY '12.5') AS DECIMAL(5,1)),"
                + " CAST(1 AS DOUBLE)", "2024-01-01|1.0|1.0");
        assertRows("SELECT ROW_NUMBER() OVER (ORDER BY 1)", "1");
        assertRows("SELECT ROW_NUMBER() OVER (PARTITION BY 'p' ORDER BY 1 DESC)", "1");
        assertRows("SELECT RANK() OVER (ORDER BY 'a'), DENSE_RANK() OVER (ORDER BY 1), COUNT(*) OVER (ORDER BY 1)", "1|1|1");
        // Over a table: every row is a peer, so RANK is 1 and a RANGE frame to CURRENT ROW is the whole table.
        assertRows("SELECT ROW_NUMBER() OVER (ORDER BY 'x') FROM t ORDER BY 1", "1", "2");
        assertRows("SELECT id, RANK() OVER (ORDER BY 1), SUM(i) OVER (ORDER BY 'a'),"
                + " COUNT(*) OVER (PARTITION BY 1 ORDER BY 2) FROM t ORDER BY id", "1|1|7|2", "2|1|7|2");
        // A ROWS frame keeps counting rows; a literal after a column key changes nothing.
        assertRows("SELECT id, SUM(i) OVER (ORDER BY 1 ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING),"
                + " SUM(i) OVER (ORDER BY id, 1) FROM t ORDER BY id", "1|7|1", "2|7|7");
        // A RANGE offset over a constant alone would be the whole table or no row: refused, not guessed.
        for (String sql : new String[] {"SELECT SUM(1) OVER (ORDER BY 1 RANGE 1 PRECEDING)",
                "SELECT SUM(i) OVER (ORDER BY 1 RANGE BETWEEN 1 FOLLOWING AND 2 FOLLOWING) FROM t"}) {
            SQLException failure = failure(sql);
            assertEquals(ErrorCode.FEATURE_NOT_SUPPORTED.sqlState(), failure.getSQLState(), failure::getMessage);
            assertTrue(failure.getMessage().contains("not only constants"), failure.getMessage());
        }
        assertSessionGoesOn();
    }

    /**
     * Found while reducing the window above: a window that uses no input column next to another
     * expression of a SELECT without FROM was put over a projection of no column (ValuesReduceRule's
     * assertion, XX000). It reads the row it is given.
     */
    @Test
    void aWindowThatUsesNoColumnBesideOtherExpressionsRuns() throws SQLException {
        assertRows("SELECT 2, ROW_NUMBER() OVER ()", "2|1");
        assertRows("SELECT 'a', COUNT(*) OVER (), 3.5", "a|1|3.5");
        assertRows("SELECT id, ROW_NUMBER() OVER (ORDER BY id DESC), 'c' FROM t ORDER BY id", "1|2|c", "2|1|c");
        // A window aggregate of a constant argument is not supported yet, over a table or without one.
        for (String sql : new String[] {"SELECT SUM(1) OVER ()", "SELECT 2, SUM(1) OVER ()", "SELECT SUM(1) OVER () FROM t"}) {
            assertEquals(ErrorCode.FEATURE_NOT_SUPPORTED.sqlState(), failure(sql).getSQLState(), sql);
        }
        assertSessionGoesOn();
    }

    /**
     * A number and a BOOLEAN do not compare, with {@code =} and {@code <>} as with {@code <} and
     * {@code >=} (Calcite cast the BOOLEAN to the number for the first two only: {@code i = (i > 1)}
     * ran while {@code i >= (i > 1)} was 42804), as PostgreSQL's "operator does not exist: integer =
     * boolean". Two BOOLEANs still compare.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT 1 = TRUE",
        "SELECT id FROM t WHERE i = (i > 1)",
        "SELECT id FROM t WHERE (i > 1) <> dc",
        "SELECT id FROM t WHERE i >= (i > 1)",
        "SELECT id FROM t WHERE 0 < (d = 1)",
        "SELECT CASE i WHEN TRUE THEN 1 END FROM t",
        "SELECT COUNT(*) FROM t WHERE EXISTS (SELECT 1 FROM lineitem WHERE lineitem.l_orderkey = t.id LIKE NULL)",
    })
    void aNumberAndABooleanDoNotCompare(String sql) throws SQLException {
        SQLException failure = failure(sql);
        assertEquals(ErrorCode.WRONG_TYPE.sqlState(), failure.getSQLState(), failure::getMessage);
        assertTrue(failure.getMessage().contains("<BOOLEAN>"), failure.getMessage());
        assertTrue(failure.getMessage().contains("at line 1, column "), failure.getMessage());
        assertRows("SELECT id, (i > 1) = (d = 1), (i > 1) <> TRUE FROM t ORDER BY id", "1|FALSE|TRUE", "2|FALSE|FALSE");
        assertSessionGoesOn();
    }

    /** The rows of {@code sql}, each its columns' text joined by {@code |}, in order. */
    private void assertRows(String sql, String... expected) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<String> values = new ArrayList<>();
                for (int column = 1; column <= columns; column++) {
                    values.add(result.getString(column));
                }
                rows.add(String.join("|", values));
            }
        }
        assertEquals(List.of(expected), rows, sql);
    }

    /**
     * Found by the 100,000-statement fuzzing run: with the parameter the validator let it through,
     * conversion found no common type. Both are 42804, PostgreSQL's "CASE types ... cannot be
     * matched" (binary and character values meet in text since VARBINARY: a BOOLEAN and a DATE do not).
     */
    @Test
    void caseResultsWithNoCommonTypeAre42804EvenWithAParameterAmongThem() throws SQLException {
        SQLException without = failure("SELECT CASE WHEN i >= 5 THEN TRUE ELSE DATE '2020-01-01' END, id FROM t");
        assertEquals(ErrorCode.WRONG_TYPE.sqlState(), without.getSQLState(), without::getMessage);
        SQLException with = assertThrows(SQLException.class, () -> {
            try (PreparedStatement prepared = connection.prepareStatement(
                    "SELECT CASE WHEN i >= 5 THEN TRUE WHEN i IS NULL THEN ? ELSE DATE '2020-01-01' END, id FROM t")) {
                prepared.setString(1, "none");
                prepared.executeQuery().close();
            }
        });
        assertEquals(ErrorCode.WRONG_TYPE.sqlState(), with.getSQLState(), with::getMessage);
        assertSessionGoesOn();
    }

    /**
     * Found by the 100,000-statement fuzzing run of seed 20261204 (bench/results/rel15e-20261127.md):
     * AVG of a DECIMAL(38,19) was typed DECIMAL(38,29), nine integer digits, and an average of 10^9 or
     * more did not fit its own type (XX000). An average keeps the argument's integer digits; a SUM
     * past 38 digits stays 22003.
     */
    @Test
    void anAverageOfAWideDecimalFitsItsType() throws SQLException {
        try (ResultSet rows = statement.executeQuery("SELECT AVG(CAST(id AS DECIMAL(38,19)) * 1000000000),"
                + " AVG(CAST(id AS DECIMAL(38,19))), AVG(dc) FROM t")) {
            assertTrue(rows.next());
            java.math.BigDecimal average = rows.getBigDecimal(1);
            assertEquals(0, new java.math.BigDecimal("1500000000").compareTo(average), () -> "got " + average);
            assertEquals(19, rows.getMetaData().getScale(1));
            assertEquals(38, rows.getMetaData().getPrecision(1));
            assertEquals(0, new java.math.BigDecimal("1.5").compareTo(rows.getBigDecimal(2)));
            assertEquals(12, rows.getMetaData().getScale(3), "AVG of DECIMAL(10,2) keeps ten more digits of scale");
        }
        String sum = "SELECT SUM(CAST(generate_series AS DECIMAL(38,19)) * 1000000000000000000) FROM generate_series(1, 6)";
        SQLException overflow = assertThrows(SQLException.class, () -> {
            try (ResultSet rows = statement.executeQuery(sum)) {
                while (rows.next()) {
                    rows.getBigDecimal(1);
                }
            }
        }, sum);
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE.sqlState(), overflow.getSQLState(), overflow::getMessage);
        assertTrue(overflow.getMessage().contains("passed 38 digits"), overflow::getMessage);
        assertSessionGoesOn();
    }

    /**
     * Found by the fuzzing run of seed 20261204 (twice): operators bind tighter than IN, so the parser
     * reads {@code i IN (SELECT ...) * NULL} as IN of a product, and the converter asserted "not a
     * query" (XX000).
     */
    @Test
    void anOperatorAfterTheSubQueryOfInIsAStatementError() throws SQLException {
        for (String sql : new String[] {"SELECT id FROM t WHERE i IN (SELECT i FROM t) * NULL",
                "SELECT id FROM t WHERE i NOT IN (SELECT d FROM t WHERE d < 10) * NULL OR s IS NULL",
                "SELECT id FROM t WHERE i = ANY (SELECT i FROM t) + 1"}) {
            SQLException failure = failure(sql);
            assertEquals(ErrorCode.INVALID_STATEMENT.sqlState(), failure.getSQLState(), failure::getMessage);
            assertTrue(failure.getMessage().contains("must be a list of values in parentheses or a sub-query"),
                    failure.getMessage());
            assertTrue(failure.getMessage().contains("at line 1, column "), failure.getMessage());
        }
        try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM t WHERE i IN (SELECT i FROM t)"
                + " AND i IN ((SELECT MIN(i) FROM t) * 6, 1) AND i = ANY (SELECT i FROM t)")) {
            assertTrue(rows.next());
            assertEquals(2, rows.getLong(1), "a list, a scalar sub-query inside a list, and a sub-query still work");
        }
        assertSessionGoesOn();
    }

    /**
     * Found by the fuzzing run of seed 20261204: a comparison with a LIKE of a NULL pattern in a
     * correlated sub-query ({@code c.id = r.id LIKE NULL}) left a comparison with a NULL literal that
     * Calcite's predicate pull-up asserts never to see (XX000). It is NULL on every row. (That
     * statement itself compares an INT with a BOOLEAN, 42804 since rel15g; the NULL under a CAST in
     * a strict call is the same path.)
     */
    @Test
    void aComparisonWithANullValuedOperandInACorrelatedSubQueryIsNull() throws SQLException {
        for (String sql : new String[] {
                "SELECT COUNT(*) FROM t WHERE EXISTS (SELECT 1 FROM lineitem WHERE lineitem.l_orderkey = t.id"
                        + " AND lineitem.l_quantity = CAST(NULL AS INT) + 1)",
                "SELECT COUNT(*) FROM t WHERE EXISTS (SELECT 1 FROM lineitem WHERE lineitem.l_orderkey = t.id"
                        + " AND lineitem.l_quantity = NULL)",
                "SELECT COUNT(*) FROM t WHERE EXISTS (SELECT 1 FROM lineitem WHERE lineitem.l_orderkey = t.id"
                        + " AND lineitem.l_quantity < NULL + 1)"}) {
            try (ResultSet rows = statement.executeQuery(sql)) {
                assertTrue(rows.next(), sql);
                assertEquals(0, rows.getLong(1), sql);
            }
            try (ResultSet rows = statement.executeQuery(sql.replace("WHERE EXISTS", "WHERE NOT EXISTS"))) {
                assertTrue(rows.next(), sql);
                assertEquals(2, rows.getLong(1), () -> "NOT EXISTS of no rows is true for each row: " + sql);
            }
        }
        try (ResultSet rows = statement.executeQuery("SELECT i = NULL, NULL <> i, i < NULL + 1 FROM t ORDER BY id")) {
            assertTrue(rows.next());
            for (int column = 1; column <= 3; column++) {
                assertEquals(null, rows.getObject(column), "column " + column);
            }
        }
    }

    /**
     * Found by the fuzzing run of seed 20261204: LIKE on a DATE with a NULL pattern of numeric type
     * ({@code dt LIKE NULL + 1}) was a NullPointerException (XX000); it is NULL, as it is for a string
     * operand.
     */
    @Test
    void likeWithAPatternThatIsAlwaysNullIsNullWhateverTheOperand() throws SQLException {
        statement.execute("CREATE TABLE dates (dt DATE)");
        statement.execute("INSERT INTO dates VALUES (DATE '2024-01-01'), (NULL)");
        try (ResultSet rows = statement.executeQuery("SELECT dt LIKE NULL + 1, dt NOT LIKE -NULL, CAST(dt AS VARCHAR(10))"
                + " LIKE NULL * 2 FROM dates")) {
            int count = 0;
            while (rows.next()) {
                for (int column = 1; column <= 3; column++) {
                    assertEquals(null, rows.getObject(column), "column " + column);
                }
                count++;
            }
            assertEquals(2, count);
        }
        assertSessionGoesOn();
    }

    /** Found by the SQL fuzzing campaign (./columba bench reliability): each was XX000. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "SELECT CASE WHEN i, 5 THEN 'big' ELSE 'small' END FROM t                    | a WHEN of a searched CASE",
        "SELECT ROW_NUMBER(COALESCE(), NULL) OVER (ORDER BY id) FROM t              | COALESCE needs at least one",
        "SELECT COALESCE() FROM t                                                   | COALESCE needs at least one",
        "SELECT SUM(i) OVER (ORDER BY id ROWS BETWEEN DATE '0001-01-01' PRECEDING AND CURRENT ROW) FROM t | ROWS value",
        "SELECT SUM(i) OVER (ORDER BY id ROWS BETWEEN 'a' PRECEDING AND CURRENT ROW) FROM t | ROWS value",
    })
    void fuzzerFindingsAreStatementErrors(String sql, String message) throws SQLException {
        SQLException failure = failure(sql);
        assertEquals(ErrorCode.INVALID_STATEMENT.sqlState(), failure.getSQLState(), failure::getMessage);
        assertTrue(failure.getMessage().contains(message), failure.getMessage());
        try (ResultSet rows = statement.executeQuery("SELECT CASE i WHEN 1, 6 THEN 'listed' END FROM t ORDER BY id")) {
            assertTrue(rows.next());
            assertEquals("listed", rows.getString(1), "a simple CASE still takes a list");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT 'abc", "SELECT \"abc", "SELECT [abc", "SELECT /* abc", "SELECT 'a' || 'b", "SELECT U&'\\", "SELECT X'1",
        "SELECT TOP (99999999999999999999 id FROM t", "SELECT (((((", "SELECT id FROM t WHERE NOT (i BETWEEN 1 AND NOT 9)", "SELECT ')", "\0", "SELECT \uD800",
    })
    void unterminatedAndMalformedTokensAreSyntaxErrors(String sql) throws SQLException {
        SQLException failure = failure(sql);
        assertEquals(ErrorCode.SYNTAX_ERROR.sqlState(), failure.getSQLState(), failure::getMessage);
        assertTrue(!failure.getMessage().contains("out of bounds") && !failure.getMessage().contains("Exception"),
                failure.getMessage());
        assertSessionGoesOn();
    }
}
