package dev.columba.columnstore.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.file.RowgroupFile;
import dev.columba.columnstore.file.RowgroupFileFormat;
import dev.columba.columnstore.file.RowgroupMappings;
import dev.columba.columnstore.scan.ColumnstoreScan;
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
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
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
 * Rowgroup files kept mapped between statements ({@link RowgroupMappings}): a second scan reuses
 * the first one's mappings, and is answered and counted as before; a file replaced or changed
 * since is mapped and checked afresh (a damaged footer reported as at a first opening); DBCC
 * DROPCLEANBUFFERS and a dropped file let go of the mapping, so the page cache can drop the file.
 */
class RowgroupMappingsTest {
    private static final int ROWGROUP_ROWS = 20_000;
    private static final int ROWGROUPS = 3;
    private static final int ROWS = ROWGROUPS * ROWGROUP_ROWS;

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
        TestTableGenerator generator = new TestTableGenerator(ROWS, 11);
        try (Transaction transaction = database.begin()) {
            table = ColumnstoreTable.create(database, transaction, "Kept", generator.schema(),
                    Map.of("rowgroup_max_rows", Integer.toString(ROWGROUP_ROWS), "bulk_min_rows", "1000"));
            assertEquals(ROWS, table.bulkInsert(transaction, generator.rows()));
            transaction.commit();
        }
    }

    @AfterEach
    void close() {
        database.close();
        assertEquals(0, allocator.getAllocatedMemory(), "the scans released every buffer");
        allocator.close();
    }

    /** Rows and the sum of the first column, scanned to the end with the counters given. */
    private long[] scan(IoCounters counters) {
        long rows = 0;
        long sum = 0;
        try (ColumnstoreScan scan = new ColumnstoreScan(table, database.bufferPool(), ScanOptions.all(6).withProjection(0),
                counters, allocator)) {
            Batch batch;
            while ((batch = scan.next()) != null) {
                IntVector ids = (IntVector) batch.column(0);
                for (int index = 0; index < batch.selectedCount(); index++) {
                    sum += ids.get(batch.selectedRow(index));
                }
                rows += batch.selectedCount();
            }
        }
        return new long[] {rows, sum};
    }

    /** Lines of {@code /proc/self/maps} that map one of the table's rowgroup files. */
    private List<String> mappedRowgroupFiles() throws IOException {
        String folder = table.fileDirectory().toAbsolutePath().toString();
        return Files.readAllLines(Path.of("/proc/self/maps")).stream()
                .filter(line -> line.contains(folder) && line.endsWith(".crg")).toList();
    }

    private Path firstFile() {
        return table.rowgroupFile(table.rowgroups(database.bufferPool(), new IoCounters()).getFirst().rowgroupId());
    }

    @Test
    void aSecondScanReusesTheMappingsAndIsAnsweredAndCountedAsBefore() throws IOException {
        RowgroupMappings mappings = RowgroupMappings.of(database);
        database.dropCleanBuffers();
        IoCounters cold = new IoCounters();
        long[] first = scan(cold);
        assertEquals(ROWS, first[0]);
        List<String> afterFirst = mappedRowgroupFiles();
        assertEquals(ROWGROUPS, afterFirst.size(), "each file stays mapped once: " + afterFirst);
        assertEquals(ROWGROUPS, mappings.keptCount());

        IoCounters warm = new IoCounters();
        long[] second = scan(warm);
        assertEquals(first[0], second[0]);
        assertEquals(first[1], second[1]);
        assertEquals(afterFirst, mappedRowgroupFiles(), "the same mappings, at the same addresses");
        IoStats warmStats = warm.snapshot();
        assertEquals(cold.snapshot().segmentReads(), warmStats.segmentReads(), "every segment is still read and counted");
        assertEquals(0, warmStats.lobPhysicalReads() + warmStats.lobReadAheadReads(), "nothing read from storage: " + warmStats);

        database.dropCleanBuffers();
        assertEquals(List.of(), mappedRowgroupFiles(), "DROPCLEANBUFFERS lets go of the kept mappings");
        IoCounters again = new IoCounters();
        assertEquals(first[1], scan(again)[1]);
        IoStats againStats = again.snapshot();
        assertTrue(againStats.lobPhysicalReads() + againStats.lobReadAheadReads() > 0,
                "after DROPCLEANBUFFERS the scan reads from storage again: " + againStats);
    }

    @Test
    void aFileReplacedByARenameIsMappedAfresh() throws IOException {
        long[] before = scan(new IoCounters());
        Path file = firstFile();
        Object keptInode = Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
        Path copy = file.resolveSibling("copy.tmp");
        Files.copy(file, copy);
        Files.move(copy, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Object newInode = Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
        assertNotEquals(keptInode, newInode);

        assertEquals(before[1], scan(new IoCounters())[1]);
        String inode = newInode.toString().replaceAll(".*ino=(\\d+).*", "$1");
        List<String> lines = mappedRowgroupFiles().stream().filter(line -> line.endsWith(file.toString())).toList();
        assertEquals(1, lines.size(), "the replaced file's old mapping is gone: " + lines);
        assertTrue(lines.getFirst().contains(" " + inode + " "), "the new file is mapped: " + lines + " inode " + inode);
    }

    /**
     * A byte of the footer flipped in place, with the file's modification time put back: only the
     * checksums computed again over the kept mapping can see it, and the scan fails as a first
     * opening of the damaged file would.
     */
    @Test
    void aFooterChangedInPlaceUnderAKeptMappingIsReportedNamingTheFile() throws IOException {
        scan(new IoCounters());
        Path file = firstFile();
        FileTime modified = Files.getLastModifiedTime(file);
        long footerByte;
        try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
            footerByte = raw.length() - RowgroupFileFormat.TRAILER_SIZE - 3;
            raw.seek(footerByte);
            int value = raw.read();
            raw.seek(footerByte);
            raw.write(value ^ 0x21);
        }
        Files.setLastModifiedTime(file, modified);
        ColumbaException error = assertThrows(ColumbaException.class, () -> scan(new IoCounters()));
        assertEquals(ErrorCode.PAGE_CHECKSUM_MISMATCH, error.errorCode());
        assertTrue(error.getMessage().contains(file.toString()), error.getMessage());
    }

    @Test
    void aRunningScanKeepsItsMappingThroughDropCleanBuffersAndUnmapsItWhenClosed() throws IOException {
        scan(new IoCounters());
        try (ColumnstoreScan running = new ColumnstoreScan(table, database.bufferPool(),
                ScanOptions.all(6).withProjection(0).withReadAhead(false), new IoCounters(), allocator)) {
            assertNotNull(running.next());
            database.dropCleanBuffers();
            List<String> held = mappedRowgroupFiles();
            assertEquals(1, held.size(), "only the running scan's current rowgroup stays mapped: " + held);
            long rows = 0;
            Batch batch = running.next();
            while (batch != null) {
                rows += batch.selectedCount();
                batch = running.next();
            }
            assertTrue(rows > 0);
        }
        // The scan mapped the later rowgroups after DROPCLEANBUFFERS: they are kept; the one it held then is not.
        assertEquals(ROWGROUPS - 1, RowgroupMappings.of(database).keptCount());
        assertEquals(ROWGROUPS - 1, mappedRowgroupFiles().size());
    }

    @Test
    void forgettingAFileUnmapsItSoItsSpaceCanBeFreed() throws IOException {
        scan(new IoCounters());
        Path file = firstFile();
        RowgroupMappings.of(database).forget(file);
        assertEquals(ROWGROUPS - 1, mappedRowgroupFiles().size());
        assertTrue(mappedRowgroupFiles().stream().noneMatch(line -> line.endsWith(file.toString())));
        RowgroupMappings.of(database).forgetUnder(table.fileDirectory());
        assertEquals(List.of(), mappedRowgroupFiles());
        assertEquals(0, RowgroupMappings.of(database).keptCount());
    }

    @Test
    void aFileOpenedOnItsOwnIsUnmappedWhenClosed() throws IOException {
        Path file = firstFile();
        try (RowgroupFile own = RowgroupFile.open(NativeFilesFacade.INSTANCE, file)) {
            assertEquals(ROWGROUP_ROWS, own.rows());
            assertEquals(1, mappedRowgroupFiles().size());
        }
        assertEquals(List.of(), mappedRowgroupFiles());
    }
}
