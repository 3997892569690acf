package dev.columba.trino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The catalog properties' names and defaults, and the values refused with a message. */
class ColumbaConfigTest {
    @Test
    void namesAndDefaults() {
        assertEquals("columba.database-dir", ColumbaConfig.DATABASE_DIRECTORY);
        assertEquals("columba.schema-name", ColumbaConfig.SCHEMA_NAME);
        ColumbaConfig config = ColumbaConfig.parse(Map.of(ColumbaConfig.DATABASE_DIRECTORY, "/data/Sales"));
        assertEquals(Path.of("/data/Sales"), config.databaseDirectory());
        assertEquals("sales", config.schemaName(), "the directory's name in lower case");
        assertEquals("tpch", ColumbaConfig.parse(Map.of(ColumbaConfig.DATABASE_DIRECTORY, "/data/Sales",
                ColumbaConfig.SCHEMA_NAME, "tpch")).schemaName());
        assertEquals(Duration.ofSeconds(1), config.dynamicFilterWaitTimeout());
        assertEquals(Duration.ofMillis(250), ColumbaConfig.parse(Map.of(ColumbaConfig.DATABASE_DIRECTORY, "/data",
                ColumbaConfig.DYNAMIC_FILTER_WAIT_TIMEOUT, "250ms")).dynamicFilterWaitTimeout());
        assertEquals(Duration.ZERO, ColumbaConfig.parse(Map.of(ColumbaConfig.DATABASE_DIRECTORY, "/data",
                ColumbaConfig.DYNAMIC_FILTER_WAIT_TIMEOUT, "0s")).dynamicFilterWaitTimeout());
        assertEquals("columba.rowstore.pages-per-split", ColumbaConfig.ROWSTORE_PAGES_PER_SPLIT);
        assertEquals(4096, config.rowstorePagesPerSplit());
        assertEquals(16, ColumbaConfig.parse(Map.of(ColumbaConfig.DATABASE_DIRECTORY, "/data",
                ColumbaConfig.ROWSTORE_PAGES_PER_SPLIT, "16")).rowstorePagesPerSplit());
        assertEquals("columba.access-mode", ColumbaConfig.ACCESS_MODE);
        assertEquals(ColumbaConfig.AccessMode.OPEN, config.accessMode());
        assertEquals(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize(), config.snapshotDirectory());
        ColumbaConfig snapshots = ColumbaConfig.parse(Map.of(ColumbaConfig.DATABASE_DIRECTORY, "/data",
                ColumbaConfig.ACCESS_MODE, "Snapshot", ColumbaConfig.SNAPSHOT_DIRECTORY, "/scratch/columba"));
        assertEquals(ColumbaConfig.AccessMode.SNAPSHOT, snapshots.accessMode());
        assertEquals(Path.of("/scratch/columba"), snapshots.snapshotDirectory());
    }

    @Test
    void refusesWhatItCannotUse() {
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> ColumbaConfig.parse(Map.of()));
        assertTrue(missing.getMessage().contains("columba.database-dir is required"), missing.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> ColumbaConfig.parse(
                Map.of(ColumbaConfig.DATABASE_DIRECTORY, "/data", "columba.databse-dir", "/typo")));
        assertTrue(unknown.getMessage().contains("[columba.databse-dir]"), unknown.getMessage());
        IllegalArgumentException upper = assertThrows(IllegalArgumentException.class, () -> ColumbaConfig.parse(
                Map.of(ColumbaConfig.DATABASE_DIRECTORY, "/data", ColumbaConfig.SCHEMA_NAME, "Sales")));
        assertTrue(upper.getMessage().contains("'Sales'"), upper.getMessage());
        IllegalArgumentException wait = assertThrows(IllegalArgumentException.class, () -> ColumbaConfig.parse(
                Map.of(ColumbaConfig.DATABASE_DIRECTORY, "/data", ColumbaConfig.DYNAMIC_FILTER_WAIT_TIMEOUT, "soon")));
        assertTrue(wait.getMessage().contains("'soon'"), wait.getMessage());
        IllegalArgumentException mode = assertThrows(IllegalArgumentException.class, () -> ColumbaConfig.parse(
                Map.of(ColumbaConfig.DATABASE_DIRECTORY, "/data", ColumbaConfig.ACCESS_MODE, "read-only")));
        assertTrue(mode.getMessage().contains("open or snapshot, not 'read-only'"), mode.getMessage());
        for (String pages : new String[] {"0", "-3", "many"}) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> ColumbaConfig.parse(
                    Map.of(ColumbaConfig.DATABASE_DIRECTORY, "/data", ColumbaConfig.ROWSTORE_PAGES_PER_SPLIT, pages)));
            assertTrue(refused.getMessage().contains(ColumbaConfig.ROWSTORE_PAGES_PER_SPLIT), refused.getMessage());
        }
    }
}
