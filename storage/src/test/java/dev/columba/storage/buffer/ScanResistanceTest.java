package dev.columba.storage.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.stats.IoStats;
import dev.columba.core.type.SqlType;
import dev.columba.storage.btree.IndexPhysicalStats;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.table.TableCursor;
import dev.columba.storage.table.TableScan;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import dev.columba.storage.txn.Transaction;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scan of a table five times the buffer pool must not flush the pages that lookups keep coming
 * back to: after the scan, the hot table's lookups find every page resident.
 */
class ScanResistanceTest {
    @TempDir
    Path directory;

    private static TableStore load(Database database, String name, int rows, int padding) {
        TableSchema schema = TableSchema.of(Column.notNull("id", SqlType.INT), Column.notNull("pad", SqlType.varchar(2000)));
        IoCounters counters = new IoCounters();
        TableStore table;
        try (Transaction transaction = database.begin()) {
            table = new Tables(database).createTable(transaction, name, schema, List.of(0), true, Map.of());
            transaction.commit();
        }
        for (int start = 0; start < rows; start += 500) {
            try (Transaction transaction = database.begin()) {
                for (int id = start; id < Math.min(rows, start + 500); id++) {
                    table.insert(transaction, new Object[] {id, "p".repeat(padding)}, counters);
                }
                transaction.commit();
            }
        }
        return table;
    }

    private static IoStats lookups(Database database, TableStore table, int rows) {
        IoCounters counters = new IoCounters();
        for (int id = 0; id < rows; id += 7) {
            table.get(database.bufferPool(), new Object[] {id}, counters);
        }
        return counters.snapshot();
    }

    @Test
    void aLargeScanLeavesTheHotPagesResident() {
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", "4MB");
        try (Database database = Database.open(directory, settings, NativeFilesFacade.INSTANCE)) {
            TableStore hot = load(database, "hot", 2000, 100);
            TableStore big = load(database, "big", 15_000, 1500);
            database.checkpoint();
            IoCounters counters = new IoCounters();
            long bigPages = IndexPhysicalStats.of(big.tree(), database.bufferPool(), counters).pageCount();
            assertTrue(bigPages * 8192 > 5L * (4 << 20), "the big table is five times the pool: " + bigPages + " pages");

            database.dropCleanBuffers();
            lookups(database, hot, 2000);
            IoStats warm = lookups(database, hot, 2000);
            assertEquals(0, warm.physicalReads(), "the hot pages are resident after two rounds of lookups");

            long rows = 0;
            try (TableCursor cursor = big.scan(database.bufferPool(), TableScan.all(new ReadAheadOptions(true, 128, 32)),
                    new IoCounters())) {
                while (cursor.next()) {
                    rows++;
                }
            }
            assertEquals(15_000, rows);

            IoStats afterScan = lookups(database, hot, 2000);
            assertEquals(0, afterScan.physicalReads(), "the scan did not evict the hot pages: " + afterScan);
            assertEquals(0, afterScan.readAheadReads());
        }
    }
}
