package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The words people name their columns that Calcite reserves and SQL Server and PostgreSQL do not
 * ({@code value}, {@code year}, {@code date}, ...) as column names, table names and aliases,
 * while the syntax they also belong to keeps working; CTE column lists; a select-list alias in
 * GROUP BY.
 */
class IdentifierWordsTest {
    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        session = engine.openSession();
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"value", "year", "month", "day", "hour", "minute", "second", "date", "time", "timestamp",
            "position", "language", "result"})
    void aWordNamesAColumnATableAndAnAlias(String word) {
        session.execute("CREATE TABLE " + word + " (id INT PRIMARY KEY, " + word + " INT)");
        update(session, "INSERT INTO " + word + " (id, " + word + ") VALUES (1, 10), (2, NULL), (3, 30)");
        assertEquals(List.of(List.of(1, 10), List.of(3, 30)),
                query(session, "SELECT id, " + word + " FROM " + word + " WHERE " + word + " IS NOT NULL ORDER BY " + word));
        assertEquals(List.of(List.of(40L)),
                query(session, "SELECT SUM(" + word + ") AS " + word + " FROM " + word + " " + word));
        assertEquals(List.of(List.of(30)), query(session, "SELECT " + word + "." + word + " FROM " + word
                + " AS " + word + " WHERE " + word + ".id = 3"));
        try (StatementResult.Rows rows = (StatementResult.Rows) session.execute("SELECT id " + word + " FROM " + word)) {
            assertEquals(word, rows.schema().column(0).name(), "an alias without AS");
        }
    }

    @Test
    void valueWhereAnExpressionOrAQueryMayStart() {
        session.execute("CREATE TABLE kv (id INT PRIMARY KEY, value INT)");
        update(session, "INSERT INTO kv VALUES (1, 5), (2, NULL), (3, 7)");
        assertEquals(List.of(List.of(12L, 2L, 12)), query(session,
                "SELECT SUM(value), COUNT(value), MAX(value + 5) FROM kv WHERE (value > 1)"));
        assertEquals(List.of(List.of(3, 7), List.of(1, 5), List.of(2, 0)), query(session,
                "SELECT id, COALESCE(value, 0) AS value FROM kv ORDER BY value DESC"));
        assertEquals(List.of(List.of(3)), query(session,
                "SELECT id FROM kv WHERE value = (SELECT MAX(value) FROM kv)"));
        assertEquals(1, update(session, "UPDATE kv SET value = value * 2 WHERE id = 1"));
        assertEquals(List.of(List.of(10)), query(session, "SELECT value FROM kv WHERE id = 1"));
    }

    @Test
    void theSyntaxTheWordsBelongToStillParses() {
        session.execute("CREATE TABLE t (id INT PRIMARY KEY, d DATE, ts TIMESTAMP, s VARCHAR(20))");
        update(session, "INSERT INTO t VALUES (1, DATE '1998-12-01', TIMESTAMP '1998-12-01 10:20:30', 'abcabc')");
        assertEquals(List.of(List.of(1998L, 12L, 1L, 10L, 20L, 30L)), query(session,
                "SELECT EXTRACT(YEAR FROM d), EXTRACT(MONTH FROM d), EXTRACT(DAY FROM d), EXTRACT(HOUR FROM ts),"
                        + " EXTRACT(MINUTE FROM ts), EXTRACT(SECOND FROM ts) FROM t"));
        assertEquals(List.of(List.of(LocalDate.of(1998, 9, 2), LocalDate.of(1999, 3, 1),
                        LocalDateTime.of(1998, 12, 1, 11, 20, 30))),
                query(session, "SELECT d - INTERVAL '90' DAY, d + INTERVAL '3' MONTH, ts + INTERVAL '1' HOUR FROM t"));
        assertEquals(List.of(List.of(3)), query(session, "SELECT POSITION('ca' IN s) FROM t"));
        assertEquals(List.of(List.of(LocalDate.of(1998, 12, 1))), query(session, "SELECT CAST(ts AS DATE) FROM t"));
        assertEquals(List.of(List.of(1)), query(session, "SELECT id FROM t WHERE d = DATE '1998-12-01'"
                + " AND ts < TIMESTAMP '1999-01-01 00:00:00'"));
    }

    @Test
    void aColumnCalledDateBesideTheDateLiteral() {
        session.execute("CREATE TABLE events (id INT PRIMARY KEY, date DATE, value DECIMAL(10, 2))");
        update(session, "INSERT INTO events VALUES (1, DATE '2024-01-01', 1.50), (2, DATE '2024-02-01', NULL),"
                + " (3, NULL, 3.00)");
        assertEquals(List.of(Arrays.asList(1, LocalDate.of(2024, 1, 1), new BigDecimal("1.50"))),
                query(session, "SELECT id, date, value FROM events WHERE date < DATE '2024-01-15'"));
        assertEquals(List.of(List.of(3)), query(session, "SELECT id FROM events WHERE date IS NULL"));
        assertEquals(List.of(List.of(2L)), query(session, "SELECT COUNT(value) FROM events"));
    }

    @Test
    void aCteColumnListNamesTheColumns() {
        session.execute("CREATE TABLE t (id INT PRIMARY KEY, s VARCHAR(10))");
        update(session, "INSERT INTO t VALUES (1, 'a'), (2, NULL)");
        try (StatementResult.Rows rows = (StatementResult.Rows) session.execute(
                "WITH r (key_value, text_value) AS (SELECT id, s FROM t) SELECT * FROM r")) {
            assertEquals(List.of("key_value", "text_value"), rows.schema().columns().stream().map(Column::name).toList());
        }
        assertEquals(List.of(Arrays.asList(2, null)),
                query(session, "WITH r (k, v) AS (SELECT id, s FROM t) SELECT k, v FROM r WHERE v IS NULL"));
        ColumbaException tooFew = assertThrows(ColumbaException.class,
                () -> query(session, "WITH r (k) AS (SELECT id, s FROM t) SELECT * FROM r"));
        assertTrue(tooFew.getMessage().contains("olumn"), tooFew.getMessage());
        ColumbaException unknown = assertThrows(ColumbaException.class,
                () -> query(session, "WITH r (k, v) AS (SELECT id, s FROM t) SELECT id FROM r"));
        assertEquals(ErrorCode.UNDEFINED_COLUMN, unknown.errorCode(), unknown.getMessage());
    }

    @Test
    void groupByNamesASelectListAlias() {
        session.execute("CREATE TABLE sales (id INT PRIMARY KEY, region VARCHAR(10), amount INT)");
        update(session, "INSERT INTO sales VALUES (1, 'north', 10), (2, 'north', 5), (3, 'south', 7), (4, NULL, 1),"
                + " (5, NULL, 2)");
        assertEquals(List.of(List.of("north", 15L), List.of("south", 7L), Arrays.asList(null, 3L)),
                query(session, "SELECT region AS area, SUM(amount) AS total FROM sales GROUP BY area ORDER BY area"));
        assertEquals(List.of(List.of(0, 2L), List.of(1, 3L)),
                query(session, "SELECT id % 2 AS parity, COUNT(*) FROM sales GROUP BY parity ORDER BY parity"));
        // A column of the FROM clause wins over an alias of the same name, as in PostgreSQL: five groups.
        assertEquals(List.of(List.of(1L), List.of(2L), List.of(5L), List.of(7L), List.of(10L)),
                query(session, "SELECT SUM(amount) AS id FROM sales GROUP BY id ORDER BY 1"));
    }
}
