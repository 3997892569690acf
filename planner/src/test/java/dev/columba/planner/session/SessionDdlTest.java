package dev.columba.planner.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.settings.StandardSettings;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.table.Tables;
import dev.columba.storage.txn.Transaction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DDL and session commands through a session (queries are the planner's, tested there). */
class SessionDdlTest {
    @TempDir
    Path directory;

    private Engine engine;
    private Session session;
    private final IoCounters counters = new IoCounters();

    @BeforeEach
    void open() {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "16MB");
        engine = Engine.open(directory, properties, (catalog, settings, statement, cancel) -> {
            throw new AssertionError("this test plans no query: " + statement);
        });
        session = engine.openSession();
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    private CatalogEntry.Table table(String name) {
        return (CatalogEntry.Table) engine.database().catalog().byName(engine.database().bufferPool(), name, counters)
                .orElseThrow();
    }

    private void insertRows(String name, int count) {
        try (Transaction transaction = engine.database().begin()) {
            var store = new Tables(engine.database()).table(transaction.writes(), name, counters);
            for (int id = 1; id <= count; id++) {
                store.insert(transaction, new Object[] {id, String.valueOf(id), id % 7}, counters);
            }
            transaction.commit();
        }
    }

    @Test
    void seedZeroDefinitionsRecordIdentityAndComputedColumns() {
        session.execute("CREATE TABLE dbo.TestTable (ID int IDENTITY (1, 1) NOT NULL, "
                + "IDvarchar AS CAST(ID AS varchar(50)) PERSISTED NOT NULL, intcolumn int, NAME varchar(50) NOT NULL, "
                + "Age int NOT NULL, Randomvalue bigint)");
        CatalogEntry.Table table = table("testtable");
        assertEquals(CatalogEntry.Organization.HEAP, table.organization());
        assertEquals(SqlType.varchar(50), table.schema().column(1).type());
        assertEquals("1,1", table.options().get("identity:ID"));
        assertTrue(table.options().get("computed:IDvarchar").contains("CAST"), table.options().toString());
        assertFalse(table.schema().column(0).nullable());
    }

    @Test
    void aClusteredIndexTurnsAHeapIntoABTreeKeepingItsRows() {
        session.execute("CREATE TABLE t (id INT NOT NULL, label VARCHAR(10), grp INT)");
        insertRows("t", 500);
        session.execute("CREATE INDEX ix_grp ON t (grp)");
        session.execute("CREATE UNIQUE CLUSTERED INDEX ci_t ON t (id)");
        CatalogEntry.Table table = table("t");
        assertEquals(CatalogEntry.Organization.CLUSTERED, table.organization());
        assertEquals(List.of(0), table.keyColumns());
        assertEquals(500, table.rowCount());
        var store = new Tables(engine.database()).table(engine.database().bufferPool(), "t", counters);
        assertEquals(1, store.indexes().size(), "the secondary index was carried over");
        assertEquals(500 / 7 + 1, store.indexes().get(0).lookup(engine.database().bufferPool(), new Object[] {1}, counters)
                .size());
        ColumbaException twice = assertThrows(ColumbaException.class,
                () -> session.execute("CREATE CLUSTERED INDEX again ON t (grp)"));
        assertEquals(ErrorCode.OBJECT_ALREADY_EXISTS, twice.errorCode());
    }

    @Test
    void aClusteredColumnstoreIndexConvertsARowstoreTable() {
        session.execute("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, label VARCHAR(10), grp INT)");
        insertRows("t", 300);
        session.execute("CREATE CLUSTERED COLUMNSTORE INDEX cci_t ON t WITH (dictionary_overflow = trim)");
        CatalogEntry.Table table = table("t");
        assertEquals(CatalogEntry.Organization.COLUMNSTORE, table.organization());
        assertEquals(300, table.rowCount());
        assertEquals("trim", table.options().get("dictionary_overflow"));
        session.execute("ALTER TABLE t SET (dictionary_cap = '4MB')");
        assertEquals(String.valueOf(4L << 20), table("t").options().get("dictionary_cap"));
        StatementResult reorganized = session.execute("ALTER INDEX cci_t ON t REORGANIZE WITH (COMPRESS_ALL_ROW_GROUPS = ON)");
        assertTrue(reorganized.messages().get(0).startsWith("REORGANIZE: 1 delta rowgroups compressed"),
                reorganized.messages().toString());
        session.execute("DROP TABLE t");
        assertFalse(engine.database().catalog().byName(engine.database().bufferPool(), "t", counters).isPresent());
        assertFalse(Files.exists(directory.resolve("columnstore").resolve(String.valueOf(table.objectId()))),
                "the dropped columnstore table's files are gone");
    }

    @Test
    void columnstoreTablesAreCreatedWithTheirOptionsAndBadOnesAreRejected() {
        session.execute("CREATE TABLE c (id INT, txt VARCHAR(700)) WITH (storage = columnstore, dictionary_overflow = trim,"
                + " compression = archive)");
        assertEquals("archive", table("c").options().get("compression"));
        ColumbaException bad = assertThrows(ColumbaException.class, () -> session.execute(
                "CREATE TABLE d (id INT) WITH (storage = columnstore, dictionary_overflow = sometimes)"));
        assertEquals(ErrorCode.INVALID_SETTING_VALUE, bad.errorCode());
        ColumbaException unknown = assertThrows(ColumbaException.class, () -> session.execute("DROP TABLE nothing"));
        assertEquals("42P01", unknown.errorCode().sqlState());
        session.execute("DROP TABLE IF EXISTS nothing");
    }

    @Test
    void sessionCommandsChangeSettingsAndStatisticsFlags() throws Exception {
        session.execute("SET STATISTICS IO, TIME ON");
        assertTrue(session.statisticsIo() && session.statisticsTime());
        session.execute("DBCC TRACEON(652)");
        assertEquals(false, session.settings().get(StandardSettings.READ_AHEAD));
        session.execute("DBCC TRACEOFF(652)");
        assertEquals(true, session.settings().get(StandardSettings.READ_AHEAD));
        session.execute("SET prefetch = OFF");
        assertEquals(false, session.settings().get(StandardSettings.PREFETCH));
        ColumbaException startupOnly = assertThrows(ColumbaException.class, () -> session.execute("SET buffer_pool_size = '1GB'"));
        assertEquals(ErrorCode.SETTING_NOT_SESSION_SCOPED, startupOnly.errorCode());
        session.execute("ALTER SYSTEM SET read_ahead_depth_pages = 1000");
        assertEquals(1000, engine.openSession().settings().get(StandardSettings.READ_AHEAD_DEPTH_PAGES));
        assertTrue(Files.readString(directory.resolve("columba.properties")).contains("read_ahead_depth_pages=1000"));
        assertEquals(List.of("hello"), session.execute("PRINT 'hello'").messages());
        session.execute("CHECKPOINT");
        session.execute("DBCC DROPCLEANBUFFERS");
    }

    @Test
    void ddlInAnExplicitTransactionRollsBack() {
        session.setAutoCommit(false);
        session.execute("CREATE TABLE t (id INT NOT NULL PRIMARY KEY)");
        assertTrue(session.inTransaction());
        session.rollback();
        assertFalse(engine.database().catalog().byName(engine.database().bufferPool(), "t", counters).isPresent());
        session.execute("CREATE TABLE t (id INT NOT NULL PRIMARY KEY)");
        session.commit();
        assertTrue(engine.database().catalog().byName(engine.database().bufferPool(), "t", counters).isPresent());
    }

    @Test
    void copyLoadsCsvIntoRowstoreAndColumnstoreTablesAndNamesBadFields() throws Exception {
        Path csv = directory.resolve("people.csv");
        Files.writeString(csv, "id,name,born\n1,\"Smith, Anna\",1990-05-01\n2,\"He said \"\"hi\"\"\",\n3,,2001-12-31\n");
        session.execute("CREATE TABLE people (id INT NOT NULL PRIMARY KEY, name VARCHAR(40), born DATE)");
        StatementResult result = session.execute("COPY people FROM '" + csv + "' WITH (HEADER)");
        assertEquals(3, ((StatementResult.Update) result).count());
        var store = new Tables(engine.database()).table(engine.database().bufferPool(), "people", counters);
        assertEquals("Smith, Anna", store.get(engine.database().bufferPool(), new Object[] {1}, counters)[1]);
        assertEquals("He said \"hi\"", store.get(engine.database().bufferPool(), new Object[] {2}, counters)[1]);
        assertEquals(null, store.get(engine.database().bufferPool(), new Object[] {2}, counters)[2]);
        assertEquals(null, store.get(engine.database().bufferPool(), new Object[] {3}, counters)[1]);

        session.execute("CREATE TABLE c (id INT, name VARCHAR(40), born DATE) WITH (storage = columnstore)");
        assertEquals(3, ((StatementResult.Update) session.execute("COPY c FROM '" + csv + "' WITH (HEADER = true)")).count());
        assertEquals(3, table("c").rowCount());

        Path bad = directory.resolve("bad.csv");
        Files.writeString(bad, "4,x,2001-02-30\n");
        ColumbaException error = assertThrows(ColumbaException.class, () -> session.execute("COPY people FROM '" + bad + "'"));
        assertTrue(error.getMessage().contains("line 1, column born"), error.getMessage());
        assertEquals(3, table("people").rowCount(), "a failed COPY changes nothing");
    }
}
