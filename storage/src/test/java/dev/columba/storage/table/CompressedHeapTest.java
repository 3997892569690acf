package dev.columba.storage.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.db.Database;
import dev.columba.storage.heap.DataCompression;
import dev.columba.storage.heap.Heap;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.Transaction;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Heaps with DATA_COMPRESSION = ROW and PAGE through {@link TableStore}: the rows scanned, fetched
 * and deleted are the rows inserted, on fewer pages than without compression, after deletes and
 * inserts that recompress pages, after the database is reopened (pages verified from disk), with
 * values moved out of row and a secondary index.
 */
class CompressedHeapTest {
    private static final ReadAheadOptions READ_AHEAD = new ReadAheadOptions(true, 500, 64);
    private static final TableSchema SCHEMA = TableSchema.of(Column.notNull("id", SqlType.INT),
            Column.nullable("mode", SqlType.character(10)), Column.nullable("comment", SqlType.varchar(3000)),
            Column.nullable("price", SqlType.decimal(12, 2)), Column.nullable("day", SqlType.DATE),
            Column.nullable("ratio", SqlType.DOUBLE), Column.nullable("big", SqlType.decimal(30, 4)),
            Column.nullable("flag", SqlType.BOOLEAN));
    private static final String[] MODES = {"AIR", "MAIL", "TRUCK", "REG AIR", "FOB", "SHIP", "RAIL"};

    @TempDir
    Path directory;

    private final IoCounters counters = new IoCounters();

