package dev.columba.planner.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.planner.plan.QueryPlanner;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Simple parameterization: which texts lose their literals and how, which statements qualify,
 * which literal values bind to a parameterized plan, and, through sessions with the real planner,
 * that ad hoc statements differing only in literals are planned once and give the rows (and
 * changes, and errors) that planning them with their literals gives.
 */
class SimpleParameterizationTest {
    @TempDir
    Path directory;

    private final List<String> planned = Collections.synchronizedList(new ArrayList<>());
    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "16MB");
        engine = Engine.open(directory, properties, (catalog, settings, statement, cancel) -> {
            planned.add(statement.toString());
            return new QueryPlanner(catalog, settings).plan(statement);
        });
        session = engine.openSession();
        session.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v INT NOT NULL, s VARCHAR(20) NOT NULL, "
                + "d DECIMAL(6,2) NOT NULL, c CHAR(3) NOT NULL)");
        session.execute("INSERT INTO t SELECT generate_series, CAST(generate_series % 10 AS INT), 'row ' || "
                + "CAST(generate_series AS VARCHAR(20)), CAST(generate_series AS DECIMAL(6,2)) / 4, 'c' || "
                + "CAST(generate_series % 10 AS VARCHAR(1)) || 'x' FROM generate_series(1, 200)");
        session.execute("INSERT INTO t VALUES (1000, 0, 'spaced ', 0.25, 'ab ')");
        planned.clear();
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    // ---- the text -------------------------------------------------------------------------------

    @Test
    void literalsBecomeMarkersInANormalizedText() {
        SimpleParameterization.Parameterized point = SimpleParameterization.parameterize(
                "SELECT v, s\n  FROM t   WHERE id = 42").orElseThrow();
        assertEquals("SELECT v, s FROM t WHERE id = ?", point.text());
        assertEquals(List.of(new SimpleParameterization.Literal(new BigDecimal("42"))), point.literals());

        SimpleParameterization.Parameterized insert = SimpleParameterization.parameterize(
                "INSERT INTO t2 VALUES (7, 'it''s', 2.50, 1e3)").orElseThrow();
        assertEquals("INSERT INTO t2 VALUES (?, ?, ?, ?)", insert.text());
        assertEquals(List.of(new SimpleParameterization.Literal(new BigDecimal("7")),
                new SimpleParameterization.Literal("it's"), new SimpleParameterization.Literal(new BigDecimal("2.50")),
                new SimpleParameterization.Literal(1000.0)), insert.literals());

        // Digits inside names and quoted names stay; whitespace inside a string literal is its value.
        SimpleParameterization.Parameterized names = SimpleParameterization.parameterize(
                "SELECT t1.c2, \"x 3\", [y  4] FROM t1 WHERE c2 = '  a  '").orElseThrow();
        assertEquals("SELECT t1.c2, \"x 3\", [y  4] FROM t1 WHERE c2 = ?", names.text());
        assertEquals(List.of(new SimpleParameterization.Literal("  a  ")), names.literals());
    }

    @Test
    void textsThatAreLeftAsWritten() {
        for (String sql : List.of(
                "SELECT v FROM t",                                       // no literal
                "SELECT v FROM t WHERE id = ? AND v = 3",                // a prepared statement's text
                "SELECT v FROM t WHERE id = 3 -- note",                  // a comment
                "SELECT v FROM t /* note */ WHERE id = 3",
                "SELECT v FROM t WHERE day = DATE '2024-01-01'",         // typed literals
                "SELECT v FROM t WHERE at < TIMESTAMP '2024-01-01 00:00:00'",
                "SELECT v FROM t WHERE s = N'abc'",
                "SELECT v FROM t WHERE b = X'0A'",
                "SELECT v FROM t WHERE d = .5",                          // forms left alone
                "SELECT v FROM t WHERE id = 3x",
                "SELECT v FROM t WHERE s = 'unterminated")) {
            assertEquals(Optional.empty(), SimpleParameterization.parameterize(sql), sql);
        }
    }

    // ---- the shape ------------------------------------------------------------------------------

    private static Optional<List<SimpleParameterization.Binding>> bindingsOf(String sql) {
        SimpleParameterization.Parameterized parameterized = SimpleParameterization.parameterize(sql).orElseThrow();
        return SimpleParameterization.bindings(dev.columba.planner.parser.ColumbaSqlParser.parse(parameterized.text()),
                parameterized.literals().size());
    }

    @Test
    void simpleStatementsBindTheirLiteralsByPlace() {
        var exact = SimpleParameterization.Binding.EXACT_VALUE;
        var sameType = SimpleParameterization.Binding.SAME_TYPE;
        assertEquals(Optional.of(List.of(exact)), bindingsOf("SELECT v, s FROM t WHERE id = 5"));
        assertEquals(Optional.of(List.of(exact, exact, exact)),
                bindingsOf("SELECT x.v FROM t AS x WHERE x.id BETWEEN 1 AND 100 AND 3 <> v ORDER BY x.id"));
        assertEquals(Optional.of(List.of(exact, exact, exact)), bindingsOf("SELECT id FROM t WHERE id IN (1, 2, 3)"));
        assertEquals(Optional.of(List.of(exact, exact)), bindingsOf("INSERT INTO t (id, s) VALUES (1, 'a')"));
        assertEquals(Optional.of(List.of(sameType, exact, exact)),
                bindingsOf("UPDATE t SET v = v + 1, s = 'b' WHERE id = 9"));
        assertEquals(Optional.of(List.of(exact, exact)), bindingsOf("DELETE FROM t WHERE id >= 5 OR v = 2"));
    }

    @Test
    void literalsWhereMoreThanTheirValueMattersKeepTheTextFromBeingParameterized() {
        for (String sql : List.of(
                "SELECT v + 1 FROM t WHERE id = 5",                      // select list
                "SELECT v FROM t WHERE s LIKE 'row 1%'",                 // a LIKE pattern
                "SELECT v FROM t WHERE v + 1 = 5",                       // beside arithmetic, not a column
                "SELECT v FROM t WHERE SUBSTRING(s, 1, 3) = 'row'",      // function arguments
                "SELECT v FROM t WHERE id = -5",                         // a negated literal is arithmetic
                "SELECT v FROM t ORDER BY id FETCH FIRST 5 ROWS ONLY",   // a row count
                "SELECT a.v FROM t a JOIN t b ON a.id = b.id WHERE a.id = 5",        // a join
                "SELECT v FROM t WHERE id IN (SELECT id FROM t WHERE v = 3)",         // a subquery
                "SELECT v FROM t WHERE id = 1 UNION SELECT v FROM t WHERE id = 2",   // a set operation
                "INSERT INTO t SELECT id + 1000, v, s, d, c FROM t WHERE id = 1",    // INSERT ... SELECT
                "UPDATE t SET v = v / 2 WHERE id = 1",                   // division sets no SAME_TYPE place
                "EXPLAIN SELECT v FROM t WHERE id = 5")) {
            assertEquals(Optional.empty(), bindingsOf(sql), sql);
        }
    }

    // ---- the values -----------------------------------------------------------------------------

    @Test
    void aLiteralBindsOnlyIfItsValueConvertsExactly() {
        assertEquals(5L, SimpleParameterization.exactValue(new BigDecimal("5"), SqlType.BIGINT));
        assertEquals(5, SimpleParameterization.exactValue(new BigDecimal("5.00"), SqlType.INT));
        assertNull(SimpleParameterization.exactValue(new BigDecimal("5.5"), SqlType.BIGINT));
        assertNull(SimpleParameterization.exactValue(new BigDecimal("3000000000"), SqlType.INT));
        assertNull(SimpleParameterization.exactValue(new BigDecimal("99999999999999999999"), SqlType.BIGINT));
        assertEquals(new BigDecimal("2.50"), SimpleParameterization.exactValue(new BigDecimal("2.5"), SqlType.decimal(6, 2)));
        assertNull(SimpleParameterization.exactValue(new BigDecimal("2.555"), SqlType.decimal(6, 2)));
        assertNull(SimpleParameterization.exactValue(new BigDecimal("12345.5"), SqlType.decimal(6, 2)));
        assertEquals(0.5, SimpleParameterization.exactValue(new BigDecimal("0.5"), SqlType.DOUBLE));
        assertNull(SimpleParameterization.exactValue(new BigDecimal("0.1"), SqlType.DOUBLE));
        assertEquals("abc", SimpleParameterization.exactValue("abc", SqlType.varchar(3)));
        assertNull(SimpleParameterization.exactValue("abcd", SqlType.varchar(3)));
        assertNull(SimpleParameterization.exactValue("ab ", SqlType.varchar(3)));
        assertEquals("abc", SimpleParameterization.exactValue("abc", SqlType.character(3)));
        assertNull(SimpleParameterization.exactValue("ab", SqlType.character(3)));
        assertNull(SimpleParameterization.exactValue("5", SqlType.BIGINT));
        assertNull(SimpleParameterization.exactValue(new BigDecimal("5"), SqlType.varchar(10)));
        assertNull(SimpleParameterization.exactValue("2024-01-01", SqlType.DATE));

        assertEquals(1, SimpleParameterization.sameTypeValue(new BigDecimal("1"), SqlType.INT));
        assertEquals(1L, SimpleParameterization.sameTypeValue(new BigDecimal("1"), SqlType.BIGINT));
        assertNull(SimpleParameterization.sameTypeValue(new BigDecimal("1.0"), SqlType.INT));
        assertNull(SimpleParameterization.sameTypeValue(new BigDecimal("3000000000"), SqlType.INT));
        assertNull(SimpleParameterization.sameTypeValue(new BigDecimal("1"), SqlType.decimal(6, 2)));
    }

    // ---- through a session ----------------------------------------------------------------------

    private List<List<Object>> rows(String sql) {
        List<List<Object>> rows = new ArrayList<>();
        try (StatementResult.Rows result = (StatementResult.Rows) session.execute(sql)) {
            TableSchema schema = result.schema();
            for (Batch batch = result.next(); batch != null; batch = result.next()) {
                for (int index = 0; index < batch.selectedCount(); index++) {
                    int row = batch.selectedRow(index);
                    List<Object> values = new ArrayList<>();
                    for (int column = 0; column < schema.size(); column++) {
                        values.add(VectorValues.get(batch.column(column), row, schema.column(column).type()));
                    }
                    rows.add(values);
                }
            }
        }
        return rows;
    }

    private long update(String sql) {
        return ((StatementResult.Update) session.execute(sql)).count();
    }

    private int plannedSince() {
        synchronized (planned) {
            int count = planned.size();
            planned.clear();
            return count;
        }
    }

    @Test
    void adHocPointSelectsDifferingInTheKeyArePlannedOnce() {
        for (long id = 1; id <= 50; id++) {
            assertEquals(List.of(List.of((int) (id % 10), "row " + id)), rows("SELECT v, s FROM t WHERE id = " + id));
        }
        assertEquals(1, plannedSince(), "one plan for fifty texts");
        assertEquals(List.of(), rows("SELECT v, s FROM t WHERE id = 5000"));
        assertEquals(0, plannedSince());
        List<List<Object>> cache = rows("SELECT sql_text, use_count FROM sys.plan_cache WHERE sql_text LIKE '(@1%'");
        assertEquals(List.of(List.of("(@1 BIGINT)SELECT v, s FROM t WHERE id = @1", 51L)), cache);
    }

    /**
     * The differential corpus: every query run as written (through the parameterized plan where it
     * qualifies, twice so the second run finds it cached) gives the rows it gives when planned with
     * its literals ({@code OPTION (RECOMPILE)} plans as written and keeps nothing).
     */
    @Test
    void parameterizedPlansGiveTheRowsOfPlansWithTheLiterals() {
        List<String> corpus = List.of(
                "SELECT v, s FROM t WHERE id = 7",
                "SELECT v, s FROM t WHERE id = 7.0",             // exact: binds as 7
                "SELECT v, s FROM t WHERE id = 7.5",             // not exact: planned with the literal, no row
                "SELECT v, s FROM t WHERE id = 1e1",
                "SELECT id FROM t WHERE id = 99999999999999999999",
                "SELECT id FROM t WHERE v = 3000000000",
                "SELECT id FROM t WHERE v < 2.5 AND id < 30 ORDER BY id",
                "SELECT id FROM t WHERE id BETWEEN 10 AND 20 AND v <> 3 ORDER BY id",
                "SELECT id FROM t WHERE id IN (3, 30, 300, 2.5) ORDER BY id",
                "SELECT id FROM t WHERE id NOT IN (3, 30) AND id < 40 ORDER BY id",
                "SELECT id FROM t WHERE s = 'row 12'",
                "SELECT id FROM t WHERE s = 'spaced'",           // trailing spaces: planned with the literal
                "SELECT id FROM t WHERE s = 'spaced '",
                "SELECT id FROM t WHERE s = 'row 12 and far too long for it'",
                "SELECT id FROM t WHERE s > 'row 98' ORDER BY id",
                "SELECT id FROM t WHERE d = 2.5",
                "SELECT id FROM t WHERE d = 2.50",
                "SELECT id FROM t WHERE d > 49.755 ORDER BY id",
                "SELECT id FROM t WHERE c = 'c3x' AND id < 50 ORDER BY id",
                "SELECT id FROM t WHERE c = 'ab'",
                "SELECT id FROM t WHERE c = 'ab '",
                "SELECT id FROM t WHERE v = '3' AND id < 20 ORDER BY id",
                "SELECT COUNT(*), MAX(s) FROM t WHERE id < 100 GROUP BY v ORDER BY 2",
                "SELECT id FROM t WHERE v = 3 OR id = 4 ORDER BY id DESC");
        for (String query : corpus) {
            List<List<Object>> asWritten = rows(query + " OPTION (RECOMPILE)");
            List<List<Object>> first = rows(query);
            List<List<Object>> again = rows(query);
            assertEquals(asWritten, first, query);
            assertEquals(asWritten, again, query);
        }
        // The corpus did go through parameterized plans: the point select's shape is one of them.
        assertTrue(engine.planCache().entries().stream().anyMatch(entry -> entry.key().parameterized()
                && entry.key().text().equals("SELECT v, s FROM t WHERE id = ?") && entry.uses() >= 4));
    }

    @Test
    void insertsUpdatesAndDeletesDifferingInLiteralsArePlannedOnceAndChangeWhatTheirLiteralsSay() {
        session.execute("CREATE TABLE u (id BIGINT PRIMARY KEY, v INT NOT NULL, s VARCHAR(5))");
        // Rows already there, so that the inserts below leave the key statistics (and plans) as they are.
        session.execute("INSERT INTO u SELECT generate_series, 0, 'old' FROM generate_series(1, 1000)");
        plannedSince();
        for (int id = 1001; id <= 1020; id++) {
            assertEquals(1, update("INSERT INTO u VALUES (" + id + ", " + (id * 10) + ", 'x" + (id - 1000) + "')"));
        }
        assertEquals(1, plannedSince(), "twenty inserts, one plan");
        for (int id = 1001; id <= 1010; id++) {
            assertEquals(1, update("UPDATE u SET v = v + 1 WHERE id = " + id));
        }
        assertEquals(1, plannedSince(), "ten updates, one plan");
        assertEquals(1, update("UPDATE u SET v = v + 3000000000 - 3000000000 WHERE id = 1011"));
        assertEquals(1, update("DELETE FROM u WHERE id = 1020"));
        assertEquals(1, update("DELETE FROM u WHERE id = 1019"));
        assertEquals(0, update("DELETE FROM u WHERE id = 1019.5"));
        plannedSince();
        assertEquals(List.of(List.of(1001L, 10011, "x1"), List.of(1010L, 10101, "x10"), List.of(1011L, 10110, "x11"),
                        List.of(1018L, 10180, "x18")),
                rows("SELECT id, v, s FROM u WHERE id IN (1001, 1010, 1011, 1018) ORDER BY id"));
        assertEquals(List.of(List.of(1018L)), rows("SELECT COUNT(*) FROM u"));

        // A literal that does not fit is planned as written and fails as it would have: a string too
        // long for the column is 22001, an integer too large for an INT column 22003.
        ColumbaException tooLong = assertThrows(ColumbaException.class,
                () -> session.execute("INSERT INTO u VALUES (1030, 1, 'too long')"));
        assertEquals(ErrorCode.STRING_TOO_LONG, tooLong.errorCode(), tooLong.getMessage());
        ColumbaException tooLarge = assertThrows(ColumbaException.class,
                () -> session.execute("INSERT INTO u VALUES (1031, 3000000000, 'a')"));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, tooLarge.errorCode(), tooLarge.getMessage());
        assertEquals(List.of(List.of(1018L)), rows("SELECT COUNT(*) FROM u"));
    }

    @Test
    void aLikePatternIsPlannedWithEachText() {
        assertEquals(List.of(List.of(10L)), rows("SELECT COUNT(*) FROM t WHERE s LIKE 'row 19_'"));
        assertEquals(List.of(List.of(1L)), rows("SELECT COUNT(*) FROM t WHERE s LIKE 'row 2__'"));
        assertEquals(2, plannedSince());
        assertFalse(engine.planCache().entries().stream().anyMatch(entry -> entry.key().parameterized()));
    }

    @Test
    void ddlMakesParameterizedPlansStale() {
        rows("SELECT v FROM t WHERE id = 1");
        rows("SELECT v FROM t WHERE id = 2");
        assertEquals(1, plannedSince());
        session.execute("CREATE INDEX t_v ON t (v)");
        plannedSince();
        assertEquals(List.of(List.of(3)), rows("SELECT v FROM t WHERE id = 3"));
        assertEquals(1, plannedSince(), "planned again after CREATE INDEX");
        session.execute("DROP TABLE t");
        ColumbaException gone = assertThrows(ColumbaException.class, () -> rows("SELECT v FROM t WHERE id = 4"));
        assertEquals(ErrorCode.OBJECT_NOT_FOUND, gone.errorCode());
    }
}
