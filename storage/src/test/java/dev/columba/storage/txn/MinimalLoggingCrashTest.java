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
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a child JVM ({@link MinimalLoggingCrashWorkload}, SIGKILL) at each named point of a
 * minimally logged bulk load's commit — its pages written to the data file but not synced; synced
 * but the commit record not appended; the commit returned — and once after a load into extents a
 * table dropped since the checkpoint had used, whose logged images recovery replays. After reopening
 * the table is either empty, with the killed load's space reused by the next load, or whole.
 */
class MinimalLoggingCrashTest {
    @TempDir
    Path directory;

    @Test
    void killedWithPagesWrittenButNotSyncedLeavesTheTableEmpty() throws Exception {
        assertEmptyAndSpaceReused(runAndKill("written", "P "));
    }

    @Test
    void killedWithPagesSyncedButNoCommitRecordLeavesTheTableEmpty() throws Exception {
        assertEmptyAndSpaceReused(runAndKill("synced", "P "));
    }

    @Test
    void killedAfterTheCommitKeepsTheWholeLoad() throws Exception {
        runAndKill("committed", "C");
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            assertEquals(0, database.recoveryReport().incompleteRecordsDiscarded());
            LargeTransactionTest.assertTableHolds(database, 0, LargeTransactionTest.ROWS, true);
        }
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            LargeTransactionTest.assertTableHolds(database, 0, LargeTransactionTest.ROWS, true);
        }
    }

    @Test
    void killedAfterALoadIntoSpaceFreedSinceTheCheckpointKeepsTheLoadIntact() throws Exception {
        runAndKill("reuse", "C");
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            assertTrue(database.recoveryReport().transactionsReplayed() >= 4,
                    "recovery replayed old's load and drop and big's load: " + database.recoveryReport());
            assertFalse(new Tables(database).find(database.bufferPool(), "old", new IoCounters()).isPresent());
            LargeTransactionTest.assertTableHolds(database, 0, LargeTransactionTest.ROWS, true);
        }
    }

    private void assertEmptyAndSpaceReused(List<String> lines) {
        long sizeBefore = Long.parseLong(lines.getFirst().substring(2));
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            assertFalse(Files.exists(DatabaseLayout.spillFile(directory)), "opening removes the spill file");
            BulkLoadTest.assertEmpty(database);
            long sizeAfterCrash = Files.size(database.dataFile().path());
            assertTrue(sizeAfterCrash > sizeBefore + LargeTransactionTest.ROWS * 200L, "the killed load had written its "
                    + "pages to the data file: " + sizeBefore + " bytes before it, " + sizeAfterCrash + " after");
            IoCounters counters = new IoCounters();
            TableStore table = new Tables(database).find(database.bufferPool(), "big", counters).orElseThrow();
            try (Transaction transaction = database.begin()) {
                transaction.logNewPagesMinimally();
                BulkLoadTest.load(database, transaction, table, LargeTransactionTest.ROWS, counters);
                transaction.commit();
            }
            assertTrue(Files.size(database.dataFile().path()) <= sizeAfterCrash, "the space was reused: "
                    + sizeAfterCrash + " bytes after the crash, " + Files.size(database.dataFile().path()) + " now");
            LargeTransactionTest.assertTableHolds(database, 0, LargeTransactionTest.ROWS, true);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            LargeTransactionTest.assertTableHolds(database, 0, LargeTransactionTest.ROWS, true);
        }
    }

    /** Starts the child in {@code mode}, kills it when it prints a line starting with {@code marker}. */
    private List<String> runAndKill(String mode, String marker) {
        List<String> lines = ChildJvm.of(MinimalLoggingCrashWorkload.class, directory, mode)
                .killWhen(line -> line.startsWith(marker))
                .requireKilled()
                .requireOnly(line -> line.startsWith("B ") || line.startsWith("P ") || line.equals("C"))
                .lines();
        assertEquals('B', lines.getFirst().charAt(0), lines.toString());
        return lines;
    }
}
