package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ALTER TABLE t ADD [COLUMN]} and {@code DROP [COLUMN]} on rowstore heaps, clustered tables
 * and columnstore tables (docs/design/planner.md, "ADD COLUMN and DROP COLUMN"): the rows already
 * there take the new column's DEFAULT or NULL, later rows its DEFAULT, and what the table had
 * survives a reopen; misuse fails with its SQLSTATE before anything changes.
 */
class AlterTableColumnTest {
    private static final String HEAP = "heap";
    private static final String CLUSTERED = "clustered";
    private static final String COLUMNSTORE = "columnstore";

    @TempDir
    Path directory;

    private static String table(String kind, String name, String columns) {
        return switch (kind) {
            case HEAP -> "CREATE TABLE " + name + " (id INT NOT NULL, " + columns + ")";
            case CLUSTERED -> "CREATE TABLE " + name + " (id INT NOT NULL PRIMARY KEY, " + columns + ")";
            case COLUMNSTORE -> "CREATE TABLE " + name + " (id INT NOT NULL, " + columns + ") WITH (storage = columnstore)";
            default -> throw new IllegalArgumentException(kind);
        };
    }

    private static ColumbaException fails(Session session, String sql, ErrorCode code) {
        ColumbaException error = assertThrows(ColumbaException.class, () -> session.execute(sql), sql);
        assertEquals(code, error.errorCode(), error.getMessage());
        return error;
    }

    private static List<List<Object>> all(Session session) {
        return query(session, "SELECT * FROM t ORDER BY id");
    }

