package dev.columba.storage.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.btree.Cursor;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.btree.ScanRange;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.Transaction;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CREATE INDEX sorts the entries and builds the index bottom up: the index equals, entry for
 * entry, the one inserts keep in step when the index exists before the rows (clustered and heap
 * tables, duplicates and NULLs in the key); a unique index refuses two equal non-NULL keys and
 * accepts NULLs more than once.
 */
class IndexBuildTest {
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

    private static TableSchema schema() {
        return TableSchema.of(Column.notNull("id", SqlType.INT), Column.nullable("grp", SqlType.varchar(30)),
                Column.nullable("n", SqlType.INT));
    }

    private static List<Object[]> rows(int count, boolean uniqueN) {
        Random random = new Random(5);
        List<Object[]> rows = new ArrayList<>();
        for (int id = 0; id < count; id++) {
            String group = random.nextInt(10) == 0 ? null : "group " + random.nextInt(400);
            Integer n = random.nextInt(20) == 0 ? null : uniqueN ? (id * 7919) % 1_000_003 : random.nextInt(1000);
            rows.add(new Object[] {(id * 7) % count, group, n});
        }
        return rows;
    }

    private TableStore load(String name, boolean clustered, List<Object[]> rows, String indexBefore) {
        try (Transaction transaction = database.begin()) {
            TableStore table = tables.createTable(transaction, name, schema(), clustered ? List.of(0) : List.of(), true,
                    Map.of());
            if (indexBefore != null) {
                table = tables.createIndex(transaction, name, indexBefore, List.of(1, 2), false);
            }
            for (Object[] row : rows) {
                table.insert(transaction, row, counters);
            }
            transaction.commit();
            return table;
        }
    }

    private List<String> entries(IndexStore index) {
        List<String> entries = new ArrayList<>();
        try (Cursor cursor = index.tree().scan(database.bufferPool(), ScanRange.ALL, ReadAheadOptions.OFF, counters)) {
            while (cursor.next()) {
                entries.add(HexFormat.of().formatHex(cursor.key()));
            }
        }
        return entries;
    }

    /** Each entry of a heap's index as its key bytes and the id of the row its row id locates, sorted. */
    private List<String> heapEntries(TableStore table) {
        List<String> entries = new ArrayList<>();
        try (Cursor cursor = table.indexes().getFirst().tree().scan(database.bufferPool(), ScanRange.ALL,
                ReadAheadOptions.OFF, counters)) {
            while (cursor.next()) {
                byte[] entry = cursor.key();
                byte[] locator = java.util.Arrays.copyOfRange(entry, entry.length - 8, entry.length);
                Object[] row = table.fetch(database.bufferPool(), locator, counters);
                entries.add(HexFormat.of().formatHex(entry, 0, entry.length - 8) + "|" + row[0]);
            }
        }
        entries.sort(null);
        return entries;
    }

    @Test
    void aBuiltIndexEqualsTheIndexInsertsKeep() {
        List<Object[]> rows = rows(20_000, false);
        // Clustered: 20,000 distinct ids in scrambled order. A heap's locators are row ids, equal in
        // both tables because the rows go in the same order.
        for (boolean clustered : new boolean[] {true, false}) {
            String suffix = clustered ? "c" : "h";
            TableStore kept = load("kept_" + suffix, clustered, rows, "ix_kept_" + suffix);
            load("built_" + suffix, clustered, rows, null);
            TableStore built;
            try (Transaction transaction = database.begin()) {
                built = tables.createIndex(transaction, "built_" + suffix, "ix_built_" + suffix, List.of(1, 2), false);
                transaction.commit();
            }
            assertSameIndex(kept, built, clustered, rows.size());
            // The built index is kept in step by later inserts and deletes like any other.
            try (Transaction transaction = database.begin()) {
                built.insert(transaction, new Object[] {50_000, "group 7", 1}, counters);
                transaction.commit();
            }
            assertTrue(built.indexes().getFirst().lookup(database.bufferPool(), new Object[] {"group 7", 1}, counters)
                    .size() >= 1);
        }
    }

