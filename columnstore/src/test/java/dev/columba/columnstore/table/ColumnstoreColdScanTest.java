package dev.columba.columnstore.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.scan.ColumnstoreScan;
import dev.columba.columnstore.scan.RowgroupMorsels;
import dev.columba.columnstore.scan.ScanOptions;
import dev.columba.core.batch.Batch;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.stats.IoStats;
import dev.columba.core.type.SqlType;
import dev.columba.datagen.CommentsGenerator;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.io.ProcSelfIo;
import dev.columba.storage.txn.Transaction;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Cold columnstore scans checked against the operating system: the comments table with Text
 * (over 256 MB of segments) read with read-ahead — requests of up to 8 MB, none past the end of a
 * rowgroup, the default window crossing into the next rowgroup — and the lob counters agreeing with
 * {@code /proc/self/io} read_bytes within 5%; and
 * with read-ahead off, no WILLNEED issued, every page a physical read (a page fault).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ColumnstoreColdScanTest {
    private static final long ROWS = 1_800_000;

    @TempDir
    static Path directory;

    private Database database;
    private ColumnstoreTable table;
    private RootAllocator allocator;

    @BeforeAll
    void load() {
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", "32MB");
        database = Database.open(directory, settings, NativeFilesFacade.INSTANCE);
        allocator = new RootAllocator(1L << 30);
        CommentsGenerator generator = CommentsGenerator.withText(ROWS, 3);
        try (Transaction transaction = database.begin()) {
            table = ColumnstoreTable.create(database, transaction, "Comments", generator.schema(), Map.of());
            table.bulkInsert(transaction, generator.rows());
            transaction.commit();
        }
    }

    @AfterAll
    void close() {
        database.close();
        allocator.close();
    }

    private record Run(IoStats stats, long rows, long readBytes, long largestRequest, long requests,
                       long requestsAhead) {
    }

    private Run coldScan(ScanOptions options) {
        database.dropCleanBuffers();
        IoCounters counters = new IoCounters();
        ProcSelfIo before = ProcSelfIo.read();
        long rows = 0;
        long largest;
        long requests;
        long requestsAhead;
        try (ColumnstoreScan scan = new ColumnstoreScan(table, database.bufferPool(), options, counters, allocator)) {
            Batch batch;
            while ((batch = scan.next()) != null) {
                rows += batch.selectedCount();
            }
            largest = scan.largestReadAheadBytes();
            requests = scan.readAheadRequests();
            requestsAhead = scan.readAheadRequestsAhead();
        }
        return new Run(counters.snapshot(), rows, ProcSelfIo.read().minus(before).readBytes(), largest, requests,
                requestsAhead);
    }

    @Test
    void readAheadIsBoundedByRowgroupsAndCountersAgreeWithTheOperatingSystem() {
        List<RowgroupEntry> rowgroups = table.rowgroups(database.bufferPool(), new IoCounters());
        long largestRowgroup = rowgroups.stream().mapToLong(RowgroupEntry::sizeBytes).max().orElseThrow();
        Run run = coldScan(ScanOptions.all(table.schema().size()));
        IoStats stats = run.stats();
        assertEquals(ROWS, run.rows());
        assertTrue(run.readBytes() >= 256L << 20, "the scan read " + run.readBytes() + " bytes");
        assertTrue(stats.lobReadAheadReads() > 0);
        assertEquals(8L << 20, run.largestRequest(), "large rowgroups allow full 8 MB requests");
        assertTrue(run.largestRequest() <= largestRowgroup);
        long counted = (stats.physicalReads() + stats.readAheadReads() + stats.lobPhysicalReads()
                + stats.lobReadAheadReads()) * 8192;
        assertEquals(1.0, (double) counted / run.readBytes(), 0.05, "counted " + counted + " bytes, /proc/self/io "
                + run.readBytes() + ": " + stats);
        assertEquals(stats.lobReadAheadReads(), stats.readAheadUsed(), "every page read ahead was used");
        assertTrue(rowgroups.size() > 1 && run.requestsAhead() > 0, "the default window read the second rowgroup "
                + "ahead while the first was read: " + run.requestsAhead() + " of " + run.requests() + " requests");
        System.out.printf("cold scan with read-ahead: %d rowgroups, %d requests (%d of them ahead), largest %d bytes, "
                + "counted %d bytes, read_bytes %d%n", rowgroups.size(), run.requests(), run.requestsAhead(),
                run.largestRequest(), counted, run.readBytes());
    }

    /**
     * Workers of a parallel plan dividing the rowgroups into slices (morsels) read each rowgroup
     * once: the rows add up, the segments read equal a serial scan's, and the counters they share
     * agree with {@code /proc/self/io} read_bytes within 5%, as a serial scan's do — at two workers
     * (MAXDOP 2) and three.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void parallelWorkersReadEachRowgroupOnceAndCountersAgreeWithTheOperatingSystem(int workers) throws Exception {
        Run serial = coldScan(ScanOptions.all(table.schema().size()));
        database.dropCleanBuffers();
        IoCounters counters = new IoCounters();
        RowgroupMorsels morsels = RowgroupMorsels.shared(workers);
        java.util.concurrent.atomic.AtomicLong rows = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(workers);
        List<Long> rowsByWorker = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        ProcSelfIo before = ProcSelfIo.read();
        try {
            List<java.util.concurrent.Future<?>> running = new java.util.ArrayList<>();
            for (int worker = 0; worker < workers; worker++) {
                running.add(pool.submit(() -> {
                    long own = 0;
                    try (ColumnstoreScan scan = new ColumnstoreScan(table, database.bufferPool(),
                            ScanOptions.all(table.schema().size()), counters, allocator, morsels)) {
                        Batch batch;
                        while ((batch = scan.next()) != null) {
                            own += batch.selectedCount();
                        }
                    }
                    rows.addAndGet(own);
                    rowsByWorker.add(own);
                }));
            }
            for (java.util.concurrent.Future<?> future : running) {
                future.get();
            }
        } finally {
            pool.shutdown();
        }
        long readBytes = ProcSelfIo.read().minus(before).readBytes();
        IoStats stats = counters.snapshot();
        assertEquals(ROWS, rows.get());
        assertEquals(serial.stats().segmentReads(), stats.segmentReads(), "each segment read by one worker");
        assertEquals(serial.stats().lobLogicalReads(), stats.lobLogicalReads(), "each segment counted once");
        long counted = stats.pagesFromStorage() * 8192;
        assertEquals(1.0, (double) counted / readBytes, 0.05, "counted " + counted + " bytes, /proc/self/io "
                + readBytes + ": " + stats);
        assertEquals(1.0, (double) readBytes / serial.readBytes(), 0.05, "the workers read what one scan reads: "
                + readBytes + " against " + serial.readBytes() + " bytes");
        assertEquals(stats.lobReadAheadReads(), stats.readAheadUsed() + stats.readAheadWasted(),
                "read-ahead used + wasted = read-ahead reads: " + stats);
        System.out.printf("%d workers: rows by worker %s, %s%n", workers, rowsByWorker, stats);
    }

    /**
     * Two workers over this table's two rowgroups divide them by slices: taking turns from the
     * start, each opens one of the rowgroups, and the one whose rowgroup runs out first (the second,
     * 751,424 rows) then reads the rest of the other's slices, from the opening the other made.
     */
    @Test
    void workersDivideEachRowgroupBySlices() {
        List<RowgroupEntry> rowgroups = table.rowgroups(database.bufferPool(), new IoCounters());
        assertEquals(2, rowgroups.size(), "the table's rowgroups: " + rowgroups);
        RowgroupMorsels morsels = RowgroupMorsels.shared(2);
        IoCounters counters = new IoCounters();
        ScanOptions options = ScanOptions.all(table.schema().size()).withRowLocator(true);
        int locator = table.schema().size();
        java.util.Set<Long> firstRowgroups = new java.util.TreeSet<>();
        java.util.Set<Long> secondRowgroups = new java.util.TreeSet<>();
        long rows = 0;
        try (ColumnstoreScan first = new ColumnstoreScan(table, database.bufferPool(), options, counters, allocator, morsels);
             ColumnstoreScan second = new ColumnstoreScan(table, database.bufferPool(), options, counters, allocator, morsels)) {
            Batch firstBatch = first.next();
            Batch secondBatch = second.next();
            long secondStart = ((org.apache.arrow.vector.BigIntVector) secondBatch.column(locator)).get(0);
            assertEquals(rowgroups.get(1).rowgroupId(), (int) (secondStart >>> 32), "the second worker opens the second rowgroup");
            assertEquals(0, (int) secondStart);
            while (firstBatch != null || secondBatch != null) {
                if (firstBatch != null) {
                    rows += firstBatch.selectedCount();
                    firstRowgroups.add(((org.apache.arrow.vector.BigIntVector) firstBatch.column(locator)).get(0) >>> 32);
                    firstBatch = first.next();
                }
                if (secondBatch != null) {
                    rows += secondBatch.selectedCount();
                    secondRowgroups.add(((org.apache.arrow.vector.BigIntVector) secondBatch.column(locator)).get(0) >>> 32);
                    secondBatch = second.next();
                }
            }
        }
        assertEquals(ROWS, rows);
        assertEquals(1, firstRowgroups.size(), "the first worker read its own rowgroup only");
        assertEquals(2, secondRowgroups.size(), "the second worker read slices of both rowgroups");
        assertEquals(table.schema().size() * 2L, counters.snapshot().segmentReads(), "each segment touched once");
    }

    @Test
    void withoutReadAheadNothingIsAdvisedAndEveryPageIsAPhysicalRead() {
        int id = table.schema().indexOf("Id");
        Run run = coldScan(ScanOptions.all(table.schema().size()).withProjection(id).withReadAhead(false));
        IoStats stats = run.stats();
        assertEquals(ROWS, run.rows());
        assertEquals(0, run.requests(), "no MADV_WILLNEED");
        assertEquals(0, run.requestsAhead());
        assertEquals(0, stats.lobReadAheadReads());
        assertTrue(stats.lobPhysicalReads() > 0);
        long counted = stats.pagesFromStorage() * 8192;
        assertTrue(run.readBytes() >= counted * 0.95 && run.readBytes() <= counted * 1.05 + 65536,
                "counted " + counted + ", read_bytes " + run.readBytes());
    }

    /**
     * A primary dictionary is part of what a scan reads: a string column whose segments are small
     * beside its shared dictionary, read cold with only that column projected, is counted within 2%
     * of read_bytes — which it could not be if the dictionary file were read outside the counters.
     */
    @Test
    void primaryDictionaryReadsAreCounted(@TempDir Path own) throws java.io.IOException {
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", "32MB");
        int rows = 600_000;
        int distinct = 100_000;
        TableSchema schema = TableSchema.of(Column.notNull("id", SqlType.INT), Column.notNull("name", SqlType.varchar(100)));
        try (Database names = Database.open(own, settings, NativeFilesFacade.INSTANCE)) {
            ColumnstoreTable namesTable;
            try (Transaction transaction = names.begin()) {
                namesTable = ColumnstoreTable.create(names, transaction, "Names", schema, Map.of());
                namesTable.bulkInsert(transaction, java.util.stream.IntStream.range(0, rows)
                        .mapToObj(row -> new Object[] {row, "customer name number %08d of the test".formatted(row % distinct)})
                        .iterator());
                transaction.commit();
            }
            long dictionaryBytes = java.nio.file.Files.size(namesTable.primaryDictionaries().file(1));
            names.checkpoint();
            names.dropCleanBuffers();
            IoCounters counters = new IoCounters();
            ProcSelfIo before = ProcSelfIo.read();
            long scanned = 0;
            try (ColumnstoreScan scan = new ColumnstoreScan(namesTable, names.bufferPool(),
                    ScanOptions.all(schema.size()).withProjection(1), counters, allocator)) {
                Batch batch;
                while ((batch = scan.next()) != null) {
                    scanned += batch.selectedCount();
                }
            }
            long readBytes = ProcSelfIo.read().minus(before).readBytes();
            IoStats stats = counters.snapshot();
            long counted = stats.pagesFromStorage() * 8192;
            assertEquals(rows, scanned);
            assertTrue(dictionaryBytes > readBytes / 2, "the dictionary (" + dictionaryBytes
                    + " bytes) is most of what the scan reads (" + readBytes + ")");
            assertTrue(stats.lobLogicalReads() * 8192 >= dictionaryBytes, stats.toString());
            assertEquals(1.0, (double) counted / readBytes, 0.02, "counted " + counted + ", read_bytes " + readBytes
                    + ", dictionary " + dictionaryBytes + ": " + stats);
        }
    }
}
