package dev.columba.planner.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad statements fail while planning with a code and a message that points at the problem. */
class ErrorTest {
    @TempDir
    Path directory;
    private TestDatabase db;

    @BeforeEach
    void open() {
        db = new TestDatabase(directory);
        db.createRowstore("t", TableSchema.of(Column.notNull("id", SqlType.INT), Column.nullable("d", SqlType.DATE)),
                List.of(0), true);
    }

    @AfterEach
    void close() {
        db.close();
    }

    private ColumbaException error(String sql) {
        return assertThrows(ColumbaException.class, () -> db.query(sql));
    }

    @Test
    void unknownTableWithPosition() {
        ColumbaException error = error("SELECT * FROM nope");
        assertEquals(ErrorCode.OBJECT_NOT_FOUND, error.errorCode());
        assertTrue(error.getMessage().contains("'nope'") && error.getMessage().contains("line 1, column 15"), error.getMessage());
    }

    @Test
    void unknownColumnWithPosition() {
        ColumbaException error = error("SELECT id,\n  missing FROM t");
        assertEquals(ErrorCode.UNDEFINED_COLUMN, error.errorCode());
        assertTrue(error.getMessage().contains("'missing'") && error.getMessage().contains("line 2, column 3"), error.getMessage());
    }

    @Test
    void typeMismatch() {
        ColumbaException error = error("SELECT id FROM t WHERE d = 5");
        assertEquals(ErrorCode.WRONG_TYPE, error.errorCode());
        assertTrue(error.getMessage().contains("="), error.getMessage());
    }

    @Test
    void namesMatchIgnoringCase() {
        db.update("INSERT INTO T (ID, D) VALUES (1, DATE '2024-01-02')");
        assertEquals(List.of(List.of(1)), db.query("SELECT Id FROM dbo.T WHERE D > DATE '2024-01-01'"));
    }

    @Test
    void unsupportedConstructsSaySo() {
        ColumbaException distinctWindow = error("SELECT COUNT(DISTINCT d) OVER (ORDER BY id) FROM t");
        assertEquals(ErrorCode.FEATURE_NOT_SUPPORTED, distinctWindow.errorCode());
    }

    @Test
    void fullOuterJoinsRun() {
        db.update("INSERT INTO t VALUES (1, NULL), (2, DATE '2024-01-02')");
        assertEquals(List.of(List.of(1, "NULL"), List.of(2, 1), List.of("NULL", 2)),
                db.query("SELECT a.id, b.id FROM t a FULL JOIN t b ON a.id = b.id + 1").stream()
                        .map(row -> row.stream().map(value -> value == null ? (Object) "NULL" : value).toList())
                        .sorted(java.util.Comparator.comparing(Object::toString)).toList());
    }

    @Test
    void windowFunctionsRun() {
        db.update("INSERT INTO t VALUES (1, NULL), (2, DATE '2024-01-02'), (3, DATE '2024-01-02')");
        assertEquals(List.of(List.of(1, 1L, 1L), List.of(2, 2L, 2L), List.of(3, 3L, 2L)),
                db.query("SELECT id, ROW_NUMBER() OVER (ORDER BY id), RANK() OVER (ORDER BY d NULLS FIRST) FROM t ORDER BY id"));
    }

    @Test
    void divisionByZeroFailsAtRunTimeOnlyForRowsThatReachIt() {
        db.update("INSERT INTO t VALUES (0, NULL), (1, NULL)");
        assertEquals(List.of(List.of(1)), db.query("SELECT id FROM t WHERE id <> 0 AND 10 / id > 5"));
        ColumbaException error = error("SELECT 10 / id FROM t");
        assertEquals(ErrorCode.DIVISION_BY_ZERO, error.errorCode());
    }
}
