package dev.columba.planner.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SQL Server's OUTPUT clause and PostgreSQL's RETURNING on INSERT, UPDATE, DELETE and MERGE, on a
 * table with a primary key, a heap and a columnstore table: the new and old rows with their
 * IDENTITY and computed columns, expressions over both, MERGE's $action, NULLs, empty results,
 * OUTPUT ... INTO, the labels, and failures that leave the table as it was.
 */
class OutputClauseTest {
    @TempDir
    Path directory;

    /** id is the IDENTITY column, twice = n * 2 a computed one. */
    private static String create(String kind) {
        return "CREATE TABLE t (id INT IDENTITY(1, 1) NOT NULL" + (kind.equals("clustered") ? " PRIMARY KEY" : "")
                + ", name VARCHAR(10), n INT, twice AS CAST(n * 2 AS INT) PERSISTED)"
                + (kind.equals("columnstore") ? " WITH (storage = columnstore)" : "");
    }

    private static Session seeded(Engine engine, String kind) {
        Session session = engine.openSession();
        session.execute(create(kind));
        session.execute("INSERT INTO t (name, n) VALUES ('one', 10), ('two', 20), ('three', 30)");
        return session;
    }

    private static List<List<Object>> contents(Session session) {
        return SessionRows.query(session, "SELECT id, name, n, twice FROM t ORDER BY id");
    }

