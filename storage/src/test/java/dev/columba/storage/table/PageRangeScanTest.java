package dev.columba.storage.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.alloc.AllocationOrderScan;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.db.Database;
import dev.columba.storage.heap.DataCompression;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.Transaction;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Allocation-order scans limited to a range of page ids ({@link TableScan#withPages}): ranges that
 * cover every id, cut at allocated pages, read every row of a heap, a compressed heap and a clustered
 * table exactly once between them, each range only rows of its own pages.
 */
class PageRangeScanTest {
    private static final ReadAheadOptions READ_AHEAD = new ReadAheadOptions(true, 64, 16);
    private static final TableSchema SCHEMA = TableSchema.of(Column.notNull("id", SqlType.INT),
            Column.nullable("note", SqlType.varchar(200)));
    private static final int ROWS = 5000;

    @TempDir
    Path directory;

    private final IoCounters counters = new IoCounters();

    @Test
    void rangesThatCoverEveryPageReadEveryRowOnce() {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "16MB");
        try (Database database = Database.open(directory, properties, NativeFilesFacade.INSTANCE)) {
            Tables tables = new Tables(database);
            Map<String, TableStore> stores = new TreeMap<>();
            try (Transaction transaction = database.begin()) {
                stores.put("heap", tables.createTable(transaction, "heap", SCHEMA, List.of(), false, Map.of()));
                stores.put("compressed", tables.createTable(transaction, "compressed", SCHEMA, List.of(), false,
                        Map.of(Tables.COMPRESSION_OPTION, DataCompression.PAGE.name().toLowerCase())));
                stores.put("clustered", tables.createTable(transaction, "clustered", SCHEMA, List.of(0), true, Map.of()));
                for (TableStore store : stores.values()) {
                    for (int id = 0; id < ROWS; id++) {
                        store.insert(transaction, new Object[] {id, id % 7 == 0 ? null : "note of row " + id * 31}, counters);
                    }
                }
                transaction.commit();
            }
            for (String name : stores.keySet()) {
                TableStore store = tables.table(database.bufferPool(), name, counters);
                long firstOam = store.heap() != null ? store.heap().firstOamPage() : store.tree().firstOamPage();
                TreeSet<Long> pages = new TreeSet<>();
                for (long page : AllocationOrderScan.allocatedPages(database.bufferPool(), firstOam, counters)) {
                    pages.add(page);
                }
                assertTrue(pages.size() >= 6, name + " spans " + pages.size() + " pages: several ranges of three");
                // Cuts at every third allocated page; the first range starts at 0, the last ends at the top.
                List<Long> cuts = new ArrayList<>();
                cuts.add(0L);
                int index = 0;
                for (long page : pages) {
                    if (index++ % 3 == 2) {
                        cuts.add(page);
                    }
                }
                cuts.add(Long.MAX_VALUE);
                TreeMap<Integer, Object[]> seen = new TreeMap<>();
                for (int range = 0; range + 1 < cuts.size(); range++) {
                    long first = cuts.get(range);
                    long end = cuts.get(range + 1);
                    try (TableCursor cursor = store.scan(database.bufferPool(),
                            TableScan.allocationOrder(READ_AHEAD).withPages(first, end), counters)) {
                        while (cursor.next()) {
                            Object[] row = cursor.row().clone();
                            assertNull(seen.put((Integer) row[0], row), name + ": row " + row[0] + " read twice");
                            if (store.heap() != null) {
                                long page = dev.columba.storage.heap.Heap.pageOf(IndexStore.rowIdOf(cursor.locator()));
                                assertTrue(page >= first && page < end, name + ": row on page " + page + " in range ["
                                        + first + ", " + end + ")");
                            }
                        }
                    }
                }
                assertEquals(ROWS, seen.size(), name);
                for (var entry : seen.entrySet()) {
                    int id = entry.getKey();
                    assertEquals(id % 7 == 0 ? null : "note of row " + id * 31, entry.getValue()[1], name + " row " + id);
                }
            }
        }
    }

    @Test
    void aPageRangeIsForAllocationOrderOnly() {
        assertThrows(IllegalArgumentException.class, () -> TableScan.all(READ_AHEAD).withPages(0, 10));
        assertThrows(IllegalArgumentException.class, () -> TableScan.allocationOrder(READ_AHEAD).withPages(10, 5));
    }
}