    private Database open() {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "16MB");
        return Database.open(directory, properties, NativeFilesFacade.INSTANCE);
    }

    private static Object[] row(int id) {
        boolean nulls = id % 17 == 0;
        String comment = id % 501 == 0 ? "long ünïcödé 😀 ".repeat(150) : "carefully final requests about the " + (id * 7919 % 1000);
        return new Object[] {id, nulls ? null : MODES[id % MODES.length], nulls ? null : comment,
                nulls ? null : new BigDecimal(id % 100_000).movePointLeft(2).negate(),
                nulls ? null : LocalDate.of(1992, 1, 1).plusDays(id % 2500),
                nulls ? null : id % 5 == 0 ? -0.0 : id * 0.25,
                nulls ? null : new BigDecimal("99999999999999999999999999.9999").subtract(BigDecimal.valueOf(id)),
                nulls ? null : id % 2 == 0};
    }

    private static Map<String, String> options(DataCompression compression) {
        return compression == DataCompression.NONE ? Map.of() : Map.of(Tables.COMPRESSION_OPTION, compression.name().toLowerCase());
    }

    /** Every row by id, read by an allocation-order scan. */
    private TreeMap<Integer, Object[]> scan(Database database, TableStore table) {
        TreeMap<Integer, Object[]> rows = new TreeMap<>();
        try (var cursor = table.scan(database.bufferPool(), TableScan.allocationOrder(READ_AHEAD), counters)) {
            while (cursor.next()) {
                Object[] row = cursor.row().clone();
                assertNull(rows.put((Integer) row[0], row), "row " + row[0] + " scanned twice");
            }
        }
        return rows;
    }

    private static void assertRows(TreeMap<Integer, Object[]> expected, TreeMap<Integer, Object[]> actual) {
        assertEquals(expected.keySet(), actual.keySet());
        for (var entry : expected.entrySet()) {
            assertArrayEquals(entry.getValue(), actual.get(entry.getKey()), "row " + entry.getKey());
        }
    }

    private int pages(Database database, TableStore table) {
        Set<Long> pages = new HashSet<>();
        try (var cursor = table.scan(database.bufferPool(), TableScan.allocationOrder(READ_AHEAD).withProjection(0), counters)) {
            while (cursor.next()) {
                pages.add(Heap.pageOf(IndexStore.rowIdOf(cursor.locator())));
            }
        }
        return pages.size();
    }

    @Test
    void compressedHeapsKeepTheirRowsOnFewerPages() {
        int rowCount = 6000;
        Map<DataCompression, Integer> pages = new TreeMap<>();
        TreeMap<Integer, Object[]> expected = new TreeMap<>();
        try (Database database = open()) {
            Tables tables = new Tables(database);
            for (DataCompression compression : DataCompression.values()) {
                try (Transaction transaction = database.begin()) {
                    TableStore table = tables.createTable(transaction, "t_" + compression, SCHEMA, List.of(), true,
                            options(compression));
                    for (int id = 0; id < rowCount; id++) {
                        table.insert(transaction, row(id), counters);
                    }
                    transaction.commit();
                }
                TableStore table = tables.table(database.bufferPool(), "t_" + compression, counters);
                assertEquals(compression, table.compression());
                expected.clear();
                for (int id = 0; id < rowCount; id++) {
                    Object[] row = table.rowCodec().decode(java.lang.foreign.MemorySegment.ofArray(table.rowCodec().encode(row(id))), 0);
                    expected.put(id, row);
                }
                assertRows(expected, scan(database, table));
                pages.put(compression, pages(database, table));
            }
            assertTrue(pages.get(DataCompression.ROW) < pages.get(DataCompression.NONE), pages.toString());
            assertTrue(pages.get(DataCompression.PAGE) < pages.get(DataCompression.ROW), pages.toString());

            // Deletes leave tombstones; later inserts fill and recompress the last page.
            TableStore table = tables.table(database.bufferPool(), "t_PAGE", counters);
            List<byte[]> doomed = new ArrayList<>();
            try (var cursor = table.scan(database.bufferPool(), TableScan.allocationOrder(READ_AHEAD), counters)) {
                while (cursor.next()) {
                    if ((Integer) cursor.row()[0] % 3 == 0) {
                        doomed.add(cursor.locator());
                    }
                }
            }
            try (Transaction transaction = database.begin()) {
                for (byte[] locator : doomed) {
                    assertTrue(table.deleteAt(transaction, locator, counters));
                }
                for (int id = rowCount; id < rowCount + 2000; id++) {
                    table.insert(transaction, row(id), counters);
                }
                transaction.commit();
            }
            expected.keySet().removeIf(id -> id % 3 == 0);
            for (int id = rowCount; id < rowCount + 2000; id++) {
                expected.put(id, table.rowCodec().decode(java.lang.foreign.MemorySegment.ofArray(table.rowCodec().encode(row(id))), 0));
            }
            assertRows(expected, scan(database, table));
            try (var cursor = table.scan(database.bufferPool(), TableScan.allocationOrder(READ_AHEAD), counters)) {
                while (cursor.next()) {
                    int id = (Integer) cursor.row()[0];
                    if (id % 97 == 1) {
                        assertArrayEquals(expected.get(id), table.fetch(database.bufferPool(), cursor.locator(), counters));
                    }
                }
            }
            database.checkpoint();
        }
        try (Database database = open()) {
            TableStore table = new Tables(database).table(database.bufferPool(), "t_PAGE", counters);
            assertRows(expected, scan(database, table));
        }
    }

    @Test
    void aSecondaryIndexFindsCompressedRows() {
        try (Database database = open()) {
            Tables tables = new Tables(database);
            try (Transaction transaction = database.begin()) {
                TableStore table = tables.createTable(transaction, "t", SCHEMA, List.of(), true, options(DataCompression.PAGE));
                for (int id = 0; id < 3000; id++) {
                    table.insert(transaction, row(id), counters);
                }
                tables.createIndex(transaction, "t", "ix_id", List.of(0), true);
                transaction.commit();
            }
            TableStore table = tables.table(database.bufferPool(), "t", counters);
            List<byte[]> found = table.indexes().getFirst().lookup(database.bufferPool(), new Object[] {1234}, counters);
            assertEquals(1, found.size());
            assertEquals(1234, table.fetch(database.bufferPool(), found.getFirst(), counters)[0]);
        }
    }

    @Test
    void onlyHeapsAreCompressedAndTheOptionIsChecked() {
        try (Database database = open()) {
            Tables tables = new Tables(database);
            try (Transaction transaction = database.begin()) {
                ColumbaException clustered = assertThrows(ColumbaException.class, () -> tables.createTable(transaction, "c",
                        SCHEMA, List.of(0), true, options(DataCompression.PAGE)));
                assertEquals(ErrorCode.FEATURE_NOT_SUPPORTED, clustered.errorCode());
                ColumbaException unknown = assertThrows(ColumbaException.class, () -> tables.createTable(transaction, "u",
                        SCHEMA, List.of(), true, Map.of(Tables.COMPRESSION_OPTION, "columnstore")));
                assertEquals(ErrorCode.INVALID_ARGUMENT, unknown.errorCode());
            }
        }
    }
}
