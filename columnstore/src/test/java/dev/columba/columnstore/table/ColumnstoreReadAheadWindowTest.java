package dev.columba.columnstore.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.encoding.ColumnPredicate;
import dev.columba.columnstore.file.RowgroupFile;
import dev.columba.columnstore.file.RowgroupMappings;
import dev.columba.columnstore.scan.ColumnFilter;
import dev.columba.columnstore.scan.ColumnstoreScan;
import dev.columba.columnstore.scan.ScanOptions;
import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.stats.IoStats;
import dev.columba.datagen.TestTableGenerator;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.MemoryMapping;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.io.ProcSelfIo;
import dev.columba.storage.txn.Transaction;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The columnstore read-ahead window on real, cold files: a table of eight rowgroups of 30,000 rows
 * (well below one 8 MB request each), scanned after {@code DROPCLEANBUFFERS}. The window
 * requests the next rowgroups' segments while the current one is still being read, skips eliminated
 * rowgroups, and leaves nothing mapped (beyond what the database keeps between statements) and
 * nothing unsettled when a scan ends early or fails:
 * read-ahead used + wasted = read-ahead reads in every case.
 */
class ColumnstoreReadAheadWindowTest {
    private static final int ROWGROUP_ROWS = 30_000;
    private static final int ROWGROUPS = 8;
    private static final int ROWS = ROWGROUPS * ROWGROUP_ROWS;
    private static final int ID = 0;
    private static final int AGE = 4;
    private static final int RANDOM_VALUE = 5;

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
        table = load("Window", ROWS, ROWGROUP_ROWS);
    }

    @AfterEach
    void close() {
        database.close();
        assertEquals(0, allocator.getAllocatedMemory(), "the scans released every buffer");
        allocator.close();
    }

    private ColumnstoreTable load(String name, int rows, int rowgroupRows) {
        TestTableGenerator generator = new TestTableGenerator(rows, 7);
        try (Transaction transaction = database.begin()) {
            ColumnstoreTable loaded = ColumnstoreTable.create(database, transaction, name, generator.schema(),
                    Map.of("rowgroup_max_rows", Integer.toString(rowgroupRows), "bulk_min_rows", "1000"));
            assertEquals(rows, loaded.bulkInsert(transaction, generator.rows()));
            transaction.commit();
            return loaded;
        }
    }

    private List<RowgroupEntry> rowgroups(ColumnstoreTable of) {
        return of.rowgroups(database.bufferPool(), new IoCounters());
    }

    private ColumnstoreScan coldScan(ColumnstoreTable of, ScanOptions options, IoCounters counters) {
        database.dropCleanBuffers();
        return new ColumnstoreScan(of, database.bufferPool(), options, counters, allocator);
    }

    /** Rows and the sum of ID over the rest of the scan; ID must be the first projected column. */
    private static long[] drain(ColumnstoreScan scan) {
        long rows = 0;
        long sumOfIds = 0;
        Batch batch;
        while ((batch = scan.next()) != null) {
            IntVector ids = (IntVector) batch.column(0);
            for (int index = 0; index < batch.selectedCount(); index++) {
                sumOfIds += ids.get(batch.selectedRow(index));
            }
            rows += batch.selectedCount();
        }
        return new long[] {rows, sumOfIds};
    }

    /**
     * Lines of {@code /proc/self/maps} that map a file of {@code of} once the database has let go of
     * the mappings it keeps between statements: those a scan still holds (its rowgroup and dictionary
     * files).
     */
    private List<String> mappedAfterClose(ColumnstoreTable of) throws IOException {
        RowgroupMappings.of(database).releaseFiles();
        return mappedFiles(of);
    }

    /** Lines of {@code /proc/self/maps} that map a file of {@code of}: its rowgroup and dictionary files. */
    private static List<String> mappedFiles(ColumnstoreTable of) throws IOException {
        String folder = of.fileDirectory().toAbsolutePath().toString();
        return Files.readAllLines(Path.of("/proc/self/maps")).stream().filter(line -> line.contains(folder)).toList();
    }

    private static void assertSettled(IoStats stats) {
        assertEquals(stats.lobReadAheadReads(), stats.readAheadUsed() + stats.readAheadWasted(),
                "read-ahead used + wasted = read-ahead reads: " + stats);
    }

    @Test
    void theWindowRequestsTheNextRowgroupsWhileTheCurrentOneIsRead() {
        List<RowgroupEntry> entries = rowgroups(table);
        assertEquals(ROWGROUPS, entries.size());
        long largestRowgroup = entries.stream().mapToLong(RowgroupEntry::sizeBytes).max().orElseThrow();
        assertTrue(largestRowgroup < ScanOptions.DEFAULT_READ_AHEAD_MAX_BYTES, "small rowgroups: " + largestRowgroup);
        IoCounters counters = new IoCounters();
        try (ColumnstoreScan scan = coldScan(table, ScanOptions.all(6), counters)) {
            assertNotNull(scan.next());
            // The first batch holds 4,096 of the first rowgroup's 30,000 rows: it is still being read.
            assertTrue(scan.readAheadRequestsAhead() > 0, "requests into the rowgroups after the first");
            assertTrue(scan.rowgroupsPreparedAhead() > 0);
            assertTrue(counters.snapshot().lobReadAheadReads() * 8192 > entries.get(0).sizeBytes(),
                    "more was read ahead than the first rowgroup holds: " + counters.snapshot());
            long[] rest = drain(scan);
            assertEquals(ROWS - 4096, rest[0]);
            assertTrue(scan.largestReadAheadBytes() <= largestRowgroup, "a small rowgroup yields small requests: "
                    + scan.largestReadAheadBytes() + " bytes, largest rowgroup " + largestRowgroup);
        }
        IoStats stats = counters.snapshot();
        assertEquals(0, stats.lobPhysicalReads(), "every segment was read ahead: " + stats);
        assertEquals(0, stats.readAheadWasted(), "every page read ahead was used: " + stats);
        assertSettled(stats);
        assertEquals(6L * entries.size(), stats.segmentReads());
    }

    /**
     * The window is measured in bytes requested and not yet touched: with a window smaller than a
     * rowgroup, it still crosses into the next one, and every request stays within one file.
     */
    @Test
    void aSmallWindowStillCrossesRowgroupBoundaries() {
        IoCounters counters = new IoCounters();
        long[] result;
        long ahead;
        try (ColumnstoreScan scan = coldScan(table, ScanOptions.all(6).withProjection(ID, RANDOM_VALUE)
                .withReadAhead(64 << 10, 256 << 10), counters)) {
            result = drain(scan);
            ahead = scan.readAheadRequestsAhead();
            assertTrue(scan.largestReadAheadBytes() <= 64 << 10);
        }
        assertEquals(ROWS, result[0]);
        assertEquals((long) ROWS * (ROWS + 1) / 2, result[1]);
        assertTrue(ahead > 0, "requests issued ahead of the current rowgroup");
        IoStats stats = counters.snapshot();
        assertEquals(0, stats.lobPhysicalReads(), stats.toString());
        assertEquals(0, stats.readAheadWasted(), stats.toString());
        assertSettled(stats);
    }

    @Test
    void eliminatedRowgroupsAreNeverReadAhead() {
        // ID 5 is in rowgroup 0 and ID 150,005 in rowgroup 5: the six others are eliminated by their min/max.
        int inFifth = 5 * ROWGROUP_ROWS + 5;
        ScanOptions options = ScanOptions.all(6).withProjection(ID, RANDOM_VALUE)
                .withFilters(List.of(new ColumnFilter(ID, new ColumnPredicate.In(List.of(5, inFifth)))));
        IoCounters counters = new IoCounters();
        long[] result;
        try (ColumnstoreScan scan = coldScan(table, options, counters)) {
            result = drain(scan);
            assertTrue(scan.readAheadRequestsAhead() > 0, "rowgroup 5 was requested while rowgroup 0 was read");
        }
        assertEquals(2, result[0]);
        assertEquals(5 + inFifth, result[1]);
        IoStats stats = counters.snapshot();
        assertEquals((ROWGROUPS - 2) * 2, stats.segmentSkipped(), "six rowgroups eliminated, two segments each");
        assertEquals(2 * 2, stats.segmentReads());
        assertEquals(0, stats.readAheadWasted(), "read-ahead into an eliminated rowgroup would be wasted: " + stats);
        assertSettled(stats);
        // And the operating system agrees: the eliminated rowgroups' segments are not in the page cache,
        // short of a file's last 8 KB, whose footer the scan may have advised (see UpcomingRowgroups).
        List<RowgroupEntry> entries = rowgroups(table);
        for (int index = 1; index < entries.size(); index++) {
            if (index == 5) {
                continue;
            }
            try (RowgroupFile file = RowgroupFile.open(NativeFilesFacade.INSTANCE,
                    table.rowgroupFile(entries.get(index).rowgroupId()))) {
                long footerAdvice = (file.size() - 8192) / 4096 * 4096;
                for (int column : new int[] {ID, RANDOM_VALUE}) {
                    long start = file.segmentOffset(column);
                    long end = Math.min(start + file.segmentLength(column), footerAdvice);
                    assertTrue(end - start > 16 << 10, "a segment of substance: " + (end - start) + " bytes");
                    assertEquals(0, MemoryMapping.residentBytes(file.mapping(), start, end - start),
                            "rowgroup " + index + " column " + column + " is not resident");
                }
            }
        }
    }

    @Test
    void closingHalfwayUnmapsEveryFileAndSettlesTheUnusedReadAheadAsWasted() throws IOException {
        IoCounters counters = new IoCounters();
        try (ColumnstoreScan scan = coldScan(table, ScanOptions.all(6).withProjection(ID, RANDOM_VALUE), counters)) {
            for (int batch = 0; batch < 10; batch++) {
                assertNotNull(scan.next());
            }
            // 10 batches of 4,096 rows: the scan is in the second rowgroup, the rest prepared ahead.
            assertTrue(scan.rowgroupsPreparedAhead() > 1, "rowgroups prepared ahead: " + scan.rowgroupsPreparedAhead());
            assertTrue(mappedFiles(table).size() > 1, "the current rowgroup and those ahead are mapped");
        }
        assertEquals(List.of(), mappedAfterClose(table), "closing the scan unmapped every rowgroup file");
        IoStats stats = counters.snapshot();
        assertTrue(stats.readAheadWasted() > 0, "the window's unused requests are wasted: " + stats);
        assertTrue(stats.readAheadUsed() > 0, stats.toString());
        assertSettled(stats);
    }

    /**
     * Rowgroup 0's last segment is corrupt: the scan fails checking it — and by then, before that
     * segment was even touched, the window had requested rowgroup 1 onwards (it tops up after each
     * segment is checked). Closing the failed scan unmaps them all.
     */
    @Test
    void aFailingScanUnmapsTheRowgroupsPreparedAheadAndTheWindowHadCrossedBeforeTheLastSegment()
            throws IOException {
        RowgroupEntry first = rowgroups(table).getFirst();
        Path path = table.rowgroupFile(first.rowgroupId());
        long offset;
        try (RowgroupFile file = RowgroupFile.open(NativeFilesFacade.INSTANCE, path)) {
            offset = file.segmentOffset(RANDOM_VALUE) + file.segmentLength(RANDOM_VALUE) / 2;
        }
        try (RandomAccessFile raw = new RandomAccessFile(path.toFile(), "rw")) {
            raw.seek(offset);
            int value = raw.read();
            raw.seek(offset);
            raw.write(value ^ 0x5a);
            raw.getFD().sync();
        }
        IoCounters counters = new IoCounters();
        try (ColumnstoreScan scan = coldScan(table, ScanOptions.all(6).withProjection(ID, RANDOM_VALUE), counters)) {
            ColumbaException error = assertThrows(ColumbaException.class, scan::next);
            assertEquals(ErrorCode.PAGE_CHECKSUM_MISMATCH, error.errorCode());
            assertTrue(error.getMessage().contains(path.toString()), error.getMessage());
            assertEquals(2, counters.snapshot().segmentReads(), "the good segment, then the corrupt last one");
            assertTrue(scan.readAheadRequestsAhead() > 0, "the next rowgroups were requested before the last "
                    + "segment of rowgroup 0 was touched");
            assertTrue(scan.rowgroupsPreparedAhead() > 0);
        }
        assertEquals(List.of(), mappedAfterClose(table), "nothing stays mapped after the failed scan is closed");
        IoStats stats = counters.snapshot();
        assertTrue(stats.readAheadWasted() > 0, stats.toString());
        assertSettled(stats);
    }

    /**
     * Rowgroup 2's file is cut short: the window meets it while the scan reads rowgroup 0, yet the
     * scan returns rowgroups 0 and 1 in full and fails only when it reaches rowgroup 2, as it would
     * without read-ahead.
     */
    @Test
    void aRowgroupThatCannotBePreparedAheadFailsTheScanOnlyWhenReached() throws IOException {
        Path path = table.rowgroupFile(rowgroups(table).get(2).rowgroupId());
        try (RandomAccessFile raw = new RandomAccessFile(path.toFile(), "rw")) {
            raw.setLength(raw.length() - 10);
        }
        IoCounters counters = new IoCounters();
        long rows = 0;
        try (ColumnstoreScan scan = coldScan(table, ScanOptions.all(6).withProjection(ID), counters)) {
            Batch batch = scan.next();
            assertTrue(scan.rowgroupsPreparedAhead() >= 2, "rowgroup 1 prepared, rowgroup 2 tried");
            while (batch != null) {
                rows += batch.selectedCount();
                if (rows == 2L * ROWGROUP_ROWS) {
                    break;
                }
                batch = scan.next();
            }
            ColumbaException error = assertThrows(ColumbaException.class, scan::next);
            assertEquals(ErrorCode.FILE_TRUNCATED, error.errorCode());
            assertTrue(error.getMessage().contains(path.toString()), error.getMessage());
        }
        assertEquals(2L * ROWGROUP_ROWS, rows);
        assertEquals(List.of(), mappedAfterClose(table));
        assertSettled(counters.snapshot());
    }

    @Test
    void withoutReadAheadOrWithoutDepthNothingIsRequestedAhead() {
        IoCounters off = new IoCounters();
        try (ColumnstoreScan scan = coldScan(table, ScanOptions.all(6).withProjection(ID).withReadAhead(false), off)) {
            assertNotNull(scan.next());
            assertEquals(0, scan.rowgroupsPreparedAhead(), "read-ahead off: no rowgroup is opened early");
            assertEquals(ROWS - 4096, drain(scan)[0]);
            assertEquals(0, scan.readAheadRequests(), "no MADV_WILLNEED");
        }
        assertEquals(0, off.snapshot().lobReadAheadReads());
        assertTrue(off.snapshot().lobPhysicalReads() > 0);

        IoCounters currentOnly = new IoCounters();
        try (ColumnstoreScan scan = coldScan(table, ScanOptions.all(6).withProjection(ID)
                .withReadAhead(ScanOptions.DEFAULT_READ_AHEAD_MAX_BYTES, 0), currentOnly)) {
            assertNotNull(scan.next());
            assertEquals(0, scan.rowgroupsPreparedAhead(), "a depth of 0 reads ahead the current rowgroup only");
            assertEquals(ROWS - 4096, drain(scan)[0]);
            assertEquals(0, scan.readAheadRequestsAhead());
            assertEquals(ROWGROUPS, scan.readAheadRequests(), "one request per rowgroup");
        }
        IoStats stats = currentOnly.snapshot();
        assertEquals(0, stats.lobPhysicalReads(), stats.toString());
        assertSettled(stats);
    }

    @Test
    void deletedRowsStayDeletedUnderTheWindow() {
        List<RowgroupEntry> entries = rowgroups(table);
        long deletedSum = 0;
        try (Transaction transaction = database.begin()) {
            for (int rowgroup : new int[] {1, 3, 6}) {
                for (int position = 0; position < ROWGROUP_ROWS; position += 7) {
                    assertTrue(table.delete(transaction, entries.get(rowgroup).rowgroupId(), position));
                    deletedSum += (long) rowgroup * ROWGROUP_ROWS + position + 1;
                }
            }
            transaction.commit();
        }
        int deletedPerRowgroup = (ROWGROUP_ROWS + 6) / 7;
        IoCounters counters = new IoCounters();
        long[] result;
        try (ColumnstoreScan scan = coldScan(table, ScanOptions.all(6).withProjection(ID, AGE), counters)) {
            result = drain(scan);
        }
        assertEquals(ROWS - 3L * deletedPerRowgroup, result[0]);
        assertEquals((long) ROWS * (ROWS + 1) / 2 - deletedSum, result[1]);
        assertSettled(counters.snapshot());
    }

    /**
     * Bytes a scan reads outside the lob counters, per rowgroup: its header and footer (a page or
     * two it faults in, or the 4 KB + 8 KB the window advises ahead, see {@code UpcomingRowgroups}).
     */
    private static final long METADATA_BYTES_PER_ROWGROUP = 16 << 10;

    /**
     * The operating system referees the counters, with the window and without it, and when a scan
     * stops early: the bytes counted as read (physical and read-ahead, {@code READ_BYTES}) are what
     * {@code /proc/self/io} says the process read, short of each rowgroup's header and footer and
     * give or take a page of unwritten alignment padding per segment. The
     * window changes when pages are read, not which; read-ahead an early stop left unused was read
     * all the same, and shows as wasted.
     */
    @Test
    void countersAgreeWithTheOperatingSystemWithTheWindowWithoutItAndWhenStoppedEarly() {
        ScanOptions everyColumn = ScanOptions.all(6);
        Read window = checkedAgainstTheOperatingSystem("window", everyColumn, Long.MAX_VALUE);
        Read currentOnly = checkedAgainstTheOperatingSystem("depth 0",
                everyColumn.withReadAhead(ScanOptions.DEFAULT_READ_AHEAD_MAX_BYTES, 0), Long.MAX_VALUE);
        // 10 batches of 4,096 rows: the scan stops in its second rowgroup.
        Read stopped = checkedAgainstTheOperatingSystem("stopped early", everyColumn, 10);
        assertEquals(0, window.stats().readAheadWasted());
        assertEquals(0, currentOnly.stats().readAheadWasted());
        assertTrue(stopped.stats().readAheadWasted() > 0, stopped.toString());
        // The footer the window advises may share its first page with the last segment or dictionary.
        assertEquals(currentOnly.counted(), window.counted(), ROWGROUPS * 8192,
                "the same pages, read earlier: " + window + " and " + currentOnly);
        // The whole table fits in the default window: it was all requested before the scan stopped.
        assertEquals(window.counted(), stopped.counted(), stopped + " against " + window);
        assertEquals(window.stats().lobReadAheadReads(), stopped.stats().readAheadWasted()
                + stopped.stats().readAheadUsed(), stopped.toString());
    }

    /** What one cold scan read: counted by the scan, and by the operating system. */
    private record Read(String label, long counted, long readBytes, long requestsAhead, IoStats stats) {
    }

    /** Scans at most {@code batches} batches, cold, and checks the counters against read_bytes. */
    private Read checkedAgainstTheOperatingSystem(String label, ScanOptions options, long batches) {
        IoCounters counters = new IoCounters();
        long requestsAhead;
        database.dropCleanBuffers();
        ProcSelfIo before = ProcSelfIo.read();
        try (ColumnstoreScan scan = new ColumnstoreScan(table, database.bufferPool(), options, counters, allocator)) {
            long batch = 0;
            while (batch < batches && scan.next() != null) {
                batch++;
            }
            requestsAhead = scan.readAheadRequestsAhead();
        }
        Read read = new Read(label, counters.snapshot().readBytes(), ProcSelfIo.read().minus(before).readBytes(),
                requestsAhead, counters.snapshot());
        System.out.println(read);
        assertSettled(read.stats());
        assertTrue(read.counted() > 10 * ROWGROUPS * METADATA_BYTES_PER_ROWGROUP, "a scan of substance: " + read);
        // Below: the alignment padding after a segment may hold a whole page the writer never wrote, a
        // hole that a request over adjacent segments counts and the disk never reads.
        long holes = read.stats().segmentReads() * 4096;
        assertTrue(read.counted() - holes <= read.readBytes()
                && read.readBytes() <= read.counted() + ROWGROUPS * METADATA_BYTES_PER_ROWGROUP, read.toString());
        if (options.readAheadDepthBytes() == 0) {
            assertEquals(0, requestsAhead, read.toString());
        } else {
            assertTrue(requestsAhead > 0, read.toString());
        }
        return read;
    }

    /** Tiny rowgroups: however much room the window has, at most 64 files are mapped ahead. */
    @Test
    void tinyRowgroupsAreMappedAheadOnlySoFar() throws IOException {
        ColumnstoreTable tiny = load("Tiny", 100 * 1000, 1000);
        assertEquals(100, rowgroups(tiny).size());
        IoCounters counters = new IoCounters();
        try (ColumnstoreScan scan = coldScan(tiny, ScanOptions.all(6).withProjection(ID).withBatchSize(500), counters)) {
            assertNotNull(scan.next());
            assertEquals(64, scan.rowgroupsPreparedAhead());
            assertEquals(65, mappedFiles(tiny).size(), "the current rowgroup and 64 ahead");
            assertEquals(100 * 1000 - 500, drain(scan)[0]);
        }
        assertEquals(List.of(), mappedAfterClose(tiny));
        IoStats stats = counters.snapshot();
        assertEquals(0, stats.readAheadWasted(), stats.toString());
        assertSettled(stats);
    }
}
