package dev.columba.columnstore.table;

import dev.columba.columnstore.file.ColumnstoreFiles;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.db.Database;
import dev.columba.storage.db.DatabaseLayout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Clears the columnstore's files that no committed state refers to, once, when the database opens
 * (after recovery, before any transaction): the rowgroup and dictionary files a killed load or
 * tuple mover wrote before its commit, interrupted writes ({@code .tmp}), and the directory of a
 * table whose creating transaction never committed. Without this they stayed until the table's next
 * write (and for ever if there was none), and a later load reused their rowgroup ids.
 *
 * <p>What may be deleted is decided against the recovered state, which is durable (recovery replays
 * only what the log holds on disk), so no crash can bring back a reference to a deleted file: a
 * rowgroup file without a COMPRESSED entry (the rule {@link ColumnstoreTable#removeOrphanFiles}
 * applies at every write), a primary dictionary of a table with no compressed rowgroup (only those
 * refer to it), and the directory of an object id the committed catalog never handed out. Recovery
 * never destroys evidence, so what is less certain is moved, not deleted, into
 * {@code damaged/columnstore-<table id>-<time>/} with a {@code report.txt}: a directory whose id was
 * handed out but names no columnstore table (a drop whose file deletion was cut short), and every
 * unreferenced file when recovery discarded committed transactions ({@code wal_recovery_mode =
 * point_in_time}: their files may be all that is left of them). Files of other names are left
 * alone. A read-only opening changes nothing.
 *
 * <p>A file the sweep cannot delete or move stays where it is and is named in {@link Sweep#failures()}
 * and as a warning in the database's event log ({@code sys.event_log}); the sweep goes on with the
 * others and the database opens. Everything it touches is garbage or
 * evidence that no committed state refers to, so leaving it costs only space, while refusing to open
 * over it would lock the user out of every committed table. The next opening tries again, and a
 * rowgroup file left behind is also what {@link ColumnstoreTable#removeOrphanFiles} removes at the
 * table's next write.
 */
public final class OrphanFiles {
    private OrphanFiles() {
    }

    /**
     * What one sweep did: files deleted, files moved into {@code damaged/} (a directory's files
     * each), and what it could not do, a message per file or folder naming it and the operating
     * system's reason (those files are where they were).
     */
    public record Sweep(int deleted, int moved, List<String> failures) {
        public Sweep {
            failures = List.copyOf(failures);
        }

        /** A sweep that found nothing, or did everything it set out to do. */
        public Sweep(int deleted, int moved) {
            this(deleted, moved, List.of());
        }
    }

    /** Sweeps {@code database}'s columnstore directory; call once at open, before any transaction. */
    public static Sweep sweep(Database database) {
        Path root = ColumnstoreFiles.columnstoreDirectory(database.directory());
        if (database.readOnly() || !Files.isDirectory(root)) {
            return new Sweep(0, 0);
        }
        PageReader reader = database.bufferPool();
        IoCounters counters = database.systemCounters();
        Map<Integer, CatalogEntry.Table> tables = new HashMap<>();
        for (CatalogEntry entry : database.catalog().entries(reader, counters)) {
            if (entry instanceof CatalogEntry.Table table && table.organization() == CatalogEntry.Organization.COLUMNSTORE) {
                tables.put(table.objectId(), table);
            }
        }
        int nextObjectId = database.catalog().nextObjectId(reader, counters);
        // Committed transactions were discarded: their files may be the only trace of them.
        boolean keepEvidence = database.recoveryReport().logRepair() != null;
        Work work = new Work(database, keepEvidence);
        for (Path directory : work.list(root)) {
            int tableId = ColumnstoreFiles.tableIdOfDirectoryName(directory.getFileName().toString());
            if (tableId < 0 || !Files.isDirectory(directory)) {
                continue;
            }
            CatalogEntry.Table table = tables.get(tableId);
            if (table != null) {
                sweepTable(ColumnstoreTable.open(database, table), directory, reader, counters, work);
            } else if (tableId >= nextObjectId && !keepEvidence) {
                work.deleteTree(directory);
            } else {
                work.moveTree(directory, tableId, tableId >= nextObjectId
                        ? "the directory of object id " + tableId + ", which no committed transaction had reserved"
                        + " (recovery discarded committed transactions)"
                        : "the directory of object id " + tableId + ", which no columnstore table in the catalog has"
                        + " (a drop whose file deletion did not finish, or files put here by hand)");
            }
        }
        if (work.moved > 0) {
            database.events().record(System.Logger.Level.WARNING, "orphan-sweep", "moved " + work.moved
                    + " columnstore files no committed state refers to into "
                    + DatabaseLayout.damagedDirectory(database.directory()) + " (see report.txt there); deleted "
                    + work.deleted + " left by unfinished writes");
        } else if (work.deleted > 0) {
            database.events().record(System.Logger.Level.INFO, "orphan-sweep", "deleted " + work.deleted
                    + " columnstore files left by unfinished writes (a killed load or tuple mover)");
        }
        for (String failure : work.failures) {
            database.events().record(System.Logger.Level.WARNING, "orphan-sweep", failure
                    + " (left in place; the next opening tries again)");
        }
        return new Sweep(work.deleted, work.moved, work.failures);
    }

    private static void sweepTable(ColumnstoreTable table, Path directory, PageReader reader, IoCounters counters,
                                   Work work) {
        Set<String> live = table.liveFileNames(reader, counters);
        List<Path> orphans = new ArrayList<>();
        for (Path file : work.list(directory)) {
            String name = file.getFileName().toString();
            if (name.endsWith(ColumnstoreFiles.TEMPORARY_SUFFIX)) {
                work.delete(file); // an interrupted write: never referenced, whatever recovery did
            } else if (ColumnstoreFiles.rowgroupIdOfName(name) >= 0 && !live.contains(name)) {
                orphans.add(file);
            } else if (ColumnstoreFiles.columnOfDictionaryName(name) >= 0 && live.isEmpty()) {
                orphans.add(file);
            }
        }
        if (orphans.isEmpty()) {
            return;
        }
        if (work.keepEvidence) {
            work.moveFiles(orphans, table.objectId(), "files of columnstore table " + table.name() + " that no"
                    + " compressed rowgroup of the recovered state refers to (recovery discarded committed transactions)");
        } else {
            for (Path file : orphans) {
                work.delete(file);
            }
        }
    }

    /** One sweep's deletions and moves. */
    private static final class Work {
        private final Database database;
        private final boolean keepEvidence;
        private boolean logSynced;
        private int deleted;
        private int moved;
        private final List<String> failures = new ArrayList<>();

        Work(Database database, boolean keepEvidence) {
            this.database = database;
            this.keepEvidence = keepEvidence;
        }

        /** The entries of {@code directory}, sorted; none (and a failure) if it cannot be listed. */
        List<Path> list(Path directory) {
            try (Stream<Path> paths = Files.list(directory)) {
                return paths.sorted().toList();
            } catch (IOException e) {
                fail("cannot list " + directory, e);
                return List.of();
            }
        }

        void delete(Path file) {
            syncLog();
            try {
                if (Files.deleteIfExists(file)) {
                    deleted++;
                }
            } catch (IOException e) {
                fail("cannot delete " + file, e);
            }
        }

        void deleteTree(Path directory) {
            List<Path> paths;
            try (Stream<Path> walk = Files.walk(directory)) {
                paths = walk.sorted(Comparator.reverseOrder()).toList();
            } catch (IOException e) {
                fail("cannot list " + directory, e);
                return;
            }
            for (Path path : paths) {
                if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                    try {
                        Files.deleteIfExists(path);
                    } catch (IOException e) {
                        // Not empty because a file in it could not be deleted: that file is the failure.
                        if (!(e instanceof DirectoryNotEmptyException)) {
                            fail("cannot delete " + path, e);
                        }
                    }
                } else {
                    delete(path);
                }
            }
        }

        void moveTree(Path directory, int tableId, String why) {
            List<Path> files;
            try (Stream<Path> paths = Files.walk(directory)) {
                files = paths.filter(Files::isRegularFile).sorted().toList();
            } catch (IOException e) {
                fail("cannot list " + directory, e);
                return;
            }
            moveFiles(files, tableId, why);
            try {
                deleteEmptyDirectories(directory);
            } catch (IOException e) {
                fail("cannot delete the emptied " + directory, e);
            }
        }

        private void fail(String what, IOException e) {
            failures.add(what + ": " + e);
        }

        /**
         * Moves {@code files} (all under one table's directory) into a new folder of {@code damaged/},
         * keeping their paths relative to the table's directory, with a report saying why. A file
         * that cannot be moved stays; the report lists only what was moved.
         */
        void moveFiles(List<Path> files, int tableId, String why) {
            Path damaged = DatabaseLayout.damagedDirectory(database.directory());
            Path tableDirectory = ColumnstoreFiles.tableDirectory(database.directory(), tableId);
            Instant now = Instant.now();
            Path incident = damaged.resolve("columnstore-" + tableId + "-" + now.toEpochMilli());
            try {
                for (int attempt = 1; Files.exists(incident); attempt++) {
                    incident = damaged.resolve("columnstore-" + tableId + "-" + now.toEpochMilli() + "-" + attempt);
                }
                Files.createDirectories(incident);
            } catch (IOException e) {
                fail("cannot create " + incident + " for " + files.size() + " files of " + tableDirectory
                        + ", left in place", e);
                return;
            }
            StringBuilder report = new StringBuilder()
                    .append("Moved here when the database opened, ").append(now).append(":\n")
                    .append(why).append(".\nFrom ").append(tableDirectory).append(":\n");
            for (Path file : files) {
                Path relative = tableDirectory.relativize(file);
                Path target = incident.resolve(relative);
                try {
                    Files.createDirectories(target.getParent());
                    Files.move(file, target);
                    report.append("  ").append(relative).append('\n');
                    moved++;
                } catch (IOException e) {
                    fail("cannot move " + file + " to " + target, e);
                }
            }
            try {
                Files.writeString(incident.resolve("report.txt"), report, StandardCharsets.UTF_8);
            } catch (IOException e) {
                fail("cannot write " + incident.resolve("report.txt"), e);
            }
        }

        private static void deleteEmptyDirectories(Path directory) throws IOException {
            try (Stream<Path> paths = Files.walk(directory)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    if (Files.isDirectory(path)) {
                        try (Stream<Path> left = Files.list(path)) {
                            if (left.findAny().isEmpty()) {
                                Files.delete(path);
                            }
                        }
                    }
                }
            }
        }

        /** As {@link ColumnstoreTable#removeOrphanFiles}: the log durable to its end before a file goes. */
        private void syncLog() {
            if (!logSynced) {
                database.log().flush(database.log().endLsn());
                logSynced = true;
            }
        }
    }
}
