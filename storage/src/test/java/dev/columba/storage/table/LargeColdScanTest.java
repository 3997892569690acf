package dev.columba.storage.table;

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
import dev.columba.storage.io.ProcSelfIo;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.txn.Transaction;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The referee test: on a cold scan of at least 256 MB, {@code (physical + read-ahead) x
 * 8 KB} agrees with the growth of {@code /proc/self/io} read_bytes within 5%, with read-ahead on
 * and off. Rows of seed 004's shape (an int key and a wide CHAR filler, four to a page) make the
 * table large quickly.
 */
class LargeColdScanTest {
    private static final int ROWS = 140_000;
    private static final int FILLER = 1800;

    @TempDir
    Path directory;

    @Test
    void coldScanCountersAgreeWithTheOperatingSystem() {
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", "64MB");
        try (Database database = Database.open(directory, settings, NativeFilesFacade.INSTANCE)) {
            TableSchema schema = TableSchema.of(Column.notNull("i", SqlType.INT), Column.notNull("filler",
                    SqlType.character(FILLER)));
            IoCounters counters = new IoCounters();
            TableStore table;
            try (Transaction transaction = database.begin()) {
                table = new Tables(database).createTable(transaction, "wide", schema, List.of(0), true, Map.of());
                transaction.commit();
            }
            for (int start = 0; start < ROWS; start += 5_000) {
                try (Transaction transaction = database.begin()) {
                    for (int i = start; i < Math.min(ROWS, start + 5_000); i++) {
                        table.insert(transaction, new Object[] {i, "abc"}, counters);
                    }
                    transaction.commit();
                }
                database.checkpointIfDue();
            }
            database.checkpoint();
            IndexPhysicalStats shape = IndexPhysicalStats.of(table.tree(), database.bufferPool(), counters);
            assertTrue(shape.pageCount() * PageFormat.PAGE_SIZE >= 256L << 20, "table of " + shape.pageCount() + " pages");

            for (ReadAheadOptions readAhead : List.of(new ReadAheadOptions(true, 500, 64), ReadAheadOptions.OFF)) {
                database.dropCleanBuffers();
                IoCounters scan = new IoCounters();
                ProcSelfIo before = ProcSelfIo.read();
                long rows = 0;
                try (TableCursor cursor = table.scan(database.bufferPool(), TableScan.all(readAhead).withProjection(0),
                        scan)) {
                    while (cursor.next()) {
                        rows++;
                    }
                }
                long readBytes = ProcSelfIo.read().minus(before).readBytes();
                IoStats stats = scan.snapshot();
                assertEquals(ROWS, rows);
                long counted = stats.pagesFromStorage() * PageFormat.PAGE_SIZE;
                assertTrue(readBytes >= 256L << 20, "the scan read " + readBytes + " bytes");
                assertEquals(1.0, (double) counted / readBytes, 0.05, "read-ahead " + readAhead.enabled() + ": counted "
                        + counted + " bytes, /proc/self/io read_bytes " + readBytes + ", " + stats);
                // With read-ahead every page of the index is read once (read-ahead walks the level above the
                // leaves); without, the descent's path and the leaves.
                long expectedPages = readAhead.enabled() ? shape.pageCount() : shape.height() - 1 + shape.leafPages();
                assertEquals(expectedPages, stats.pagesFromStorage(), "each page read once: " + stats);
            }
        }
    }
}
