package dev.columba.storage.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.btree.IndexPhysicalStats;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.db.Database;
import dev.columba.storage.db.DatabaseLayout;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.table.TableCursor;
import dev.columba.storage.table.TableScan;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bottom-up load of a clustered table ({@link TableStore#bulkInserter}) with a 2 MB pool and a
 * load six times larger: rolled back, the table is as before (empty, and loadable again); committed,
 * every row reads back, also after reopening; input out of key order (half reversed, or shuffled) is
 * sorted in runs written to a temporary file and built bottom up into the same pages an ordered load
 * gives; a duplicate key is the duplicate-key error, in order at once, in the sort at the end; a
 * table that is not empty is not built bottom up. The crash side is {@link BulkLoadCrashTest}.
 */
class BulkLoadTest {
    @TempDir
    Path directory;

    private final IoCounters counters = new IoCounters();

    static TableStore createEmpty(Database database) {
        try (Transaction transaction = database.begin()) {
            TableStore table = new Tables(database).createTable(transaction, "big", LargeTransactionTest.schema(),
                    List.of(0), true, Map.of());
            transaction.commit();
            return table;
        }
    }

    /** What the tests' sorts may hold in memory: a fraction of a load, so they write runs. */
    static final long SORT_MEMORY = 256 << 10;

    /** A bulk inserter whose sorts write their runs to the database's temporary directory. */
    static TableStore.BulkInserter bulkInserter(Database database, Transaction transaction, TableStore table,
                                                IoCounters counters) {
        return table.bulkInserter(transaction, database.directory().resolve(DatabaseLayout.TEMP_DIRECTORY), SORT_MEMORY,
                counters);
    }

    /** Loads ids 0 to rows - 1 at version 0 through one bulk inserter; returns whether it was still building. */
    static boolean load(Database database, Transaction transaction, TableStore table, int rows, IoCounters counters) {
        List<Integer> ids = new ArrayList<>();
        for (int id = 0; id < rows; id++) {
            ids.add(id);
        }
        return load(database, transaction, table, ids, counters);
    }

    /** Loads {@code ids} at version 0, in that order, through one bulk inserter; returns whether it was still building. */
    static boolean load(Database database, Transaction transaction, TableStore table, List<Integer> ids,
                        IoCounters counters) {
        try (TableStore.BulkInserter inserter = bulkInserter(database, transaction, table, counters)) {
            assertTrue(inserter.building(), "an empty clustered table is built bottom up");
            for (int id : ids) {
                inserter.insert(transaction, new Object[] {id, 0, LargeTransactionTest.payload(id, 0)}, counters);
            }
            boolean building = inserter.building();
            inserter.finish(transaction, counters);
            return building;
        }
    }

    /** The ids 0 to rows - 1 in an order fixed by {@code seed}. */
    static List<Integer> shuffled(int rows, long seed) {
        List<Integer> ids = new ArrayList<>();
        for (int id = 0; id < rows; id++) {
            ids.add(id);
        }
        Collections.shuffle(ids, new Random(seed));
        return ids;
    }

    @Test
    void rolledBackLoadLeavesTheTableEmptyAndACommittedOneReadsBack() {
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            TableStore table = createEmpty(database);
            try (Transaction transaction = database.begin()) {
                assertTrue(load(database, transaction, table, LargeTransactionTest.ROWS, counters), "ascending ids stay on the build");
                assertTrue(transaction.writes().spilledPages() > 0, "the load is larger than the pool");
                transaction.rollback();
            }
            assertEmpty(database);
            try (Transaction transaction = database.begin()) {
                load(database, transaction, table, LargeTransactionTest.ROWS, counters);
                transaction.commit();
            }
            LargeTransactionTest.assertTableHolds(database, 0, LargeTransactionTest.ROWS, true);
        }
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            LargeTransactionTest.assertTableHolds(database, 0, LargeTransactionTest.ROWS, true);
            // The built tree takes inserts and deletes like any other.
            TableStore table = new Tables(database).find(database.bufferPool(), "big", counters).orElseThrow();
            try (Transaction transaction = database.begin()) {
                for (int id = 0; id < LargeTransactionTest.ROWS; id += 2) {
                    assertTrue(table.delete(transaction, new Object[] {id}, counters));
                    table.insert(transaction, new Object[] {id, 0, LargeTransactionTest.payload(id, 0)}, counters);
                }
                transaction.commit();
            }
            LargeTransactionTest.assertTableHolds(database, 0, LargeTransactionTest.ROWS, true);
        }
    }

    @Test
    void rowsOutOfOrderAreSortedInRunsAndBuiltBottomUp() {
        int half = LargeTransactionTest.ROWS / 2;
        IndexPhysicalStats inOrder;
        try (Database database = Database.open(directory.resolve("ordered"), LargeTransactionTest.smallPool(),
                NativeFilesFacade.INSTANCE)) {
            TableStore table = createEmpty(database);
            try (Transaction transaction = database.begin()) {
                load(database, transaction, table, LargeTransactionTest.ROWS, counters);
                transaction.commit();
            }
            inOrder = IndexPhysicalStats.of(reopened(database).tree(), database.bufferPool(), counters);
        }
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            TableStore table = createEmpty(database);
            try (Transaction transaction = database.begin();
                 TableStore.BulkInserter inserter = bulkInserter(database, transaction, table, counters)) {
                // The upper half ascending, then the lower half descending.
                for (int id = half; id < LargeTransactionTest.ROWS; id++) {
                    inserter.insert(transaction, new Object[] {id, 0, LargeTransactionTest.payload(id, 0)}, counters);
                }
                assertTrue(inserter.building());
                assertFalse(inserter.sorting(), "rows in order are built as they come");
                assertEquals(0, inserter.sortRuns());
                for (int id = half - 1; id >= 0; id--) {
                    inserter.insert(transaction, new Object[] {id, 0, LargeTransactionTest.payload(id, 0)}, counters);
                }
                assertTrue(inserter.building(), "the build goes on from sorted runs");
                assertTrue(inserter.sorting(), "the first row below the last turned the load into a sort");
                assertTrue(inserter.sortRuns() > 10, "a load of 12 MB with 256 KB to sort in writes runs: "
                        + inserter.sortRuns());
                inserter.finish(transaction, counters);
                transaction.commit();
            }
            LargeTransactionTest.assertTableHolds(database, 0, LargeTransactionTest.ROWS, true);
            IndexPhysicalStats sorted = IndexPhysicalStats.of(reopened(database).tree(), database.bufferPool(), counters);
            assertEquals(inOrder.leafPages(), sorted.leafPages(), "the sorted load fills its leaves as an ordered one");
            assertEquals(inOrder.internalPages(), sorted.internalPages());
            assertEquals(inOrder.height(), sorted.height());
            assertEquals(inOrder.pageCount(), sorted.pageCount());
            assertTempDirectoryEmpty(database);
        }
    }

    @Test
    void aShuffledLoadSixTimesThePoolIsBuiltFromSortedRunsRolledBackAndCommitted() {
        List<Integer> ids = shuffled(LargeTransactionTest.ROWS, 12);
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            TableStore table = createEmpty(database);
            try (Transaction transaction = database.begin()) {
                assertTrue(load(database, transaction, table, ids, counters), "a shuffled load stays on the build");
                assertTrue(transaction.writes().spilledPages() > 0, "the load is larger than the pool");
                transaction.rollback();
            }
            assertEmpty(database);
            try (Transaction transaction = database.begin()) {
                load(database, transaction, table, ids, counters);
                transaction.commit();
            }
            LargeTransactionTest.assertTableHolds(database, 0, LargeTransactionTest.ROWS, true);
            assertTempDirectoryEmpty(database);
        }
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            LargeTransactionTest.assertTableHolds(database, 0, LargeTransactionTest.ROWS, true);
        }
    }

    @Test
    void aDuplicateMetInTheSortIsTheDuplicateKeyErrorAtTheEndAndTheRollbackLeavesTheTableEmpty() {
        List<Integer> ids = shuffled(10_000, 3);
        ids.add(7_321);
        Collections.shuffle(ids, new Random(4));
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            TableStore table = createEmpty(database);
            try (Transaction transaction = database.begin()) {
                ColumbaException error = assertThrows(ColumbaException.class, () -> load(database, transaction, table,
                        ids, counters));
                assertEquals(ErrorCode.DUPLICATE_KEY, error.errorCode());
                assertTrue(error.getMessage().contains("[7321]") && error.getMessage().contains("big"),
                        error.getMessage());
                transaction.rollback();
            }
            assertEmpty(database);
            assertTempDirectoryEmpty(database);
        }
    }

    private TableStore reopened(Database database) {
        return new Tables(database).find(database.bufferPool(), "big", counters).orElseThrow();
    }

    /** No sort run is left as a file: the run file is unlinked as soon as it is opened. */
    static void assertTempDirectoryEmpty(Database database) {
        Path temporary = database.directory().resolve(DatabaseLayout.TEMP_DIRECTORY);
        try (java.util.stream.Stream<Path> files = Files.exists(temporary) ? Files.list(temporary)
                : java.util.stream.Stream.empty()) {
            List<Path> runs = files.filter(file -> file.getFileName().toString().startsWith("load-sort-")).toList();
            assertEquals(List.of(), runs);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aDuplicateKeyIsTheDuplicateKeyErrorAndTheRollbackLeavesTheTableEmpty() {
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            TableStore table = createEmpty(database);
            try (Transaction transaction = database.begin()) {
                TableStore.BulkInserter inserter = bulkInserter(database, transaction, table, counters);
                for (int id = 0; id < 5_000; id++) {
                    inserter.insert(transaction, new Object[] {id, 0, LargeTransactionTest.payload(id, 0)}, counters);
                }
                ColumbaException error = assertThrows(ColumbaException.class, () -> inserter.insert(transaction,
                        new Object[] {4_999, 0, "again"}, counters));
                assertEquals(ErrorCode.DUPLICATE_KEY, error.errorCode());
                assertTrue(error.getMessage().contains("[4999]"), error.getMessage());
                transaction.rollback();
            }
            assertEmpty(database);
        }
    }

    @Test
    void aTableWithRowsIsNotBuiltBottomUp() {
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            TableStore table = createEmpty(database);
            try (Transaction transaction = database.begin()) {
                table.insert(transaction, new Object[] {0, 0, LargeTransactionTest.payload(0, 0)}, counters);
                TableStore.BulkInserter inserter = bulkInserter(database, transaction, table, counters);
                assertFalse(inserter.building(), "a table with a row in the transaction takes inserts");
                for (int id = 1; id < 3_000; id++) {
                    inserter.insert(transaction, new Object[] {id, 0, LargeTransactionTest.payload(id, 0)}, counters);
                }
                inserter.finish(transaction, counters);
                transaction.commit();
            }
            LargeTransactionTest.assertTableHolds(database, 0, 3_000, true);
        }
    }

    @Test
    void aTableEmptiedByDeletesIsLoadedWithoutError() {
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            TableStore table = createEmpty(database);
            try (Transaction transaction = database.begin()) {
                for (int id = 0; id < 3_000; id++) {
                    table.insert(transaction, new Object[] {id, 0, LargeTransactionTest.payload(id, 0)}, counters);
                }
                transaction.commit();
            }
            try (Transaction transaction = database.begin()) {
                for (int id = 0; id < 3_000; id++) {
                    assertTrue(table.delete(transaction, new Object[] {id}, counters));
                }
                transaction.commit();
            }
            // No entries, yet the root may still be an inner page over empty leaves: the load takes inserts then.
            try (Transaction transaction = database.begin()) {
                TableStore.BulkInserter inserter = bulkInserter(database, transaction, table, counters);
                for (int id = 0; id < 3_000; id++) {
                    inserter.insert(transaction, new Object[] {id, 0, LargeTransactionTest.payload(id, 0)}, counters);
                }
                inserter.finish(transaction, counters);
                transaction.commit();
            }
            LargeTransactionTest.assertTableHolds(database, 0, 3_000, true);
        }
    }

    static void assertEmpty(Database database) {
        IoCounters counters = new IoCounters();
        TableStore table = new Tables(database).find(database.bufferPool(), "big", counters).orElseThrow();
        assertEquals(0, table.definition().rowCount());
        try (TableCursor cursor = table.scan(database.bufferPool(), TableScan.all(ReadAheadOptions.OFF), counters)) {
            assertFalse(cursor.next(), "the table is empty");
        }
    }
}
