package dev.columba.storage.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Advice and residency on segments from {@code FileChannel.map}, whose offsets need not fall on page
 * boundaries: the kernel rejects an unaligned {@code madvise} or {@code mincore} with {@code EINVAL},
 * so each of these tests fails if a range is passed unaligned or aligned the wrong way.
 */
class MemoryMappingTest {
    @TempDir
    Path directory;

    private final int pageSize = OsPageCache.pageSize();

    @BeforeEach
    void requireDisk() {
        TestFiles.requireStorageAccounting(directory);
    }

    /** Anonymous memory (the buffer pool's frames) takes no page until a page is written, and reads as zeros. */
    @Test
    void anonymousMemoryIsZeroAndTakesPagesOnlyWhenTouched() {
        long length = 64L * pageSize;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment memory = MemoryMapping.anonymous(length, arena);
            assertEquals(length, memory.byteSize());
            assertEquals(0, MemoryMapping.residentBytes(memory, 0, length), "nothing committed before use");
            memory.set(ValueLayout.JAVA_LONG, 3L * pageSize + 8, 0x0123456789abcdefL);
            assertEquals(pageSize, MemoryMapping.residentBytes(memory, 0, length), "the written page only");
            assertEquals(0x0123456789abcdefL, memory.get(ValueLayout.JAVA_LONG, 3L * pageSize + 8));
            assertEquals(0L, memory.get(ValueLayout.JAVA_LONG, 40L * pageSize));
            assertEquals(-1, memory.asSlice(0, 3L * pageSize).mismatch(MemorySegment.ofArray(new byte[3 * pageSize])));
        }
        ColumbaException invalid = assertThrows(ColumbaException.class, () -> MemoryMapping.anonymous(0, Arena.global()));
        assertEquals(ErrorCode.INVALID_ARGUMENT, invalid.errorCode());
    }

    @Test
    void residencyOfASegmentThatStartsInsideAPage() throws IOException {
        Path path = directory.resolve("segment");
        long fileSize = 16L * pageSize;
        TestFiles.writeColdPattern(path, fileSize);
        long position = 3L * pageSize + 100;
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ); Arena arena = Arena.ofConfined()) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, position, fileSize - position, arena);
            assertTrue(mapped.address() % pageSize != 0, "the segment starts inside a page");
            MemoryMapping.madvise(mapped, 0, mapped.byteSize(), MemoryAdvice.RANDOM);
            assertEquals(0, MemoryMapping.residentBytes(mapped, 0, mapped.byteSize()));

            // A fault under MADV_RANDOM reads the one page holding the byte: file page 3.
            assertEquals(TestFiles.patternByte(position + 5), mapped.get(ValueLayout.JAVA_BYTE, 5));

            assertEquals(pageSize - 100, MemoryMapping.residentBytes(mapped, 0, mapped.byteSize()),
                    "the segment holds the last " + (pageSize - 100) + " bytes of the resident page");
            assertEquals(10, MemoryMapping.residentBytes(mapped, 20, 10));
            assertEquals(0, MemoryMapping.residentBytes(mapped, pageSize - 100, pageSize));
            assertEquals(0, MemoryMapping.residentBytes(mapped, 0, 0));

            // Whole pages: a range ending inside the resident page counts none of it as unread,
            // one reaching into the next page counts that page whole.
            assertEquals(0, MemoryMapping.nonResidentPageBytes(mapped, 20, 10));
            assertEquals(0, MemoryMapping.nonResidentPageBytes(mapped, 0, pageSize - 100));
            assertEquals(pageSize, MemoryMapping.nonResidentPageBytes(mapped, 10, pageSize - 100));
            assertEquals(2L * pageSize, MemoryMapping.nonResidentPageBytes(mapped, pageSize - 100, pageSize + 1));
            assertEquals(0, MemoryMapping.nonResidentPageBytes(mapped, 0, 0));
        }
    }

    @Test
    void willNeedOnAnUnalignedRangeReadsTheWholePagesItTouches() throws IOException {
        Path path = directory.resolve("segment");
        long fileSize = 16L * pageSize;
        TestFiles.writeColdPattern(path, fileSize);
        long position = 100;
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ); Arena arena = Arena.ofConfined()) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, position, fileSize - position, arena);
            MemoryMapping.madvise(mapped, 0, mapped.byteSize(), MemoryAdvice.RANDOM);

            // Two bytes straddling the boundary of file pages 0 and 1.
            MemoryMapping.madvise(mapped, pageSize - position - 1, 2, MemoryAdvice.WILLNEED);
            TestFiles.awaitResident(mapped, pageSize - position - 1, 2);

            assertEquals(2L * pageSize - position, MemoryMapping.residentBytes(mapped, 0, mapped.byteSize()),
                    "pages 0 and 1 resident, of which the segment holds all but the first " + position + " bytes");
        }
    }

    @Test
    void everyAdviceIsAcceptedOnUnalignedRanges() throws IOException {
        Path path = directory.resolve("segment");
        long fileSize = 16L * pageSize;
        TestFiles.writePattern(path, fileSize);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ); Arena arena = Arena.ofConfined()) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 100, fileSize - 100, arena);
            for (MemoryAdvice advice : MemoryAdvice.values()) {
                MemoryMapping.madvise(mapped, 1, 3, advice);
                MemoryMapping.madvise(mapped, pageSize - 101, 2, advice);
                MemoryMapping.madvise(mapped, 0, mapped.byteSize(), advice);
                MemoryMapping.madvise(mapped, mapped.byteSize(), 0, advice);
            }
            // DONTNEED unmaps this process's pages only: a shared file mapping's pages stay in the page cache.
            assertEquals(mapped.byteSize(), MemoryMapping.residentBytes(mapped, 0, mapped.byteSize()));
        }
    }

    /**
     * On a private mapping {@code MADV_DONTNEED} throws away the pages' private changes, so it must
     * touch only the whole pages inside the range: the changes in the pages at either edge survive.
     */
    @Test
    void dontNeedIsNarrowedToTheWholePagesInsideTheRange() throws IOException {
        Path path = directory.resolve("segment");
        long fileSize = 4L * pageSize;
        TestFiles.writePattern(path, fileSize);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
             Arena arena = Arena.ofConfined()) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.PRIVATE, 0, fileSize, arena);
            long[] changed = {pageSize - 1, pageSize, 2L * pageSize - 1, 2L * pageSize};
            for (long offset : changed) {
                mapped.set(ValueLayout.JAVA_BYTE, offset, (byte) ~TestFiles.patternByte(offset));
            }

            MemoryMapping.madvise(mapped, pageSize - 1, pageSize + 2, MemoryAdvice.DONTNEED);

            assertEquals((byte) ~TestFiles.patternByte(pageSize - 1), mapped.get(ValueLayout.JAVA_BYTE, pageSize - 1),
                    "page 0 keeps its private change");
            assertEquals(TestFiles.patternByte(pageSize), mapped.get(ValueLayout.JAVA_BYTE, pageSize),
                    "page 1, wholly inside the range, was dropped and reads the file again");
            assertEquals(TestFiles.patternByte(2L * pageSize - 1), mapped.get(ValueLayout.JAVA_BYTE, 2L * pageSize - 1));
            assertEquals((byte) ~TestFiles.patternByte(2L * pageSize), mapped.get(ValueLayout.JAVA_BYTE, 2L * pageSize),
                    "page 2 keeps its private change");

            MemoryMapping.madvise(mapped, 2L * pageSize + 1, pageSize - 2, MemoryAdvice.DONTNEED);
            assertEquals((byte) ~TestFiles.patternByte(2L * pageSize), mapped.get(ValueLayout.JAVA_BYTE, 2L * pageSize),
                    "a range inside one page drops nothing");
        }
    }

    @Test
    void rangesOutsideTheSegmentAndOtherSegmentsAreRejected() throws IOException {
        Path path = directory.resolve("segment");
        TestFiles.writePattern(path, 2L * pageSize);
        MemorySegment closed;
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ); Arena arena = Arena.ofConfined()) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, 2L * pageSize, arena);
            assertInvalid(() -> MemoryMapping.madvise(mapped, pageSize, pageSize + 1, MemoryAdvice.WILLNEED), "outside");
            assertInvalid(() -> MemoryMapping.residentBytes(mapped, -1, 1), "outside");
            assertInvalid(() -> MemoryMapping.residentBytes(mapped, 3L * pageSize, 0), "outside");
            closed = mapped;
        }
        assertInvalid(() -> MemoryMapping.residentBytes(closed, 0, 1), "arena is closed");
        MemorySegment heap = MemorySegment.ofArray(new byte[pageSize]);
        assertInvalid(() -> MemoryMapping.madvise(heap, 0, 1, MemoryAdvice.RANDOM), "not a file mapping");
    }

    private static void assertInvalid(org.junit.jupiter.api.function.Executable call, String reason) {
        ColumbaException error = assertThrows(ColumbaException.class, call);
        assertEquals(ErrorCode.INVALID_ARGUMENT, error.errorCode());
        assertTrue(error.getMessage().contains(reason), error.getMessage());
    }
}
