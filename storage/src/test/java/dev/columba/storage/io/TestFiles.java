package dev.columba.storage.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** Files with known contents for the I/O tests, and the preconditions of tests that read from storage. */
final class TestFiles {
    private TestFiles() {
    }

    /** The byte the test pattern holds at {@code position}: varies within and across pages. */
    static byte patternByte(long position) {
        return (byte) (position * 31 + (position >>> 12) * 7 + 1);
    }

    /** Creates {@code path} holding {@code size} bytes of the test pattern; its pages are dirty in the page cache. */
    static void writePattern(Path path, long size) {
        try (Arena arena = Arena.ofConfined();
             FileHandle file = NativeFilesFacade.INSTANCE.open(path, FilesFacade.OpenMode.CREATE_NEW, false)) {
            MemorySegment source = arena.allocate(size);
            for (long position = 0; position < size; position++) {
                source.set(ValueLayout.JAVA_BYTE, position, patternByte(position));
            }
            file.write(0, source);
        }
    }

    /** Creates {@code path} with the test pattern, then empties the page cache of it and checks that it worked. */
    static void writeColdPattern(Path path, long size) {
        writePattern(path, size);
        try (FileHandle file = NativeFilesFacade.INSTANCE.open(path, FilesFacade.OpenMode.READ, false)) {
            OsPageCache.dropFromPageCache(file);
            assertEquals(0, OsPageCache.residentBytes(file, 0, size), "pages of " + path + " resident after the drop");
        }
    }

    /** Asserts that {@code segment} holds the test pattern of the file bytes from {@code fileOffset}. */
    static void assertPattern(MemorySegment segment, long fileOffset) {
        for (long index = 0; index < segment.byteSize(); index++) {
            byte actual = segment.get(ValueLayout.JAVA_BYTE, index);
            if (actual != patternByte(fileOffset + index)) {
                assertEquals(patternByte(fileOffset + index), actual, "byte at file offset " + (fileOffset + index));
            }
        }
    }

    /**
     * Tests that count what storage did need /proc/self/io, and files on a disk: on tmpfs every page
     * is always resident and nothing is ever read from a device.
     */
    static void requireStorageAccounting(Path directory) {
        assertTrue(ProcSelfIo.available(), "/proc/self/io is not available: nothing to check reads against");
        String type;
        try {
            type = Files.getFileStore(directory).type();
        } catch (IOException e) {
            throw new AssertionError("cannot tell the file system of " + directory, e);
        }
        assertNotEquals("tmpfs", type, directory + " is on tmpfs; these tests need a disk-backed file system");
    }

    /**
     * Waits until {@code [offset, offset + length)} of {@code mapped} is resident, for at most five
     * seconds. A polling wait is the one way to observe this: {@code madvise(MADV_WILLNEED)} returns
     * once the reads are queued, the kernel completes them asynchronously and offers nothing to wait
     * on, and {@code mincore} counts a page only once its read has completed.
     */
    static void awaitResident(MemorySegment mapped, long offset, long length) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        long resident;
        while ((resident = MemoryMapping.residentBytes(mapped, offset, length)) < length) {
            if (System.nanoTime() - deadline > 0) {
                fail("MADV_WILLNEED over " + length + " bytes at offset " + offset + ": only " + resident
                        + " bytes resident after 5 s");
            }
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
        }
    }
}
