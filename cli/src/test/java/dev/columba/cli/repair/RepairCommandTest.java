package dev.columba.cli.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.cli.Main;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.btree.BTree;
import dev.columba.storage.db.ControlFile;
import dev.columba.storage.db.Database;
import dev.columba.storage.db.DatabaseLayout;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.Transaction;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code columba repair}: reports a sound log, refuses a damaged one changing nothing, repairs it when asked. */
class RepairCommandTest {
    @TempDir
    Path directory;

    private record Run(int exitCode, String out, String err) {
    }

    private static Run repair(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] command = new String[args.length + 1];
        command[0] = "repair";
        System.arraycopy(args, 0, command, 1, args.length);
        int exitCode = Main.run(command, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exitCode, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A database with three committed transactions, closed cleanly; returns the only log segment. */
    private Path database() throws Exception {
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", "8MB");
        IoCounters counters = new IoCounters();
        try (Database database = Database.open(directory, settings, NativeFilesFacade.INSTANCE)) {
            BTree tree;
            try (Transaction transaction = database.begin()) {
                tree = BTree.create(transaction.writes(), database.allocator(), 100, counters);
                transaction.commit();
            }
            for (int batch = 0; batch < 3; batch++) {
                try (Transaction transaction = database.begin()) {
                    for (int number = 0; number < 200; number++) {
                        byte[] key = String.format("key-%d-%05d", batch, number).getBytes(StandardCharsets.US_ASCII);
                        tree.insert(transaction.writes(), database.allocator(), key, key, counters);
                    }
                    transaction.commit();
                }
            }
        }
        try (var segments = Files.list(DatabaseLayout.logDirectory(directory))) {
            return segments.toList().getFirst();
        }
    }

    private static void flip(Path file, long offset) throws Exception {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer buffer = ByteBuffer.allocate(1);
            channel.read(buffer, offset);
            buffer.put(0, (byte) ~buffer.get(0));
            buffer.rewind();
            channel.write(buffer, offset);
        }
    }

    @Test
    void aSoundLogIsReportedAsSound() throws Exception {
        database();
        Run run = repair(directory.toString());
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().contains("opened: the log ends at LSN ") && run.out().contains("the log is sound"), run::toString);
    }

    @Test
    void aDamagedLogIsRefusedUntouchedThenRepairedOnRequest() throws Exception {
        Path segment = database();
        long redo = ControlFile.read(NativeFilesFacade.INSTANCE, directory).redoLsn();
        flip(segment, 100);
        assertTrue(redo > 100);
        byte[] damaged = Files.readAllBytes(segment);

        Run refused = repair(directory.toString());
        assertEquals(1, refused.exitCode(), refused::toString);
        assertTrue(refused.err().contains("[WAL_CORRUPT]") && refused.err().contains(segment.toString()), refused::toString);
        assertTrue(refused.err().contains("Nothing was changed. To recover to the last consistent point before the damage,"
                + " discarding every transaction after it: ./columba repair " + directory + " --point-in-time"), refused::toString);
        assertEquals(java.util.Arrays.toString(damaged), java.util.Arrays.toString(Files.readAllBytes(segment)));

        Run repaired = repair(directory.toString(), "--point-in-time");
        assertEquals(0, repaired.exitCode(), repaired::toString);
        assertTrue(repaired.out().startsWith("WARNING: the write-ahead log was damaged: write-ahead log segment " + segment
                + " at offset "), repaired::toString);
        assertTrue(repaired.out().contains("The original files are in " + DatabaseLayout.damagedDirectory(directory)),
                repaired::toString);

        Run after = repair(directory.toString());
        assertEquals(0, after.exitCode(), after::toString);
        assertTrue(after.out().contains("the log is sound"), after::toString);
    }

    /**
     * A flip in columba.properties that still parses (8MB read as 9MB) is refused by its checksum with
     * the file untouched; --reseal-properties keeps the damaged file in damaged/, writes it again and
     * prints the setting it kept; the database then opens.
     */
    @Test
    void aDamagedPropertiesFileIsRefusedUntouchedThenResealedOnRequest() throws Exception {
        database();
        Path properties = DatabaseLayout.propertiesFile(directory);
        byte[] bytes = Files.readAllBytes(properties);
        bytes[new String(bytes, StandardCharsets.ISO_8859_1).indexOf("buffer_pool_size=8MB") + "buffer_pool_size=".length()] ^= 1;
        Files.write(properties, bytes);

        Run refused = repair(directory.toString());
        assertEquals(1, refused.exitCode(), refused::toString);
        assertTrue(refused.err().contains(properties + " is corrupt: its checksum line"), refused::toString);
        assertTrue(refused.err().contains("--reseal-properties"), refused::toString);
        assertTrue(java.util.Arrays.equals(bytes, Files.readAllBytes(properties)), "the file was left as it was");

        Run resealed = repair(directory.toString(), "--reseal-properties");
        assertEquals(0, resealed.exitCode(), resealed::toString);
        assertTrue(resealed.out().contains("buffer_pool_size = 9MB"), resealed::toString);
        assertTrue(resealed.out().contains(DatabaseLayout.damagedDirectory(directory).toString()), resealed::toString);

        Run opened = repair(directory.toString());
        assertEquals(0, opened.exitCode(), opened::toString);
        assertEquals(2, repair(directory.toString(), "--reseal-properties", "--point-in-time").exitCode());
    }

    /**
     * A flipped filegroup name in data/files.properties still parses, and before manifest version 2
     * opened the database with the name changed: repair refuses it untouched, without suggesting
     * --point-in-time (which cannot help), and --reseal-properties keeps the damaged copy and lists
     * what it keeps.
     */
    @Test
    void aDamagedFileManifestIsRefusedUntouchedThenResealedOnRequest() throws Exception {
        try (Database database = Database.open(directory, new Properties(), NativeFilesFacade.INSTANCE)) {
            database.addFilegroup("fg");
            database.addFile("f1", "fg1.data", "fg");
        }
        Path manifest = DatabaseLayout.fileManifest(directory);
        byte[] bytes = Files.readAllBytes(manifest);
        bytes[new String(bytes, StandardCharsets.ISO_8859_1).indexOf("filegroup.1=fg") + "filegroup.1=f".length()] ^= 1;
        Files.write(manifest, bytes);

        Run refused = repair(directory.toString());
        assertEquals(1, refused.exitCode(), refused::toString);
        assertTrue(refused.err().contains(manifest + " is corrupt: its checksum line"), refused::toString);
        assertTrue(!refused.err().contains("--point-in-time"), refused::toString);
        assertTrue(java.util.Arrays.equals(bytes, Files.readAllBytes(manifest)), "the file was left as it was");

        Run resealed = repair(directory.toString(), "--reseal-properties");
        assertEquals(0, resealed.exitCode(), resealed::toString);
        assertTrue(resealed.out().contains("filegroup 1 = ff"), resealed::toString);
        assertTrue(resealed.out().contains("columba.properties is sound"), resealed::toString);
        assertTrue(resealed.out().contains(DatabaseLayout.damagedDirectory(directory).toString()), resealed::toString);

        Run opened = repair(directory.toString());
        assertEquals(0, opened.exitCode(), opened::toString);
    }

    @Test
    void badUsageExitsWithTwo() throws Exception {
        assertEquals(2, repair().exitCode());
        assertEquals(2, repair(directory.toString(), "--everything").exitCode());
        Run notADatabase = repair(directory.toString());
        assertEquals(2, notADatabase.exitCode());
        assertTrue(notADatabase.err().contains("is not a database directory"), notADatabase::toString);
    }
}
