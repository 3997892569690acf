package dev.columba.storage.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.table.TableCursor;
import dev.columba.storage.table.TableScan;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import dev.columba.storage.wal.LogEnd;
import dev.columba.storage.wal.LogFormat;
import dev.columba.storage.wal.LogRepair;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage in the write-ahead log of a real database, left by a child JVM killed with SIGKILL
 * ({@link CrashWorkload}) after committing batches: a damaged record is never taken for a torn
 * tail, opening refuses with the file, offset and LSN and changes no byte, the damaged segment is
 * copied into {@code damaged/}, and restoring the byte gives back every acknowledged batch. Replay
 * the random flips with {@code -Dcolumba.seed=<seed>}.
 */
class LogCorruptionTest {
    private static final int BATCHES_PER_RUN = 6;
    private static final Pattern WHERE = Pattern.compile("write-ahead log segment (\\S+) at offset (\\d+) \\(LSN (\\d+)\\)");

    @TempDir
    Path temporary;

    /**
     * A database killed after {@code 2 * BATCHES_PER_RUN} acknowledged batches, with a reopen
     * between the two runs, so its log holds records before the redo point and committed batches
     * after it. Returns its directory.
     */
    private Path crashedDatabase() throws Exception {
        Path directory = temporary.resolve("db");
        runAndKill(directory, BATCHES_PER_RUN);
        try (Database database = open(directory)) {
            assertEquals(BATCHES_PER_RUN, batches(database));
        }
        runAndKill(directory, BATCHES_PER_RUN);
        return directory;
    }

    @Test
    void damageAfterTheRedoPointFollowedByCommittedBatchesRefusesToOpenAndChangesNothing() throws Exception {
        Path directory = crashedDatabase();
        long redo = ControlFile.read(NativeFilesFacade.INSTANCE, directory).redoLsn();
        Path segment = segmentHolding(directory, redo);
        long flipped = redo - startOf(segment) + 3000;
        assertTrue(flipped < Files.size(segment) - 100_000, "committed batches follow the damage");
        flip(segment, flipped);
        assertRefusedAndUnchanged(directory, segment, flipped);

        flip(segment, flipped);
        try (Database database = open(directory)) {
            assertEquals(2 * BATCHES_PER_RUN, batches(database), "with the byte restored, every acknowledged batch is there");
        }
    }

    @Test
    void damageBeforeTheRedoPointRefusesToOpenAndTruncatesNothing() throws Exception {
        Path directory = crashedDatabase();
        long redo = ControlFile.read(NativeFilesFacade.INSTANCE, directory).redoLsn();
        Path segment = segmentHolding(directory, redo);
        assertTrue(redo - startOf(segment) > 20_000, "the segment holds records before the redo point");
        long flipped = 20_000;
        flip(segment, flipped);
        long size = Files.size(segment);
        assertRefusedAndUnchanged(directory, segment, flipped);
        assertEquals(size, Files.size(segment));

        flip(segment, flipped);
        try (Database database = open(directory)) {
            assertEquals(2 * BATCHES_PER_RUN, batches(database));
        }
    }

    @Test
    void aTornTailAfterACrashIsCutKeepingEveryAcknowledgedBatchAndItsBytesAside() throws Exception {
        Path directory = crashedDatabase();
        Path segment = lastSegment(directory);
        long end = Files.size(segment);
        // What a write cut short leaves: a page image's frame header, then part of its payload.
        ByteBuffer torn = ByteBuffer.allocate(LogFormat.RECORD_HEADER_SIZE + 3000).order(ByteOrder.LITTLE_ENDIAN);
        torn.putInt(0, 0x12345678).putInt(4, LogFormat.PAGE_IMAGE_PAYLOAD).put(8, (byte) LogFormat.TYPE_PAGE_IMAGE);
        for (int index = LogFormat.RECORD_HEADER_SIZE; index < torn.capacity(); index++) {
            torn.put(index, (byte) (index * 7 + 1));
        }
        byte[] tail = torn.array();
        write(segment, end, tail);
        try (Database database = open(directory)) {
            LogEnd.Torn cut = assertInstanceOf(LogEnd.Torn.class, database.recoveryReport().logTail());
            assertEquals(end, cut.offset());
            assertEquals(tail.length, cut.discardedBytes());
            assertNull(database.recoveryReport().logRepair());
            assertEquals(2 * BATCHES_PER_RUN, batches(database));
        }
        Path incident = onlyIncident(directory);
        assertArrayEquals(tail, Files.readAllBytes(incident.resolve(segment.getFileName() + ".tail-" + end)));
    }

