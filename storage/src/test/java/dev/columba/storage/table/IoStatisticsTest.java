package dev.columba.storage.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.stats.IoCounters;
import dev.columba.core.stats.IoStats;
import dev.columba.datagen.RowCursor;
import dev.columba.datagen.TestTableGenerator;
import dev.columba.storage.btree.BTree;
import dev.columba.storage.btree.IndexPhysicalStats;
import dev.columba.storage.btree.LookupPrefetch;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.io.OsPageCache;
import dev.columba.storage.io.ProcSelfIo;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.row.KeyCodec;
import dev.columba.core.type.SqlType;
import dev.columba.storage.txn.Transaction;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exact I/O counts on small cases, checked against the structure of the index and against the
 * operating system's {@code read_bytes}: the vocabulary of docs/design/architecture.md ("What a read
 * is") held to account.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IoStatisticsTest {
    private static final int ROWS = 60_000;
    private static final ReadAheadOptions ON = new ReadAheadOptions(true, 500, 64);

    @TempDir
    static Path directory;

    private Database database;
    private TableStore table;
    private IndexPhysicalStats shape;

    @BeforeAll
    void load() {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "32MB");
        database = Database.open(directory, properties, NativeFilesFacade.INSTANCE);
        Tables tables = new Tables(database);
        TestTableGenerator generator = new TestTableGenerator(ROWS, 7);
        IoCounters counters = new IoCounters();
        try (Transaction transaction = database.begin()) {
            table = tables.createTable(transaction, "TestTable", generator.schema(), List.of(0), true, Map.of());
            RowCursor cursor = generator.cursor();
            while (cursor.next()) {
                table.insert(transaction, cursor.row(), counters);
            }
            transaction.commit();
        }
        shape = IndexPhysicalStats.of(table.tree(), database.bufferPool(), counters);
        assertTrue(shape.height() >= 2, "the table must need more than one page: " + shape);
        database.checkpoint();
    }

    @AfterAll
    void close() {
        database.close();
    }

    private record Run(IoStats stats, long rows, long readBytes) {
    }

    private Run scan(TableScan scan, int stopAfter) {
        IoCounters counters = new IoCounters();
        ProcSelfIo before = ProcSelfIo.read();
        long rows = 0;
        try (TableCursor cursor = table.scan(database.bufferPool(), scan, counters)) {
            while (rows < stopAfter && cursor.next()) {
                rows++;
            }
        }
        ProcSelfIo after = ProcSelfIo.read();
        return new Run(counters.snapshot(), rows, after.minus(before).readBytes());
    }

    private Run cold(TableScan scan, int stopAfter) {
        database.dropCleanBuffers();
        return scan(scan, stopAfter);
    }

    /**
     * The process read what the counters say it read. {@code read_bytes} counts the whole process,
     * and the JVM itself may read a class from its module image or a jar during the window (page
     * cache here is small and cold), so the check is one-sided: never less than counted (the
     * counters claim nothing that did not happen), and at most 64 KB more.
     */
    /** Every file of the database, the log and control file too, leaves the OS page cache: a cold run reads nothing warm. */
    @Test
    void dropCleanBuffersLeavesNoFileOfTheDatabaseInThePageCache() throws java.io.IOException {
        database.dropCleanBuffers();
        List<Path> files;
        try (java.util.stream.Stream<Path> paths = java.nio.file.Files.walk(directory)) {
            files = paths.filter(java.nio.file.Files::isRegularFile).toList();
        }
        assertTrue(files.size() >= 3, "data file, log and control file at least: " + files);
        for (Path path : files) {
            try (FileHandle file = NativeFilesFacade.INSTANCE.open(path, FilesFacade.OpenMode.READ, false)) {
                assertEquals(0, OsPageCache.residentBytes(file, 0, file.size()), path + " still cached");
            }
        }
    }

    private static void assertAgreesWithOperatingSystem(long counted, long readBytes) {
        assertTrue(readBytes >= counted && readBytes <= counted + 65536,
                "counted " + counted + " bytes, /proc/self/io read_bytes grew by " + readBytes);
    }

    @Test
    void warmScanWithoutReadAheadReadsEveryPageLogicallyAndNothingPhysically() {
        scan(TableScan.all(ReadAheadOptions.OFF), Integer.MAX_VALUE);
        Run warm = scan(TableScan.all(ReadAheadOptions.OFF), Integer.MAX_VALUE);
        assertEquals(ROWS, warm.rows());
        assertEquals(1, warm.stats().scanCount());
        // The descent reads one page per level above the leaves, then every leaf once.
        assertEquals(shape.height() - 1 + shape.leafPages(), warm.stats().logicalReads());
        assertEquals(0, warm.stats().physicalReads());
        assertEquals(0, warm.stats().readAheadReads());
        assertAgreesWithOperatingSystem(0, warm.readBytes());
    }

    @Test
    void coldScanWithoutReadAheadWaitsForEveryPageOneAtATime() {
        Run cold = cold(TableScan.all(ReadAheadOptions.OFF), Integer.MAX_VALUE);
        IoStats stats = cold.stats();
        assertEquals(ROWS, cold.rows());
        assertEquals(shape.height() - 1 + shape.leafPages(), stats.logicalReads());
        assertEquals(stats.logicalReads(), stats.physicalReads(), "every page was cold");
        assertEquals(0, stats.readAheadReads());
        assertEquals(stats.physicalReads(), stats.readIos(), "one page per I/O");
        assertEquals(stats.physicalReads() * PageFormat.PAGE_SIZE, stats.readBytes());
        assertAgreesWithOperatingSystem(stats.readBytes(), cold.readBytes());
    }

    @Test
    void coldScanWithReadAheadReadsEachPageOnceInLargeIos() {
        Run cold = cold(TableScan.all(ON), Integer.MAX_VALUE);
        IoStats stats = cold.stats();
        assertEquals(ROWS, cold.rows());
        assertTrue(stats.readAheadReads() > 0, stats.toString());
        // Every page of the index came from storage exactly once: the internal pages (the descent
        // and the level above the leaves, which read-ahead walks) and every leaf.
        assertEquals(shape.pageCount(), stats.physicalReads() + stats.readAheadReads(), stats.toString());
        assertEquals(stats.readAheadReads(), stats.readAheadUsed(), "the scan used everything it read ahead");
        assertEquals(0, stats.readAheadWasted());
        assertTrue(stats.averageBytesPerIo() > 8 * PageFormat.PAGE_SIZE, "large I/Os: " + stats.averageBytesPerIo());
        assertEquals(stats.pagesFromStorage() * PageFormat.PAGE_SIZE, stats.readBytes());
        assertAgreesWithOperatingSystem(stats.readBytes(), cold.readBytes());
    }

    @Test
    void seedZeroRangeScanReadsAheadColdAndNotWarm() {
        TableScan idBelow300 = TableScan.below(new Object[] {300}, false, ON);
        Run cold = cold(idBelow300, Integer.MAX_VALUE);
        assertEquals(299, cold.rows());
        assertTrue(cold.stats().readAheadReads() > 0, "cold: " + cold.stats());
        assertTrue(cold.stats().physicalReads() > 0, "cold: " + cold.stats());
        assertEquals(0, cold.stats().readAheadWasted(), "read-ahead stops at the range's end");
        Run warm = scan(idBelow300, Integer.MAX_VALUE);
        assertEquals(cold.stats().logicalReads(), warm.stats().logicalReads());
        assertEquals(0, warm.stats().physicalReads());
        assertEquals(0, warm.stats().readAheadReads());
    }

    @Test
    void aScanAbandonedEarlyCountsItsUnusedReadAheadAsWasted() {
        Run cold = cold(TableScan.all(ON), 1000);
        IoStats stats = cold.stats();
        assertEquals(1000, cold.rows());
        assertTrue(stats.readAheadWasted() > 0, stats.toString());
        assertEquals(stats.readAheadReads(), stats.readAheadUsed() + stats.readAheadWasted(), stats.toString());
        assertAgreesWithOperatingSystem(stats.readBytes(), cold.readBytes());
    }

    @Test
    void allocationOrderScanReadsAheadOverTheExtents() {
        Run cold = cold(TableScan.allocationOrder(ON), Integer.MAX_VALUE);
        assertEquals(ROWS, cold.rows());
        assertTrue(cold.stats().averageBytesPerIo() > 8 * PageFormat.PAGE_SIZE, cold.stats().toString());
        assertAgreesWithOperatingSystem(cold.stats().readBytes(), cold.readBytes());
    }

    @Test
    void randomPrefetchIssuesLookupsAheadOfTheProbes() {
        KeyCodec keys = KeyCodec.of(SqlType.INT);
        List<byte[]> probes = new ArrayList<>();
        for (int id = 1; id <= ROWS; id += ROWS / 200) {
            probes.add(keys.encode(new Object[] {id}));
        }
        BTree tree = table.tree();

        database.dropCleanBuffers();
        IoCounters withoutPrefetch = new IoCounters();
        for (byte[] probe : probes) {
            tree.get(database.bufferPool(), probe, withoutPrefetch);
        }

        // Load the prefetch path's classes first: the JVM reads classes from its mapped module image,
        // and those reads would land in the measurement window.
        try (LookupPrefetch warmUp = new LookupPrefetch(tree, database.bufferPool(), probes.subList(0, 2).iterator(), 4,
                new IoCounters())) {
            warmUp.advance();
        }
        database.dropCleanBuffers();
        IoCounters withPrefetch = new IoCounters();
        ProcSelfIo before = ProcSelfIo.read();
        Iterator<byte[]> upcoming = probes.iterator();
        try (LookupPrefetch prefetch = new LookupPrefetch(tree, database.bufferPool(), upcoming, 64, withPrefetch)) {
            for (byte[] probe : probes) {
                prefetch.advance();
                tree.get(database.bufferPool(), probe, withPrefetch);
            }
        }
        long readBytes = ProcSelfIo.read().minus(before).readBytes();
        IoStats off = withoutPrefetch.snapshot();
        IoStats on = withPrefetch.snapshot();
        assertEquals(0, off.readAheadReads());
        assertTrue(on.readAheadReads() >= 150, "most probed leaves were prefetched: " + on);
        assertTrue(on.physicalReads() < off.physicalReads() / 4, "probes mostly found their leaf resident: " + on);
        assertEquals(on.readAheadReads(), on.readAheadUsed() + on.readAheadWasted());
        assertAgreesWithOperatingSystem(on.readBytes(), readBytes);
    }
}
