package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
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
import org.junit.jupiter.params.provider.CsvSource;

/**
 * INTERVAL arithmetic on dates and timestamps as the TPC-H specification writes it, SQL Server's
 * DATEADD (its unit names and abbreviations) and DATEDIFF (boundaries crossed, not whole units
 * elapsed): month ends, year boundaries, negative amounts, NULLs, and the errors.
 */
class DateArithmeticTest {
    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        session = engine.openSession();
        session.execute("CREATE TABLE t (id INT PRIMARY KEY, d DATE, ts TIMESTAMP)");
        update(session, "INSERT INTO t VALUES (1, DATE '1998-12-01', TIMESTAMP '1998-12-01 23:30:00'),"
                + " (2, NULL, NULL), (3, DATE '2024-01-31', TIMESTAMP '2024-02-29 00:00:00')");
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    private Object one(String expression, int id) {
        return query(session, "SELECT " + expression + " FROM t WHERE id = " + id).getFirst().getFirst();
    }

    @Test
    void intervalArithmeticAsTheTpchSpecificationWritesIt() {
        assertEquals(LocalDate.of(1998, 9, 2), one("date '1998-12-01' - interval '90' day", 1));
        assertEquals(LocalDate.of(1998, 9, 2), one("date '1998-12-01' - interval '90' day (3)", 1));
        assertEquals(LocalDate.of(1996, 4, 1), one("date '1996-01-01' + interval '3' month", 1));
        assertEquals(LocalDate.of(1995, 1, 1), one("date '1994-01-01' + interval '1' year", 1));
        assertEquals(LocalDate.of(2024, 2, 29), one("d + interval '1' month", 3), "the month's last day");
        assertEquals(LocalDateTime.of(1998, 12, 2, 1, 0), one("ts + interval '90' minute", 1));
        assertEquals(LocalDateTime.of(1998, 11, 30, 23, 30), one("ts - interval '1' day", 1));
        assertEquals(Arrays.asList(null, null), query(session,
                "SELECT d - interval '90' day, ts + interval '1' hour FROM t WHERE id = 2").getFirst());
        assertEquals(List.of(List.of(1)), query(session,
                "SELECT id FROM t WHERE d <= date '1998-12-01' - interval '0' day AND d > date '1998-12-01' - interval '1' year"));
    }

    @ParameterizedTest(name = "DATEADD({0}, {1}, d)")
    @CsvSource({
            "year, 2, 2000-12-01",
            "yy, -1, 1997-12-01",
            "yyyy, 1, 1999-12-01",
            "quarter, 1, 1999-03-01",
            "qq, 1, 1999-03-01",
            "month, 3, 1999-03-01",
            "mm, -12, 1997-12-01",
            "day, 31, 1999-01-01",
            "dd, -1, 1998-11-30",
            "d, 1, 1998-12-02",
            "dayofyear, 1, 1998-12-02",
            "weekday, 1, 1998-12-02",
            "week, 2, 1998-12-15",
            "wk, -1, 1998-11-24"})
    void dateAddOnADateKeepsADate(String part, int amount, String expected) {
        assertEquals(LocalDate.parse(expected), one("DATEADD(" + part + ", " + amount + ", d)", 1));
    }

    @ParameterizedTest(name = "DATEADD({0}, {1}, ts)")
    @CsvSource({
            "hour, 1, 1998-12-02T00:30",
            "hh, -24, 1998-11-30T23:30",
            "minute, 45, 1998-12-02T00:15",
            "mi, 1, 1998-12-01T23:31",
            "second, 30, 1998-12-01T23:30:30",
            "ss, -1, 1998-12-01T23:29:59",
            "millisecond, 5, 1998-12-01T23:30:00.005",
            "day, 1, 1998-12-02T23:30",
            "month, 1, 1999-01-01T23:30"})
    void dateAddOnATimestamp(String part, int amount, String expected) {
        assertEquals(LocalDateTime.parse(expected), one("DATEADD(" + part + ", " + amount + ", ts)", 1));
    }

    @Test
    void dateAddEdges() {
        assertEquals(LocalDate.of(2024, 2, 29), one("DATEADD(month, 1, d)", 3), "clamped to the month's end");
        assertEquals(LocalDateTime.of(1998, 12, 1, 1, 0), one("DATEADD(hour, 1, d)", 1), "a DATE moved by hours");
        assertEquals(Arrays.asList(null, null, null), query(session,
                "SELECT DATEADD(day, 1, d), DATEADD(day, NULL, DATE '2000-01-01'), DATEADD(hour, 1, ts) FROM t WHERE id = 2")
                .getFirst());
        assertEquals(LocalDate.of(1998, 12, 4), one("DATEADD(day, id + 2, d)", 1), "an expression as the amount");
        ColumbaException overflow = assertThrows(ColumbaException.class, () -> one("DATEADD(year, 9000, d)", 1));
        assertEquals("22008", overflow.errorCode().sqlState(), overflow.getMessage());
    }