    @Test
    void pointInTimeRecoveryKeepsWholeBatchesBeforeTheDamageAndSaysWhatItDiscarded() throws Exception {
        Path directory = crashedDatabase();
        long redo = ControlFile.read(NativeFilesFacade.INSTANCE, directory).redoLsn();
        Path segment = segmentHolding(directory, redo);
        long flipped = Files.size(segment) - 120_000;
        assertTrue(flipped > redo - startOf(segment));
        flip(segment, flipped);
        byte[] damaged = Files.readAllBytes(segment);
        assertEquals(ErrorCode.WAL_CORRUPT, assertThrows(ColumbaException.class, () -> open(directory)).errorCode());

        Properties pointInTime = CrashWorkload.settings();
        pointInTime.setProperty("wal_recovery_mode", "point_in_time");
        long kept;
        try (Database database = Database.open(directory, pointInTime, NativeFilesFacade.INSTANCE)) {
            LogRepair repair = database.recoveryReport().logRepair();
            assertNotNull(repair);
            assertEquals(segment, repair.damage().file());
            assertTrue(repair.damage().offset() <= flipped && flipped - repair.damage().offset() < 9000, repair.describe());
            assertTrue(repair.discardedBytes() > 100_000, repair.describe());
            assertArrayEquals(damaged, Files.readAllBytes(repair.preservedIn().resolve(segment.getFileName())));
            kept = batches(database);
            assertTrue(kept >= BATCHES_PER_RUN && kept < 2 * BATCHES_PER_RUN, "kept " + kept);
        }
        try (Database database = open(directory)) {
            assertNull(database.recoveryReport().logRepair(), "the repair is done once, when asked");
            assertEquals(kept, batches(database));
        }
    }

    @Test
    void theRecoveryModeIsNeverStored() throws Exception {
        Path directory = temporary.resolve("db");
        Properties settings = CrashWorkload.settings();
        settings.setProperty("wal_recovery_mode", "point_in_time");
        try (Database database = Database.open(directory, settings, NativeFilesFacade.INSTANCE)) {
            ColumbaException error = assertThrows(ColumbaException.class,
                    () -> database.persistSetting("wal_recovery_mode", "point_in_time"));
            assertEquals(ErrorCode.INVALID_SETTING_VALUE, error.errorCode());
        }
        assertTrue(!Files.readString(DatabaseLayout.propertiesFile(directory)).contains("wal_recovery_mode"));
        settings.setProperty("wal_recovery_mode", "sometimes");
        assertEquals(ErrorCode.INVALID_SETTING_VALUE,
                assertThrows(ColumbaException.class, () -> Database.open(directory, settings, NativeFilesFacade.INSTANCE))
                        .errorCode());
    }

    /**
     * Random single-byte flips over the log, after a crash and after a clean close: each is either
     * refused with an error naming the damaged segment, leaving every file of the database as it
     * was, or opens with exactly the acknowledged batches. Every flip is then undone, and at the end
     * the database opens with everything: recovery made no database unopenable.
     */
    @Test
    void randomFlipsAreDetectedOrHarmlessAfterACrashAndAfterACleanClose() throws Exception {
        long seed = Long.getLong("columba.seed", System.nanoTime());
        System.out.println("LogCorruptionTest seed " + seed);
        Random random = new Random(seed);
        Path crashed = crashedDatabase();
        Path pristineCrash = temporary.resolve("crashed");
        copyTree(crashed, pristineCrash);
        int detected = flipAtRandom(pristineCrash, temporary.resolve("work-crash"), random, 60, "after a crash, seed " + seed);

        try (Database database = open(crashed)) {
            assertEquals(2 * BATCHES_PER_RUN, batches(database));
        }
        detected += flipAtRandom(crashed, temporary.resolve("work-clean"), random, 60, "after a clean close, seed " + seed);
        System.out.println("LogCorruptionTest: " + detected + " of 120 flips refused, the rest gave identical answers");
    }

