package dev.columba.storage.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.io.NativeFilesFacade;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshots of a database another process writes ({@link DatabaseSnapshot}). The writer is
 * {@link CrashWorkload} in a child JVM, its table on a filegroup of two files, with a 2 MB pool (its
 * committed pages are evicted, written in place, while later batches commit) and a checkpoint every
 * megabyte of log (segments removed, pages written): the two things a copy must survive. Each
 * snapshot holds whole batches only, as many as the writer had acknowledged by the snapshot's start
 * and at most as many as by its end; the writer acknowledges batches throughout, and after it is
 * killed its own recovery finds every batch it acknowledged.
 */
class DatabaseSnapshotTest {
    private static final int SNAPSHOTS = 6;

    @Test
    void snapshotsOfADatabaseAnotherProcessWrites(@TempDir Path directory) throws Exception {
        Path database = directory.resolve("db");
        String java = ProcessHandle.current().info().command().orElse("java");
        Process writer = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), CrashWorkload.class.getName(), database.toString(), "forever", "0",
                CrashWorkload.TWO_FILES).redirectErrorStream(true).start();
        List<Long> acknowledged = new CopyOnWriteArrayList<>();
        List<String> other = new CopyOnWriteArrayList<>();
        Thread reader = Thread.ofPlatform().start(() -> {
            try (BufferedReader lines = writer.inputReader(StandardCharsets.UTF_8)) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    if (line.startsWith("C ")) {
                        acknowledged.add(Long.parseLong(line.substring(2)));
                    } else {
                        other.add(line);
                    }
                }
            } catch (IOException e) {
                other.add(e.toString());
            }
        });
        int acknowledgedWhileCopying;
        int attempts = 0;
        try {
            waitFor(() -> acknowledged.size() >= 5 || !writer.isAlive());
            assertTrue(writer.isAlive(), () -> "the writer stopped: " + other);
            int before = acknowledged.size();
            for (int snapshot = 0; snapshot < SNAPSHOTS; snapshot++) {
                long low = acknowledged.getLast();
                Path copy = directory.resolve("snapshot-" + snapshot);
                long batches;
                try (DatabaseSnapshot taken = DatabaseSnapshot.take(database, copy, new Properties())) {
                    batches = LogCorruptionTest.batches(taken.database());
                    attempts += taken.attempts();
                }
                assertFalse(Files.exists(copy), "the copy is deleted at close");
                int ended = acknowledged.size();
                waitFor(() -> acknowledged.size() > ended || !writer.isAlive());
                long high = acknowledged.getLast();
                assertTrue(batches >= low && batches <= high, batches + " batches, acknowledged between " + low + " and " + high);
            }
            acknowledgedWhileCopying = acknowledged.size() - before;
        } finally {
            writer.destroyForcibly();
            assertTrue(writer.waitFor(2, TimeUnit.MINUTES));
            reader.join();
        }
        System.out.printf("%d snapshots in %d copies while the writer committed %d batches%n", SNAPSHOTS, attempts,
                acknowledgedWhileCopying);
        assertTrue(acknowledgedWhileCopying >= SNAPSHOTS, "the writer committed " + acknowledgedWhileCopying
                + " batches during " + SNAPSHOTS + " snapshots");
        try (Database recovered = Database.open(database, CrashWorkload.settings(), NativeFilesFacade.INSTANCE)) {
            long batches = LogCorruptionTest.batches(recovered);
            assertTrue(batches >= acknowledged.getLast(), batches + " batches after the kill, " + acknowledged.getLast()
                    + " acknowledged");
        }
        try (Stream<Path> left = Files.list(directory)) {
            assertEquals(List.of(database), left.toList(), "no copy left beside the database");
        }
    }

    /**
     * The writer retires (deletes) a rowgroup file and replaces a dictionary after a snapshot was
     * taken: the snapshot still reads the bytes it linked, and closing it removes its own names only.
     */
    @Test
    void filesTheWriterRetiresStayReadableInTheSnapshot(@TempDir Path directory) throws Exception {
        Path database = directory.resolve("db");
        Database.open(database).close();
        Path table = Files.createDirectories(database.resolve(Database.COLUMNSTORE_DIRECTORY).resolve("100"));
        Files.writeString(table.resolve("1.crg"), "rowgroup one");
        Files.writeString(table.resolve("dict-2.cdict"), "dictionary as of the snapshot");
        Files.writeString(table.resolve("3.crg.tmp"), "an unfinished write");
        Path copy = directory.resolve("copy");
        try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(database, copy, new Properties())) {
            Path linked = snapshot.database().directory().resolve(Database.COLUMNSTORE_DIRECTORY).resolve("100");
            assertFalse(Files.exists(linked.resolve("3.crg.tmp")), "an unfinished write is not part of any state");
            Files.delete(table.resolve("1.crg"));
            Path replacement = table.resolve("dict-2.cdict.tmp");
            Files.writeString(replacement, "a later dictionary");
            Files.move(replacement, table.resolve("dict-2.cdict"), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            assertEquals("rowgroup one", Files.readString(linked.resolve("1.crg")));
            assertEquals("dictionary as of the snapshot", Files.readString(linked.resolve("dict-2.cdict")));
        }
        assertFalse(Files.exists(copy));
        assertEquals("a later dictionary", Files.readString(table.resolve("dict-2.cdict")), "the writer's files are its own");
        assertTrue(Files.exists(table.resolve("3.crg.tmp")));
    }

    @Test
    void refusesWhatItCannotCopy(@TempDir Path directory) throws Exception {
        ColumbaException notADatabase = assertThrows(ColumbaException.class,
                () -> DatabaseSnapshot.take(directory, directory.resolve("copy"), new Properties()));
        assertEquals(ErrorCode.OBJECT_NOT_FOUND, notADatabase.errorCode());

        Path database = directory.resolve("db");
        Path outside = directory.resolve("elsewhere").toAbsolutePath();
        Files.createDirectories(outside);
        try (Database opened = Database.open(database)) {
            opened.addFilegroup("away");
            opened.addFile("away1", outside.resolve("away1.data").toString(), "away");
        }
        Path copy = directory.resolve("copy");
        ColumbaException refused = assertThrows(ColumbaException.class,
                () -> DatabaseSnapshot.take(database, copy, new Properties()));
        assertEquals(ErrorCode.FEATURE_NOT_SUPPORTED, refused.errorCode());
        assertTrue(refused.getMessage().contains("away1"), refused.getMessage());
        assertFalse(Files.exists(copy), "nothing is left of a refused copy");
    }

    private static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "waited 5 minutes");
            Thread.sleep(10);
        }
    }
}