    @ParameterizedTest(name = "DATEDIFF({0}, {1}, {2}) = {3}")
    @CsvSource({
            "year, 2020-12-31, 2021-01-01, 1",
            "year, 2021-01-01, 2021-12-31, 0",
            "yy, 2021-06-01, 2019-06-01, -2",
            "quarter, 2020-03-31, 2020-04-01, 1",
            "month, 2020-01-31, 2020-02-01, 1",
            "mm, 2020-02-01, 2020-02-29, 0",
            "month, 2021-03-15, 2020-01-15, -14",
            "day, 1998-09-02, 1998-12-01, 90",
            "dd, 2024-03-01, 2024-02-28, -2",
            "dayofyear, 2024-01-01, 2024-12-31, 365",
            "week, 2024-11-23, 2024-11-24, 1",
            "week, 2024-11-24, 2024-11-30, 0",
            "wk, 2024-11-30, 2024-11-16, -2"})
    void dateDiffCountsBoundaries(String part, String start, String end, int expected) {
        assertEquals(expected, one("DATEDIFF(" + part + ", DATE '" + start + "', DATE '" + end + "')", 1));
    }

    @Test
    void dateDiffOnTimestampsAndColumns() {
        assertEquals(1, one("DATEDIFF(hour, TIMESTAMP '2024-01-01 10:59:59', TIMESTAMP '2024-01-01 11:00:00')", 1));
        assertEquals(0, one("DATEDIFF(hour, TIMESTAMP '2024-01-01 10:00:00', TIMESTAMP '2024-01-01 10:59:59')", 1));
        assertEquals(1, one("DATEDIFF(day, ts, DATEADD(minute, 31, ts))", 1), "past midnight is a day");
        assertEquals(1_800, one("DATEDIFF(second, ts, CAST(DATEADD(day, 1, d) AS TIMESTAMP))", 1));
        assertEquals(90, one("DATEDIFF(day, d - interval '90' day, d)", 1));
        assertEquals(List.of(List.of(1, 0), List.of(3, 29)), query(session,
                "SELECT id, DATEDIFF(day, d, ts) FROM t WHERE d IS NOT NULL ORDER BY id"));
        assertEquals(Arrays.asList(null, null), query(session,
                "SELECT DATEDIFF(day, d, DATE '2000-01-01'), DATEDIFF(month, ts, ts) FROM t WHERE id = 2").getFirst());
        assertEquals(List.of(List.of(3)), query(session, "SELECT id FROM t WHERE DATEDIFF(month, d, ts) = 1"));
    }

    @Test
    void dateDiffThatDoesNotFitAnIntIsAnError() {
        ColumbaException overflow = assertThrows(ColumbaException.class,
                () -> one("DATEDIFF(second, DATE '0001-01-01', DATE '9999-12-31')", 1));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, overflow.errorCode(), overflow.getMessage());
        assertTrue(overflow.getMessage().contains("datediff function resulted in an overflow"), overflow.getMessage());
    }

    @Test
    void anUnknownDatePartIsASyntaxError() {
        ColumbaException unknown = assertThrows(ColumbaException.class, () -> one("DATEADD(fortnight, 1, d)", 1));
        assertEquals(ErrorCode.SYNTAX_ERROR, unknown.errorCode());
        assertTrue(unknown.getMessage().contains("'fortnight' is not a recognized dateadd option"), unknown.getMessage());
        ColumbaException diff = assertThrows(ColumbaException.class, () -> one("DATEDIFF(decade, d, d)", 1));
        assertTrue(diff.getMessage().contains("'decade' is not a recognized datediff option"), diff.getMessage());
    }

    @Test
    void aNonDateArgumentIsAWrongType() {
        ColumbaException wrong = assertThrows(ColumbaException.class, () -> one("DATEDIFF(day, id, d)", 1));
        assertTrue(wrong.errorCode() == ErrorCode.WRONG_TYPE || wrong.errorCode() == ErrorCode.SYNTAX_ERROR,
                wrong.errorCode() + " " + wrong.getMessage());
        assertEquals("42", wrong.errorCode().sqlState().substring(0, 2), wrong.getMessage());
    }

    @Test
    void dateAddAndDateDiffAreAlsoNames() {
        session.execute("CREATE TABLE log (dateadd INT, datediff INT)");
        update(session, "INSERT INTO log VALUES (1, 2)");
        assertEquals(List.of(List.of(1, 2)), query(session, "SELECT dateadd, datediff FROM log"));
    }
}