    @Test
    void readOnlyOpeningShowsTheLastConsistentPointAndChangesNoLogFile() throws Exception {
        Path directory = crashedDatabase();
        long redo = ControlFile.read(NativeFilesFacade.INSTANCE, directory).redoLsn();
        Path segment = segmentHolding(directory, redo);
        long flipped = Files.size(segment) - 120_000;
        assertTrue(flipped > redo - startOf(segment));
        flip(segment, flipped);
        Map<String, byte[]> before = logAndControl(directory);

        Properties readOnly = CrashWorkload.settings();
        readOnly.setProperty("wal_recovery_mode", "read_only_consistent");
        try (Database database = Database.open(directory, readOnly, NativeFilesFacade.INSTANCE)) {
            assertTrue(database.readOnly());
            LogRepair opened = database.recoveryReport().logRepair();
            assertTrue(opened.readOnly(), opened.describe());
            long kept = batches(database);
            assertTrue(kept >= BATCHES_PER_RUN && kept < 2 * BATCHES_PER_RUN, "kept " + kept);
            ColumbaException write = assertThrows(ColumbaException.class, database::begin);
            assertEquals(ErrorCode.DATABASE_READ_ONLY, write.errorCode());
            assertTrue(write.getMessage().contains(segment.toString()), write.getMessage());
            assertEquals(ErrorCode.DATABASE_READ_ONLY, assertThrows(ColumbaException.class, database::checkpoint).errorCode());
        }
        Map<String, byte[]> after = logAndControl(directory);
        assertEquals(before.keySet(), after.keySet());
        before.forEach((name, bytes) -> assertArrayEquals(bytes, after.get(name), name + " changed"));
        assertEquals(ErrorCode.WAL_CORRUPT, assertThrows(ColumbaException.class, () -> open(directory)).errorCode());

        flip(segment, flipped);
        try (Database database = open(directory)) {
            assertEquals(2 * BATCHES_PER_RUN, batches(database), "with the byte restored, every acknowledged batch is there");
        }
    }

    /** The log segments and the control file, by relative path. */
    private static Map<String, byte[]> logAndControl(Path directory) throws IOException {
        Map<String, byte[]> contents = new TreeMap<>(contents(directory));
        contents.keySet().removeIf(name -> !name.startsWith(DatabaseLayout.WAL_DIRECTORY) && !name.equals(ControlFile.FILE_NAME));
        return contents;
    }

    /** Returns how many of {@code flips} were refused. */
    private int flipAtRandom(Path pristine, Path work, Random random, int flips, String context) throws Exception {
        copyTree(pristine, work);
        List<Path> segments = segments(work);
        int detected = 0;
        for (int flip = 0; flip < flips; flip++) {
            Path segment = segments.get(random.nextInt(segments.size()));
            long size = Files.size(segment);
            // Half the flips land in the last 16 KB, where the log's end is decided.
            long offset = flip % 2 == 0 ? random.nextLong(size) : Math.max(0, size - 1 - random.nextInt(16 * 1024));
            String where = context + ", flip " + flip + " at offset " + offset + " of " + segment.getFileName();
            flip(segment, offset);
            Map<String, byte[]> before = contents(work);
            try (Database database = open(work)) {
                assertEquals(2 * BATCHES_PER_RUN, batches(database), "a flip went undetected and changed the answers: "
                        + where);
                database.close();
                deleteTree(work);
                copyTree(pristine, work);
                continue;
            } catch (ColumbaException refused) {
                assertEquals(ErrorCode.Category.CORRUPTION, refused.errorCode().category(), where + ": " + refused);
                assertTrue(refused.getMessage().contains(segment.toString()), where + ": " + refused.getMessage());
                Map<String, byte[]> after = contents(work);
                assertEquals(before.keySet(), after.keySet(), where);
                before.forEach((name, bytes) -> assertArrayEquals(bytes, after.get(name), where + ": " + name + " changed"));
                detected++;
            }
            flip(segment, offset);
            deleteTree(DatabaseLayout.damagedDirectory(work));
        }
        try (Database database = open(work)) {
            assertEquals(2 * BATCHES_PER_RUN, batches(database), context + ": every flip undone, everything is there");
        }
        return detected;
    }

