package dev.columba.storage.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.stats.IoCounters;
import dev.columba.core.stats.IoStats;
import dev.columba.datagen.RowCursor;
import dev.columba.datagen.TestTableGenerator;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.io.OsPageCache;
import dev.columba.storage.io.ProcSelfIo;
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

/** With {@code direct_io}, data-file reads bypass the page cache and are still counted exactly. */
class DirectIoTest {
    @TempDir
    Path directory;

    @Test
    void directIoBypassesThePageCacheAndKeepsCountersHonest() {
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", "16MB");
        settings.setProperty("direct_io", "on");
        IoCounters counters = new IoCounters();
        try (Database database = Database.open(directory, settings, NativeFilesFacade.INSTANCE)) {
            TestTableGenerator generator = new TestTableGenerator(30_000, 3);
            TableStore table;
            try (Transaction transaction = database.begin()) {
                table = new Tables(database).createTable(transaction, "t", generator.schema(), List.of(0), true, Map.of());
                RowCursor rows = generator.cursor();
                while (rows.next()) {
                    table.insert(transaction, rows.row(), counters);
                }
                transaction.commit();
            }
            database.checkpoint();
            database.dropCleanBuffers();
            IoCounters scan = new IoCounters();
            ProcSelfIo before = ProcSelfIo.read();
            long rows = 0;
            try (TableCursor cursor = table.scan(database.bufferPool(), TableScan.all(new ReadAheadOptions(true, 500, 64)),
                    scan)) {
                while (cursor.next()) {
                    rows++;
                }
            }
            long readBytes = ProcSelfIo.read().minus(before).readBytes();
            IoStats stats = scan.snapshot();
            assertEquals(30_000, rows);
            assertTrue(stats.readAheadReads() > 0);
            long counted = stats.pagesFromStorage() * 8192;
            // One-sided, as in IoStatisticsTest: the JVM may read a class file during the window.
            assertTrue(readBytes >= counted && readBytes <= counted + 65536,
                    "counted " + counted + " bytes, read_bytes grew by " + readBytes + ": " + stats);
            Path dataFile = directory.resolve("data").resolve("columba.data");
            try (FileHandle file = NativeFilesFacade.INSTANCE.open(dataFile, FilesFacade.OpenMode.READ, false)) {
                assertEquals(0, OsPageCache.residentBytes(file, 0, file.size()), "nothing of the data file is cached by the OS");
            }
        }
    }
}
