package dev.columba.planner.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.file.ColumnstoreFiles;
import dev.columba.planner.plan.QueryPlanner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's opening sweep of orphaned columnstore files (columnstore's {@code OrphanFiles}) when it
 * cannot do its work: the engine opens all the same, says what it left in {@link Engine#openingSweep()}
 * and in {@code sys.event_log}, and every committed row is there. The obstacle is real: a non-empty directory where the sweep
 * expects an interrupted write's {@code .tmp} file (a read-only directory would not stop root, whom
 * these tests run as here).
 */
class OpeningSweepTest {
    @TempDir
    Path directory;

    private static Engine open(Path directory) {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "16MB");
        return Engine.open(directory, properties, (catalog, settings, statement, cancel) ->
                new QueryPlanner(catalog, settings).plan(statement));
    }

    @Test
    void theEngineOpensWhenTheSweepCannotDeleteAFileAndSaysWhich() throws IOException {
        int tableId;
        try (Engine engine = open(directory); Session session = engine.openSession()) {
            session.execute("CREATE TABLE t (id BIGINT NOT NULL, s VARCHAR(20)) WITH (storage = columnstore,"
                    + " rowgroup_max_rows = 10000)");
            session.execute("INSERT INTO t SELECT x, 'row ' || CAST(x AS VARCHAR(10)) FROM generate_series(1, 25000) AS g (x)");
            tableId = ((Number) SessionRows.query(session, "SELECT object_id FROM sys.tables WHERE table_name = 't'")
                    .getFirst().getFirst()).intValue();
        }
        Path tableDirectory = ColumnstoreFiles.tableDirectory(directory, tableId);
        Path stuck = tableDirectory.resolve("7.crg.tmp");
        Files.createDirectories(stuck);
        Files.write(stuck.resolve("inside"), new byte[] {1});
        Path orphan = tableDirectory.resolve("8.crg");
        Files.write(orphan, new byte[] {1, 2, 3});

        try (Engine engine = open(directory); Session session = engine.openSession()) {
            List<String> failures = engine.openingSweep().failures();
            assertEquals(1, failures.size(), failures.toString());
            assertTrue(failures.getFirst().startsWith("cannot delete " + stuck), failures.getFirst());
            assertEquals(1, engine.openingSweep().deleted(), "the orphan the sweep could delete");
            assertEquals(List.of(List.of("WARNING", failures.getFirst() + " (left in place; the next opening tries again)")),
                    SessionRows.query(session, "SELECT level, message FROM sys.event_log WHERE source = 'orphan-sweep'"
                            + " AND level = 'WARNING'"), "the failure is in the event log, for any client to see");
            assertFalse(Files.exists(orphan));
            assertEquals("[[25000, 25000, 312512500]]", SessionRows.query(session,
                    "SELECT COUNT(*), COUNT(DISTINCT id), SUM(id) FROM t").toString());
            session.execute("INSERT INTO t VALUES (25001, 'after')");
        }
        Files.delete(stuck.resolve("inside"));
        try (Engine engine = open(directory); Session session = engine.openSession()) {
            assertEquals(List.of(), engine.openingSweep().failures());
            assertFalse(Files.exists(stuck), "deleted once nothing was in the way");
            assertEquals(List.of(List.of(25001L)), SessionRows.query(session, "SELECT COUNT(*) FROM t"));
        }
    }
}