    private void assertRefusedAndUnchanged(Path directory, Path segment, long flipped) throws IOException {
        Map<String, byte[]> before = contents(directory);
        ColumbaException error = assertThrows(ColumbaException.class, () -> open(directory));
        assertEquals(ErrorCode.WAL_CORRUPT, error.errorCode());
        assertEquals("XX001", error.errorCode().sqlState());
        Matcher where = WHERE.matcher(error.getMessage());
        assertTrue(where.find(), error.getMessage());
        assertEquals(segment.toString(), where.group(1));
        long offset = Long.parseLong(where.group(2));
        assertTrue(offset <= flipped && flipped - offset < LogFormat.RECORD_HEADER_SIZE + LogFormat.PAGE_IMAGE_PAYLOAD,
                "the damaged frame holds the flipped byte: " + error.getMessage());
        assertEquals(startOf(segment) + offset, Long.parseLong(where.group(3)));
        assertTrue(error.getMessage().contains("was not opened"), error.getMessage());
        Map<String, byte[]> after = contents(directory);
        assertEquals(before.keySet(), after.keySet());
        before.forEach((name, bytes) -> assertArrayEquals(bytes, after.get(name), name + " changed"));
        Path incident = onlyIncident(directory);
        assertTrue(error.getMessage().contains(incident.toString()), error.getMessage());
        assertArrayEquals(Files.readAllBytes(segment), Files.readAllBytes(incident.resolve(segment.getFileName())));
    }

    private static Database open(Path directory) {
        return Database.open(directory, CrashWorkload.settings(), NativeFilesFacade.INSTANCE);
    }

    /** The acknowledged batches the database holds, checking that it holds whole batches only. */
    static long batches(Database database) {
        IoCounters counters = new IoCounters();
        TableStore table = new Tables(database).find(database.bufferPool(), CrashWorkload.TABLE, counters).orElseThrow();
        long batch = (Long) table.get(database.bufferPool(), new Object[] {0}, counters)[1];
        long rows = 0;
        try (TableCursor cursor = table.scan(database.bufferPool(), TableScan.all(ReadAheadOptions.OFF), counters)) {
            while (cursor.next()) {
                Object[] row = cursor.row();
                int id = (Integer) row[0];
                assertEquals(rows, id, "ids are dense from 0");
                if (id > 0) {
                    assertEquals((long) (id - 1) / CrashWorkload.ROWS_PER_BATCH + 1, row[1]);
                    assertEquals(CrashWorkload.payload(id), row[2]);
                }
                rows++;
            }
        }
        assertEquals(batch * CrashWorkload.ROWS_PER_BATCH + 1, rows, "whole batches only");
        return batch;
    }

    /** Runs {@link CrashWorkload} until it has acknowledged {@code batches} more and holds an open transaction, then kills it. */
    private static void runAndKill(Path directory, int batches) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder builder = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), CrashWorkload.class.getName(),
                directory.toString(), "uncommitted", String.valueOf(batches));
        builder.redirectErrorStream(true);
        Process child = builder.start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader output = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = output.readLine()) != null) {
                lines.add(line);
                if (line.equals("U")) {
                    child.toHandle().destroyForcibly();
                    break;
                }
            }
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "child did not die");
        }
        if (!lines.contains("U")) {
            fail("child failed: " + lines);
        }
    }

    private static List<Path> segments(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(DatabaseLayout.logDirectory(directory))) {
            return files.filter(path -> LogFormat.startLsnOfName(path.getFileName().toString()) >= 0).sorted().toList();
        }
    }

    private static Path lastSegment(Path directory) throws IOException {
        return segments(directory).getLast();
    }

    private static long startOf(Path segment) {
        return LogFormat.startLsnOfName(segment.getFileName().toString());
    }

    private static Path segmentHolding(Path directory, long lsn) throws IOException {
        Path holder = null;
        for (Path segment : segments(directory)) {
            if (startOf(segment) <= lsn) {
                holder = segment;
            }
        }
        return holder;
    }

    private static Path onlyIncident(Path directory) throws IOException {
        try (Stream<Path> incidents = Files.list(DatabaseLayout.damagedDirectory(directory))) {
            List<Path> all = incidents.toList();
            assertEquals(1, all.size(), all.toString());
            return all.getFirst();
        }
    }

    /** Every file of the database but the lock and the damaged copies, by relative path. */
    private static Map<String, byte[]> contents(Path directory) throws IOException {
        Map<String, byte[]> contents = new TreeMap<>();
        Path damaged = DatabaseLayout.damagedDirectory(directory);
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                if (!file.startsWith(damaged) && !file.getFileName().toString().equals(Database.LOCK_FILE)) {
                    contents.put(directory.relativize(file).toString(), Files.readAllBytes(file));
                }
            }
        }
        return contents;
    }

    private static void flip(Path file, long offset) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer buffer = ByteBuffer.allocate(1);
            channel.read(buffer, offset);
            buffer.put(0, (byte) ~buffer.get(0));
            buffer.rewind();
            channel.write(buffer, offset);
        }
    }

    private static void write(Path file, long offset, byte[] bytes) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(bytes), offset);
        }
    }

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

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
