package dev.columba.columnstore.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.file.ColumnstoreFiles;
import dev.columba.core.stats.IoCounters;
import dev.columba.datagen.TestTableGenerator;
import dev.columba.storage.db.Database;
import dev.columba.storage.db.DatabaseLayout;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.Transaction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link OrphanFiles}: what the opening sweep deletes, moves aside and keeps, against committed
 * tables and files planted as a killed load, an interrupted write, a table never committed and a
 * drop whose file deletion was cut short would leave them.
 */
class OrphanFilesTest {
    private static final Map<String, String> OPTIONS = Map.of("rowgroup_max_rows", "10000", "bulk_min_rows", "1000");

    @TempDir
    Path directory;

    private final IoCounters counters = new IoCounters();

    private Database open() {
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", "32MB");
        return Database.open(directory, settings, NativeFilesFacade.INSTANCE);
    }

    @Test
    void theSweepDeletesWhatNoCommittedStateReferencesAndMovesTheUncertainAside() throws IOException {
        int loadedId;
        int deltaId;
        int droppedId;
        int nextObjectId;
        List<String> liveFiles;
        try (Database database = open()) {
            ColumnstoreTable loaded = create(database, "loaded", 25_000);
            ColumnstoreTable delta = create(database, "delta", 100);
            ColumnstoreTable dropped = create(database, "dropped", 25_000);
            try (Transaction transaction = database.begin()) {
                dropped.drop(transaction);
                transaction.commit();
            }
            loadedId = loaded.objectId();
            deltaId = delta.objectId();
            droppedId = dropped.objectId();
            nextObjectId = database.catalog().nextObjectId(database.bufferPool(), counters);
            liveFiles = names(loaded.fileDirectory());
        }
        assertTrue(liveFiles.containsAll(List.of("0.crg", "1.crg", "2.crg")), "three rowgroups: " + liveFiles);
        assertTrue(liveFiles.stream().anyMatch(name -> name.startsWith(ColumnstoreFiles.DICTIONARY_PREFIX)),
                "a primary dictionary of the loaded table: " + liveFiles);
        List<String> droppedFiles = names(tableDirectory(droppedId));
        assertFalse(droppedFiles.isEmpty(), "the dropped table's files are still there");

        // What a killed load, an interrupted write and a killed CREATE TABLE + COPY leave.
        plant(tableDirectory(loadedId).resolve("3.crg"));
        plant(tableDirectory(loadedId).resolve("4.crg.tmp"));
        plant(tableDirectory(loadedId).resolve("notes.txt"));
        plant(tableDirectory(deltaId).resolve("0.crg"));
        plant(tableDirectory(deltaId).resolve("dict-1.cdict"));
        plant(tableDirectory(nextObjectId).resolve("0.crg"));
        plant(tableDirectory(nextObjectId).resolve("dict-1.cdict"));

        try (Database database = open()) {
            OrphanFiles.Sweep sweep = OrphanFiles.sweep(database);
            List<String> expectedLive = new java.util.ArrayList<>(liveFiles);
            expectedLive.add("notes.txt");
            expectedLive.sort(null);
            assertEquals(expectedLive, names(tableDirectory(loadedId)),
                    "the committed rowgroups and dictionaries kept, a file of another name left alone");
            assertEquals(List.of(), names(tableDirectory(deltaId)),
                    "a table with no compressed rowgroup refers to no rowgroup or dictionary file");
            assertFalse(Files.exists(tableDirectory(nextObjectId)), "a table no committed transaction created: deleted");
            assertFalse(Files.exists(tableDirectory(droppedId)), "the dropped table's directory left columnstore/");
            assertEquals(new OrphanFiles.Sweep(6, droppedFiles.size()), sweep);

            Path[] incidents = list(DatabaseLayout.damagedDirectory(directory));
            assertEquals(1, incidents.length, "one folder of moved files");
            assertTrue(incidents[0].getFileName().toString().startsWith("columnstore-" + droppedId + "-"),
                    incidents[0].toString());
            List<String> moved = names(incidents[0]);
            assertTrue(moved.remove("report.txt"), "the folder says why: " + moved);
            assertEquals(droppedFiles, moved, "every file of the dropped table's directory, moved, not deleted");
            assertTrue(Files.readString(incidents[0].resolve("report.txt")).contains("object id " + droppedId));

            ColumnstoreTable loaded = ColumnstoreTable.find(database, database.bufferPool(), "loaded", counters)
                    .orElseThrow();
            assertEquals(3, loaded.rowgroups(database.bufferPool(), counters).size());
            assertEquals(new OrphanFiles.Sweep(0, 0), OrphanFiles.sweep(database), "a second sweep finds nothing");
        }
    }

    private ColumnstoreTable create(Database database, String name, int rows) {
        TestTableGenerator generator = new TestTableGenerator(rows, 11);
        try (Transaction transaction = database.begin()) {
            ColumnstoreTable table = ColumnstoreTable.create(database, transaction, name, generator.schema(), OPTIONS);
            assertEquals(rows, table.bulkInsert(transaction, generator.rows()));
            transaction.commit();
            return table;
        }
    }

    private Path tableDirectory(int tableId) {
        return ColumnstoreFiles.tableDirectory(directory, tableId);
    }

    private static void plant(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, new byte[] {1, 2, 3});
    }

    private static Path[] list(Path directory) {
        try (Stream<Path> paths = Files.list(directory)) {
            return paths.sorted().toArray(Path[]::new);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The names of the files under {@code directory}, relative to it, sorted; none if it does not exist. */
    private static List<String> names(Path directory) {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(directory)) {
            return walk.filter(Files::isRegularFile).map(file -> directory.relativize(file).toString()).sorted()
                    .collect(java.util.stream.Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
