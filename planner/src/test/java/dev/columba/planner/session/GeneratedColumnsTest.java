package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.planner.schema.KeyBounds;
import dev.columba.storage.catalog.CatalogEntry;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * IDENTITY and computed (persisted) columns as seed 000 declares them: INSERT fills both, with or
 * without a column list; naming them is an error; values survive rollback (no gap), reopen, and
 * TRUNCATE reseeds; an UPDATE recomputes what depends on it; key statistics are gathered by DDL
 * and on open.
 */
class GeneratedColumnsTest {
    private static final String TEST_TABLE = """
            CREATE TABLE dbo.TestTable (
               ID int IDENTITY (1, 1) NOT NULL,
               IDvarchar AS CAST(ID AS varchar(50)) PERSISTED NOT NULL,
               intcolumn int,
               NAME varchar(50) NOT NULL,
               Age int NOT NULL,
               Randomvalue bigint
            )""";

    @TempDir
    Path directory;

    @Test
    void seedZeroInsertsGetIdentityAndComputedValues() {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute(TEST_TABLE);
            assertEquals(2, update(session, "INSERT INTO TestTable (intcolumn, NAME, AGE) VALUES (5, 'a', 25), (6, 'b', 26)"));
            assertEquals(1, update(session, "INSERT INTO TestTable VALUES (7, 'c', 27, 100)"));
            assertEquals(List.of(List.of(1, "1", 5, "a"), List.of(2, "2", 6, "b"), List.of(3, "3", 7, "c")),
                    query(session, "SELECT ID, IDvarchar, intcolumn, NAME FROM TestTable ORDER BY ID"));

            ColumbaException identity = assertThrows(ColumbaException.class,
                    () -> session.execute("INSERT INTO TestTable (ID, NAME, Age) VALUES (10, 'x', 1)"));
            assertEquals(ErrorCode.INVALID_STATEMENT, identity.errorCode());
            assertTrue(identity.getMessage().contains("identity column 'ID'"), identity.getMessage());
            ColumbaException computed = assertThrows(ColumbaException.class,
                    () -> session.execute("INSERT INTO TestTable (IDvarchar, NAME, Age) VALUES ('x', 'x', 1)"));
            assertTrue(computed.getMessage().contains("computed column 'IDvarchar'"), computed.getMessage());
            assertThrows(ColumbaException.class, () -> session.execute("UPDATE TestTable SET ID = 7"));

            session.setAutoCommit(false);
            update(session, "INSERT INTO TestTable (NAME, Age) VALUES ('rolled back', 1)");
            session.rollback();
            session.setAutoCommit(true);
            update(session, "INSERT INTO TestTable (NAME, Age) SELECT NAME, Age FROM TestTable WHERE ID <= 2");
            assertEquals(List.of(List.of(4, "4"), List.of(5, "5")),
                    query(session, "SELECT ID, IDvarchar FROM TestTable WHERE ID > 3 ORDER BY ID"));
        }
    }

    @Test
    void identityContinuesAfterReopenAndStatisticsAreGatheredByDdlAndOnOpen() {
        int objectId;
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute(TEST_TABLE);
            update(session, "INSERT INTO TestTable (NAME, Age) VALUES ('a', 1), ('b', 2), ('c', 3)");
            session.execute("CREATE UNIQUE CLUSTERED INDEX CI_TestTable_ID ON dbo.TestTable (ID)");
            objectId = objectId(engine, "TestTable");
            assertEquals(new KeyBounds(1, 3), engine.statistics().bounds(objectId).orElseThrow(),
                    "gathered by CREATE CLUSTERED INDEX");
        }
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            assertEquals(new KeyBounds(1, 3), engine.statistics().bounds(objectId).orElseThrow(), "gathered on open");
            update(session, "INSERT INTO TestTable (NAME, Age) VALUES ('d', 4)");
            assertEquals(List.of(List.of(4, "4", "d")), query(session, "SELECT ID, IDvarchar, NAME FROM TestTable WHERE ID > 3"));
            assertEquals(new KeyBounds(1, 4), engine.statistics().bounds(objectId).orElseThrow(), "widened by INSERT");

            session.execute("TRUNCATE TABLE TestTable");
            update(session, "INSERT INTO TestTable (NAME, Age) VALUES ('e', 5)");
            assertEquals(List.of(List.of(1, "1")), query(session, "SELECT ID, IDvarchar FROM TestTable"), "TRUNCATE reseeds");
        }
    }

    @Test
    void anUpdateRecomputesPersistedColumnsFromTheNewValues() {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, a INT NOT NULL, "
                    + "b AS CAST(a * 2 AS int) PERSISTED, c AS CAST(id + a AS bigint))");
            update(session, "INSERT INTO t VALUES (1, 10), (2, 20)");
            assertEquals(2, update(session, "UPDATE t SET a = a + 1"));
            assertEquals(List.of(List.of(1, 11, 22, 12L), List.of(2, 21, 42, 23L)),
                    query(session, "SELECT id, a, b, c FROM t ORDER BY id"));
            update(session, "UPDATE t SET id = id + 100 WHERE id = 1");
            assertEquals(List.of(List.of(101, 11, 22, 112L)), query(session, "SELECT id, a, b, c FROM t WHERE id > 100"));
        }
    }

    @Test
    void columnstoreTablesHaveIdentityColumnsToo() {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute("CREATE TABLE src (v INT NOT NULL PRIMARY KEY)");
            update(session, "INSERT INTO src VALUES (10), (20), (30)");
            session.execute("CREATE TABLE cs (id BIGINT IDENTITY(100, 10) NOT NULL, v INT) WITH (storage = columnstore)");
            assertEquals(3, update(session, "INSERT INTO cs (v) SELECT v FROM src"));
            update(session, "INSERT INTO cs (v) VALUES (40)");
            assertEquals(List.of(List.of(100L, 10), List.of(110L, 20), List.of(120L, 30), List.of(130L, 40)),
                    query(session, "SELECT id, v FROM cs ORDER BY id"));
        }
    }

    @Test
    void copyFillsIdentityAndComputedColumnsAsInsertDoesOnBothStorageKinds() throws java.io.IOException {
        java.nio.file.Path file = directory.resolve("people.csv");
        java.nio.file.Files.writeString(file, "intcolumn,NAME,Age,Randomvalue\n5,a,25,100\n6,b,26,\n");
        java.nio.file.Path listed = directory.resolve("listed.csv");
        java.nio.file.Files.writeString(listed, "NAME,Age\nc,27\n");
        try (Engine engine = SessionRows.open(directory.resolve("db")); Session session = engine.openSession()) {
            for (String storage : List.of("", " WITH (storage = columnstore, bulk_min_rows = 1)")) {
                session.execute("DROP TABLE IF EXISTS TestTable");
                session.execute(TEST_TABLE + storage);
                assertEquals(1, update(session, "INSERT INTO TestTable (NAME, Age) VALUES ('first', 1)"));
                // Without a column list the file holds the columns that are not generated, as INSERT's VALUES do.
                assertEquals(2, update(session, "COPY TestTable FROM '" + file + "' WITH (HEADER)"));
                assertEquals(1, update(session, "COPY TestTable (NAME, Age) FROM '" + listed + "' WITH (HEADER)"));
                assertEquals(1, update(session, "INSERT INTO TestTable (NAME, Age) VALUES ('last', 1)"));
                assertEquals(List.of(List.of(1, "1", "first"), List.of(2, "2", "a"), List.of(3, "3", "b"),
                                List.of(4, "4", "c"), List.of(5, "5", "last")),
                        query(session, "SELECT ID, IDvarchar, NAME FROM TestTable ORDER BY ID"), storage);
                ColumbaException named = assertThrows(ColumbaException.class, () -> session.execute(
                        "COPY TestTable (ID, NAME, Age) FROM '" + listed + "' WITH (HEADER)"));
                assertEquals(ErrorCode.INVALID_STATEMENT, named.errorCode());
                assertTrue(named.getMessage().contains("identity column 'ID'"), named.getMessage());
                ColumbaException computed = assertThrows(ColumbaException.class, () -> session.execute(
                        "COPY TestTable (IDvarchar, NAME, Age) FROM '" + listed + "' WITH (HEADER)"));
                assertTrue(computed.getMessage().contains("computed column 'IDvarchar'"), computed.getMessage());
            }
        }
    }

    private static int objectId(Engine engine, String name) {
        return engine.database().catalog().byName(engine.database().bufferPool(), name, engine.database().systemCounters())
                .map(CatalogEntry::objectId).orElseThrow();
    }
}
