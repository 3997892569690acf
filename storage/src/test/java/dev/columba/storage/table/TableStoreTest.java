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
import dev.columba.datagen.RowCursor;
import dev.columba.datagen.TestTableGenerator;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.Transaction;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableStoreTest {
    private static final ReadAheadOptions READ_AHEAD = new ReadAheadOptions(true, 500, 64);

    @TempDir
    Path directory;

    private Database database;
    private Tables tables;
    private final IoCounters counters = new IoCounters();

    @BeforeEach
    void open() {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "32MB");
        database = Database.open(directory, properties, NativeFilesFacade.INSTANCE);
        tables = new Tables(database);
    }

    @AfterEach
    void close() {
        database.close();
    }

    private TableStore loadTestTable(String name, int rows, boolean clustered) {
        TestTableGenerator generator = new TestTableGenerator(rows, 42);
        try (Transaction transaction = database.begin()) {
            TableStore table = tables.createTable(transaction, name, generator.schema(),
                    clustered ? List.of(0) : List.of(), true, Map.of());
            RowCursor cursor = generator.cursor();
            while (cursor.next()) {
                table.insert(transaction, cursor.row(), counters);
            }
            transaction.commit();
            return table;
        }
    }

    private List<Object[]> readAll(RowCursor expected) {
        List<Object[]> rows = new ArrayList<>();
        while (expected.next()) {
            rows.add(expected.row().clone());
        }
        return rows;
    }

    @Test
    void clusteredTableScansInKeyOrderAndByRange() {
        TableStore table = loadTestTable("TestTable", 20_000, true);
        List<Object[]> expected = readAll(new TestTableGenerator(20_000, 42).cursor());
        int count = 0;
        try (var cursor = table.scan(database.bufferPool(), TableScan.all(READ_AHEAD), counters)) {
            while (cursor.next()) {
                assertArrayEquals(expected.get(count), cursor.row(), "row " + count);
                count++;
            }
        }
        assertEquals(20_000, count);

        count = 0;
        try (var cursor = table.scan(database.bufferPool(), TableScan.below(new Object[] {300}, false, READ_AHEAD)
                .withProjection(0, 3), counters)) {
            while (cursor.next()) {
                assertEquals(count + 1, cursor.row()[0]);
                assertEquals("Some Random Data..", cursor.row()[1]);
                count++;
            }
        }
        assertEquals(299, count, "ID < 300");

        count = 0;
        try (var cursor = table.scan(database.bufferPool(),
                TableScan.range(new Object[] {1000}, false, new Object[] {2000}, true, ReadAheadOptions.OFF), counters)) {
            while (cursor.next()) {
                assertEquals(1001 + count, cursor.row()[0]);
                count++;
            }
        }
        assertEquals(1000, count, "1000 < ID <= 2000");

        long sum = 0;
        count = 0;
        try (var cursor = table.scan(database.bufferPool(), TableScan.allocationOrder(READ_AHEAD).withProjection(0),
                counters)) {
            while (cursor.next()) {
                sum += (Integer) cursor.row()[0];
                count++;
            }
        }
        assertEquals(20_000, count);
        assertEquals(20_000L * 20_001 / 2, sum, "allocation order visits every row once");
        assertArrayEquals(expected.get(4999), table.get(database.bufferPool(), new Object[] {5000}, counters));
        assertNull(table.get(database.bufferPool(), new Object[] {20_001}, counters));
    }

    @Test
    void heapTableWithSecondaryIndexFindsRowsAndKeepsIndexInStep() {
        loadTestTable("Heap", 3000, false);
        TableStore table;
        try (Transaction transaction = database.begin()) {
            table = tables.createIndex(transaction, "Heap", "ix_idvarchar", List.of(1), true);
            transaction.commit();
        }
        List<byte[]> found = table.indexes().get(0).lookup(database.bufferPool(), new Object[] {"1234"}, counters);
        assertEquals(1, found.size());
        Object[] row = table.fetch(database.bufferPool(), found.get(0), counters);
        assertEquals(1234, row[0]);

        try (Transaction transaction = database.begin()) {
            Object[] duplicate = row.clone();
            duplicate[0] = 99_999;
            ColumbaException error = assertThrows(ColumbaException.class,
                    () -> table.insert(transaction, duplicate, counters));
            assertEquals(ErrorCode.DUPLICATE_KEY, error.errorCode());
            assertTrue(table.deleteRow(transaction, dev.columba.storage.table.IndexStore
                    .rowIdOf(found.get(0)), counters));
            transaction.commit();
        }
        assertEquals(0, table.indexes().get(0).lookup(database.bufferPool(), new Object[] {"1234"}, counters).size());
        int count = 0;
        try (var cursor = table.scan(database.bufferPool(), TableScan.allocationOrder(READ_AHEAD), counters)) {
            while (cursor.next()) {
                count++;
            }
        }
        assertEquals(2999, count);
    }

    @Test
    void largeValuesMoveToOverflowPagesAndComeBack() {
        TableSchema schema = TableSchema.of(Column.notNull("id", SqlType.INT),
                Column.nullable("body", SqlType.varchar(100_000)), Column.nullable("note", SqlType.varchar(50)));
        List<Object[]> rows = new ArrayList<>();
        for (int id = 0; id < 200; id++) {
            rows.add(new Object[] {id, ("body " + id + " ").repeat(id * 37), id % 3 == 0 ? null : "note " + id});
        }
        TableStore table;
        try (Transaction transaction = database.begin()) {
            table = tables.createTable(transaction, "docs", schema, List.of(0), true, Map.of());
            for (Object[] row : rows) {
                table.insert(transaction, row, counters);
            }
            transaction.commit();
        }
        IoCounters scanCounters = new IoCounters();
        int count = 0;
        try (var cursor = table.scan(database.bufferPool(), TableScan.all(ReadAheadOptions.OFF), scanCounters)) {
            while (cursor.next()) {
                assertArrayEquals(rows.get(count), cursor.row());
                count++;
            }
        }
        assertEquals(200, count);
        assertTrue(scanCounters.snapshot().lobLogicalReads() > 0, "overflow pages are counted as lob reads");
        try (Transaction transaction = database.begin()) {
            for (int id = 0; id < 200; id += 2) {
                assertTrue(table.delete(transaction, new Object[] {id}, counters));
            }
            Object[] replacement = {1, "short now", "changed"};
            assertTrue(table.update(transaction, replacement, counters));
            transaction.commit();
        }
        assertArrayEquals(new Object[] {1, "short now", "changed"}, table.get(database.bufferPool(), new Object[] {1}, counters));
        assertNull(table.get(database.bufferPool(), new Object[] {2}, counters));
    }

    @Test
    void nonUniqueClusteredKeysKeepEveryDuplicate() {
        TableSchema schema = TableSchema.of(Column.notNull("k", SqlType.INT), Column.notNull("v", SqlType.BIGINT));
        TableStore table;
        try (Transaction transaction = database.begin()) {
            table = tables.createTable(transaction, "dups", schema, List.of(0), false, Map.of());
            for (long value = 0; value < 3000; value++) {
                table.insert(transaction, new Object[] {(int) (value % 7), value}, counters);
            }
            transaction.commit();
        }
        int count = 0;
        try (var cursor = table.scan(database.bufferPool(),
                TableScan.range(new Object[] {3}, true, new Object[] {3}, true, ReadAheadOptions.OFF), counters)) {
            long previous = -1;
            while (cursor.next()) {
                assertEquals(3, cursor.row()[0]);
                long value = (Long) cursor.row()[1];
                assertTrue(value > previous, "duplicates keep insertion order through their uniquifier");
                previous = value;
                count++;
            }
        }
        assertEquals(3000 / 7 + (3000 % 7 > 3 ? 1 : 0), count);
    }

    @Test
    void deleteAtRemovesTheRowAScanLocatedInNonUniqueClusteredTablesAndHeaps() {
        TableSchema schema = TableSchema.of(Column.notNull("k", SqlType.INT), Column.notNull("v", SqlType.BIGINT));
        for (boolean clustered : new boolean[] {true, false}) {
            String name = clustered ? "dups_clustered" : "dups_heap";
            TableStore table;
            try (Transaction transaction = database.begin()) {
                table = tables.createTable(transaction, name, schema, clustered ? List.of(0) : List.of(), false, Map.of());
                for (long value = 0; value < 500; value++) {
                    table.insert(transaction, new Object[] {(int) (value % 5), value}, counters);
                }
                transaction.commit();
            }
            try (Transaction transaction = database.begin()) {
                List<byte[]> evenValues = new ArrayList<>();
                TableScan all = clustered ? TableScan.all(ReadAheadOptions.OFF) : TableScan.allocationOrder(ReadAheadOptions.OFF);
                try (TableCursor cursor = table.scan(transaction.writes(), all, counters)) {
                    while (cursor.next()) {
                        if ((Long) cursor.row()[1] % 2 == 0) {
                            evenValues.add(cursor.locator());
                        }
                    }
                }
                for (byte[] locator : evenValues) {
                    assertTrue(table.deleteAt(transaction, locator, counters), name);
                }
                assertTrue(!table.deleteAt(transaction, evenValues.getFirst(), counters), name + ": already gone");
                transaction.commit();
            }
            TableStore reread = tables.table(database.bufferPool(), name, counters);
            assertEquals(250, reread.definition().rowCount(), name);
            try (TableCursor cursor = reread.scan(database.bufferPool(),
                    clustered ? TableScan.all(ReadAheadOptions.OFF) : TableScan.allocationOrder(ReadAheadOptions.OFF), counters)) {
                int count = 0;
                while (cursor.next()) {
                    assertEquals(1, (Long) cursor.row()[1] % 2, name);
                    count++;
                }
                assertEquals(250, count, name);
            }
        }
    }

    @Test
    void rowCountsInTheCatalogFollowCommitsAndIgnoreRollbacks() {
        TableStore table = loadTestTable("counted", 1000, true);
        assertEquals(1000, tables.table(database.bufferPool(), "counted", counters).definition().rowCount());
        try (Transaction transaction = database.begin()) {
            table.delete(transaction, new Object[] {1}, counters);
            table.delete(transaction, new Object[] {2}, counters);
            transaction.commit();
        }
        try (Transaction transaction = database.begin()) {
            table.delete(transaction, new Object[] {3}, counters);
            transaction.rollback();
        }
        assertEquals(998, tables.table(database.bufferPool(), "counted", counters).definition().rowCount());
    }
}
