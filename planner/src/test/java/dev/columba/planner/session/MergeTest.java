package dev.columba.planner.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SQL Server's MERGE on a table with a primary key, a heap and a columnstore table: every clause
 * kind with and without AND conditions, the order clauses are tried in, NULL keys, an empty
 * source, a target row matched twice (21000), constraints and rollback, parameters.
 */
class MergeTest {
    @TempDir
    Path directory;

    private static String create(String kind) {
        return "CREATE TABLE t (id INT NOT NULL" + (kind.equals("clustered") ? " PRIMARY KEY" : "")
                + ", name VARCHAR(10), n INT)" + (kind.equals("columnstore") ? " WITH (storage = columnstore)" : "");
    }

    private static Session seeded(Engine engine, String kind) {
        Session session = engine.openSession();
        session.execute(create(kind));
        session.execute("CREATE TABLE s (id INT, name VARCHAR(10), n INT)");
        session.execute("INSERT INTO t VALUES (1, 'one', 10), (2, 'two', 20), (3, 'three', 30)");
        return session;
    }

    private static List<List<Object>> contents(Session session) {
        return SessionRows.query(session, "SELECT id, name, n FROM t ORDER BY id, name, n");
    }

    private static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore"})
    void upsertUpdatesMatchedRowsAndInsertsTheOthers(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = seeded(engine, kind)) {
            long count = SessionRows.update(session, """
                    MERGE INTO t AS target
                    USING (VALUES (2, 'TWO', 22), (4, 'four', 40)) AS source (id, name, n)
                    ON target.id = source.id
                    WHEN MATCHED THEN UPDATE SET name = source.name, n = target.n + source.n
                    WHEN NOT MATCHED THEN INSERT (id, name, n) VALUES (source.id, source.name, source.n);""");
            assertEquals(2, count);
            assertEquals(List.of(row(1, "one", 10), row(2, "TWO", 42), row(3, "three", 30), row(4, "four", 40)),
                    contents(session));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore"})
    void everyClauseKindWithAndWithoutConditions(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = seeded(engine, kind)) {
            session.execute("INSERT INTO t VALUES (5, 'five', 50), (6, 'six', 60)");
            session.execute("INSERT INTO s VALUES (1, 'uno', 1), (2, 'dos', -1), (3, 'tres', 3), (7, 'siete', 7), (8, 'ocho', -8)");
            // Matched: 2 is deleted (first clause), 1 and 3 updated; not matched by target: 7 inserted,
            // 8 left out (its condition fails); not matched by source: 5 deleted, 6 updated.
            long count = SessionRows.update(session, """
                    MERGE t USING s ON t.id = s.id
                    WHEN MATCHED AND s.n < 0 THEN DELETE
                    WHEN MATCHED THEN UPDATE SET t.name = s.name
                    WHEN NOT MATCHED BY TARGET AND s.n > 0 THEN INSERT VALUES (s.id, s.name, s.n)
                    WHEN NOT MATCHED BY SOURCE AND t.id = 5 THEN DELETE
                    WHEN NOT MATCHED BY SOURCE THEN UPDATE SET n = t.n + 1""");
            assertEquals(6, count);
            assertEquals(List.of(row(1, "uno", 10), row(3, "tres", 30), row(6, "six", 61), row(7, "siete", 7)),
                    contents(session));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore"})
    void severalMatchedClausesAreTriedInOrder(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = seeded(engine, kind)) {
            session.execute("INSERT INTO s VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3)");
            // Row 2 satisfies both of the first two conditions: the first clause takes it.
            long count = SessionRows.update(session, """
                    MERGE t USING s ON t.id = s.id
                    WHEN MATCHED AND s.n >= 2 THEN UPDATE SET name = 'first'
                    WHEN MATCHED AND s.n <= 2 THEN UPDATE SET name = 'second'
                    WHEN MATCHED THEN DELETE;""");
            assertEquals(3, count);
            assertEquals(List.of(row(1, "second", 10), row(2, "first", 20), row(3, "first", 30)), contents(session));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore"})
    void anEmptySourceChangesNothingOrDeletesEverythingBySource(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = seeded(engine, kind)) {
            assertEquals(0, SessionRows.update(session, """
                    MERGE t USING s ON t.id = s.id
                    WHEN MATCHED THEN DELETE
                    WHEN NOT MATCHED THEN INSERT (id) VALUES (s.id)"""));
            assertEquals(3, contents(session).size());
            assertEquals(3, SessionRows.update(session, "MERGE t USING s ON t.id = s.id WHEN NOT MATCHED BY SOURCE THEN DELETE"));
            assertEquals(List.of(), contents(session));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore"})
    void nullKeysNeverMatch(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute(create(kind).replace("id INT NOT NULL PRIMARY KEY", "id INT NOT NULL PRIMARY KEY, k INT")
                    .replace("id INT NOT NULL,", "id INT NOT NULL, k INT,"));
            session.execute("INSERT INTO t VALUES (1, NULL, 'null key', 0), (2, 5, 'five', 0)");
            long count = SessionRows.update(session, """
                    MERGE t USING (VALUES (CAST(NULL AS INT), 'x'), (5, 'y')) AS s (k, name) ON t.k = s.k
                    WHEN MATCHED THEN UPDATE SET n = n + 1
                    WHEN NOT MATCHED BY TARGET THEN INSERT (id, k, name, n) VALUES (3, s.k, s.name, 100)
                    WHEN NOT MATCHED BY SOURCE THEN UPDATE SET n = -1""");
            assertEquals(3, count);
            assertEquals(List.of(row(1, null, "null key", -1), row(2, 5, "five", 1), row(3, null, "x", 100)),
                    SessionRows.query(session, "SELECT id, k, name, n FROM t ORDER BY id"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore"})
    void aTargetRowMatchedTwiceFailsAndChangesNothing(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = seeded(engine, kind)) {
            session.execute("INSERT INTO s VALUES (1, 'a', 1), (2, 'b', 2), (2, 'b', 2)");
            ColumbaException twice = assertThrows(ColumbaException.class, () -> session.execute("""
                    MERGE t USING s ON t.id = s.id
                    WHEN MATCHED THEN UPDATE SET n = s.n
                    WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.name, s.n)"""));
            assertEquals(ErrorCode.CARDINALITY_VIOLATION, twice.errorCode());
            assertEquals("21000", twice.errorCode().sqlState());
            assertTrue(twice.getMessage().contains("attempted to UPDATE or DELETE the same row more than once"),
                    twice.getMessage());
            assertEquals(List.of(row(1, "one", 10), row(2, "two", 20), row(3, "three", 30)), contents(session));
            // Two equal source rows that only insert, or match rows no clause changes, are no error.
            assertEquals(1, SessionRows.update(session, """
                    MERGE t USING s ON t.id = s.id
                    WHEN MATCHED AND s.id = 1 THEN DELETE"""));
        }
    }

    /**
     * The statement MergeDifferentialTest's seed 77439400915755 (statement 131) ran: target row 0,
     * two source rows of id 0, one deleting it, the other taking no clause. Whether a source row
     * is matched is decided by the join, before anything changes: the second row matched row 0, so
     * no NOT MATCHED clause applies to it even though row 0 is gone afterwards, and the result does
     * not depend on the order of the source rows (H2, which processes source rows one at a time,
     * inserts the second one when it comes after the deleting one, and refuses the statement when
     * it comes first).
     */
    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore"})
    void aSourceRowMatchingARowAnotherSourceRowDeletesIsNotInserted(String kind) {
        for (String sourceRows : List.of("(0, NULL, 36), (0, 'keep', 4)", "(0, 'keep', 4), (0, NULL, 36)")) {
            try (Engine engine = SessionRows.open(directory.resolve(kind + sourceRows.hashCode()));
                 Session session = seeded(engine, kind)) {
                session.execute("INSERT INTO t VALUES (0, 'zero', 29)");
                session.execute("INSERT INTO s VALUES " + sourceRows);
                long count = SessionRows.update(session, """
                        MERGE INTO t USING (SELECT id, name, n FROM s WHERE n IS NULL OR n > -3) AS s ON t.id = s.id
                        WHEN NOT MATCHED AND s.n < 8 THEN INSERT (id, name) VALUES (s.id, 'i')
                        WHEN MATCHED AND s.name IS NULL THEN DELETE
                        WHEN NOT MATCHED AND s.n < 3 THEN INSERT (id, name, n) VALUES (s.id, s.name, s.n + 19)""");
                assertEquals(1, count, sourceRows);
                assertEquals(List.of(row(1, "one", 10), row(2, "two", 20), row(3, "three", 30)), contents(session),
                        sourceRows);
            }
        }
    }

    /**
     * Source rows sharing a key that no target row has: each is a row of its own, takes the first
     * NOT MATCHED clause whose condition it satisfies (a later one when an earlier one's AND is
     * false for it), and is inserted; beside them, rows that match are updated or deleted. In the
     * table with a primary key two inserted rows of one key are 23505 and change nothing.
     */
    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore"})
    void sourceRowsSharingAKeyNoTargetRowHasAreEachInserted(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = seeded(engine, kind)) {
            // Two rows of key 4: only the second satisfies the first clause; the first takes the second.
            session.execute("INSERT INTO s VALUES (4, 'a', 36), (4, 'b', 4), (1, NULL, 0), (2, 'x', 0)");
            String merge = """
                    MERGE INTO t USING s ON t.id = s.id
                    WHEN NOT MATCHED AND s.n < 8 THEN INSERT (id, name) VALUES (s.id, 'first')
                    WHEN MATCHED AND s.name IS NULL THEN DELETE
                    WHEN MATCHED THEN UPDATE SET n = t.n + 1
                    WHEN NOT MATCHED THEN INSERT (id, name, n) VALUES (s.id, s.name, s.n + 19)""";
            if (kind.equals("clustered")) {
                ColumbaException duplicate = assertThrows(ColumbaException.class, () -> session.execute(merge));
                assertEquals(ErrorCode.DUPLICATE_KEY, duplicate.errorCode());
                assertEquals(List.of(row(1, "one", 10), row(2, "two", 20), row(3, "three", 30)), contents(session));
                session.execute("DELETE FROM s WHERE id = 4 AND name = 'a'");
                assertEquals(3, SessionRows.update(session, merge));
                assertEquals(List.of(row(2, "two", 21), row(3, "three", 30), row(4, "first", null)), contents(session));
                return;
            }
            assertEquals(4, SessionRows.update(session, merge));
            assertEquals(List.of(row(2, "two", 21), row(3, "three", 30), row(4, "a", 55), row(4, "first", null)),
                    contents(session));
            // Three rows of one key, one clause without AND: three rows inserted.
            session.execute("DELETE FROM s");
            session.execute("INSERT INTO s VALUES (7, 'p', 1), (7, 'q', 2), (7, 'p', 1)");
            assertEquals(3, SessionRows.update(session,
                    "MERGE t USING s ON t.id = s.id WHEN NOT MATCHED THEN INSERT (id, name, n) VALUES (s.id, s.name, s.n)"));
            assertEquals(List.of(row(7, "p", 1), row(7, "p", 1), row(7, "q", 2)),
                    SessionRows.query(session, "SELECT id, name, n FROM t WHERE id = 7 ORDER BY name, n"));
            // Three rows of one key, the first clause's AND false for one of them: all three inserted.
            session.execute("DELETE FROM s");
            session.execute("INSERT INTO s VALUES (8, 'p', 1), (8, 'q', 50), (8, NULL, NULL)");
            assertEquals(3, SessionRows.update(session, """
                    MERGE t USING s ON t.id = s.id
                    WHEN NOT MATCHED AND s.n < 10 THEN INSERT (id, name, n) VALUES (s.id, 'small', s.n)
                    WHEN NOT MATCHED THEN INSERT (id, name, n) VALUES (s.id, 'other', s.n)"""));
            assertEquals(List.of(row(8, "other", 50), row(8, "other", null), row(8, "small", 1)),
                    SessionRows.query(session, "SELECT id, name, n FROM t WHERE id = 8 ORDER BY name, COALESCE(n, 99)"));
        }
    }

    @Test
    void equalTargetRowsMatchedOnceEachAreNoErrorInAHeap() {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute(create("heap"));
            session.execute("INSERT INTO t VALUES (1, 'x', 1), (1, 'x', 1), (2, 'y', 2)");
            assertEquals(2, SessionRows.update(session,
                    "MERGE t USING (VALUES (1)) AS s (id) ON t.id = s.id WHEN MATCHED THEN UPDATE SET n = 5"));
            assertEquals(List.of(row(1, "x", 5), row(1, "x", 5), row(2, "y", 2)), contents(session));
            ColumbaException twice = assertThrows(ColumbaException.class, () -> session.execute(
                    "MERGE t USING (VALUES (1), (1)) AS s (id) ON t.id = s.id WHEN MATCHED THEN DELETE"));
            assertEquals(ErrorCode.CARDINALITY_VIOLATION, twice.errorCode());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore"})
    void constraintViolationsRollTheWholeStatementBack(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute("CREATE TABLE t (id INT NOT NULL" + (kind.equals("clustered") ? " PRIMARY KEY" : "")
                    + ", name VARCHAR(10) NOT NULL, n INT DEFAULT 7, CONSTRAINT n_small CHECK (n < 100))"
                    + (kind.equals("columnstore") ? " WITH (storage = columnstore)" : ""));
            session.execute("INSERT INTO t VALUES (1, 'one', 10), (2, 'two', 20)");
            List<List<Object>> before = contents(session);
            ColumbaException check = assertThrows(ColumbaException.class, () -> session.execute("""
                    MERGE t USING (VALUES (1, 5), (3, 500)) AS s (id, n) ON t.id = s.id
                    WHEN MATCHED THEN UPDATE SET n = s.n
                    WHEN NOT MATCHED THEN INSERT (id, name, n) VALUES (s.id, 'three', s.n)"""));
            assertEquals(ErrorCode.CHECK_VIOLATION, check.errorCode());
            ColumbaException notNull = assertThrows(ColumbaException.class, () -> session.execute("""
                    MERGE t USING (VALUES (1), (3)) AS s (id) ON t.id = s.id
                    WHEN MATCHED THEN DELETE
                    WHEN NOT MATCHED THEN INSERT (id) VALUES (s.id)"""));
            assertEquals("23502", notNull.errorCode().sqlState());
            ColumbaException tooLong = assertThrows(ColumbaException.class, () -> session.execute("""
                    MERGE t USING (VALUES (1)) AS s (id) ON t.id = s.id
                    WHEN MATCHED THEN UPDATE SET name = 'much too long a name'"""));
            assertEquals("22001", tooLong.errorCode().sqlState());
            assertEquals(before, contents(session));
            // DEFAULT, and a column left out, take the column's default.
            assertEquals(2, SessionRows.update(session, """
                    MERGE t USING (VALUES (2), (4)) AS s (id) ON t.id = s.id
                    WHEN MATCHED THEN UPDATE SET n = DEFAULT
                    WHEN NOT MATCHED THEN INSERT (id, name) VALUES (s.id, 'four')"""));
            assertEquals(List.of(row(1, "one", 10), row(2, "two", 7), row(4, "four", 7)), contents(session));
        }
    }

    @Test
    void aDuplicatePrimaryKeyRollsTheWholeStatementBack() {
        try (Engine engine = SessionRows.open(directory); Session session = seeded(engine, "clustered")) {
            ColumbaException duplicate = assertThrows(ColumbaException.class, () -> session.execute("""
                    MERGE t USING (VALUES (1, 'x'), (9, 'y'), (9, 'z')) AS s (id, name) ON t.id = s.id
                    WHEN MATCHED THEN UPDATE SET name = s.name
                    WHEN NOT MATCHED THEN INSERT (id, name) VALUES (s.id, s.name)"""));
            assertEquals(ErrorCode.DUPLICATE_KEY, duplicate.errorCode());
            // An UPDATE that moves a key onto another row's is a duplicate too.
            ColumbaException moved = assertThrows(ColumbaException.class, () -> session.execute(
                    "MERGE t USING (VALUES (1)) AS s (id) ON t.id = s.id WHEN MATCHED THEN UPDATE SET id = 2"));
            assertEquals(ErrorCode.DUPLICATE_KEY, moved.errorCode());
            assertEquals(List.of(row(1, "one", 10), row(2, "two", 20), row(3, "three", 30)), contents(session));
        }
    }

    @Test
    void aUniqueConstraintIsEnforced() {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, name VARCHAR(10) UNIQUE, n INT)");
            session.execute("INSERT INTO t VALUES (1, 'one', 10), (2, 'two', 20)");
            ColumbaException duplicate = assertThrows(ColumbaException.class, () -> session.execute("""
                    MERGE t USING (VALUES (1, 'two'), (3, 'three')) AS s (id, name) ON t.id = s.id
                    WHEN MATCHED THEN UPDATE SET name = s.name
                    WHEN NOT MATCHED THEN INSERT (id, name) VALUES (s.id, s.name)"""));
            assertEquals("23505", duplicate.errorCode().sqlState());
            assertEquals(List.of(row(1, "one", 10), row(2, "two", 20)), contents(session));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore"})
    void parametersInTheSourceConditionsAndValues(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = seeded(engine, kind)) {
            StatementResult result = session.execute("""
                    MERGE t USING (SELECT CAST(? AS INT) AS id, CAST(? AS VARCHAR(10)) AS name) AS s ON t.id = s.id
                    WHEN MATCHED AND t.n > ? THEN UPDATE SET name = s.name, n = ?
                    WHEN NOT MATCHED THEN INSERT (id, name, n) VALUES (s.id, s.name, ?)""",
                    List.of(3, "drei", 5, 33, 99));
            assertEquals(1, ((StatementResult.Update) result).count());
            session.execute("""
                    MERGE t USING (SELECT CAST(? AS INT) AS id, CAST(? AS VARCHAR(10)) AS name) AS s ON t.id = s.id
                    WHEN MATCHED AND t.n > ? THEN UPDATE SET name = s.name, n = ?
                    WHEN NOT MATCHED THEN INSERT (id, name, n) VALUES (s.id, s.name, ?)""",
                    List.of(4, "vier", 5, 33, 99));
            assertEquals(List.of(row(1, "one", 10), row(2, "two", 20), row(3, "drei", 33), row(4, "vier", 99)),
                    contents(session));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore"})
    void mergeInAnExplicitTransactionIsUndoneByRollback(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = seeded(engine, kind)) {
            session.setAutoCommit(false);
            assertEquals(3, SessionRows.update(session, """
                    MERGE t USING (VALUES (1), (9)) AS s (id) ON t.id = s.id
                    WHEN MATCHED THEN DELETE
                    WHEN NOT MATCHED THEN INSERT (id, name) VALUES (s.id, 'nine')
                    WHEN NOT MATCHED BY SOURCE AND t.id = 3 THEN UPDATE SET n = 0"""));
            assertEquals(List.of(row(2, "two", 20), row(3, "three", 0), row(9, "nine", null)), contents(session));
            session.rollback();
            session.setAutoCommit(true);
            assertEquals(List.of(row(1, "one", 10), row(2, "two", 20), row(3, "three", 30)), contents(session));
        }
    }

    @Test
    void misuseIsRefusedWithAMessage() {
        try (Engine engine = SessionRows.open(directory); Session session = seeded(engine, "clustered")) {
            ColumbaException insertWhenMatched = assertThrows(ColumbaException.class, () -> session.execute(
                    "MERGE t USING s ON t.id = s.id WHEN MATCHED THEN INSERT VALUES (1, 'x', 1)"));
            assertTrue(insertWhenMatched.getMessage().contains("can only UPDATE or DELETE"), insertWhenMatched.getMessage());
            ColumbaException unknownColumn = assertThrows(ColumbaException.class, () -> session.execute(
                    "MERGE t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET nope = 1"));
            assertEquals(ErrorCode.UNDEFINED_COLUMN, unknownColumn.errorCode());
            ColumbaException unknownTable = assertThrows(ColumbaException.class, () -> session.execute(
                    "MERGE nope USING s ON nope.id = s.id WHEN MATCHED THEN DELETE"));
            assertEquals(ErrorCode.OBJECT_NOT_FOUND, unknownTable.errorCode());
            ColumbaException count = assertThrows(ColumbaException.class, () -> session.execute(
                    "MERGE t USING s ON t.id = s.id WHEN NOT MATCHED THEN INSERT (id, name) VALUES (s.id)"));
            assertEquals(ErrorCode.INVALID_STATEMENT, count.errorCode());
            ColumbaException by = assertThrows(ColumbaException.class, () -> session.execute(
                    "MERGE t USING s ON t.id = s.id WHEN NOT MATCHED BY nobody THEN DELETE"));
            assertTrue(by.getMessage().contains("SOURCE or TARGET"), by.getMessage());
            ColumbaException noAlias = assertThrows(ColumbaException.class, () -> session.execute(
                    "MERGE t USING (VALUES (1)) ON t.id = 1 WHEN MATCHED THEN DELETE"));
            assertTrue(noAlias.getMessage().contains("needs an alias"), noAlias.getMessage());
            // As in any derived table, a parameter in VALUES has no type to take: CAST(? AS type) gives it one.
            ColumbaException untyped = assertThrows(ColumbaException.class, () -> session.execute(
                    "MERGE t USING (VALUES (?)) AS v (id) ON t.id = v.id WHEN MATCHED THEN DELETE", List.of(1)));
            assertEquals(ErrorCode.INVALID_STATEMENT, untyped.errorCode());
            assertEquals(1, ((StatementResult.Update) session.execute(
                    "MERGE t USING (VALUES (CAST(? AS INT))) AS v (id) ON t.id = v.id WHEN MATCHED THEN DELETE",
                    List.of(1))).count());
        }
    }

    @Test
    void explainShowsOneModificationOverTheJoin() {
        try (Engine engine = SessionRows.open(directory); Session session = seeded(engine, "clustered")) {
            List<List<Object>> plan = SessionRows.query(session, """
                    EXPLAIN MERGE t USING s ON t.id = s.id
                    WHEN MATCHED THEN DELETE
                    WHEN NOT MATCHED THEN INSERT (id) VALUES (s.id)""");
            assertTrue(plan.getFirst().getFirst().toString().startsWith("TableModify [MERGE t]"), plan.toString());
            // WHEN NOT MATCHED keeps the source's unmatched rows: an outer join of the two tables.
            assertTrue(plan.toString().contains("HashJoin [LEFT"), plan.toString());
        }
    }

    @Test
    void identityAndComputedColumnsAreFilledAsByInsertAndUpdate() {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute("CREATE TABLE g (id INT IDENTITY(1, 1) PRIMARY KEY, k INT, twice AS CAST(k * 2 AS INT))");
            assertEquals(2, SessionRows.update(session,
                    "MERGE g USING (VALUES (5), (6)) AS s (k) ON g.k = s.k WHEN NOT MATCHED THEN INSERT (k) VALUES (s.k)"));
            // INSERT without a column list writes the columns that are not generated.
            assertEquals(2, SessionRows.update(session, """
                    MERGE g USING (VALUES (5), (7)) AS s (k) ON g.k = s.k
                    WHEN MATCHED THEN UPDATE SET k = s.k + 100
                    WHEN NOT MATCHED THEN INSERT VALUES (s.k)"""));
            assertEquals(List.of(row(1, 105, 210), row(2, 6, 12), row(3, 7, 14)),
                    SessionRows.query(session, "SELECT id, k, twice FROM g ORDER BY id"));
            ColumbaException identity = assertThrows(ColumbaException.class, () -> session.execute(
                    "MERGE g USING (VALUES (6)) AS s (k) ON g.k = s.k WHEN MATCHED THEN UPDATE SET id = 9"));
            assertTrue(identity.getMessage().contains("cannot update identity column 'id'"), identity.getMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore"})
    void theSourceMayReadTheTargetAndBeAnyQuery(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = seeded(engine, kind)) {
            // Each row's successor by id takes its n; the last row's successor is inserted.
            assertEquals(3, SessionRows.update(session, """
                    MERGE t USING t AS s ON t.id = s.id + 1
                    WHEN MATCHED THEN UPDATE SET n = s.n
                    WHEN NOT MATCHED THEN INSERT VALUES (s.id + 10, s.name, s.n)"""));
            assertEquals(List.of(row(1, "one", 10), row(2, "two", 10), row(3, "three", 20), row(13, "three", 30)),
                    contents(session));
            // A grouped source matches each target row once; the target may be qualified and aliased.
            assertEquals(4, SessionRows.update(session, """
                    MERGE INTO dbo.t AS x
                    USING (SELECT n, COUNT(*) AS c FROM t GROUP BY n) s ON x.n = s.n
                    WHEN MATCHED AND s.c > 1 THEN UPDATE SET x.name = 'twin'
                    WHEN MATCHED THEN UPDATE SET x.name = UPPER(x.name)"""));
            assertEquals(List.of(row(1, "twin", 10), row(2, "twin", 10), row(3, "THREE", 20), row(13, "THREE", 30)),
                    contents(session));
        }
    }
}