    private static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }

    /** The statement's rows, sorted (the order of changed rows is not defined). */
    private static List<List<Object>> sorted(Session session, String sql) {
        List<List<Object>> rows = new ArrayList<>(SessionRows.query(session, sql));
        rows.sort(Comparator.comparing(Object::toString));
        return rows;
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore"})
    void insertOutputsTheRowsAsWrittenWithIdentityAndComputedColumns(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = seeded(engine, kind)) {
            assertEquals(List.of(row(4, "four", 40, 80), row(5, null, null, null)),
                    sorted(session, "INSERT INTO t (name, n) OUTPUT inserted.* VALUES ('four', 40), (NULL, NULL)"));
            assertEquals(List.of(row(6, 12, "six!")), SessionRows.query(session,
                    "INSERT INTO t (name, n) OUTPUT inserted.id, inserted.twice + 2, inserted.name || '!' VALUES ('six', 5)"));
            // INSERT ... SELECT (a columnstore's bulk path), reading the table it writes.
            assertEquals(List.of(row(7, "one"), row(8, "two")), sorted(session,
                    "INSERT INTO t (name, n) OUTPUT inserted.id, inserted.name SELECT name, n FROM t WHERE id <= 2"));
            assertEquals(8, contents(session).size());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore"})
    void updateOutputsTheOldAndTheNewRow(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = seeded(engine, kind)) {
            assertEquals(List.of(row(2, 20, 21, 42, 1), row(3, 30, 31, 62, 1)), sorted(session, """
                    UPDATE t SET n = n + 1
                    OUTPUT deleted.id, deleted.n, inserted.n, inserted.twice, inserted.n - deleted.n AS delta
                    WHERE id >= 2"""));
            assertEquals(List.of(row(1, "one", 10, 20), row(2, "two", 21, 42), row(3, "three", 31, 62)),
                    contents(session));
            // A row set to NULL: the new values are NULL, the old ones are not.
            assertEquals(List.of(row(1, null, 10, null)),
                    SessionRows.query(session, "UPDATE t SET n = NULL OUTPUT inserted.id, inserted.n, deleted.n,"
                            + " inserted.twice WHERE id = 1"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore"})
    void deleteOutputsTheRowsDeletedAndNothingWhenNothingIs(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = seeded(engine, kind)) {
            assertEquals(List.of(), SessionRows.query(session, "DELETE FROM t OUTPUT deleted.* WHERE n > 100"));
            try (StatementResult.Rows empty = (StatementResult.Rows) session.execute(
                    "DELETE FROM t OUTPUT deleted.id, deleted.name AS gone WHERE n > 100")) {
                assertEquals(List.of("id", "gone"), empty.columnLabels());
                assertEquals(null, empty.next());
            }
            assertEquals(List.of(row(1, "one", 10, 20), row(3, "three", 30, 60)),
                    sorted(session, "DELETE FROM t OUTPUT deleted.* WHERE id <> 2"));
            assertEquals(List.of(row(2, "two", 20, 40)), contents(session));
            // The alias of the table, and a column called output, are still what they were.
            session.execute("CREATE TABLE o (output INT)");
            session.execute("INSERT INTO o VALUES (1), (2)");
            assertEquals(List.of(row(1)), SessionRows.query(session, "DELETE FROM o AS output OUTPUT deleted.output"
                    + " WHERE output.output = 1"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore"})
    void mergeOutputsEachRowsActionAndImages(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = seeded(engine, kind)) {
            List<List<Object>> rows = sorted(session, """
                    MERGE t USING (VALUES ('one', 11), ('two', -1), ('nine', 90)) AS s (name, n) ON t.name = s.name
                    WHEN MATCHED AND s.n < 0 THEN DELETE
                    WHEN MATCHED THEN UPDATE SET n = s.n
                    WHEN NOT MATCHED THEN INSERT (name, n) VALUES (s.name, s.n)
                    OUTPUT $action, inserted.id, inserted.name, inserted.twice, deleted.id, deleted.n;""");
            assertEquals(List.of(row("DELETE", null, null, null, 2, 20), row("INSERT", 4, "nine", 180, null, null),
                    row("UPDATE", 1, "one", 22, 1, 10)), rows);
            assertEquals(List.of(row(1, "one", 11, 22), row(3, "three", 30, 60), row(4, "nine", 90, 180)),
                    contents(session));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore"})
    void returningAsPostgreSqlWritesIt(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = seeded(engine, kind)) {
            try (StatementResult.Rows inserted = (StatementResult.Rows) session.execute(
                    "INSERT INTO t (name, n) VALUES ('four', 4) RETURNING *")) {
                assertEquals(List.of("id", "name", "n", "twice"), inserted.columnLabels());
            }
            assertEquals(List.of(row(5, 10)), SessionRows.query(session,
                    "INSERT INTO t (name, n) VALUES ('five', 5) RETURNING id, t.twice"));
            assertEquals(List.of(row(1, 11, 22)), SessionRows.query(session,
                    "UPDATE t AS x SET n = n + 1 WHERE id = 1 RETURNING x.id, n, twice"));
            assertEquals(List.of(row(2, "two", 40)), SessionRows.query(session,
                    "DELETE FROM t WHERE id = 2 RETURNING id, name, t.twice"));
            assertEquals(List.of(row(1, "one", 11, 22), row(3, "three", 30, 60), row(4, "four", 4, 8),
                    row(5, "five", 5, 10)), contents(session));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore"})
    void outputIntoATableInsertsTheRowsInTheSameStatement(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = seeded(engine, kind)) {
            session.execute("CREATE TABLE log (seq INT IDENTITY(1, 1) NOT NULL, action VARCHAR(10) NOT NULL, id BIGINT,"
                    + " old_n INT, new_n INT)");
            assertEquals(2, SessionRows.update(session, "UPDATE t SET n = n * 10 OUTPUT 'update', inserted.id,"
                    + " deleted.n, inserted.n INTO log (action, id, old_n, new_n) WHERE id <= 2"));
            assertEquals(1, SessionRows.update(session, "MERGE t USING (VALUES (3)) AS s (id) ON t.id = s.id"
                    + " WHEN MATCHED THEN DELETE OUTPUT $action, deleted.id, deleted.n, NULL INTO log (action, id, old_n, new_n)"));
            assertEquals(0, SessionRows.update(session, "DELETE FROM t OUTPUT 'none', deleted.id, deleted.n, NULL"
                    + " INTO log (action, id, old_n, new_n) WHERE id > 100"));
            assertEquals(List.of(row(1, "update", 1L, 10, 100), row(2, "update", 2L, 20, 200), row(3, "DELETE", 3L, 30, null)),
                    SessionRows.query(session, "SELECT seq, action, id, old_n, new_n FROM log ORDER BY id"));
            // Without a column list the rows fill the columns that are not generated, in order.
            session.execute("CREATE TABLE names (name VARCHAR(10))");
            assertEquals(1, SessionRows.update(session, "INSERT INTO t (name, n) OUTPUT inserted.name INTO names"
                    + " VALUES ('new', 1)"));
            assertEquals(List.of(row("new")), SessionRows.query(session, "SELECT name FROM names"));

            // A row the INTO table refuses (a NULL action) fails the whole statement: t is as it was.
            List<List<Object>> before = contents(session);
            ColumbaException refused = assertThrows(ColumbaException.class, () -> session.execute(
                    "DELETE FROM t OUTPUT NULL, deleted.id, deleted.n, NULL INTO log (action, id, old_n, new_n)"));
            assertEquals(ErrorCode.NULL_NOT_ALLOWED, refused.errorCode());
            assertEquals(before, contents(session));
            assertEquals(3, SessionRows.query(session, "SELECT * FROM log").size());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore"})
    void aFailureWhileTheRowsAreComputedChangesNothing(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = seeded(engine, kind)) {
            List<List<Object>> before = contents(session);
            // 100 / (n - 20) fails on the second row only, after the first was changed.
            ColumbaException divided = assertThrows(ColumbaException.class, () -> SessionRows.query(session,
                    "UPDATE t SET n = n + 1 OUTPUT 100 / (deleted.n - 20)"));
            assertEquals(ErrorCode.DIVISION_BY_ZERO, divided.errorCode());
            assertEquals(before, contents(session));
            assertThrows(ColumbaException.class, () -> SessionRows.query(session,
                    "DELETE FROM t RETURNING 100 / (n - 30)"));
            assertEquals(before, contents(session));
            assertThrows(ColumbaException.class, () -> SessionRows.query(session,
                    "INSERT INTO t (name, n) OUTPUT 1 / (inserted.n - 2) VALUES ('a', 1), ('b', 2)"));
            assertEquals(before, contents(session));

            // In an explicit transaction the failed statement ends the transaction, as any failed statement does.
            session.setAutoCommit(false);
            assertEquals(List.of(row(4)), SessionRows.query(session, "INSERT INTO t (name, n) VALUES ('x', 0) RETURNING id"));
            assertThrows(ColumbaException.class, () -> SessionRows.query(session,
                    "DELETE FROM t OUTPUT 1 / deleted.n"));
            assertFalse(session.inTransaction());
            session.setAutoCommit(true);
            assertEquals(before, contents(session));
        }
    }

    @Test
    void misuseIsRefusedWithAMessage() {
        try (Engine engine = SessionRows.open(directory); Session session = seeded(engine, "clustered")) {
            ColumbaException deletedInInsert = assertThrows(ColumbaException.class, () -> session.execute(
                    "INSERT INTO t (name, n) OUTPUT deleted.id VALUES ('x', 1)"));
            assertEquals(ErrorCode.UNDEFINED_COLUMN, deletedInInsert.errorCode());
            assertTrue(deletedInInsert.getMessage().contains("\"deleted.id\" could not be bound"),
                    deletedInInsert.getMessage());
            ColumbaException insertedInDelete = assertThrows(ColumbaException.class, () -> session.execute(
                    "DELETE FROM t OUTPUT inserted.id"));
            assertEquals(ErrorCode.UNDEFINED_COLUMN, insertedInDelete.errorCode());
            ColumbaException unqualified = assertThrows(ColumbaException.class, () -> session.execute(
                    "DELETE FROM t OUTPUT id"));
            assertTrue(unqualified.getMessage().contains("inserted.id or deleted.id"), unqualified.getMessage());
            ColumbaException star = assertThrows(ColumbaException.class, () -> session.execute("DELETE FROM t OUTPUT *"));
            assertEquals(ErrorCode.INVALID_STATEMENT, star.errorCode());
            ColumbaException unknown = assertThrows(ColumbaException.class, () -> session.execute(
                    "UPDATE t SET n = 1 OUTPUT inserted.nope"));
            assertEquals(ErrorCode.UNDEFINED_COLUMN, unknown.errorCode());
            ColumbaException action = assertThrows(ColumbaException.class, () -> session.execute(
                    "DELETE FROM t OUTPUT $action"));
            assertEquals(ErrorCode.INVALID_STATEMENT, action.errorCode());
            ColumbaException aggregate = assertThrows(ColumbaException.class, () -> session.execute(
                    "DELETE FROM t OUTPUT COUNT(deleted.id)"));
            assertEquals(ErrorCode.INVALID_STATEMENT, aggregate.errorCode());
            ColumbaException subQuery = assertThrows(ColumbaException.class, () -> session.execute(
                    "DELETE FROM t RETURNING (SELECT 1)"));
            assertEquals(ErrorCode.INVALID_STATEMENT, subQuery.errorCode());
            ColumbaException source = assertThrows(ColumbaException.class, () -> session.execute(
                    "MERGE t USING (VALUES (1)) AS s (id) ON t.id = s.id WHEN MATCHED THEN DELETE OUTPUT s.id"));
            assertTrue(source.getMessage().contains("not the source's columns"), source.getMessage());
            ColumbaException otherTable = assertThrows(ColumbaException.class, () -> session.execute(
                    "DELETE FROM t RETURNING u.id"));
            assertEquals(ErrorCode.UNDEFINED_COLUMN, otherTable.errorCode());
            ColumbaException both = assertThrows(ColumbaException.class, () -> session.execute(
                    "DELETE FROM t OUTPUT deleted.id WHERE id = 1 RETURNING id"));
            assertTrue(both.getMessage().contains("not both"), both.getMessage());
            ColumbaException batch = assertThrows(ColumbaException.class, () -> session.executeBatch(
                    "INSERT INTO t (name, n) VALUES (?, ?) RETURNING id", List.of(List.of("a", 1), List.of("b", 2))));
            assertEquals(ErrorCode.INVALID_STATEMENT, batch.errorCode());
            assertEquals(3, contents(session).size());
        }
    }

    @Test
    void parametersOfTheStatementAndRepeatedLabels() {
        try (Engine engine = SessionRows.open(directory); Session session = seeded(engine, "clustered")) {
            try (StatementResult.Rows rows = (StatementResult.Rows) session.execute(
                    "UPDATE t SET n = ? OUTPUT inserted.n, deleted.n, inserted.n * 2 WHERE id = ?", List.of(7, 1))) {
                assertEquals(List.of("n", "n", "?column?"), rows.columnLabels());
            }
            assertEquals(List.of(row(1, "one", 7, 14)), SessionRows.query(session, "SELECT * FROM t WHERE id = 1"));
            // The same statement again runs its cached plan.
            assertEquals(List.of(row(8, 7)), SessionRows.queryWith(session,
                    "UPDATE t SET n = ? OUTPUT inserted.n, deleted.n WHERE id = ?", 8, 1));
            assertEquals(List.of(row(9, 8)), SessionRows.queryWith(session,
                    "UPDATE t SET n = ? OUTPUT inserted.n, deleted.n WHERE id = ?", 9, 1));
            Session.Description description = session.describe("DELETE FROM t WHERE id = ? RETURNING id, name").orElseThrow();
            assertEquals(List.of("id", "name"), description.columnLabels());
            assertEquals(1, description.parameterTypes().size());
        }
    }
}
