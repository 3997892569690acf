package dev.columba.storage.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.stats.IoCounters;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A minimally logged bulk load ({@link Transaction#logNewPagesMinimally}) into an empty table six
 * times the 2 MB pool: its pages go to the data file, not to the log or the spill file, and the
 * table reads back exactly, before and after reopening; rolled back it leaves the table empty. The
 * crash side is {@link MinimalLoggingCrashTest}.
 */
class MinimalLoggingTest {
    @TempDir
    Path directory;

    private final IoCounters counters = new IoCounters();

    @Test
    void minimallyLoggedLoadLogsAllocationsOnlyAndWritesItsPagesToTheDataFile() {
        LoadCost full = load(directory.resolve("full"), false);
        LoadCost minimal = load(directory.resolve("minimal"), true);
        System.out.println("full " + full + ", minimal " + minimal);
        long tableBytes = (long) LargeTransactionTest.ROWS * 200;
        assertTrue(full.logBytes() > tableBytes, "a fully logged load logs its pages: " + full);
        assertTrue(full.spilledPages() > 0, "and spills them: " + full);
        assertEquals(0, full.writtenPages(), full.toString());
        assertTrue(minimal.logBytes() < full.logBytes() / 20, "minimal " + minimal + ", full " + full);
        // Only pages that existed before the load (the root) go to the spill file.
        assertTrue(minimal.spilledPages() < full.spilledPages() / 100, "pages leave memory for the data file: "
                + minimal);
        assertTrue(minimal.writtenPages() * PageFormat.PAGE_SIZE > tableBytes, minimal.toString());
        for (String name : List.of("full", "minimal")) {
            try (Database database = Database.open(directory.resolve(name), LargeTransactionTest.smallPool(),
                    NativeFilesFacade.INSTANCE)) {
                LargeTransactionTest.assertTableHolds(database, 0, LargeTransactionTest.ROWS, true);
            }
        }
    }

    @Test
    void rolledBackMinimallyLoggedLoadLeavesTheTableEmpty() {
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            TableStore table = BulkLoadTest.createEmpty(database);
            try (Transaction transaction = database.begin()) {
                transaction.logNewPagesMinimally();
                BulkLoadTest.load(database, transaction, table, LargeTransactionTest.ROWS, counters);
                assertTrue(transaction.writes().minimallyLoggedWrites() > 0, "pages went to the data file before commit");
                transaction.rollback();
            }
            assertEquals(0, database.bufferPool().privatePages());
            BulkLoadTest.assertEmpty(database);
            try (Transaction transaction = database.begin()) {
                transaction.logNewPagesMinimally();
                BulkLoadTest.load(database, transaction, table, BulkLoadTest.shuffled(LargeTransactionTest.ROWS, 3),
                        counters);
                transaction.commit();
            }
            LargeTransactionTest.assertTableHolds(database, 0, LargeTransactionTest.ROWS, true);
        }
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            LargeTransactionTest.assertTableHolds(database, 0, LargeTransactionTest.ROWS, true);
        }
    }

    @Test
    void extentsFreedSinceTheRedoPointAreListedUntilTheNextCheckpoint() {
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            Tables tables = new Tables(database);
            try (Transaction transaction = database.begin()) {
                TableStore old = tables.createTable(transaction, "old", LargeTransactionTest.schema(), List.of(0), true,
                        Map.of());
                for (int id = 0; id < 2_000; id++) {
                    old.insert(transaction, new Object[] {id, 0, LargeTransactionTest.payload(id, 0)}, counters);
                }
                transaction.commit();
            }
            database.checkpoint();
            assertEquals(0, database.allocator().freedExtents().size());
            try (Transaction transaction = database.begin()) {
                tables.dropTable(transaction, "old");
                transaction.commit();
            }
            int freed = database.allocator().freedExtents().size();
            assertTrue(freed > 1, "the dropped table's extents: " + freed);
            // A load into them logs their pages: recovery may replay the dropped table's records there.
            TableStore table = BulkLoadTest.createEmpty(database);
            long logBefore = database.log().endLsn();
            try (Transaction transaction = database.begin()) {
                transaction.logNewPagesMinimally();
                BulkLoadTest.load(database, transaction, table, 2_000, counters);
                transaction.commit();
            }
            assertTrue(database.log().endLsn() - logBefore > (long) (freed - 1) * PageFormat.PAGE_SIZE,
                    "pages in freed extents are logged: " + (database.log().endLsn() - logBefore) + " log bytes");
            database.checkpoint();
            assertEquals(0, database.allocator().freedExtents().size(), "the checkpoint forgets them");
        }
    }

    private record LoadCost(long logBytes, long spilledPages, long writtenPages) {
    }

    private LoadCost load(Path path, boolean minimal) {
        try (Database database = Database.open(path, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            TableStore table = BulkLoadTest.createEmpty(database);
            database.checkpoint();
            long logBefore = database.log().endLsn();
            long spilledBefore = database.spillStatistics().pagesWritten();
            long writtenBefore = database.transactions().minimallyLoggedWrites();
            try (Transaction transaction = database.begin()) {
                if (minimal) {
                    transaction.logNewPagesMinimally();
                }
                BulkLoadTest.load(database, transaction, table, LargeTransactionTest.ROWS, counters);
                transaction.commit();
            }
            LoadCost cost = new LoadCost(database.log().endLsn() - logBefore,
                    database.spillStatistics().pagesWritten() - spilledBefore,
                    database.transactions().minimallyLoggedWrites() - writtenBefore);
            LargeTransactionTest.assertTableHolds(database, 0, LargeTransactionTest.ROWS, true);
            return cost;
        }
    }
}
