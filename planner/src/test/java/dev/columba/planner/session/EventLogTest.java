package dev.columba.planner.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.file.ColumnstoreFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sys.event_log}: what the engine did on its own when the database opened — recovery, and
 * the orphan sweep's deletions (INFO) and files moved aside (WARNING) — can be read with SQL.
 */
class EventLogTest {
    @TempDir
    Path directory;

    @Test
    void openingRecordsRecoveryAndWhatTheSweepDeletedOrMovedAside() throws IOException {
        int rowstoreId;
        int columnstoreId;
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute("CREATE TABLE r (id INT PRIMARY KEY)").close();
            session.execute("CREATE TABLE c (id INT, v VARCHAR(10)) WITH (storage = columnstore, bulk_min_rows = 10)").close();
            session.execute("INSERT INTO c SELECT generate_series, 'v' FROM generate_series(1, 100)").close();
            rowstoreId = objectId(session, "R");
            columnstoreId = objectId(session, "C");
            List<List<Object>> events = SessionRows.query(session,
                    "SELECT level, message FROM sys.event_log WHERE source = 'recovery'");
            assertEquals(1, events.size(), events.toString());
            assertEquals("DEBUG", events.get(0).get(0));
            assertTrue(events.get(0).get(1).toString().startsWith("created database"), events.toString());
        }
        // An interrupted write's temporary file (certainly garbage: deleted), and a columnstore directory
        // under the id of a rowstore table (uncertain: moved into damaged/, never deleted).
        plant(ColumnstoreFiles.tableDirectory(directory, columnstoreId).resolve("7.crg.tmp"));
        plant(ColumnstoreFiles.tableDirectory(directory, rowstoreId).resolve("0.crg"));
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            List<List<Object>> recovery = SessionRows.query(session,
                    "SELECT level, message FROM sys.event_log WHERE source = 'recovery'");
            assertEquals(1, recovery.size(), recovery.toString());
            assertEquals("DEBUG", recovery.get(0).get(0), "a clean opening is a detail: " + recovery);
            assertTrue(recovery.get(0).get(1).toString().contains("0 transactions replayed"), recovery.toString());
            List<List<Object>> sweep = SessionRows.query(session,
                    "SELECT level, message FROM sys.event_log WHERE source = 'orphan-sweep'");
            assertEquals(1, sweep.size(), sweep.toString());
            assertEquals("WARNING", sweep.get(0).get(0));
            String message = sweep.get(0).get(1).toString();
            assertTrue(message.startsWith("moved 1 columnstore files") && message.contains("deleted 1"), message);
            assertEquals(1L, engine.database().events().count(System.Logger.Level.WARNING));
        }
        assertTrue(Files.notExists(ColumnstoreFiles.tableDirectory(directory, columnstoreId).resolve("7.crg.tmp")));
        assertTrue(Files.notExists(ColumnstoreFiles.tableDirectory(directory, rowstoreId).resolve("0.crg")));
    }

    private static int objectId(Session session, String table) {
        return ((Number) SessionRows.query(session, "SELECT object_id FROM sys.tables WHERE UPPER(table_name) = '" + table + "'")
                .get(0).get(0)).intValue();
    }

    private static void plant(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, new byte[] {1, 2, 3});
    }
}
