package dev.columba.planner.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code generate_series} through the planner: its column's name and type, aliases, EXPLAIN,
 * joins, aggregates over a million streamed rows ({@code GenerateSeriesOperatorTest} streams ten
 * million through 1 MB), INSERT ... SELECT, parameters, and the errors for bad arguments with
 * their SQLSTATEs.
 */
class GenerateSeriesTest {
    @TempDir
    Path directory;
    private TestDatabase db;

    @BeforeEach
    void open() {
        db = new TestDatabase(directory);
        db.createRowstore("t", TableSchema.of(Column.notNull("id", SqlType.INT), Column.nullable("name", SqlType.varchar(20))),
                List.of(0), true);
    }

    @AfterEach
    void close() {
        db.close();
    }

    private ColumbaException error(String sql, Object... parameters) {
        return assertThrows(ColumbaException.class, () -> db.query(sql, parameters));
    }

    @Test
    void oneColumnNamedAfterTheFunctionIntForIntArgumentsElseBigint() {
        assertEquals(List.of(List.of(1), List.of(2), List.of(3)), db.query("SELECT * FROM generate_series(1, 3)"));
        assertEquals(TableSchema.of(Column.notNull("generate_series", SqlType.INT)),
                db.plan("SELECT * FROM generate_series(1, 3)").schema());
        assertEquals(TableSchema.of(Column.notNull("generate_series", SqlType.BIGINT)),
                db.plan("SELECT * FROM generate_series(CAST(1 AS BIGINT), 3)").schema());
        assertEquals(List.of(List.of(1L), List.of(1_000_000_001L), List.of(2_000_000_001L)),
                db.query("SELECT * FROM generate_series(1, 3000000000, 1000000000)"), "a literal beyond INT is BIGINT");
        assertEquals(List.of(List.of(5), List.of(3), List.of(1)), db.query("SELECT * FROM generate_series(5, 0, -2)"));
        assertEquals(List.of(), db.query("SELECT * FROM generate_series(3, 1)"));
    }

    @Test
    void aliasesNameTheTableAndTheColumn() {
        assertEquals(TableSchema.of(Column.notNull("n", SqlType.INT)),
                db.plan("SELECT * FROM generate_series(1, 2) AS g(n)").schema());
        assertEquals(List.of(List.of(2), List.of(4)), db.query("SELECT g.n * 2 FROM generate_series(1, 2) AS g(n)"));
        assertEquals(List.of(List.of(1), List.of(2)), db.query("SELECT g.generate_series FROM generate_series(1, 2) g"));
        assertEquals(List.of(List.of(1), List.of(2)), db.query("SELECT x FROM TABLE(generate_series(1, 2)) AS g (x)"));
    }

    @Test
    void explainShowsTheCallItsTypeAndExactEstimate() {
        assertEquals("TableFunctionScan [generate_series(1, 1000000), INT] (estimated rows 1000000, ExecutionMode=Batch)",
                db.explain("SELECT * FROM generate_series(1, 1000000)"));
        assertEquals("TableFunctionScan [generate_series(10, 1, -4), INT] (estimated rows 3, ExecutionMode=Batch)",
                db.explain("SELECT * FROM generate_series(10, 1, -4)"));
        assertEquals("TableFunctionScan [generate_series(?1, ?2), BIGINT] (estimated rows 1000, ExecutionMode=Batch)",
                db.explain("SELECT * FROM generate_series(?, ?)"));
    }

    @Test
    void aggregatesReadAMillionStreamedRows() {
        assertEquals(List.of(List.of(1_000_000L, 1, 1_000_000)),
                db.query("SELECT COUNT(*), MIN(n), MAX(n) FROM generate_series(1, 1000000) AS g(n)"));
        assertEquals(List.of(List.of(new BigDecimal("500000500000"))),
                db.query("SELECT SUM(n) FROM generate_series(CAST(1 AS BIGINT), 1000000) AS g(n)"));
    }

    @Test
    void joinsWithTablesAndWithItself() {
        db.update("INSERT INTO t VALUES (1, 'one'), (2, 'two'), (3, 'three'), (4, 'four')");
        assertEquals(List.of(List.of(2, "two"), List.of(3, "three"), List.of(4, "four")),
                db.query("SELECT g.n, t.name FROM generate_series(2, 6) AS g(n) JOIN t ON t.id = g.n ORDER BY g.n"));
        assertEquals(List.of(List.of(5000L)),
                db.query("SELECT COUNT(*) FROM generate_series(1, 100) a CROSS JOIN generate_series(1, 50) b"));
        assertEquals(List.of(List.of(3, 9)), db.query(
                "SELECT a.generate_series, b.generate_series FROM generate_series(1, 5) a "
                        + "JOIN generate_series(1, 30) b ON b.generate_series = a.generate_series * a.generate_series "
                        + "WHERE a.generate_series = 3"));
    }

    @Test
    void insertSelectFillsATable() {
        assertEquals(991L, db.update("INSERT INTO t SELECT n, 'row ' || CAST(n AS VARCHAR(10)) FROM generate_series(10, 1000) AS g(n)"));
        assertEquals(List.of(List.of(991L, 10, 1000, "row 500")),
                db.query("SELECT COUNT(*), MIN(id), MAX(id), MAX(CASE WHEN id = 500 THEN name END) FROM t"));
    }

    @Test
    void parametersBindTheBounds() {
        assertEquals(List.of(List.of(3L), List.of(4L), List.of(5L)), db.query("SELECT * FROM generate_series(?, ?)", 3, 5));
        assertEquals(List.of(List.of(3), List.of(5)), db.query("SELECT * FROM generate_series(3, ?, 2)", 6),
                "a parameter takes the type of the first typed argument");
        ColumbaException nullBound = error("SELECT * FROM generate_series(1, ?)", (Object) null);
        assertEquals(ErrorCode.INVALID_ARGUMENT, nullBound.errorCode());
        assertTrue(nullBound.getMessage().contains("argument 2 (stop) is NULL"), nullBound.getMessage());
    }

    @Test
    void badArgumentsFailWithSqlStates() {
        ColumbaException text = error("SELECT * FROM generate_series('a', 3)");
        assertEquals(ErrorCode.WRONG_TYPE, text.errorCode());
        assertEquals("42804", text.errorCode().sqlState());
        assertTrue(text.getMessage().contains("generate_series(<BIGINT>, <BIGINT>)"), text.getMessage());
        assertEquals(ErrorCode.WRONG_TYPE, error("SELECT * FROM generate_series(1.5, 3)").errorCode());
        assertEquals(ErrorCode.WRONG_TYPE, error("SELECT * FROM generate_series(DATE '2024-01-01', 3)").errorCode());

        ColumbaException count = error("SELECT * FROM generate_series(1)");
        assertEquals("42000", count.errorCode().sqlState());
        assertTrue(count.getMessage().contains("generate_series"), count.getMessage());

        ColumbaException nullStart = error("SELECT * FROM generate_series(NULL, 3)");
        assertEquals(ErrorCode.INVALID_ARGUMENT, nullStart.errorCode());
        assertEquals("22023", nullStart.errorCode().sqlState());
        assertTrue(nullStart.getMessage().contains("argument 1 (start) is NULL"), nullStart.getMessage());
        ColumbaException zero = error("SELECT * FROM generate_series(1, 3, 0)");
        assertEquals(ErrorCode.INVALID_ARGUMENT, zero.errorCode());
        assertTrue(zero.getMessage().contains("step must not be 0"), zero.getMessage());
    }
}
