package dev.columba.storage.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.table.TableCursor;
import dev.columba.storage.table.TableScan;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bottom-up load of a clustered table ({@link TableStore#bulkInserter}) with a 2 MB pool and a
 * load six times larger: rolled back, the table is as before (empty, and loadable again); committed,
 * every row reads back, also after reopening; input out of key order falls back to inserts from the
 * first row below the last; a duplicate key is the duplicate-key error; a table that is not empty
 * is not built bottom up. The crash side is {@link BulkLoadCrashTest}.
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

    /** Loads ids 0 to rows - 1 at version 0 through one bulk inserter; returns whether it was still building. */
    static boolean load(Transaction transaction, TableStore table, int rows, IoCounters counters) {
        TableStore.BulkInserter inserter = table.bulkInserter(transaction, counters);
        assertTrue(inserter.building(), "an empty clustered table is built bottom up");
        for (int id = 0; id < rows; id++) {
            inserter.insert(transaction, new Object[] {id, 0, LargeTransactionTest.payload(id, 0)}, counters);
        }
        boolean building = inserter.building();
        inserter.finish(transaction, counters);
        return building;
    }

    @Test
    void rolledBackLoadLeavesTheTableEmptyAndACommittedOneReadsBack() {
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            TableStore table = createEmpty(database);
            try (Transaction transaction = database.begin()) {
                assertTrue(load(transaction, table, LargeTransactionTest.ROWS, counters), "ascending ids stay on the build");
                assertTrue(transaction.writes().spilledPages() > 0, "the load is larger than the pool");
                transaction.rollback();
            }
            assertEmpty(database);
            try (Transaction transaction = database.begin()) {
                load(transaction, table, LargeTransactionTest.ROWS, counters);
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
    void rowsOutOfOrderFinishTheBuildAndAreInsertedAfterIt() {
        int half = LargeTransactionTest.ROWS / 2;
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            TableStore table = createEmpty(database);
            try (Transaction transaction = database.begin()) {
                TableStore.BulkInserter inserter = table.bulkInserter(transaction, counters);
                // The upper half ascending, then the lower half descending.
                for (int id = half; id < LargeTransactionTest.ROWS; id++) {
                    inserter.insert(transaction, new Object[] {id, 0, LargeTransactionTest.payload(id, 0)}, counters);
                }
                assertTrue(inserter.building());
                for (int id = half - 1; id >= 0; id--) {
                    inserter.insert(transaction, new Object[] {id, 0, LargeTransactionTest.payload(id, 0)}, counters);
                }
                assertFalse(inserter.building(), "the first row below the last ended the build");
                inserter.finish(transaction, counters);
                transaction.commit();
            }
            LargeTransactionTest.assertTableHolds(database, 0, LargeTransactionTest.ROWS, true);
        }
    }

    @Test
    void aDuplicateKeyIsTheDuplicateKeyErrorAndTheRollbackLeavesTheTableEmpty() {
        try (Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE)) {
            TableStore table = createEmpty(database);
            try (Transaction transaction = database.begin()) {
                TableStore.BulkInserter inserter = table.bulkInserter(transaction, counters);
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
                TableStore.BulkInserter inserter = table.bulkInserter(transaction, counters);
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
                TableStore.BulkInserter inserter = table.bulkInserter(transaction, counters);
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