    @Test
    void aUniqueIndexBuildRefusesEqualKeysAndAcceptsNulls() {
        List<Object[]> rows = rows(5_000, true);
        load("u", true, rows, null);
        TableStore table;
        try (Transaction transaction = database.begin()) {
            table = tables.createIndex(transaction, "u", "ix_n", List.of(2), true);
            transaction.commit();
        }
        long nulls = rows.stream().filter(row -> row[2] == null).count();
        assertTrue(nulls > 1, "several NULL keys: " + nulls);
        assertEquals(rows.size(), entries(table.indexes().getFirst()).size());

        List<Object[]> duplicated = new ArrayList<>(rows);
        duplicated.add(new Object[] {90_000, "x", 1234});
        duplicated.add(new Object[] {90_001, "y", 1234});
        load("d", true, duplicated, null);
        try (Transaction transaction = database.begin()) {
            ColumbaException error = assertThrows(ColumbaException.class,
                    () -> tables.createIndex(transaction, "d", "ix_n2", List.of(2), true));
            assertEquals(ErrorCode.DUPLICATE_KEY, error.errorCode());
            assertTrue(error.getMessage().contains("[1234]") && error.getMessage().contains("ix_n2"), error.getMessage());
        }
    }

    /**
     * The first index of {@code built} holds what the first index of {@code kept} holds: the same
     * entries in the same order for clustered tables; for heaps, whose row ids differ between the
     * two tables (the index pages came first in one), the same index keys, each pointing at the row
     * with the same values.
     */
    private void assertSameIndex(TableStore kept, TableStore built, boolean clustered, int rows) {
        List<String> expected = clustered ? entries(kept.indexes().getFirst()) : heapEntries(kept);
        assertEquals(rows, expected.size());
        if (clustered) {
            assertEquals(expected, entries(built.indexes().getFirst()), "the same entries in the same order");
        } else {
            assertEquals(expected, heapEntries(built), "the same index keys and rows");
        }
    }

    /** Creates {@code name} with an empty index on (grp, n), or a unique one on n, and bulk loads {@code rows} into it. */
    private TableStore bulkLoad(String name, boolean clustered, List<Object[]> rows, boolean uniqueN) {
        try (Transaction transaction = database.begin()) {
            tables.createTable(transaction, name, schema(), clustered ? List.of(0) : List.of(), true, Map.of());
            TableStore table = tables.createIndex(transaction, name, "ix_" + name, uniqueN ? List.of(2) : List.of(1, 2),
                    uniqueN);
            try (TableStore.BulkInserter inserter = table.bulkInserter(transaction,
                    directory.resolve(dev.columba.storage.db.DatabaseLayout.TEMP_DIRECTORY), 128 << 10, counters)) {
                assertEquals(1, inserter.sortedIndexes(), "an empty index is built from sorted entries");
                for (Object[] row : rows) {
                    inserter.insert(transaction, row, counters);
                }
                assertTrue(inserter.sortRuns() > 1, "the entries did not fit the sort's memory: " + inserter.sortRuns());
                inserter.finish(transaction, counters);
            }
            transaction.commit();
            return table;
        }
    }

    @Test
    void aBulkLoadSortsIndexEntriesIntoTheIndexInsertsKeep() {
        List<Object[]> rows = rows(20_000, false);
        for (boolean clustered : new boolean[] {true, false}) {
            String suffix = clustered ? "c" : "h";
            TableStore kept = load("kept_" + suffix, clustered, rows, "ix_kept_" + suffix);
            TableStore built = bulkLoad("bulk_" + suffix, clustered, rows, false);
            assertSameIndex(kept, built, clustered, rows.size());
            try (Transaction transaction = database.begin()) {
                built.insert(transaction, new Object[] {50_000, "group 7", 1}, counters);
                transaction.commit();
            }
            assertEquals(1, built.indexes().getFirst().lookup(database.bufferPool(), new Object[] {"group 7", 1},
                    counters).stream().filter(locator -> ((Integer) built.fetch(database.bufferPool(), locator,
                    counters)[0]) == 50_000).count(), "the loaded index takes inserts");
        }
    }

    @Test
    void aBulkLoadedUniqueIndexRefusesEqualKeysAtTheEndAndAcceptsNulls() {
        List<Object[]> rows = rows(5_000, true);
        TableStore table = bulkLoad("bu", true, rows, true);
        assertEquals(rows.size(), entries(table.indexes().getFirst()).size());

        List<Object[]> duplicated = new ArrayList<>(rows);
        duplicated.add(new Object[] {90_000, "x", 1234});
        duplicated.add(2_000, new Object[] {90_001, "y", 1234});
        ColumbaException error = assertThrows(ColumbaException.class, () -> bulkLoad("bd", false, duplicated, true));
        assertEquals(ErrorCode.DUPLICATE_KEY, error.errorCode());
        assertTrue(error.getMessage().contains("[1234]") && error.getMessage().contains("ix_bd"), error.getMessage());
        assertTrue(tables.find(database.bufferPool(), "bd", counters).isEmpty(), "the failed load's transaction was"
                + " rolled back with the table");
    }
}
