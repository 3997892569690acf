package dev.columba.storage.btree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.stats.IoStats;
import dev.columba.core.type.SqlType;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.table.TableCursor;
import dev.columba.storage.table.TableScan;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import dev.columba.storage.txn.Transaction;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fragmentation as the statistics report it and as read-ahead feels it: a table loaded in key order
 * is one long run of pages, full, and an index-order scan reads it in large I/Os; the same rows
 * loaded in random order split pages everywhere, leaving the leaves half full and out of order,
 * and the same scan's read-ahead falls to small I/Os.
 */
class IndexPhysicalStatsTest {
    @TempDir
    Path directory;

    private static TableStore load(Database database, String name, List<Integer> ids) {
        TableSchema schema = TableSchema.of(Column.notNull("id", SqlType.INT), Column.notNull("pad", SqlType.varchar(100)));
        IoCounters counters = new IoCounters();
        TableStore table;
        try (Transaction transaction = database.begin()) {
            table = new Tables(database).createTable(transaction, name, schema, List.of(0), true, Map.of());
            transaction.commit();
        }
        for (int start = 0; start < ids.size(); start += 2000) {
            try (Transaction transaction = database.begin()) {
                for (int id : ids.subList(start, Math.min(ids.size(), start + 2000))) {
                    table.insert(transaction, new Object[] {id, "row " + id}, counters);
                }
                transaction.commit();
            }
        }
        return table;
    }

    private static IoStats coldScan(Database database, TableStore table) {
        database.dropCleanBuffers();
        IoCounters counters = new IoCounters();
        try (TableCursor cursor = table.scan(database.bufferPool(), TableScan.all(new ReadAheadOptions(true, 500, 64)),
                counters)) {
            while (cursor.next()) {
                // Drain.
            }
        }
        return counters.snapshot();
    }

    @Test
    void sequentialLoadsAreContiguousAndRandomLoadsFragment() {
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", "32MB");
        try (Database database = Database.open(directory, settings, NativeFilesFacade.INSTANCE)) {
            List<Integer> ids = new ArrayList<>();
            for (int id = 0; id < 40_000; id++) {
                ids.add(id);
            }
            TableStore ordered = load(database, "ordered", ids);
            Collections.shuffle(ids, new Random(4));
            TableStore shuffled = load(database, "shuffled", ids);
            database.checkpoint();
            IoCounters counters = new IoCounters();
            IndexPhysicalStats contiguous = IndexPhysicalStats.of(ordered.tree(), database.bufferPool(), counters);
            IndexPhysicalStats fragmented = IndexPhysicalStats.of(shuffled.tree(), database.bufferPool(), counters);

            assertEquals(40_000, contiguous.entries());
            assertEquals(40_000, fragmented.entries());
            assertTrue(contiguous.averagePageDensityPercent() > 95, contiguous.toString());
            assertTrue(contiguous.logicalFragmentationPercent() < 2, contiguous.toString());
            assertTrue(contiguous.averageFragmentPages() > 20, contiguous.toString());
            assertTrue(fragmented.averagePageDensityPercent() < 85, fragmented.toString());
            assertTrue(fragmented.logicalFragmentationPercent() > 30, fragmented.toString());
            assertTrue(fragmented.averageFragmentPages() < 2, fragmented.toString());
            assertTrue(fragmented.leafPages() > contiguous.leafPages(), "half-full pages need more of them");

            IoStats contiguousScan = coldScan(database, ordered);
            IoStats fragmentedScan = coldScan(database, shuffled);
            assertTrue(contiguousScan.averageBytesPerIo() > 10 * fragmentedScan.averageBytesPerIo(),
                    "read-ahead I/Os: " + contiguousScan.averageBytesPerIo() + " vs " + fragmentedScan.averageBytesPerIo());
        }
    }
}
