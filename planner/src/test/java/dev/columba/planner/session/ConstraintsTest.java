package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * UNIQUE and CHECK constraints and column DEFAULTs (docs/design/planner.md, "Constraints and
 * defaults"): enforced by INSERT ... VALUES, INSERT ... SELECT, UPDATE, executeBatch and COPY, a
 * failing row anywhere in a statement leaving the table as it was; NULLs never collide under UNIQUE
 * and pass a CHECK. CHECK and DEFAULT run on rowstore heaps, clustered tables and columnstore
 * tables; UNIQUE on rowstore tables, refused (0A000) on columnstore ones.
 */
class ConstraintsTest {
    /** The table options of each storage kind (a clustered table gets a PRIMARY KEY instead). */
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

    private static List<List<Object>> all(Session session, String table) {
        return query(session, "SELECT * FROM " + table + " ORDER BY id");
    }

    // ---- UNIQUE -------------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {HEAP, CLUSTERED})
    void uniqueRefusesDuplicatesAndAdmitsManyNulls(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute(table(kind, "t", "z INTEGER UNIQUE, a INT, b VARCHAR(10), CONSTRAINT t_ab UNIQUE (a, b)"));
            assertEquals(4, update(session, "INSERT INTO t VALUES (1, 1, 1, 'x'), (2, NULL, 1, 'y'), (3, NULL, NULL, 'x'),"
                    + " (4, 4, NULL, 'x')"));
            ColumbaException single = fails(session, "INSERT INTO t VALUES (5, 1, 9, 'q')", ErrorCode.DUPLICATE_KEY);
            assertTrue(single.getMessage().contains("t_z_key"), single.getMessage());
            ColumbaException pair = fails(session, "INSERT INTO t VALUES (6, 6, 1, 'x')", ErrorCode.DUPLICATE_KEY);
            assertTrue(pair.getMessage().contains("t_ab"), pair.getMessage());
            // Same a, other b; NULL in one column of the pair never collides.
            assertEquals(2, update(session, "INSERT INTO t VALUES (7, 7, 1, 'z'), (8, NULL, NULL, 'x')"));
            assertEquals(6, all(session, "t").size());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {HEAP, CLUSTERED})
    void aFailingRowInTheMiddleOfAnyWriteLeavesTheTableUnchanged(String kind) throws IOException {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute(table(kind, "t", "z INT CONSTRAINT uz UNIQUE"));
            update(session, "INSERT INTO t VALUES (1, 10), (2, 20)");
            List<List<Object>> before = all(session, "t");

            fails(session, "INSERT INTO t VALUES (3, 30), (4, 10), (5, 50)", ErrorCode.DUPLICATE_KEY);
            fails(session, "INSERT INTO t VALUES (3, 30), (4, 30)", ErrorCode.DUPLICATE_KEY);
            fails(session, "INSERT INTO t SELECT id + 10, z + 1 FROM t UNION ALL SELECT 99, 20", ErrorCode.DUPLICATE_KEY);
            fails(session, "UPDATE t SET z = 10 WHERE id = 2", ErrorCode.DUPLICATE_KEY);
            ColumbaException batch = assertThrows(ColumbaException.class, () -> session.executeBatch(
                    "INSERT INTO t VALUES (?, ?)", List.of(List.of(3, 30), List.of(4, 40), List.of(5, 20))));
            assertEquals(ErrorCode.DUPLICATE_KEY, batch.errorCode());
            Path csv = directory.resolve("dup.csv");
            Files.writeString(csv, "3,30\n4,40\n5,30\n6,60\n");
            fails(session, "COPY t FROM '" + csv + "'", ErrorCode.DUPLICATE_KEY);
            assertEquals(before, all(session, "t"));

            // Swapping values in one UPDATE is fine: the statement's rows are deleted before any is inserted.
            assertEquals(2, update(session, "UPDATE t SET z = 30 - z"));
            assertEquals(List.of(List.of(1, 20), List.of(2, 10)), all(session, "t"));
        }
    }

    @Test
    void uniqueConstraintsAreRefusedOnColumnstoreTablesAndTheirIndexCannotBeDroppedAlone() {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            ColumbaException columnstore = fails(session, table(COLUMNSTORE, "c", "z INT UNIQUE"),
                    ErrorCode.FEATURE_NOT_SUPPORTED);
            assertTrue(columnstore.getMessage().contains("columnstore"), columnstore.getMessage());
            fails(session, "CREATE TABLE c2 (id INT, z INT, UNIQUE CLUSTERED (z))", ErrorCode.SYNTAX_ERROR);

            session.execute(table(HEAP, "t", "z INT CONSTRAINT uz UNIQUE"));
            fails(session, "CREATE CLUSTERED COLUMNSTORE INDEX cci ON t", ErrorCode.FEATURE_NOT_SUPPORTED);
            fails(session, "DROP INDEX uz", ErrorCode.INVALID_STATEMENT);
            session.execute("DROP TABLE t");
            // The constraint's index went with its table: the name is free again.
            session.execute(table(HEAP, "t2", "z INT CONSTRAINT uz UNIQUE"));
        }
    }

    // ---- CHECK --------------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {HEAP, CLUSTERED, COLUMNSTORE})
    void checkFailsFalseRowsAndPassesUnknownOnes(String kind) throws IOException {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute(table(kind, "t", "c INT CONSTRAINT c_positive CHECK (c > 0), d INT, CHECK (d IS NULL OR d < c)"));
            assertEquals(3, update(session, "INSERT INTO t VALUES (1, 5, 1), (2, NULL, 7), (3, 2, NULL)"));
            List<List<Object>> before = all(session, "t");

            ColumbaException zero = fails(session, "INSERT INTO t VALUES (4, 6, 1), (5, 0, NULL), (6, 7, 1)",
                    ErrorCode.CHECK_VIOLATION);
            assertTrue(zero.getMessage().contains("c_positive"), zero.getMessage());
            ColumbaException table = fails(session, "INSERT INTO t VALUES (4, 3, 3)", ErrorCode.CHECK_VIOLATION);
            assertTrue(table.getMessage().contains("t_check"), table.getMessage());
            fails(session, "INSERT INTO t SELECT id + 10, c - 2, NULL FROM t WHERE c IS NOT NULL", ErrorCode.CHECK_VIOLATION);
            fails(session, "UPDATE t SET d = 9 WHERE id = 1", ErrorCode.CHECK_VIOLATION);
            fails(session, "UPDATE t SET c = c - 5", ErrorCode.CHECK_VIOLATION);
            ColumbaException batch = assertThrows(ColumbaException.class, () -> session.executeBatch(
                    "INSERT INTO t VALUES (?, ?, ?)", List.of(List.of(7, 1, 0), Arrays.asList(8, -1, null))));
            assertEquals(ErrorCode.CHECK_VIOLATION, batch.errorCode());
            assertTrue(batch.getMessage().contains("parameter set 2"), batch.getMessage());
            Path csv = directory.resolve("bad.csv");
            Files.writeString(csv, "7,1,\n8,-1,\n9,3,\n");
            ColumbaException copy = fails(session, "COPY t FROM '" + csv + "'", ErrorCode.CHECK_VIOLATION);
            assertTrue(copy.getMessage().contains("line 2"), copy.getMessage());
            assertEquals(before, all(session, "t"));

            // NULL makes the condition unknown, which passes.
            assertEquals(1, update(session, "UPDATE t SET c = NULL WHERE id = 1"));
            Files.writeString(csv, "7,1,\n8,,5\n");
            assertEquals(2, update(session, "COPY t FROM '" + csv + "'"));
            assertEquals(5, all(session, "t").size());
        }
    }

    @Test
    void checkConstraintsSurviveReopen() {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute(table(CLUSTERED, "t", "c VARCHAR(10) CHECK (CHAR_LENGTH(c) >= 2)"));
        }
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            fails(session, "INSERT INTO t VALUES (1, 'a')", ErrorCode.CHECK_VIOLATION);
            assertEquals(1, update(session, "INSERT INTO t VALUES (1, 'ab')"));
        }
    }

    // ---- ALTER TABLE ... ADD / DROP CONSTRAINT ------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {HEAP, CLUSTERED, COLUMNSTORE})
    void addedConstraintsAreCheckedAgainstExistingRowsAndDroppedOnesStopApplying(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute(table(kind, "t", "z INT"));
            update(session, "INSERT INTO t VALUES (1, 5), (2, -1), (3, NULL)");
            ColumbaException existing = fails(session, "ALTER TABLE t ADD CONSTRAINT z_positive CHECK (z > 0)",
                    ErrorCode.CHECK_VIOLATION);
            assertTrue(existing.getMessage().contains("z_positive"), existing.getMessage());
            update(session, "DELETE FROM t WHERE id = 2");
            session.execute("ALTER TABLE t ADD CONSTRAINT z_positive CHECK (z > 0)");
            fails(session, "INSERT INTO t VALUES (4, 0)", ErrorCode.CHECK_VIOLATION);
            fails(session, "ALTER TABLE t ADD CONSTRAINT Z_POSITIVE CHECK (z < 9)", ErrorCode.OBJECT_ALREADY_EXISTS);
            if (kind.equals(COLUMNSTORE)) {
                fails(session, "ALTER TABLE t ADD UNIQUE (z)", ErrorCode.FEATURE_NOT_SUPPORTED);
            } else {
                update(session, "INSERT INTO t VALUES (4, 5)");
                fails(session, "ALTER TABLE t ADD UNIQUE (z)", ErrorCode.DUPLICATE_KEY);
                update(session, "DELETE FROM t WHERE id = 4");
                session.execute("ALTER TABLE t ADD UNIQUE (z)");
                fails(session, "INSERT INTO t VALUES (4, 5)", ErrorCode.DUPLICATE_KEY);
                assertEquals(List.of(List.of("t_z_key")), query(session, "SELECT constraint_name FROM sys.key_constraints WHERE type = 'UQ'"));
                session.execute("ALTER TABLE t DROP CONSTRAINT t_z_key");
                update(session, "INSERT INTO t VALUES (4, 5)");
            }
            session.execute("ALTER TABLE t DROP CONSTRAINT z_positive");
            update(session, "INSERT INTO t VALUES (5, 0)");
            fails(session, "ALTER TABLE t DROP CONSTRAINT z_positive", ErrorCode.OBJECT_NOT_FOUND);
            session.execute("ALTER TABLE t DROP CONSTRAINT IF EXISTS z_positive");
            assertEquals(List.of(), query(session, "SELECT constraint_name FROM sys.check_constraints"));
        }
    }

    // ---- DEFAULT ------------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {HEAP, CLUSTERED, COLUMNSTORE})
    void defaultsFillOmittedColumnsButNotExplicitNulls(String kind) throws IOException {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute(table(kind, "t", "n INT NOT NULL DEFAULT 7, s VARCHAR(10) DEFAULT 'none',"
                    + " x DECIMAL(6, 2) DEFAULT (1 + 1), plain INT"));
            update(session, "INSERT INTO t (id) VALUES (1)");
            update(session, "INSERT INTO t (id, s, x) VALUES (2, NULL, NULL)");
            update(session, "INSERT INTO t VALUES (3, DEFAULT, DEFAULT, 3.5, DEFAULT)");
            update(session, "INSERT INTO t (id, plain) SELECT id + 10, id FROM t WHERE id = 1");
            fails(session, "INSERT INTO t (id, n) VALUES (4, NULL)", ErrorCode.NULL_NOT_ALLOWED);
            Path csv = directory.resolve("ids.csv");
            Files.writeString(csv, "5,x\n");
            assertEquals(1, update(session, "COPY t (id, s) FROM '" + csv + "'"));
            assertEquals(List.of(
                    List.of(1, 7, "none", new java.math.BigDecimal("2.00")),
                    Arrays.asList(2, 7, null, null),
                    List.of(3, 7, "none", new java.math.BigDecimal("3.50")),
                    List.of(5, 7, "x", new java.math.BigDecimal("2.00")),
                    List.of(11, 7, "none", new java.math.BigDecimal("2.00"))),
                    query(session, "SELECT id, n, s, x FROM t ORDER BY id"));
        }
    }

    @Test
    void constraintsThatCannotBeMetAreRefusedWhenDeclared() {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            fails(session, "CREATE TABLE t (id INT IDENTITY DEFAULT 3)", ErrorCode.INVALID_STATEMENT);
            fails(session, "CREATE TABLE t (id INT, z INT, CONSTRAINT k UNIQUE (z), CONSTRAINT k CHECK (z > 0))",
                    ErrorCode.OBJECT_ALREADY_EXISTS);
            fails(session, "CREATE TABLE t (id INT, UNIQUE (id, id))", ErrorCode.INVALID_STATEMENT);
            fails(session, "CREATE TABLE t (id INT, UNIQUE (nope))", ErrorCode.OBJECT_NOT_FOUND);
            fails(session, "CREATE TABLE t (id INT CONSTRAINT dangling NULL)", ErrorCode.SYNTAX_ERROR);
            fails(session, "CREATE TABLE t (id INT, CHECK (idd > 0))", ErrorCode.UNDEFINED_COLUMN);
            fails(session, "CREATE TABLE t (id INT, z INT DEFAULT id)", ErrorCode.INVALID_STATEMENT);
            fails(session, "CREATE TABLE t (id INT, z INT, CONSTRAINT z_key UNIQUE (z)) WITH (storage = columnstore)",
                    ErrorCode.FEATURE_NOT_SUPPORTED);
            // None of the failed statements left a table behind.
            session.execute("CREATE TABLE t (id INT, d DATE DEFAULT CURRENT_DATE, CHECK (id <> 0))");
            assertEquals(1, update(session, "INSERT INTO t (id) VALUES (1)"));
            assertEquals(List.of(List.of(1)), query(session, "SELECT id FROM t WHERE d IS NOT NULL"));
        }
    }

    // ---- UPDATE ... SET c = DEFAULT -----------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {HEAP, CLUSTERED, COLUMNSTORE})
    void updateSetDefaultWritesTheColumnsDefaultOrNull(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute(table(kind, "t", "a VARCHAR(10) DEFAULT 'dflt', b INT DEFAULT (40 + 2), c INT,"
                    + " d INT NOT NULL"));
            update(session, "INSERT INTO t VALUES (1, 'one', 1, 1, 1), (2, 'two', 2, 2, 2)");
            assertEquals(1, update(session, "UPDATE t SET a = DEFAULT, c = DEFAULT, b = b + 1 WHERE id = 1"));
            assertEquals(1, update(session, "UPDATE t SET b = DEFAULT, d = 20 WHERE id = 2"));
            assertEquals(List.of(Arrays.asList(1, "dflt", 2, null, 1), Arrays.asList(2, "two", 42, 2, 20)),
                    all(session, "t"));
            // NOT NULL without a default: DEFAULT is NULL, which the column refuses (PostgreSQL's 23502).
            fails(session, "UPDATE t SET d = DEFAULT WHERE id = 1", ErrorCode.NULL_NOT_ALLOWED);
            fails(session, "UPDATE t SET nope = DEFAULT", ErrorCode.INVALID_STATEMENT);
            assertEquals(List.of(Arrays.asList(1, "dflt", 2, null, 1), Arrays.asList(2, "two", 42, 2, 20)),
                    all(session, "t"));
        }
    }
}
