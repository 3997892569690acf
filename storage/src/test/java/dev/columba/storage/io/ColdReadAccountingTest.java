package dev.columba.storage.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.BitSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each way Columba reads a cold file, checked against the operating system: exactly the pages read
 * become resident ({@code mincore}) and exactly their bytes are charged to {@code read_bytes}
 * ({@code /proc/self/io}). The counters cover the whole process, so these tests rely on nothing else
 * in the JVM reading from storage while they measure: JUnit runs test classes one at a time (do not
 * enable parallel execution), and {@link #warmUp} loads every class the measured calls need first,
 * so that class loading cannot read from the JDK's module image in the middle of a measurement.
 */
class ColdReadAccountingTest {
    private static final long FILE_SIZE = 4L << 20;
    private static final long MEGABYTE = 1L << 20;

    @TempDir
    Path directory;

    private final int pageSize = OsPageCache.pageSize();

    @BeforeEach
    void warmUp() throws IOException {
        TestFiles.requireStorageAccounting(directory);
        Path warm = directory.resolve("warm-up");
        TestFiles.writePattern(warm, 4 * 8192);
        try (Arena arena = Arena.ofConfined();
             FileHandle file = NativeFilesFacade.INSTANCE.open(warm, FilesFacade.OpenMode.READ, false);
             FileHandle direct = NativeFilesFacade.INSTANCE.open(warm, FilesFacade.OpenMode.READ, true);
             FileChannel channel = FileChannel.open(warm, StandardOpenOption.READ);
             Arena mapping = Arena.ofConfined()) {
            ProcSelfIo before = ProcSelfIo.read();
            file.advise(0, 0, FileHandle.Advice.RANDOM);
            file.read(0, arena.allocate(8192));
            file.readScatter(0, new MemorySegment[] {arena.allocate(8192), arena.allocate(8192)});
            direct.read(0, arena.allocate(8192, FilesFacade.DIRECT_IO_ALIGNMENT));
            OsPageCache.residentPages(file, 0, 8192).residentPageCount();
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, 4 * 8192, mapping);
            MemoryMapping.madvise(mapped, 0, 8192, MemoryAdvice.WILLNEED);
            MemoryMapping.residentBytes(mapped, 0, 8192);
            mapped.get(ValueLayout.JAVA_BYTE, 0);
            ProcSelfIo.read().minus(before);
            OsPageCache.dropFromPageCache(file);
        }
    }

    @Test
    void eightKilobytePreadWithRandomAdviceReadsExactlyItsPages() {
        Path path = directory.resolve("data");
        TestFiles.writeColdPattern(path, FILE_SIZE);
        long offset = 10 * 8192;
        try (Arena arena = Arena.ofConfined();
             FileHandle file = NativeFilesFacade.INSTANCE.open(path, FilesFacade.OpenMode.READ, false)) {
            file.advise(0, 0, FileHandle.Advice.RANDOM);
            MemorySegment target = arena.allocate(8192);

            ProcSelfIo before = ProcSelfIo.read();
            assertEquals(8192, file.read(offset, target));
            long readBytes = ProcSelfIo.read().minus(before).readBytes();

            System.out.println("8 KB pread, POSIX_FADV_RANDOM, cold: read_bytes grew by " + readBytes);
            TestFiles.assertPattern(target, offset);
            assertEquals(pageRounded(offset, 8192), readBytes, "read_bytes delta of one 8 KB pread");
            assertEquals(pageRounded(offset, 8192), OsPageCache.residentBytes(file, 0, FILE_SIZE));
            PageResidency pages = OsPageCache.residentPages(file, 0, FILE_SIZE);
            assertEquals(pagesOf(offset, 8192), pages.resident(), "resident pages after reading [" + offset + ", +8192)");
        }
    }

    @Test
    void oneMegabyteScatterReadOfAColdFileReadsOneMegabyteFromStorage() {
        Path path = directory.resolve("data");
        TestFiles.writeColdPattern(path, FILE_SIZE);
        long offset = MEGABYTE;
        try (Arena arena = Arena.ofConfined();
             FileHandle file = NativeFilesFacade.INSTANCE.open(path, FilesFacade.OpenMode.READ, false)) {
            // Random advice: without it the kernel's own read-ahead (read_ahead_kb) reads past the request.
            file.advise(0, 0, FileHandle.Advice.RANDOM);
            MemorySegment[] frames = new MemorySegment[(int) (MEGABYTE / 8192)];
            for (int frame = 0; frame < frames.length; frame++) {
                frames[frame] = arena.allocate(8192);
            }

            ProcSelfIo before = ProcSelfIo.read();
            assertEquals(MEGABYTE, file.readScatter(offset, frames));
            long readBytes = ProcSelfIo.read().minus(before).readBytes();

            System.out.println("1 MB preadv, POSIX_FADV_RANDOM, cold: read_bytes grew by " + readBytes);
            for (int frame = 0; frame < frames.length; frame++) {
                TestFiles.assertPattern(frames[frame], offset + frame * 8192L);
            }
            // The kernel's own read-ahead, which this test guards against, would add hundreds of KB
            // (read_ahead_kb); on a busy machine the JVM may fault in a few pages of its own jars
            // within the window, so a few pages more are tolerated, none fewer than 1%.
            assertTrue(readBytes >= MEGABYTE - MEGABYTE / 100 && readBytes <= MEGABYTE + 64 * 1024,
                    "read_bytes grew by " + readBytes + " for a 1 MB scatter read");
            // No page outside the request came in. (Under memory pressure the kernel may already have
            // dropped a few of the pages just read, so the request's own pages are checked by the
            // pattern above and by read_bytes, not by residency.)
            BitSet outside = OsPageCache.residentPages(file, 0, FILE_SIZE).resident();
            outside.andNot(pagesOf(offset, MEGABYTE));
            assertTrue(outside.isEmpty(), "pages resident outside the 1 MB read: " + outside);
        }
    }

    @Test
    void directReadBypassesThePageCacheButIsChargedToReadBytes() {
        Path path = directory.resolve("data");
        TestFiles.writeColdPattern(path, FILE_SIZE);
        long offset = MEGABYTE;
        try (Arena arena = Arena.ofConfined();
             FileHandle file = NativeFilesFacade.INSTANCE.open(path, FilesFacade.OpenMode.READ, true)) {
            MemorySegment target = arena.allocate(64 * 1024, FilesFacade.DIRECT_IO_ALIGNMENT);

            ProcSelfIo before = ProcSelfIo.read();
            assertEquals(target.byteSize(), file.read(offset, target));
            long readBytes = ProcSelfIo.read().minus(before).readBytes();

            System.out.println("64 KB O_DIRECT pread: read_bytes grew by " + readBytes);
            TestFiles.assertPattern(target, offset);
            assertEquals(target.byteSize(), readBytes, "read_bytes delta of one 64 KB O_DIRECT read");
            assertEquals(0, OsPageCache.residentBytes(file, 0, FILE_SIZE), "bytes resident after an O_DIRECT read");
        }
    }

    @Test
    void faultOnAMappingAdvisedRandomReadsOnePage() throws IOException {
        Path path = directory.resolve("segment");
        TestFiles.writeColdPattern(path, FILE_SIZE);
        long offset = 37L * pageSize + 123;
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ); Arena arena = Arena.ofConfined()) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, FILE_SIZE, arena);
            MemoryMapping.madvise(mapped, 0, FILE_SIZE, MemoryAdvice.RANDOM);

            ProcSelfIo before = ProcSelfIo.read();
            byte value = mapped.get(ValueLayout.JAVA_BYTE, offset);
            long readBytes = ProcSelfIo.read().minus(before).readBytes();

            System.out.println("one page fault, MADV_RANDOM, cold: read_bytes grew by " + readBytes);
            assertEquals(TestFiles.patternByte(offset), value);
            assertEquals(pageSize, readBytes, "read_bytes delta of one page fault under MADV_RANDOM");
            assertEquals(pageSize, MemoryMapping.residentBytes(mapped, 0, FILE_SIZE));
            assertEquals(pageSize, MemoryMapping.residentBytes(mapped, offset - offset % pageSize, pageSize));
        }
    }

    @Test
    void willNeedOnAColdMappingReadsTheRangeAhead() throws IOException {
        Path path = directory.resolve("segment");
        TestFiles.writeColdPattern(path, FILE_SIZE);
        long offset = MEGABYTE;
        long length = MEGABYTE;
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ); Arena arena = Arena.ofConfined()) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, FILE_SIZE, arena);
            MemoryMapping.madvise(mapped, 0, FILE_SIZE, MemoryAdvice.RANDOM);

            ProcSelfIo before = ProcSelfIo.read();
            MemoryMapping.madvise(mapped, offset, length, MemoryAdvice.WILLNEED);
            long readBytesAtReturn = ProcSelfIo.read().minus(before).readBytes();
            TestFiles.awaitResident(mapped, offset, length);
            long readBytes = ProcSelfIo.read().minus(before).readBytes();

            System.out.println("MADV_WILLNEED of 1 MB, cold: read_bytes grew by " + readBytesAtReturn
                    + " when madvise returned, " + readBytes + " once resident");
            assertEquals(length, readBytes, "read_bytes delta of MADV_WILLNEED over 1 MB");
            assertEquals(length, MemoryMapping.residentBytes(mapped, 0, FILE_SIZE), "only the advised range is resident");
            TestFiles.assertPattern(mapped.asSlice(offset, length), offset);
            assertEquals(length, ProcSelfIo.read().minus(before).readBytes(), "reading resident pages read nothing more");
        }
    }

    /** The bytes of the whole pages that {@code [offset, offset + length)} touches. */
    private long pageRounded(long offset, long length) {
        long first = offset / pageSize;
        long end = (offset + length + pageSize - 1) / pageSize;
        return (end - first) * pageSize;
    }

    /** The indexes of the pages that {@code [offset, offset + length)} touches. */
    private BitSet pagesOf(long offset, long length) {
        BitSet pages = new BitSet();
        pages.set((int) (offset / pageSize), (int) ((offset + length + pageSize - 1) / pageSize));
        return pages;
    }
}
