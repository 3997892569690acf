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
import dev.columba.testing.crash.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
    private List<String> runAndKill(String mode, String marker) {
        List<String> lines = ChildJvm.of(LargeTransactionCrashWorkload.class, directory, mode)
                .killWhen(line -> line.startsWith(marker))
                .requireKilled()
                .requireOnly(line -> line.startsWith("B ") || line.startsWith("S ") || line.equals("L") || line.equals("C"))
                .lines();
        assertEquals('B', lines.getFirst().charAt(0), lines.toString());
        return lines;
    }
}
