package dev.columba.storage.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.buffer.SpillFile;
import dev.columba.storage.db.Database;
import dev.columba.storage.db.DatabaseLayout;
import dev.columba.storage.io.FaultInjectingFilesFacade;
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
import java.util.Properties;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Write transactions larger than the buffer pool (a 2 MB pool, a transaction may hold 1 MB of it):
 * their copies spill to the transaction's spill file, and commit, rollback and reopening give the
 * table exactly as it should be. The crash side is {@link LargeTransactionCrashTest}.
 */
class LargeTransactionTest {
    /** Rows of about 300 bytes: 40,000 of them are about 12 MB, six times the pool. */
    static final int ROWS = 40_000;

    @TempDir
    Path directory;

    private final IoCounters counters = new IoCounters();

    static Properties smallPool() {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "2MB");
        properties.setProperty("wal_segment_size", "1MB");
        return properties;
    }

    static TableSchema schema() {
        return TableSchema.of(Column.notNull("id", SqlType.INT), Column.notNull("version", SqlType.INT),
                Column.notNull("payload", SqlType.varchar(400)));
    }

    static String payload(int id, int version) {
        return ("row " + id + " version " + version + " ").repeat(8 + Math.floorMod(id * 7 + version, 5));
    }

    @ParameterizedTest(name = "clustered={0}")
    @ValueSource(booleans = {true, false})
    void transactionSixTimesThePoolCommitsAndReadsBackExactly(boolean clustered) {
        List<Integer> order = new ArrayList<>();
        for (int id = 0; id < ROWS; id++) {
            order.add(id);
        }
        // Random key order: B+tree leaves all over the table are revisited after they were spilled.
        Collections.shuffle(order, new Random(12));
        SpillFile.Statistics spilled;
        try (Database database = Database.open(directory, smallPool(), NativeFilesFacade.INSTANCE)) {
            Tables tables = new Tables(database);
            try (Transaction transaction = database.begin()) {
                TableStore table = tables.createTable(transaction, "big", schema(), clustered ? List.of(0) : List.of(),
                        true, Map.of());
                for (int id : order) {
                    table.insert(transaction, new Object[] {id, 0, payload(id, 0)}, counters);
                }
                assertTrue(transaction.writes().size() > 4 * database.bufferPool().capacity(),
                        "the transaction changed " + transaction.writes().size() + " pages, the pool has "
                                + database.bufferPool().capacity() + " frames");
                assertTrue(transaction.writes().spilledPages() > 0);
                transaction.commit();
            }
            spilled = database.spillStatistics();
            assertTrue(spilled.pagesWritten() > 3 * database.bufferPool().capacity(), spilled.toString());
            if (clustered) {
                assertTrue(spilled.pagesRead() > 0, "random inserts read spilled leaves back: " + spilled);
            }
            assertEquals(0, database.bufferPool().privatePages());
            assertSpillFileEmpty();
            assertTableHolds(database, 0, ROWS, clustered);
        }
        try (Database database = Database.open(directory, smallPool(), NativeFilesFacade.INSTANCE)) {
            assertTableHolds(database, 0, ROWS, clustered);
        }
    }

    @Test
    void rolledBackUpdateOfEveryRowOfATableLargerThanThePoolRestoresEveryRow() {
        try (Database database = Database.open(directory, smallPool(), NativeFilesFacade.INSTANCE)) {
            TableStore table = loadInBatches(database, ROWS);
            long spilledBefore = database.spillStatistics().pagesWritten();
            try (Transaction transaction = database.begin()) {
                for (int id = 0; id < ROWS; id++) {
                    assertTrue(table.update(transaction, new Object[] {id, 1, payload(id, 1)}, counters));
                }
                assertTrue(transaction.writes().spilledPages() > 0);
                // The transaction sees its own changes, spilled or not; everyone else sees none.
                for (int id = 0; id < ROWS; id += 997) {
                    assertEquals(payload(id, 1), table.get(transaction.writes(), new Object[] {id}, counters)[2]);
                    assertEquals(payload(id, 0), table.get(database.bufferPool(), new Object[] {id}, counters)[2]);
                }
                transaction.rollback();
            }
            assertTrue(database.spillStatistics().pagesWritten() > spilledBefore + database.bufferPool().capacity());
            assertEquals(0, database.bufferPool().privatePages());
            assertSpillFileEmpty();
            assertTableHolds(database, 0, ROWS, true);
            // And the table takes the same update once more, committed this time.
            try (Transaction transaction = database.begin()) {
                for (int id = 0; id < ROWS; id++) {
                    table.update(transaction, new Object[] {id, 1, payload(id, 1)}, counters);
                }
                transaction.commit();
            }
            assertTableHolds(database, 1, ROWS, true);
        }
        try (Database database = Database.open(directory, smallPool(), NativeFilesFacade.INSTANCE)) {
            assertTableHolds(database, 1, ROWS, true);
        }
    }

    @Test
    void diskFullWhileSpillingFailsTheTransactionWithDiskFullAndLosesNothingCommitted() {
        FaultInjectingFilesFacade files = new FaultInjectingFilesFacade(NativeFilesFacade.INSTANCE);
        try (Database database = Database.open(directory, smallPool(), files)) {
            TableStore table = loadInBatches(database, 5_000);
            files.failNth(FaultInjectingFilesFacade.Operation.WRITE, 3, "transaction\\.spill",
                    FaultInjectingFilesFacade.Failure.DISK_FULL);
            try (Transaction transaction = database.begin()) {
                ColumbaException failure = assertThrows(ColumbaException.class, () -> {
                    for (int id = 5_000; id < 5_000 + ROWS; id++) {
                        table.insert(transaction, new Object[] {id, 0, payload(id, 0)}, counters);
                    }
                });
                assertEquals(ErrorCode.DISK_FULL, failure.errorCode(), failure.getMessage());
                assertEquals("53100", failure.errorCode().sqlState());
                assertTrue(failure.getMessage().contains("transaction.spill"), failure.getMessage());
                transaction.rollback();
            }
            assertEquals(0, database.bufferPool().privatePages());
            assertTableHolds(database, 0, 5_000, true);
            // The disk has room again: the same transaction now commits.
            try (Transaction transaction = database.begin()) {
                for (int id = 5_000; id < 5_000 + ROWS; id++) {
                    table.insert(transaction, new Object[] {id, 0, payload(id, 0)}, counters);
                }
                transaction.commit();
            }
            assertTableHolds(database, 0, 5_000 + ROWS, true);
        }
    }

    @Test
    void openingRemovesASpillFileACrashLeft() throws Exception {
        try (Database ignored = Database.open(directory, smallPool(), NativeFilesFacade.INSTANCE)) {
            // Creates the database.
        }
        Path leftover = DatabaseLayout.spillFile(directory);
        Files.createDirectories(leftover.getParent());
        Files.write(leftover, new byte[3 * 8192]);
        try (Database ignored = Database.open(directory, smallPool(), NativeFilesFacade.INSTANCE)) {
            assertFalse(Files.exists(leftover));
        }
    }

    /** Loads ids 0 to rows - 1, version 0, in committed batches that each fit the pool. */
    private TableStore loadInBatches(Database database, int rows) {
        Tables tables = new Tables(database);
        TableStore table;
        try (Transaction transaction = database.begin()) {
            table = tables.createTable(transaction, "big", schema(), List.of(0), true, Map.of());
            transaction.commit();
        }
        for (int start = 0; start < rows; start += 1_000) {
            try (Transaction transaction = database.begin()) {
                for (int id = start; id < Math.min(rows, start + 1_000); id++) {
                    table.insert(transaction, new Object[] {id, 0, payload(id, 0)}, counters);
                }
                transaction.commit();
            }
        }
        return table;
    }

    private void assertSpillFileEmpty() {
        Path spill = DatabaseLayout.spillFile(directory);
        try {
            assertTrue(!Files.exists(spill) || Files.size(spill) == 0, "spill file left with data");
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Asserts the committed table is exactly ids 0 to rows - 1 at {@code version}, each once. */
    static void assertTableHolds(Database database, int version, int rows, boolean clustered) {
        IoCounters counters = new IoCounters();
        TableStore table = new Tables(database).find(database.bufferPool(), "big", counters).orElseThrow();
        boolean[] seen = new boolean[rows];
        int count = 0;
        try (TableCursor cursor = table.scan(database.bufferPool(), TableScan.all(ReadAheadOptions.OFF), counters)) {
            while (cursor.next()) {
                Object[] row = cursor.row();
                int id = (Integer) row[0];
                if (clustered) {
                    assertEquals(count, id, "rows in key order, none missing");
                }
                assertTrue(id >= 0 && id < rows && !seen[id], "unexpected or repeated id " + id);
                seen[id] = true;
                assertEquals(version, row[1], "row " + id);
                assertEquals(payload(id, version), row[2], "row " + id);
                count++;
            }
        }
        assertEquals(rows, count);
        assertEquals(rows, table.definition().rowCount());
    }
}
