package dev.columba.columnstore.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.file.ColumnstoreFiles;
import dev.columba.core.stats.IoCounters;
import dev.columba.datagen.TestTableGenerator;
import dev.columba.storage.db.Database;
import dev.columba.storage.db.DatabaseLayout;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.Transaction;
import dev.columba.storage.wal.LogFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
        return Database.open(directory, settings(), NativeFilesFacade.INSTANCE);
    }

    private static Properties settings() {
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", "32MB");
        return settings;
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
            drop(database, dropped);
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

    /**
     * After a point-in-time recovery (a damaged log, {@code wal_recovery_mode = point_in_time}) the
     * committed transactions after the damage are gone, and their files are all that is left of
     * them: the sweep moves them into {@code damaged/}, deleting nothing but an interrupted write.
     * The crash is a copy of the database's files taken while it was open, after the commits
     * (every commit synced its log), before any checkpoint could write their pages.
     */
    @Test
    void afterAPointInTimeRecoveryUnreferencedFilesAreMovedAsideNotDeleted() throws IOException {
        Path source = directory.resolve("db");
        Path crashed = directory.resolve("crashed");
        int keptId;
        int laterId;
        long damageLsn;
        List<String> keptFiles;
        List<String> laterFiles;
        try (Database database = Database.open(source, settings(), NativeFilesFacade.INSTANCE)) {
            ColumnstoreTable kept = create(database, "kept", 25_000);
            keptId = kept.objectId();
            database.checkpoint();
            keptFiles = names(kept.fileDirectory());
            // Committed after the checkpoint: only the log holds them.
            damageLsn = database.log().endLsn();
            ColumnstoreTable later = create(database, "later", 25_000);
            laterId = later.objectId();
            try (Transaction transaction = database.begin()) {
                kept.bulkInsert(transaction, new TestTableGenerator(25_000, 12).rows());
                transaction.commit();
            }
            laterFiles = names(later.fileDirectory());
            copyTree(source, crashed);
        }
        List<String> keptFilesAtCrash = names(ColumnstoreFiles.tableDirectory(crashed, keptId));
        assertTrue(keptFilesAtCrash.containsAll(List.of("3.crg", "4.crg", "5.crg")),
                "the second load's rowgroups: " + keptFilesAtCrash);
        assertFalse(laterFiles.isEmpty());
        plant(ColumnstoreFiles.tableDirectory(crashed, keptId).resolve("6.crg.tmp"));
        // Damage inside the first record after the checkpoint, with committed groups after it.
        Path segment = segmentHolding(crashed, damageLsn);
        flip(segment, damageLsn - LogFormat.startLsnOfName(segment.getFileName().toString()) + 40);

        Properties pointInTime = settings();
        pointInTime.setProperty("wal_recovery_mode", "point_in_time");
        try (Database database = Database.open(crashed, pointInTime, NativeFilesFacade.INSTANCE)) {
            assertTrue(database.recoveryReport().logRepair() != null, "recovery discarded the transactions after the damage");
            OrphanFiles.Sweep sweep = OrphanFiles.sweep(database);

            assertEquals(keptFiles, names(ColumnstoreFiles.tableDirectory(crashed, keptId)),
                    "the table as of the checkpoint, its files only");
            assertFalse(Files.exists(ColumnstoreFiles.tableDirectory(crashed, laterId)), "the discarded table's directory");
            int movedFromKept = keptFilesAtCrash.size() - keptFiles.size();
            assertEquals(new OrphanFiles.Sweep(1, movedFromKept + laterFiles.size()), sweep,
                    "only the interrupted write deleted; everything else moved");
            Path keptIncident = onlyIncident(crashed, "columnstore-" + keptId + "-");
            List<String> movedKept = names(keptIncident);
            assertTrue(movedKept.remove("report.txt"));
            List<String> expectedMoved = new java.util.ArrayList<>(keptFilesAtCrash);
            expectedMoved.removeAll(keptFiles);
            expectedMoved.remove("6.crg.tmp");
            assertEquals(expectedMoved, movedKept, "the discarded load's rowgroups, moved with their bytes");
            assertTrue(Files.readString(keptIncident.resolve("report.txt")).contains("recovery discarded committed"));
            Path laterIncident = onlyIncident(crashed, "columnstore-" + laterId + "-");
            List<String> movedLater = names(laterIncident);
            assertTrue(movedLater.remove("report.txt"));
            assertEquals(laterFiles, movedLater, "every file of the table whose creation was discarded");

            ColumnstoreTable kept = ColumnstoreTable.find(database, database.bufferPool(), "kept", counters).orElseThrow();
            assertEquals(25_000, totalRows(database, kept), "the committed rows before the damage");
            assertTrue(ColumnstoreTable.find(database, database.bufferPool(), "later", counters).isEmpty());
        }
    }

    /**
     * A sweep that cannot do everything: an interrupted write it cannot delete (a non-empty directory
     * where a {@code .tmp} file was expected) and a folder it cannot move files into ({@code damaged}
     * is a regular file). Real file-system failures, which hold for root too (the tests run as root
     * here, for whom a read-only directory is no obstacle). The sweep deletes what it can, leaves the
     * rest in place, names each failure, and the committed table reads back whole; once the obstacles
     * are gone the next opening's sweep finishes the work.
     */
    @Test
    void aSweepThatCannotDeleteOrMoveLeavesTheFilesNamesThemAndLosesNothing() throws IOException {
        int loadedId;
        int droppedId;
        List<String> liveFiles;
        try (Database database = open()) {
            ColumnstoreTable loaded = create(database, "loaded", 25_000);
            ColumnstoreTable dropped = create(database, "dropped", 25_000);
            drop(database, dropped);
            loadedId = loaded.objectId();
            droppedId = dropped.objectId();
            liveFiles = names(loaded.fileDirectory());
        }
        List<String> droppedFiles = names(tableDirectory(droppedId));
        assertFalse(droppedFiles.isEmpty());
        plant(tableDirectory(loadedId).resolve("3.crg"));
        Path stuck = tableDirectory(loadedId).resolve("4.crg.tmp");
        plant(stuck.resolve("inside"));
        Path damaged = DatabaseLayout.damagedDirectory(directory);
        plant(damaged);

        try (Database database = open()) {
            OrphanFiles.Sweep sweep = OrphanFiles.sweep(database);
            assertEquals(1, sweep.deleted(), "the orphaned rowgroup: " + sweep);
            assertEquals(0, sweep.moved(), sweep.toString());
            assertEquals(2, sweep.failures().size(), sweep.toString());
            // Directories are swept in id order: the loaded table's, then the dropped one's.
            assertTrue(sweep.failures().get(0).startsWith("cannot delete " + stuck), sweep.failures().get(0));
            assertTrue(sweep.failures().get(1).contains(tableDirectory(droppedId).toString())
                    && sweep.failures().get(1).contains("left in place"), sweep.failures().get(1));
            assertFalse(Files.exists(tableDirectory(loadedId).resolve("3.crg")));
            assertTrue(Files.exists(stuck.resolve("inside")), "left where it was");
            assertEquals(droppedFiles, names(tableDirectory(droppedId)), "the dropped table's files, left in place");
            ColumnstoreTable loaded = ColumnstoreTable.find(database, database.bufferPool(), "loaded", counters)
                    .orElseThrow();
            assertEquals(25_000, totalRows(database, loaded));
            List<String> expectedLive = new java.util.ArrayList<>(liveFiles);
            expectedLive.add("4.crg.tmp/inside");
            expectedLive.sort(null);
            assertEquals(expectedLive, names(tableDirectory(loadedId)), "every committed file kept");
        }

        Files.delete(damaged);
        Files.delete(stuck.resolve("inside"));
        try (Database database = open()) {
            OrphanFiles.Sweep sweep = OrphanFiles.sweep(database);
            assertEquals(new OrphanFiles.Sweep(1, droppedFiles.size()), sweep, "the rest, once nothing is in the way");
            assertEquals(liveFiles, names(tableDirectory(loadedId)));
            assertFalse(Files.exists(tableDirectory(droppedId)));
        }
    }

    private long totalRows(Database database, ColumnstoreTable table) {
        long rows = 0;
        for (RowgroupEntry rowgroup : table.rowgroups(database.bufferPool(), counters)) {
            rows += rowgroup.totalRows() - rowgroup.deletedRows();
        }
        return rows;
    }

    private static Path onlyIncident(Path database, String prefix) {
        List<Path> matching = java.util.Arrays.stream(list(DatabaseLayout.damagedDirectory(database)))
                .filter(path -> path.getFileName().toString().startsWith(prefix)).toList();
        assertEquals(1, matching.size(), "one folder named " + prefix + "*: " + matching);
        return matching.getFirst();
    }

    private static Path segmentHolding(Path database, long lsn) {
        Path holder = null;
        for (Path segment : list(DatabaseLayout.logDirectory(database))) {
            long start = LogFormat.startLsnOfName(segment.getFileName().toString());
            if (start >= 0 && start <= lsn) {
                holder = segment;
            }
        }
        assertNotNull(holder, "a log segment holding LSN " + lsn);
        return holder;
    }

    private static void flip(Path file, long offset) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer buffer = ByteBuffer.allocate(1);
            assertEquals(1, channel.read(buffer, offset), "a byte at offset " + offset + " of " + file);
            buffer.put(0, (byte) ~buffer.get(0));
            buffer.rewind();
            channel.write(buffer, offset);
        }
    }

    /** Copies the files of a database that is open: what a crash at this moment would leave on disk. */
    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path path : paths.toList()) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target);
                }
            }
        }
    }

    /** Drops {@code table} in a committed transaction; its files stay (the drop's deletion is cut short). */
    private static void drop(Database database, ColumnstoreTable table) {
        try (Transaction transaction = database.begin()) {
            table.drop(transaction);
            transaction.commit();
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
