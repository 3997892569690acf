package dev.columba.columnstore.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.encoding.ColumnPredicate;
import dev.columba.columnstore.file.RowgroupFile;
import dev.columba.columnstore.file.RowgroupMappings;
import dev.columba.columnstore.scan.ColumnFilter;
import dev.columba.columnstore.scan.ColumnstoreScan;
import dev.columba.columnstore.scan.RowgroupMorsels;
import dev.columba.columnstore.scan.ScanOptions;
import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.stats.IoStats;
import dev.columba.datagen.TestTableGenerator;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.Transaction;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Workers of a parallel scan claiming slices of rowgroups ({@link RowgroupMorsels#shared(int, int)}):
 * every live row exactly once — deleted rows left out, delta rowgroups read whole by one worker —
 * each rowgroup opened once for all its slices (its segments counted and verified once), a worker
 * that stops early leaving the rest to the others, a corrupt segment failing every worker that needs
 * its rowgroup, and nothing left mapped or allocated afterwards.
 *
 * <p>The table: 250,000 rows bulk-loaded into compressed rowgroups of 100,000, 100,000 and 50,000
 * rows, some rows of the first two deleted, then 1,500 rows inserted into delta rowgroups. Slices of
 * 7,000 rows: not a multiple of the batch size, and several per rowgroup.
 */
class SlicedParallelScanTest {
    private static final int ROWS = 250_000;
    private static final int DELTA_ROWS = 1_500;
    private static final int SLICE = 7_000;
    private static final int ID = 0;

    @TempDir
    Path directory;

    private Database database;
    private RootAllocator allocator;
    private ColumnstoreTable table;

    @BeforeEach
    void load() {
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", "32MB");
        database = Database.open(directory, settings, NativeFilesFacade.INSTANCE);
        allocator = new RootAllocator(1L << 30);
        TestTableGenerator generator = new TestTableGenerator(ROWS, 5);
        try (Transaction transaction = database.begin()) {
            table = ColumnstoreTable.create(database, transaction, "TestTable", generator.schema(),
                    Map.of("rowgroup_max_rows", "100000", "bulk_min_rows", "1000"));
            table.bulkInsert(transaction, generator.rows());
            transaction.commit();
        }
        List<RowgroupEntry> compressed = table.rowgroups(database.bufferPool(), new IoCounters());
        try (Transaction transaction = database.begin()) {
            // Deleted rows at a slice's start and end, inside one, and across the first two rowgroups.
            for (int position : new int[] {0, 1, 6_999, 7_000, 13_500, 99_999}) {
                assertTrue(table.delete(transaction, compressed.get(0).rowgroupId(), position));
            }
            for (int position = 50_000; position < 60_000; position += 3) {
                assertTrue(table.delete(transaction, compressed.get(1).rowgroupId(), position));
            }
            for (int row = 0; row < DELTA_ROWS; row++) {
                int id = ROWS + 1 + row;
                table.insert(transaction, new Object[] {id, Integer.toString(id), row % 2048, TestTableGenerator.NAME_VALUE,
                        25 + row % 10, (long) row});
            }
            transaction.commit();
        }
    }

    @AfterEach
    void close() {
        database.close();
        assertEquals(0, allocator.getAllocatedMemory(), "the scans released every buffer");
        allocator.close();
    }

    private record Read(List<Long> values, IoStats stats) {
    }

    /** The ids (or row locators) one serial scan returns, sorted. */
    private Read serial(ScanOptions options) {
        IoCounters counters = new IoCounters();
        List<Long> values = new ArrayList<>();
        try (ColumnstoreScan scan = new ColumnstoreScan(table, database.bufferPool(), options, counters, allocator)) {
            drain(scan, values, Integer.MAX_VALUE);
        }
        Collections.sort(values);
        return new Read(values, counters.snapshot());
    }

    /** The ids (or row locators) that {@code workers} scans on threads of their own return together, sorted. */
    private Read parallel(ScanOptions options, int workers) throws Exception {
        return parallel(options, workers, RowgroupMorsels.shared(workers, SLICE));
    }

    /** The ids that {@code workers} scans on threads of their own return together from {@code morsels}, sorted. */
    private Read parallel(ScanOptions options, int workers, RowgroupMorsels morsels) throws Exception {
        IoCounters counters = new IoCounters();
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        List<Long> values = new ArrayList<>();
        try {
            List<Future<List<Long>>> running = new ArrayList<>();
            for (int worker = 0; worker < workers; worker++) {
                running.add(pool.submit(() -> {
                    List<Long> own = new ArrayList<>();
                    try (ColumnstoreScan scan = new ColumnstoreScan(table, database.bufferPool(), options, counters,
                            allocator, morsels)) {
                        drain(scan, own, Integer.MAX_VALUE);
                    }
                    return own;
                }));
            }
            for (Future<List<Long>> future : running) {
                values.addAll(future.get());
            }
        } finally {
            pool.shutdown();
        }
        Collections.sort(values);
        return new Read(values, counters.snapshot());
    }

    /**
     * Adds the last column of up to {@code batches} batches (the row locator when the scan returns
     * one, else the first projected column: the id); the rows read.
     */
    private static long drain(ColumnstoreScan scan, List<Long> into, int batches) {
        long rows = 0;
        Batch batch;
        for (int taken = 0; taken < batches && (batch = scan.next()) != null; taken++) {
            boolean located = batch.column(batch.columnCount() - 1) instanceof BigIntVector;
            for (int index = 0; index < batch.selectedCount(); index++) {
                int row = batch.selectedRow(index);
                into.add(located ? ((BigIntVector) batch.column(batch.columnCount() - 1)).get(row)
                        : ((IntVector) batch.column(0)).get(row));
            }
            rows += batch.selectedCount();
        }
        return rows;
    }

    private List<String> mappedAfterClose() throws IOException {
        RowgroupMappings.of(database).releaseFiles();
        String folder = table.fileDirectory().toAbsolutePath().toString();
        return Files.readAllLines(Path.of("/proc/self/maps")).stream().filter(line -> line.contains(folder)).toList();
    }

    @Test
    void workersReadEveryLiveRowExactlyOnce() throws Exception {
        ScanOptions options = ScanOptions.all(6).withProjection(ID, 3);
        Read serial = serial(options);
        assertEquals(ROWS + DELTA_ROWS - 6 - 3_334, serial.values().size(), "live rows");
        for (int workers = 1; workers <= 4; workers++) {
            Read parallel = parallel(options, workers);
            assertEquals(serial.values(), parallel.values(), workers + " workers");
            assertEquals(serial.stats().segmentReads(), parallel.stats().segmentReads(),
                    workers + " workers: each rowgroup's segments read once for all its slices");
            assertEquals(serial.stats().lobLogicalReads(), parallel.stats().lobLogicalReads(), workers + " workers");
        }
        assertEquals(List.of(), mappedAfterClose(), "nothing stays mapped");
    }

    /**
     * Rowgroups whose last 20,500 rows are cut into slices of 1,000 (the tail starts on a multiple of
     * 1,000: 79,000 of the first two rowgroups, 29,000 of the third), the rest into slices of 7,000:
     * still every live row once, each rowgroup's segments read once.
     */
    @Test
    void finerSlicesAtEachRowgroupsTailReadEveryLiveRowExactlyOnce() throws Exception {
        ScanOptions options = ScanOptions.all(6).withProjection(ID, 3);
        Read serial = serial(options);
        for (int workers = 1; workers <= 4; workers++) {
            Read parallel = parallel(options, workers, RowgroupMorsels.shared(workers, SLICE, 1_000, 20_500));
            assertEquals(serial.values(), parallel.values(), workers + " workers");
            assertEquals(serial.stats().segmentReads(), parallel.stats().segmentReads(), workers + " workers");
        }
        assertThrows(IllegalArgumentException.class, () -> RowgroupMorsels.shared(2, SLICE, 3_000, 20_000),
                "tail slices that do not divide the slices");
        assertEquals(List.of(), mappedAfterClose(), "nothing stays mapped");
    }

    @Test
    void filtersEliminationAndRowLocatorsAnswerAsOneScan() throws Exception {
        ScanOptions filtered = ScanOptions.all(6).withProjection(ID)
                .withFilters(List.of(new ColumnFilter(ID, new ColumnPredicate.Comparison(ColumnPredicate.Operator.LESS, 120_000))));
        Read serialFiltered = serial(filtered);
        ScanOptions located = ScanOptions.all(6).withProjection(ID).withRowLocator(true);
        Read serialLocated = serial(located);
        for (int workers = 2; workers <= 3; workers++) {
            Read parallelFiltered = parallel(filtered, workers);
            assertEquals(serialFiltered.values(), parallelFiltered.values());
            assertEquals(serialFiltered.stats().segmentSkipped(), parallelFiltered.stats().segmentSkipped(),
                    "the third rowgroup eliminated once");
            assertTrue(parallelFiltered.stats().segmentSkipped() > 0);
            assertEquals(serialLocated.values(), parallel(located, workers).values());
        }
    }

    /**
     * Two scans on one thread taking turns, the first reading three batches a turn: each opens a
     * rowgroup of its own first (the second starts on the second rowgroup), and once every rowgroup is
     * open the first, done with its own, reads slices of the rowgroup the second opened; the segments
     * are counted as one scan counts them.
     */
    @Test
    void workersTakingTurnsShareOneOpeningOfEachRowgroup() {
        ScanOptions options = ScanOptions.all(6).withProjection(ID, 3);
        Read serial = serial(options);
        RowgroupMorsels morsels = RowgroupMorsels.shared(2, SLICE);
        IoCounters counters = new IoCounters();
        List<Long> first = new ArrayList<>();
        List<Long> second = new ArrayList<>();
        try (ColumnstoreScan one = new ColumnstoreScan(table, database.bufferPool(), options, counters, allocator, morsels);
             ColumnstoreScan other = new ColumnstoreScan(table, database.bufferPool(), options, counters, allocator, morsels)) {
            drain(one, first, 1);
            drain(other, second, 1);
            assertTrue(first.getFirst() <= SLICE, "the first worker opens the first rowgroup: id " + first.getFirst());
            assertTrue(second.getFirst() > 100_000 && second.getFirst() <= 100_000 + SLICE,
                    "the second worker opens the second rowgroup: id " + second.getFirst());
            assertEquals(4, counters.snapshot().segmentReads(), "two rowgroups' two segments, touched once each");
            long more = 1;
            while (more > 0) {
                more = drain(one, first, 3) + drain(other, second, 1);
            }
        }
        assertTrue(first.stream().anyMatch(id -> id > 100_000 + SLICE && id <= 200_000),
                "the first worker read slices of the rowgroup the second opened");
        List<Long> all = new ArrayList<>(first);
        all.addAll(second);
        Collections.sort(all);
        assertEquals(serial.values(), all);
        assertEquals(serial.stats().segmentReads(), counters.snapshot().segmentReads());
        assertEquals(serial.stats().lobLogicalReads(), counters.snapshot().lobLogicalReads());
    }

    /**
     * A worker that stops after its first batch (a limit above it satisfied, a cancellation) loses
     * the rest of its slice, as a worker of whole rowgroups lost the rest of its rowgroup; the other
     * reads every other slice. The stopped worker held the first rowgroup alone, so letting go of it
     * unmapped it, and the other worker opens it again for its remaining slices: read, counted and
     * verified again, since it happens again.
     */
    @Test
    void aWorkerThatStopsEarlyLeavesTheOtherSlicesToTheOthersAndNothingMapped() throws IOException {
        ScanOptions options = ScanOptions.all(6).withProjection(ID);
        Read serial = serial(options);
        RowgroupMorsels morsels = RowgroupMorsels.shared(2, SLICE);
        IoCounters counters = new IoCounters();
        List<Long> stopped = new ArrayList<>();
        List<Long> rest = new ArrayList<>();
        try (ColumnstoreScan other = new ColumnstoreScan(table, database.bufferPool(), options, counters, allocator, morsels)) {
            try (ColumnstoreScan early = new ColumnstoreScan(table, database.bufferPool(), options, counters, allocator,
                    morsels)) {
                drain(early, stopped, 1);
                drain(other, rest, 1);
            }
            drain(other, rest, Integer.MAX_VALUE);
        }
        List<Long> expected = serial.values().stream().filter(id -> id > SLICE).toList();
        assertEquals(expected, rest.stream().sorted().toList(), "every slice but the stopped worker's first");
        assertTrue(stopped.getLast() <= SLICE);
        assertEquals(serial.stats().segmentReads() + 1, counters.snapshot().segmentReads(),
                "the first rowgroup's segment read by its opener, and again when reopened");
        assertEquals(List.of(), mappedAfterClose());
    }

    /**
     * Rowgroup 1's segment of the projected column is corrupt: the worker that opens it fails with the
     * checksum error naming the file, and so does the other worker when, the rest of the table read,
     * it claims a slice of that rowgroup — neither decoding its unverified bytes.
     */
    @Test
    void aCorruptSegmentFailsEveryWorkerThatNeedsItsRowgroup() throws IOException {
        RowgroupEntry second = table.rowgroups(database.bufferPool(), new IoCounters()).get(1);
        Path path = table.rowgroupFile(second.rowgroupId());
        long offset;
        try (RowgroupFile file = RowgroupFile.open(NativeFilesFacade.INSTANCE, path)) {
            offset = file.segmentOffset(ID) + file.segmentLength(ID) / 2;
        }
        RowgroupMappings.of(database).releaseFiles();
        try (RandomAccessFile raw = new RandomAccessFile(path.toFile(), "rw")) {
            raw.seek(offset);
            int value = raw.read();
            raw.seek(offset);
            raw.write(value ^ 0x5a);
        }
        ScanOptions options = ScanOptions.all(6).withProjection(ID);
        RowgroupMorsels morsels = RowgroupMorsels.shared(2, SLICE);
        IoCounters counters = new IoCounters();
        try (ColumnstoreScan one = new ColumnstoreScan(table, database.bufferPool(), options, counters, allocator, morsels);
             ColumnstoreScan other = new ColumnstoreScan(table, database.bufferPool(), options, counters, allocator, morsels)) {
            List<Long> read = new ArrayList<>();
            ColumbaException first = assertThrows(ColumbaException.class, () -> drain(one, read, Integer.MAX_VALUE));
            assertEquals(ErrorCode.PAGE_CHECKSUM_MISMATCH, first.errorCode());
            assertTrue(first.getMessage().contains(path.toString()), first.getMessage());
            assertEquals(100_000 - 6, read.size(), "the first rowgroup, all of it, then the failure");
            ColumbaException again = assertThrows(ColumbaException.class, () -> drain(other, read, Integer.MAX_VALUE));
            assertEquals(ErrorCode.PAGE_CHECKSUM_MISMATCH, again.errorCode());
            assertEquals(100_000 - 6 + 50_000 + DELTA_ROWS, read.size(),
                    "the other worker read the third rowgroup and the delta rows, then failed on the corrupt one's slices");
            assertTrue(read.stream().noneMatch(id -> id > 100_000 && id <= 200_000), "nothing of the corrupt rowgroup decoded");
            assertEquals(3, counters.snapshot().segmentReads(), "each compressed rowgroup's segment touched once");
        }
        assertEquals(List.of(), mappedAfterClose(), "nothing stays mapped after the failed workers close");
    }
}
