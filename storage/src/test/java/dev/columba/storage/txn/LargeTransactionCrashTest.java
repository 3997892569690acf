package dev.columba.storage.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.stats.IoCounters;
import dev.columba.storage.db.Database;
import dev.columba.storage.db.DatabaseLayout;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a child JVM ({@link LargeTransactionCrashWorkload}, SIGKILL) in the middle of a transaction
 * several times the buffer pool — once while it has spilled thousands of pages, once as it commits —
 * and checks after reopening that the table is exactly as before it or exactly as after it, that the
 * spill file is gone, and that the space the killed transaction had allocated is reused.
 */
class LargeTransactionCrashTest {
    @TempDir
    Path directory;

    @Test
    void killedWhileSpilledLeavesTheTableAsBeforeAndTheSpaceReusable() throws Exception {
        List<String> lines = runAndKill("spill", "S ");
        long sizeBefore = Long.parseLong(lines.getFirst().substring(2));
        String spilledLine = lines.get(1);
        assertTrue(Integer.parseInt(spilledLine.substring(2)) > 1_000, "the transaction spilled: " + lines);
        assertTrue(Files.exists(DatabaseLayout.spillFile(directory)), "the child spilled to its file");
        long sizeAfterCrash;
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            assertFalse(Files.exists(DatabaseLayout.spillFile(directory)), "opening removes the spill file");
            LargeTransactionTest.assertTableHolds(database, 0, LargeTransactionTest.ROWS, true);
            sizeAfterCrash = Files.size(database.dataFile().path());
            assertTrue(sizeAfterCrash > sizeBefore, "the killed transaction had allocated space: " + sizeBefore
                    + " bytes before it, " + sizeAfterCrash + " after");
            // The same transaction again, committed: it takes the space the killed one had taken.
            IoCounters counters = new IoCounters();
            TableStore table = new Tables(database).find(database.bufferPool(), "big", counters).orElseThrow();
            try (Transaction transaction = database.begin()) {
                LargeTransactionCrashWorkload.largeTransaction(transaction, table, counters);
                transaction.commit();
            }
            assertTrue(Files.size(database.dataFile().path()) <= sizeAfterCrash, "the space was reused: "
                    + sizeAfterCrash + " bytes after the crash, " + Files.size(database.dataFile().path()) + " now");
            assertAfter(database);
        }
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            assertAfter(database);
        }
    }

    @Test
    void killedWhileCommittingLeavesTheTableWhollyBeforeOrWhollyAfter() throws Exception {
        List<String> lines = runAndKill("commit", "L");
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            System.out.println("recovery: " + database.recoveryReport() + ", child printed " + lines);
            assertFalse(Files.exists(DatabaseLayout.spillFile(directory)));
            TableStore table = new Tables(database).find(database.bufferPool(), "big", new IoCounters()).orElseThrow();
            if (lines.contains("C") || table.definition().rowCount() != LargeTransactionTest.ROWS) {
                assertAfter(database);
            } else {
                LargeTransactionTest.assertTableHolds(database, 0, LargeTransactionTest.ROWS, true);
            }
        }
    }

    @Test
    void killedJustAfterCommitReplaysAGroupLargerThanThePool() throws Exception {
        List<String> lines = runAndKill("commit", "C");
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            Database.RecoveryReport report = database.recoveryReport();
            System.out.println("recovery: " + report + ", child printed " + lines);
            assertTrue(report.recordsApplied() + report.recordsSkipped() > 4 * database.bufferPool().capacity(),
                    "recovery replayed the large transaction's group: " + report);
            assertEquals(0, report.incompleteRecordsDiscarded());
            assertAfter(database);
        }
    }

    private static void assertAfter(Database database) {
        LargeTransactionTest.assertTableHolds(database, 1,
                LargeTransactionTest.ROWS + LargeTransactionCrashWorkload.EXTRA_ROWS, true);
    }

    /** Starts the child in {@code mode}, kills it when it prints a line starting with {@code marker}. */
    private List<String> runAndKill(String mode, String marker) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder builder = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), LargeTransactionCrashWorkload.class.getName(),
                directory.toString(), mode);
        builder.redirectErrorStream(true);
        Process child = builder.start();
        List<String> lines = new ArrayList<>();
        boolean killed = false;
        try (BufferedReader output = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = output.readLine()) != null) {
                lines.add(line);
                if (line.startsWith(marker)) {
                    // Through the handle: Process.destroyForcibly would also close the pipe we still read.
                    child.toHandle().destroyForcibly();
                    killed = true;
                    break;
                }
            }
            assertTrue(child.waitFor(120, TimeUnit.SECONDS), "child did not die");
            while ((line = output.readLine()) != null) {
                lines.add(line);
            }
        }
        assertTrue(killed, "child ended without printing " + marker + ": " + lines);
        for (String line : lines) {
            assertTrue(line.startsWith("B ") || line.startsWith("S ") || line.equals("L") || line.equals("C"),
                    "child failed: " + lines);
        }
        assertEquals(lines.getFirst().charAt(0), 'B', lines.toString());
        return lines;
    }
}
