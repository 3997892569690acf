package dev.columba.columnstore.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.build.TrimReason;
import dev.columba.columnstore.encoding.ColumnPredicate;
import dev.columba.columnstore.scan.ColumnFilter;
import dev.columba.columnstore.scan.ColumnstoreScan;
import dev.columba.columnstore.scan.ScanOptions;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.stats.IoStats;
import dev.columba.core.type.SqlType;
import dev.columba.datagen.TestTableGenerator;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.Transaction;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ColumnstoreTableTest {
    @TempDir
    Path directory;

    private Database database;
    private BufferAllocator allocator;
    private final IoCounters counters = new IoCounters();

    @BeforeEach
    void open() {
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", "32MB");
        database = Database.open(directory, settings, NativeFilesFacade.INSTANCE);
        allocator = new RootAllocator(1L << 30);
    }

    @AfterEach
    void close() {
        database.close();
        assertEquals(0, allocator.getAllocatedMemory(), "the scans released every buffer");
        allocator.close();
    }

    private ColumnstoreTable loadTestTable(int rows, Map<String, String> options) {
        TestTableGenerator generator = new TestTableGenerator(rows, 11);
        try (Transaction transaction = database.begin()) {
            ColumnstoreTable table = ColumnstoreTable.create(database, transaction, "TestTable", generator.schema(), options);
            assertEquals(rows, table.bulkInsert(transaction, generator.rows()));
            transaction.commit();
            return table;
        }
    }

    private List<Object[]> scan(ColumnstoreTable table, ScanOptions options, IoCounters scanCounters) {
        List<Object[]> rows = new ArrayList<>();
        try (ColumnstoreScan scan = new ColumnstoreScan(table, database.bufferPool(), options, scanCounters, allocator)) {
            Batch batch;
            while ((batch = scan.next()) != null) {
                for (int index = 0; index < batch.selectedCount(); index++) {
                    int row = batch.selectedRow(index);
                    Object[] values = new Object[batch.columnCount()];
                    for (int column = 0; column < values.length; column++) {
                        int tableColumn = column < options.projection().length ? options.projection()[column] : -1;
                        values[column] = tableColumn >= 0
                                ? VectorValues.get(batch.column(column), row, table.schema().column(tableColumn).type())
                                : ((org.apache.arrow.vector.BigIntVector) batch.column(column)).get(row);
                    }
                    rows.add(values);
                }
            }
        }
        return rows;
    }

    @Test
    void bulkInsertCompressesRowgroupsThatScanBackExactly() {
        ColumnstoreTable table = loadTestTable(250_000, Map.of("rowgroup_max_rows", "100000", "bulk_min_rows", "1000"));
        List<RowgroupEntry> rowgroups = table.rowgroups(database.bufferPool(), counters);
        assertEquals(List.of(100_000L, 100_000L, 50_000L), rowgroups.stream().map(RowgroupEntry::totalRows).toList());
        assertEquals(List.of(TrimReason.NO_TRIM, TrimReason.NO_TRIM, TrimReason.BULKLOAD),
                rowgroups.stream().map(RowgroupEntry::trimReason).toList());
        assertTrue(rowgroups.stream().allMatch(entry -> entry.state() == RowgroupState.COMPRESSED));

        List<Object[]> expected = new ArrayList<>();
        new TestTableGenerator(250_000, 11).rows().forEachRemaining(expected::add);
        List<Object[]> actual = scan(table, ScanOptions.all(6), new IoCounters());
        assertEquals(expected.size(), actual.size());
        for (int row = 0; row < expected.size(); row += 997) {
            assertArrayEquals(expected.get(row), actual.get(row), "row " + row);
        }
        assertEquals(250_000, database.catalog().byName(database.bufferPool(), "TestTable", counters)
                .map(entry -> ((dev.columba.storage.catalog.CatalogEntry.Table) entry).rowCount()).orElseThrow());
    }

    /**
     * A bulk insert on several threads (columns filled and encoded side by side) stores what one
     * thread stores: the same rowgroups, the same rows, the same dictionary fallbacks, under both
     * overflow policies (trim goes row by row).
     */
    @Test
    void bulkInsertOnSeveralThreadsStoresWhatOneThreadStores() {
        for (String overflow : List.of("fallback", "trim")) {
            Map<String, String> options = Map.of("rowgroup_max_rows", "40000", "bulk_min_rows", "1000",
                    "dictionary_cap", "64KB", "dictionary_overflow", overflow);
            List<List<Object>> shapes = new ArrayList<>();
            List<List<Object[]>> contents = new ArrayList<>();
            for (int threads : new int[] {1, 3}) {
                TestTableGenerator generator = new TestTableGenerator(100_000, 11);
                ColumnstoreTable table;
                try (Transaction transaction = database.begin()) {
                    table = ColumnstoreTable.create(database, transaction, "t_" + overflow + "_" + threads,
                            generator.schema(), options);
                    assertEquals(100_000, table.bulkInsert(transaction, generator.rows(), threads));
                    transaction.commit();
                }
                List<RowgroupEntry> rowgroups = table.rowgroups(database.bufferPool(), counters);
                shapes.add(List.of(rowgroups.stream().map(RowgroupEntry::totalRows).toList(),
                        rowgroups.stream().map(RowgroupEntry::trimReason).toList()));
                contents.add(scan(table, ScanOptions.all(6), new IoCounters()));
            }
            assertEquals(shapes.get(0), shapes.get(1), overflow);
            List<Object[]> expected = new ArrayList<>();
            new TestTableGenerator(100_000, 11).rows().forEachRemaining(expected::add);
            for (List<Object[]> actual : contents) {
                assertEquals(expected.size(), actual.size(), overflow);
                for (int row = 0; row < expected.size(); row++) {
                    assertArrayEquals(expected.get(row), actual.get(row), overflow + ", row " + row);
                }
            }
        }
    }

    @Test
    void filtersEliminateRowgroupsAndSelectOnEncodedData() {
        ColumnstoreTable table = loadTestTable(250_000, Map.of("rowgroup_max_rows", "100000", "bulk_min_rows", "1000"));
        IoCounters scanCounters = new IoCounters();
        List<Object[]> rows = scan(table, ScanOptions.all(6).withProjection(0, 3)
                .withFilters(List.of(new ColumnFilter(0, new ColumnPredicate.Comparison(ColumnPredicate.Operator.LESS, 300)))),
                scanCounters);
        assertEquals(299, rows.size());
        assertEquals(1, rows.get(0)[0]);
        assertEquals("Some Random Data..", rows.get(0)[1]);
        IoStats stats = scanCounters.snapshot();
        assertEquals(2 * 2, stats.segmentSkipped(), "two rowgroups eliminated, two segments each");
        assertEquals(2, stats.segmentReads(), "the surviving rowgroup's two segments were read");
    }

    /**
     * A conjunction of ranges on packed columns without NULLs (the ids, 17 bits a value in a rowgroup
     * of 100,000, and the ages, 4 bits) is ANDed as bitmaps a word at a time: the scan returns
     * exactly the rows the generator's values pass, in order, with batches of a size that is not a
     * multiple of 64.
     */
    @Test
    void rangeConjunctionsOnPackedColumnsSelectExactlyTheMatchingRows() {
        ColumnstoreTable table = loadTestTable(250_000, Map.of("rowgroup_max_rows", "100000", "bulk_min_rows", "1000"));
        List<Object[]> generated = new ArrayList<>();
        new TestTableGenerator(250_000, 11).rows().forEachRemaining(generated::add);
        List<ColumnFilter> filters = List.of(
                new ColumnFilter(0, new ColumnPredicate.Comparison(ColumnPredicate.Operator.GREATER_OR_EQUAL, 1_500)),
                new ColumnFilter(0, new ColumnPredicate.Comparison(ColumnPredicate.Operator.LESS, 230_001)),
                new ColumnFilter(4, new ColumnPredicate.Comparison(ColumnPredicate.Operator.GREATER, 27)),
                new ColumnFilter(4, new ColumnPredicate.Comparison(ColumnPredicate.Operator.LESS_OR_EQUAL, 30)));
        List<Object[]> rows = scan(table, ScanOptions.all(6).withProjection(0, 4).withBatchSize(1000).withFilters(filters),
                new IoCounters());
        List<Object[]> expected = generated.stream()
                .filter(row -> (Integer) row[0] >= 1_500 && (Integer) row[0] < 230_001 && (Integer) row[4] > 27 && (Integer) row[4] <= 30)
                .map(row -> new Object[] {row[0], row[4]})
                .toList();
        assertTrue(expected.size() > 50_000 && expected.size() < 150_000, "the filters keep a part of the rows: " + expected.size());
        assertEquals(expected.size(), rows.size());
        for (int row = 0; row < expected.size(); row++) {
            assertArrayEquals(expected.get(row), rows.get(row), "row " + row);
        }
    }

    /**
     * Bitmap filters tested inside the scan: over compressed rowgroups (with a pushed-down filter
     * and deleted rows) and a delta rowgroup, the scan returns exactly the rows whose key the
     * filters hold, every column decoded right at those rows (densely and sparsely: one filter
     * keeps half the ids, both together a fourteenth); an unpublished filter passes everything.
     */
    @Test
    void bitmapFiltersTestedInTheScanKeepExactlyTheRowsWhoseKeysTheyHold() {
        ColumnstoreTable table = loadTestTable(250_000, Map.of("rowgroup_max_rows", "100000", "bulk_min_rows", "1000"));
        List<Object[]> generated = new ArrayList<>();
        new TestTableGenerator(250_000, 11).rows().forEachRemaining(generated::add);
        List<Object[]> located = scan(table, ScanOptions.all(6).withProjection(0).withRowLocator(true)
                .withFilters(List.of(new ColumnFilter(0, new ColumnPredicate.In(List.of(7, 350, 140_000))))), new IoCounters());
        try (Transaction transaction = database.begin()) {
            for (Object[] row : located) {
                long locator = (Long) row[1];
                assertTrue(table.delete(transaction, (int) (locator >>> 32), (int) locator));
            }
            for (int id = 300_001; id <= 300_070; id++) {
                Object[] row = generated.get(id % 1000).clone();
                row[0] = id;
                generated.add(row);
                table.insert(transaction, row);
            }
            transaction.commit();
        }
        java.util.function.IntPredicate sevenths = id -> id % 7 == 0;
        java.util.function.IntPredicate halves = id -> id % 2 == 0 || id > 300_000;
        dev.columba.core.exec.RuntimeFilter keepSevenths = published(300_070, sevenths);
        dev.columba.core.exec.RuntimeFilter keepHalves = published(300_070, halves);
        ScanOptions options = ScanOptions.all(6).withProjection(5, 0, 3)
                .withFilters(List.of(new ColumnFilter(0, new ColumnPredicate.Comparison(ColumnPredicate.Operator.GREATER, 1000))));
        for (List<dev.columba.core.exec.RuntimeFilter> filters : List.of(List.of(keepHalves),
                List.of(keepSevenths, keepHalves), List.of(new dev.columba.core.exec.RuntimeFilter("unpublished")))) {
            List<dev.columba.core.exec.RuntimeFilterProbe> probes = filters.stream()
                    .map(filter -> new dev.columba.core.exec.RuntimeFilterProbe(filter, 1, SqlType.INT)).toList();
            List<Object[]> rows = new ArrayList<>();
            try (ColumnstoreScan scan = new ColumnstoreScan(table, database.bufferPool(), options, new IoCounters(), allocator)) {
                probes.forEach(scan::testAgainst);
                Batch batch;
                while ((batch = scan.next()) != null) {
                    for (int index = 0; index < batch.selectedCount(); index++) {
                        int row = batch.selectedRow(index);
                        rows.add(new Object[] {VectorValues.get(batch.column(0), row, SqlType.BIGINT),
                                VectorValues.get(batch.column(1), row, SqlType.INT),
                                VectorValues.get(batch.column(2), row, SqlType.varchar(50))});
                    }
                }
            }
            List<Object[]> expected = new ArrayList<>();
            for (Object[] row : generated) {
                int id = (Integer) row[0];
                boolean kept = id > 1000 && id != 7 && id != 350 && id != 140_000
                        && (!filters.contains(keepSevenths) || sevenths.test(id))
                        && (!filters.contains(keepHalves) || halves.test(id));
                if (kept) {
                    expected.add(new Object[] {row[5], row[0], row[3]});
                }
            }
            assertEquals(expected.size(), rows.size(), filters.size() + " filters");
            for (int row = 0; row < expected.size(); row++) {
                assertArrayEquals(expected.get(row), rows.get(row), "row " + row);
            }
            long[] counts = probes.getFirst().rowsInAndOut();
            assertTrue(counts[1] <= counts[0], "a filter never adds rows");
        }
    }

    /**
     * A predicate and two bitmap filters run in the order the scan adapts by timing them: with
     * batches of 700 rows the scan tries other orders many times over (a trial swaps one pair
     * every other phase whatever the timings), and every batch returns exactly the rows that pass
     * all three, in order, whichever order it ran them in.
     */
    @Test
    void filtersInAnAdaptedOrderKeepExactlyTheRowsThatPassThemAll() {
        ColumnstoreTable table = loadTestTable(250_000, Map.of("rowgroup_max_rows", "100000", "bulk_min_rows", "1000"));
        List<Object[]> generated = new ArrayList<>();
        new TestTableGenerator(250_000, 11).rows().forEachRemaining(generated::add);
        java.util.function.IntPredicate thirds = id -> id % 3 == 0;
        java.util.function.IntPredicate fifths = id -> id % 5 != 0;
        List<dev.columba.core.exec.RuntimeFilterProbe> probes = List.of(
                new dev.columba.core.exec.RuntimeFilterProbe(published(250_000, thirds), 1, SqlType.INT),
                new dev.columba.core.exec.RuntimeFilterProbe(published(250_000, fifths), 1, SqlType.INT));
        ScanOptions options = ScanOptions.all(6).withProjection(5, 0, 4).withBatchSize(700)
                .withFilters(List.of(new ColumnFilter(4, new ColumnPredicate.Comparison(ColumnPredicate.Operator.GREATER, 25))));
        List<Object[]> rows = new ArrayList<>();
        try (ColumnstoreScan scan = new ColumnstoreScan(table, database.bufferPool(), options, new IoCounters(), allocator)) {
            probes.forEach(scan::testAgainst);
            Batch batch;
            while ((batch = scan.next()) != null) {
                for (int index = 0; index < batch.selectedCount(); index++) {
                    int row = batch.selectedRow(index);
                    rows.add(new Object[] {VectorValues.get(batch.column(0), row, SqlType.BIGINT),
                            VectorValues.get(batch.column(1), row, SqlType.INT),
                            VectorValues.get(batch.column(2), row, SqlType.INT)});
                }
            }
        }
        List<Object[]> expected = generated.stream()
                .filter(row -> (Integer) row[4] > 25 && thirds.test((Integer) row[0]) && fifths.test((Integer) row[0]))
                .map(row -> new Object[] {row[5], row[0], row[4]})
                .toList();
        assertTrue(expected.size() > 1_000 && expected.size() < 100_000, "the filters keep a part of the rows: " + expected.size());
        assertEquals(expected.size(), rows.size());
        for (int row = 0; row < expected.size(); row++) {
            assertArrayEquals(expected.get(row), rows.get(row), "row " + row);
        }
    }

    /** A bitmap filter holding the ids in {@code [1, upTo]} that {@code keep} accepts. */
    private dev.columba.core.exec.RuntimeFilter published(int upTo, java.util.function.IntPredicate keep) {
        dev.columba.core.exec.RuntimeFilter filter = new dev.columba.core.exec.RuntimeFilter("test");
        try (org.apache.arrow.vector.IntVector keys = new org.apache.arrow.vector.IntVector("k", allocator)) {
            keys.allocateNew(upTo);
            int count = 0;
            for (int id = 1; id <= upTo; id++) {
                if (keep.test(id)) {
                    keys.set(count++, id);
                }
            }
            keys.setValueCount(count);
            filter.publish(keys, count, false);
        }
        assertTrue(filter.active());
        return filter;
    }

    @Test
    void trickleInsertsDeletesAndTheTupleMoverKeepEveryCommittedRowExactlyOnce() {
        TestTableGenerator generator = new TestTableGenerator(3000, 5);
        ColumnstoreTable table;
        try (Transaction transaction = database.begin()) {
            table = ColumnstoreTable.create(database, transaction, "t", generator.schema(),
                    Map.of("rowgroup_max_rows", "1000", "bulk_min_rows", "100000"));
            assertEquals(3000, table.bulkInsert(transaction, generator.rows()), "below bulk_min_rows: delta store");
            transaction.commit();
        }
        List<RowgroupEntry> deltas = table.rowgroups(database.bufferPool(), counters);
        assertEquals(List.of(RowgroupState.CLOSED, RowgroupState.CLOSED, RowgroupState.CLOSED),
                deltas.stream().map(RowgroupEntry::state).toList());
        List<Object[]> before = scan(table, ScanOptions.all(6), new IoCounters());
        try (Transaction transaction = database.begin()) {
            table.compressDelta(transaction, deltas.get(1).rowgroupId(), TrimReason.NO_TRIM);
            transaction.commit();
        }
        List<Object[]> after = scan(table, ScanOptions.all(6), new IoCounters());
        assertEquals(before.size(), after.size());
        assertEquals(sumOfIds(before), sumOfIds(after));
        List<RowgroupEntry> mixed = table.rowgroups(database.bufferPool(), counters);
        assertEquals(3, mixed.size());
        RowgroupEntry compressed = mixed.stream().filter(entry -> entry.state() == RowgroupState.COMPRESSED).findFirst()
                .orElseThrow();
        // Delete three rows of the compressed rowgroup and one of a delta, found through the scan's locators.
        List<Object[]> located = scan(table, ScanOptions.all(6).withProjection(0).withRowLocator(true)
                .withFilters(List.of(new ColumnFilter(0, new ColumnPredicate.In(List.of(1500, 1501, 1502, 10))))),
                new IoCounters());
        assertEquals(4, located.size());
        try (Transaction transaction = database.begin()) {
            for (Object[] row : located) {
                long locator = (Long) row[1];
                assertTrue(table.delete(transaction, (int) (locator >>> 32), (int) locator));
            }
            transaction.commit();
        }
        List<Object[]> remaining = scan(table, ScanOptions.all(6).withProjection(0), new IoCounters());
        assertEquals(2996, remaining.size());
        assertEquals(sumOfIds(before) - 1500 - 1501 - 1502 - 10, sumOfIds(remaining));
        assertEquals(3, table.rowgroup(database.bufferPool(), compressed.rowgroupId(), counters).orElseThrow().deletedRows());
        RowgroupEntry firstDelta = table.rowgroup(database.bufferPool(), deltas.get(0).rowgroupId(), counters).orElseThrow();
        assertEquals(1000, firstDelta.totalRows(), "a delta's total is its next position: a delete never lowers it");
        assertEquals(1, firstDelta.deletedRows(), "so the delete from the delta is counted: total - deleted rows are live");
    }

    private static final List<String> REGIONS = List.of("north", "east", "south", "west", "centre");

    /** 2,000 rows of (id, region) in two compressed rowgroups sharing the regions' primary dictionary. */
    private ColumnstoreTable regionsTable() {
        TableSchema schema = TableSchema.of(Column.notNull("id", SqlType.INT), Column.nullable("region", SqlType.varchar(20)));
        try (Transaction transaction = database.begin()) {
            ColumnstoreTable table = ColumnstoreTable.create(database, transaction, "sales", schema,
                    Map.of("rowgroup_max_rows", "1000", "bulk_min_rows", "100"));
            table.bulkInsert(transaction, java.util.stream.IntStream.range(0, 2000)
                    .mapToObj(id -> new Object[] {id, REGIONS.get(id % REGIONS.size())}).iterator());
            transaction.commit();
            return table;
        }
    }

    @Test
    void damagedPrimaryDictionaryFileFailsTheScanNamingTheFile() throws java.io.IOException {
        ColumnstoreTable table = regionsTable();
        Path file = table.primaryDictionaries().file(1);
        assertEquals(2000, scan(table, ScanOptions.all(2), new IoCounters()).size());

        java.nio.file.Files.write(file, flipLastByte(java.nio.file.Files.readAllBytes(file)));
        ColumbaException error = assertThrows(ColumbaException.class, () -> scan(table, ScanOptions.all(2), new IoCounters()));
        assertEquals(ErrorCode.PAGE_CHECKSUM_MISMATCH, error.errorCode(), error.getMessage());
        assertTrue(error.getMessage().startsWith("[PAGE_CHECKSUM_MISMATCH] dictionary file " + file
                + " (offset 12) has a corrupt dictionary: checksum 0x"), error.getMessage());
    }

    @Test
    void laterScansReuseAPrimaryDictionaryWhileItsFileHoldsTheSameBytes() throws java.io.IOException {
        ColumnstoreTable table = regionsTable();
        IoCounters first = new IoCounters();
        IoCounters second = new IoCounters();
        List<Object[]> before = scan(table, ScanOptions.all(2), first);
        assertEquals(2000, before.size());
        assertEquals("east", before.get(1)[1]);
        assertEquals(before.size(), scan(table, ScanOptions.all(2), second).size());
        assertEquals(first.snapshot().lobLogicalReads(), second.snapshot().lobLogicalReads(),
                "a reused dictionary's pages are still read and counted");
        // Each call makes a new PrimaryDictionaries, as each statement's table does: the same object comes back.
        dev.columba.columnstore.dictionary.Dictionary known = table.primaryDictionaries().get(1);
        org.junit.jupiter.api.Assertions.assertSame(known, table.primaryDictionaries().get(1));

        // Another valid dictionary in the file (the same order, so the segments' ids still fit): read afresh.
        dev.columba.columnstore.dictionary.DictionaryBuilder upper = dev.columba.columnstore.dictionary.DictionaryBuilder
                .primary(SqlType.varchar(20), dev.columba.columnstore.dictionary.DictionaryBuilder.DEFAULT_CAP_BYTES);
        REGIONS.forEach(region -> upper.tryAdd(region.toUpperCase(java.util.Locale.ROOT)));
        Path file = table.primaryDictionaries().file(1);
        dev.columba.columnstore.file.DictionaryFile.write(NativeFilesFacade.INSTANCE, file, upper.freeze(0).bytes());
        List<Object[]> after = scan(table, ScanOptions.all(2), new IoCounters());
        assertEquals("EAST", after.get(1)[1]);
        assertEquals("CENTRE", after.get(4)[1]);
        org.junit.jupiter.api.Assertions.assertNotSame(known, table.primaryDictionaries().get(1));
    }

    @Test
    void aSegmentDamagedAfterScansCheckedItFailsItsChecksum() throws java.io.IOException {
        ColumnstoreTable table = loadTestTable(3000, Map.of("rowgroup_max_rows", "1000", "bulk_min_rows", "100"));
        assertEquals(3000, scan(table, ScanOptions.all(6), new IoCounters()).size());
        assertEquals(3000, scan(table, ScanOptions.all(6), new IoCounters()).size());
        RowgroupEntry first = table.rowgroups(database.bufferPool(), counters).get(0);
        Path path = table.rowgroupFile(first.rowgroupId());
        long offset;
        try (dev.columba.columnstore.file.RowgroupFile file = dev.columba.columnstore.file.RowgroupFile.open(
                NativeFilesFacade.INSTANCE, path)) {
            offset = file.segmentOffset(0) + file.segmentLength(0) / 2;
        }
        byte[] bytes = java.nio.file.Files.readAllBytes(path);
        bytes[(int) offset] ^= (byte) 0x10;
        java.nio.file.Files.write(path, bytes);
        ColumbaException error = assertThrows(ColumbaException.class, () -> scan(table, ScanOptions.all(6), new IoCounters()));
        assertEquals(ErrorCode.PAGE_CHECKSUM_MISMATCH, error.errorCode(), error.getMessage());
        assertTrue(error.getMessage().contains(path.toString()) && error.getMessage().contains("segment for column 0"),
                error.getMessage());
    }

    private static byte[] flipLastByte(byte[] bytes) {
        bytes[bytes.length - 1] ^= (byte) 0xFF;
        return bytes;
    }

    private static long sumOfIds(List<Object[]> rows) {
        long sum = 0;
        for (Object[] row : rows) {
            sum += (Integer) row[0];
        }
        return sum;
    }

    /**
     * A REORGANIZE of two merge groups that does not commit (a crash, here a rollback) leaves every
     * file the committed rowgroups need: the second group's writer cleaned up the first group's
     * files as soon as the transaction had dropped their entries, and the committed rowgroup could
     * no longer be read (the kill -9 campaign, seed 20261129, kill 19).
     */
    @Test
    void aReorganizeThatDoesNotCommitLeavesTheFilesOfTheCommittedRowgroups() {
        ColumnstoreTable table = loadTestTable(250_000, Map.of("rowgroup_max_rows", "100000", "bulk_min_rows", "1000"));
        List<RowgroupEntry> before = table.rowgroups(database.bufferPool(), counters);
        try (Transaction transaction = database.begin()) {
            for (int rowgroup = 0; rowgroup < 2; rowgroup++) {
                int rowgroupId = before.get(rowgroup).rowgroupId();
                for (int position = 0; position < 100_000; position += 5) {
                    assertTrue(table.delete(transaction, rowgroupId, position));
                }
            }
            transaction.commit();
        }
        long liveSum = sumOfIds(scan(table, ScanOptions.all(6).withProjection(0), new IoCounters()));
        try (Transaction transaction = database.begin()) {
            ColumnstoreTable.Maintenance reorganized = table.reorganize(transaction, false);
            assertEquals(2, reorganized.rowgroupsMerged(), "two groups, each rewritten by its own writer");
            transaction.rollback();
        }
        assertEquals(liveSum, sumOfIds(scan(table, ScanOptions.all(6).withProjection(0), new IoCounters())),
                "every committed rowgroup is read whole");
    }

    @Test
    void reorganizeRewritesRowgroupsWithDeletesAndRebuildMakesThemFull() throws java.io.IOException {
        ColumnstoreTable table = loadTestTable(250_000, Map.of("rowgroup_max_rows", "100000", "bulk_min_rows", "1000"));
        int first = table.rowgroups(database.bufferPool(), counters).get(0).rowgroupId();
        try (Transaction transaction = database.begin()) {
            for (int position = 0; position < 100_000; position += 5) {
                assertTrue(table.delete(transaction, first, position));
            }
            transaction.commit();
        }
        long liveSum = 0;
        for (Object[] row : scan(table, ScanOptions.all(6).withProjection(0), new IoCounters())) {
            liveSum += (Integer) row[0];
        }
        ColumnstoreTable.Maintenance reorganized;
        try (Transaction transaction = database.begin()) {
            reorganized = table.reorganize(transaction, false);
            transaction.commit();
        }
        assertEquals(1, reorganized.rowgroupsMerged(), "only the rowgroup with 20% deleted is rewritten");
        assertEquals(80_000, reorganized.rowsRewritten());
        List<RowgroupEntry> after = table.rowgroups(database.bufferPool(), counters);
        assertEquals(List.of(100_000L, 50_000L, 80_000L), after.stream().map(RowgroupEntry::totalRows).toList());
        assertEquals(TrimReason.REORG, after.get(2).trimReason());
        assertTrue(after.stream().allMatch(entry -> entry.deletedRows() == 0));
        assertEquals(liveSum, sumOfIds(scan(table, ScanOptions.all(6).withProjection(0), new IoCounters())));

        try (Transaction transaction = database.begin()) {
            table.rebuild(transaction);
            transaction.commit();
        }
        List<RowgroupEntry> rebuilt = table.rowgroups(database.bufferPool(), counters);
        assertEquals(List.of(100_000L, 100_000L, 30_000L), rebuilt.stream().map(RowgroupEntry::totalRows).toList());
        assertEquals(TrimReason.RESIDUAL_ROW_GROUP, rebuilt.get(2).trimReason());
        assertEquals(liveSum, sumOfIds(scan(table, ScanOptions.all(6).withProjection(0), new IoCounters())));
        try (Transaction transaction = database.begin()) {
            table.removeOrphanFiles(transaction.writes(), transaction.systemCounters());
            transaction.rollback();
        }
        try (var files = java.nio.file.Files.list(table.fileDirectory())) {
            assertEquals(3, files.filter(path -> path.toString().endsWith(".crg")).count(),
                    "the replaced rowgroups' files are gone after the next write");
        }
    }
}