    @ParameterizedTest
    @ValueSource(strings = {HEAP, CLUSTERED, COLUMNSTORE})
    void addedColumnReadsItsDefaultOrNullInOldRowsAndItsDefaultInNewOnes(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute(table(kind, "t", "a VARCHAR(10)"));
            update(session, "INSERT INTO t VALUES (1, 'one'), (2, NULL)");
            session.execute("ALTER TABLE t ADD COLUMN n INT NOT NULL DEFAULT 7");
            session.execute("ALTER TABLE t ADD d DECIMAL(10,2) DEFAULT 1.5");
            session.execute("ALTER TABLE t ADD s VARCHAR(5)");
            update(session, "INSERT INTO t (id, s) VALUES (3, 'x')");
            update(session, "INSERT INTO t VALUES (4, 'four', 8, NULL, 'y')");
            BigDecimal half = new BigDecimal("1.50");
            List<List<Object>> expected = List.of(
                    Arrays.asList(1, "one", 7, half, null),
                    Arrays.asList(2, null, 7, half, null),
                    Arrays.asList(3, null, 7, half, "x"),
                    Arrays.asList(4, "four", 8, null, "y"));
            assertEquals(expected, all(session));
            // The new column is NOT NULL for the rows written after it, as for those before.
            fails(session, "INSERT INTO t (id, n) VALUES (5, NULL)", ErrorCode.NULL_NOT_ALLOWED);
            assertEquals(List.of(List.of(4L)), query(session, "SELECT COUNT(*) FROM t WHERE n >= 7"));
        }
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            assertEquals(4, all(session).size());
            assertEquals(List.of(Arrays.asList(3, null, 7, new BigDecimal("1.50"), "x")),
                    query(session, "SELECT * FROM t WHERE id = 3"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {HEAP, CLUSTERED, COLUMNSTORE})
    void notNullWithoutDefaultIsAddedToAnEmptyTableOnly(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute(table(kind, "t", "a INT"));
            session.execute("ALTER TABLE t ADD b INT NOT NULL");
            update(session, "INSERT INTO t VALUES (1, 10, 100)");
            ColumbaException error = fails(session, "ALTER TABLE t ADD c INT NOT NULL", ErrorCode.NULL_NOT_ALLOWED);
            assertTrue(error.getMessage().contains("c"), error.getMessage());
            fails(session, "ALTER TABLE t ADD a BIGINT", ErrorCode.OBJECT_ALREADY_EXISTS);
            fails(session, "ALTER TABLE t ADD c INT DEFAULT (a + 1)", ErrorCode.INVALID_STATEMENT);
            fails(session, "ALTER TABLE t ADD c INT IDENTITY", ErrorCode.FEATURE_NOT_SUPPORTED);
            fails(session, "ALTER TABLE t ADD c AS CAST(a * 2 AS INT)", ErrorCode.FEATURE_NOT_SUPPORTED);
            fails(session, "ALTER TABLE t ADD c INT UNIQUE", ErrorCode.SYNTAX_ERROR);
            fails(session, "ALTER TABLE nope ADD c INT", ErrorCode.OBJECT_NOT_FOUND);
            assertEquals(List.of(List.of(1, 10, 100)), all(session));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {HEAP, CLUSTERED, COLUMNSTORE})
    void droppedColumnGoesWithItsOptionsAndTheOthersKeepTheirValues(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute(table(kind, "t", "a INT DEFAULT 3, b VARCHAR(10), c INT DEFAULT 9"));
            update(session, "INSERT INTO t VALUES (1, 1, 'x', 11), (2, NULL, 'y', 12)");
            session.execute("ALTER TABLE t DROP COLUMN a");
            session.execute("ALTER TABLE t DROP COLUMN IF EXISTS a");
            assertEquals(List.of(List.of(1, "x", 11), List.of(2, "y", 12)), all(session));
            update(session, "INSERT INTO t (id, b) VALUES (3, 'z')");
            assertEquals(List.of(3, "z", 9), all(session).get(2));
            // A column of the same name comes back without the dropped one's default.
            session.execute("ALTER TABLE t ADD a INT");
            assertEquals(Arrays.asList(3, "z", 9, null), all(session).get(2));
            fails(session, "ALTER TABLE t DROP COLUMN nope", ErrorCode.UNDEFINED_COLUMN);
        }
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            assertEquals(List.of(Arrays.asList(1, "x", 11, null), Arrays.asList(2, "y", 12, null),
                    Arrays.asList(3, "z", 9, null)), all(session));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {HEAP, CLUSTERED, COLUMNSTORE})
    void aColumnSomethingDependsOnIsNotDropped(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute(table(kind, "t", "a INT, b INT, c INT, CONSTRAINT positive CHECK (b > 0), d AS CAST(c * 2 AS INT)"));
            update(session, "INSERT INTO t (id, a, b, c) VALUES (1, 1, 1, 1)");
            assertTrue(fails(session, "ALTER TABLE t DROP COLUMN b", ErrorCode.INVALID_STATEMENT).getMessage()
                    .contains("positive"));
            fails(session, "ALTER TABLE t DROP COLUMN c", ErrorCode.INVALID_STATEMENT);
            if (kind.equals(CLUSTERED)) {
                fails(session, "ALTER TABLE t DROP COLUMN id", ErrorCode.INVALID_STATEMENT);
            }
            session.execute("ALTER TABLE t DROP COLUMN d");
            session.execute("ALTER TABLE t DROP COLUMN c");
            session.execute("ALTER TABLE t DROP CONSTRAINT positive");
            session.execute("ALTER TABLE t DROP b");
            assertEquals(List.of(List.of(1, 1)), all(session));
            session.execute("ALTER TABLE t DROP COLUMN a");
            fails(session, "ALTER TABLE t DROP COLUMN id", ErrorCode.INVALID_STATEMENT);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {HEAP, CLUSTERED})
    void secondaryIndexesAreRebuiltOnTheirColumns(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute(table(kind, "t", "a INT, b INT, c INT CONSTRAINT uc UNIQUE"));
            session.execute("CREATE INDEX tb ON t (b)");
            update(session, "INSERT INTO t VALUES (1, 1, 10, 100), (2, 2, 20, 200)");
            fails(session, "ALTER TABLE t DROP COLUMN b", ErrorCode.INVALID_STATEMENT);
            session.execute("ALTER TABLE t DROP COLUMN a");
            session.execute("ALTER TABLE t ADD e INT DEFAULT 0");
            assertEquals(List.of(List.of(2, 20, 200, 0)), query(session, "SELECT * FROM t WHERE b = 20"));
            // The UNIQUE constraint's index moved with its column and still refuses a duplicate.
            fails(session, "INSERT INTO t VALUES (3, 30, 100, 0)", ErrorCode.DUPLICATE_KEY);
            update(session, "INSERT INTO t VALUES (3, 30, 300, 0)");
            assertEquals(List.of(List.of(3)), query(session, "SELECT id FROM t WHERE c = 300"));
        }
    }

    @Test
    void addColumnRollsBackWithItsTransaction() {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute(table(HEAP, "t", "a INT"));
            update(session, "INSERT INTO t VALUES (1, 1)");
            session.setAutoCommit(false);
            session.execute("ALTER TABLE t ADD b INT DEFAULT 2");
            assertEquals(List.of(List.of(1, 1, 2)), all(session));
            session.rollback();
            session.setAutoCommit(true);
            assertEquals(List.of(List.of(1, 1)), all(session));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {HEAP, CLUSTERED})
    void alterColumnChangesTypeAndNullabilityThroughTheSameRewrite(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute(table(kind, "t", "a BIGINT, b INT"));
            session.execute("CREATE INDEX ta ON t (a DESC)");
            update(session, "INSERT INTO t VALUES (1, 10, NULL), (2, 3000000000, 2)");
            fails(session, "ALTER TABLE t ALTER COLUMN a INT", ErrorCode.VALUE_OUT_OF_RANGE);
            fails(session, "ALTER TABLE t ALTER COLUMN b INT NOT NULL", ErrorCode.NULL_NOT_ALLOWED);
            update(session, "DELETE FROM t WHERE id = 2");
            session.execute("ALTER TABLE t ALTER COLUMN a INT NOT NULL");
            session.execute("ALTER TABLE t ALTER COLUMN b BIGINT");
            assertEquals(List.of(Arrays.asList(1, 10, null)), all(session));
            assertEquals(List.of(List.of(1)), query(session, "SELECT id FROM t WHERE a = 10"));
            fails(session, "INSERT INTO t VALUES (3, NULL, 1)", ErrorCode.NULL_NOT_ALLOWED);
        }
    }
}
