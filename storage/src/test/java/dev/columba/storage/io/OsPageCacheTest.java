package dev.columba.storage.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.BitSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Residency as the kernel reports it, and dropping a file from the page cache. */
class OsPageCacheTest {
    private static final long FILE_SIZE = 1L << 20;

    @TempDir
    Path directory;

    private final int pageSize = OsPageCache.pageSize();

    @BeforeEach
    void requireDisk() {
        TestFiles.requireStorageAccounting(directory);
    }

    @Test
    void pageSizeIsTheOperatingSystems() {
        assertTrue(pageSize >= 4096 && Integer.bitCount(pageSize) == 1, "page size " + pageSize);
    }

    @Test
    void writtenFileIsResidentUntilSyncedAndDropped() {
        Path path = directory.resolve("data");
        TestFiles.writePattern(path, FILE_SIZE);
        try (FileHandle file = NativeFilesFacade.INSTANCE.open(path, FilesFacade.OpenMode.READ_WRITE, false)) {
            assertEquals(FILE_SIZE, OsPageCache.residentBytes(file, 0, FILE_SIZE), "a freshly written file is cached");

            OsPageCache.dropFromPageCache(file);

            assertEquals(0, OsPageCache.residentBytes(file, 0, FILE_SIZE));
            PageResidency pages = OsPageCache.residentPages(file, 0, FILE_SIZE);
            assertEquals(FILE_SIZE / pageSize, pages.pageCount());
            assertEquals(0, pages.residentPageCount());
        }
    }

    @Test
    void unalignedRangesCountTheirOverlapWithResidentPages() {
        Path path = directory.resolve("data");
        TestFiles.writeColdPattern(path, FILE_SIZE);
        try (Arena arena = Arena.ofConfined();
             FileHandle file = NativeFilesFacade.INSTANCE.open(path, FilesFacade.OpenMode.READ, false)) {
            file.advise(0, 0, FileHandle.Advice.RANDOM);
            long page = 5;
            file.read(page * pageSize, arena.allocate(pageSize));

            assertEquals(pageSize, OsPageCache.residentBytes(file, 0, FILE_SIZE));
            assertEquals(pageSize - 100, OsPageCache.residentBytes(file, page * pageSize + 100, 10 * pageSize));
            assertEquals(100, OsPageCache.residentBytes(file, page * pageSize - 50, 150));
            assertEquals(0, OsPageCache.residentBytes(file, (page + 1) * pageSize, 10 * pageSize));
            assertEquals(0, OsPageCache.residentBytes(file, page * pageSize + 7, 0));

            PageResidency pages = OsPageCache.residentPages(file, page * pageSize + 100, 2L * pageSize);
            assertEquals(page * pageSize, pages.firstPageOffset(), "the first page is the one holding the offset");
            assertEquals(3, pages.pageCount(), "[offset, offset + 2 pages) touches three pages when unaligned");
            assertTrue(pages.isResident(0));
            assertEquals(1, pages.residentPageCount());
            assertEquals((page + 2) * pageSize, pages.pageOffset(2));
        }
    }

    @Test
    void rangesAreCutAtTheEndOfTheFile() {
        Path path = directory.resolve("data");
        long size = 3L * pageSize + 10;
        TestFiles.writePattern(path, size);
        try (FileHandle file = NativeFilesFacade.INSTANCE.open(path, FilesFacade.OpenMode.READ, false)) {
            assertEquals(size, OsPageCache.residentBytes(file, 0, Long.MAX_VALUE));
            assertEquals(10, OsPageCache.residentBytes(file, 3L * pageSize, 100L * pageSize));
            assertEquals(0, OsPageCache.residentBytes(file, size + pageSize, pageSize));

            PageResidency pages = OsPageCache.residentPages(file, 0, Long.MAX_VALUE);
            assertEquals(4, pages.pageCount());
            BitSet all = new BitSet();
            all.set(0, 4);
            assertEquals(all, pages.resident());
            assertEquals(0, OsPageCache.residentPages(file, size + 1, 10).pageCount());
        }
    }

    @Test
    void negativeRangesAreRejectedNamingTheFile() {
        Path path = directory.resolve("data");
        TestFiles.writePattern(path, pageSize);
        try (FileHandle file = NativeFilesFacade.INSTANCE.open(path, FilesFacade.OpenMode.READ, false)) {
            ColumbaException error = assertThrows(ColumbaException.class, () -> OsPageCache.residentBytes(file, -1, 10));
            assertEquals(ErrorCode.INVALID_ARGUMENT, error.errorCode());
            assertTrue(error.getMessage().contains(path.toString()) && error.getMessage().contains("offset -1"),
                    error.getMessage());
            assertEquals(ErrorCode.INVALID_ARGUMENT,
                    assertThrows(ColumbaException.class, () -> OsPageCache.residentPages(file, 0, -5)).errorCode());
        }
    }
}
