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
 * Kills a child JVM ({@link BulkLoadCrashWorkload}, SIGKILL) during a bottom-up load several times
 * the buffer pool — once with the tree built and spilled but not committed, once with shuffled rows
 * sorted into runs before the load ended, once as it commits —
 * and checks after reopening that the table is empty or wholly loaded, nothing half-loaded, the
 * spill file gone, and the space the killed load had allocated reused by the next load.
 */
class BulkLoadCrashTest {
    @TempDir
    Path directory;

    @Test
    void killedBeforeCommitLeavesTheTableEmptyAndTheSpaceReusable() throws Exception {
        List<String> lines = runAndKill("load", "S ");
        long sizeBefore = Long.parseLong(lines.getFirst().substring(2));
        assertTrue(Integer.parseInt(lines.get(1).substring(2)) > 1_000, "the load spilled: " + lines);
        long sizeAfterCrash;
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            assertFalse(Files.exists(DatabaseLayout.spillFile(directory)), "opening removes the spill file");
            BulkLoadTest.assertEmpty(database);
            sizeAfterCrash = Files.size(database.dataFile().path());
            assertTrue(sizeAfterCrash > sizeBefore, "the killed load had allocated space: " + sizeBefore
                    + " bytes before it, " + sizeAfterCrash + " after");
            IoCounters counters = new IoCounters();
            TableStore table = new Tables(database).find(database.bufferPool(), "big", counters).orElseThrow();
            try (Transaction transaction = database.begin()) {
                BulkLoadTest.load(database, transaction, table, LargeTransactionTest.ROWS, counters);
                transaction.commit();
            }
            assertTrue(Files.size(database.dataFile().path()) <= sizeAfterCrash, "the space was reused: "
                    + sizeAfterCrash + " bytes after the crash, " + Files.size(database.dataFile().path()) + " now");
            LargeTransactionTest.assertTableHolds(database, 0, LargeTransactionTest.ROWS, true);
        }
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            LargeTransactionTest.assertTableHolds(database, 0, LargeTransactionTest.ROWS, true);
        }
    }

    @Test
    void killedWhileSortingLeavesTheTableEmptyAndNoRunFile() throws Exception {
        List<String> lines = runAndKill("sort", "R ");
        assertTrue(Integer.parseInt(lines.get(1).substring(2)) > 10, "the load had written sort runs: " + lines);
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            BulkLoadTest.assertEmpty(database);
            BulkLoadTest.assertTempDirectoryEmpty(database);
            IoCounters counters = new IoCounters();
            TableStore table = new Tables(database).find(database.bufferPool(), "big", counters).orElseThrow();
            try (Transaction transaction = database.begin()) {
                BulkLoadTest.load(database, transaction, table, BulkLoadTest.shuffled(LargeTransactionTest.ROWS, 6),
                        counters);
                transaction.commit();
            }
            LargeTransactionTest.assertTableHolds(database, 0, LargeTransactionTest.ROWS, true);
        }
    }

    @Test
    void killedWhileCommittingLeavesTheTableEmptyOrWhollyLoaded() throws Exception {
        List<String> lines = runAndKill("commit", "L");
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            System.out.println("recovery: " + database.recoveryReport() + ", child printed " + lines);
            assertFalse(Files.exists(DatabaseLayout.spillFile(directory)));
            TableStore table = new Tables(database).find(database.bufferPool(), "big", new IoCounters()).orElseThrow();
            if (lines.contains("C") || table.definition().rowCount() != 0) {
                LargeTransactionTest.assertTableHolds(database, 0, LargeTransactionTest.ROWS, true);
            } else {
                BulkLoadTest.assertEmpty(database);
            }
        }
    }

    @Test
    void killedJustAfterCommitReplaysTheLoad() throws Exception {
        List<String> lines = runAndKill("commit", "C");
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            System.out.println("recovery: " + database.recoveryReport() + ", child printed " + lines);
            assertEquals(0, database.recoveryReport().incompleteRecordsDiscarded());
            LargeTransactionTest.assertTableHolds(database, 0, LargeTransactionTest.ROWS, true);
        }
    }

    /** Starts the child in {@code mode}, kills it when it prints a line starting with {@code marker}. */
    private List<String> runAndKill(String mode, String marker) {
        List<String> lines = ChildJvm.of(BulkLoadCrashWorkload.class, directory, mode)
                .killWhen(line -> line.startsWith(marker))
                .requireKilled()
                .requireOnly(line -> line.startsWith("B ") || line.startsWith("S ") || line.startsWith("R ") || line.equals("L") || line.equals("C"))
                .lines();
        assertEquals('B', lines.getFirst().charAt(0), lines.toString());
        return lines;
    }
}
