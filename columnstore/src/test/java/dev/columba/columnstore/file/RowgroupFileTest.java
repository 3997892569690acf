package dev.columba.columnstore.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.stats.IoStats;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.io.OsPageCache;
import dev.columba.storage.io.ProcSelfIo;
import java.io.RandomAccessFile;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RowgroupFileTest {
    @TempDir
    Path directory;

    private static List<SegmentBlob> segments(int columns, int bytesEach, long seed) {
        Random random = new Random(seed);
        List<SegmentBlob> segments = new ArrayList<>();
        for (int column = 0; column < columns; column++) {
            byte[] bytes = new byte[bytesEach + column * 1000];
            random.nextBytes(bytes);
            segments.add(new SegmentBlob(bytes, ("meta " + column).getBytes()));
        }
        return segments;
    }

    private Path write(List<SegmentBlob> segments) {
        Path path = directory.resolve("7.crg");
        RowgroupFileWriter.write(NativeFilesFacade.INSTANCE, path, 7, 12345, 0, segments.size(), segments);
        return path;
    }

    private static void dropCache(Path path) {
        try (FileHandle file = NativeFilesFacade.INSTANCE.open(path, FilesFacade.OpenMode.READ_WRITE, false)) {
            OsPageCache.dropFromPageCache(file);
        }
    }

    private static long readAll(MemorySegment segment) {
        long sum = 0;
        for (long offset = 0; offset < segment.byteSize(); offset += 512) {
            sum += segment.get(ValueLayout.JAVA_BYTE, offset);
        }
        return sum;
    }

    @Test
    void segmentsAndMetadataRoundTripAndStartOnEightKilobyteBoundaries() {
        List<SegmentBlob> segments = segments(4, 20_000, 1);
        Path path = write(segments);
        try (RowgroupFile file = RowgroupFile.open(NativeFilesFacade.INSTANCE, path)) {
            assertEquals(7, file.rowgroupId());
            assertEquals(12345, file.rows());
            assertEquals(4, file.columnCount());
            for (int column = 0; column < 4; column++) {
                assertEquals(0, file.segmentOffset(column) % RowgroupFileFormat.SEGMENT_ALIGNMENT);
                file.verifySegment(column);
                assertArrayEquals(segments.get(column).bytes(), file.segment(column).toArray(ValueLayout.JAVA_BYTE));
                assertArrayEquals(segments.get(column).metadata(), file.metadata(column));
            }
        }
    }

    @Test
    void damageIsReportedWithFileAndOffset() throws Exception {
        List<SegmentBlob> segments = segments(3, 10_000, 2);
        Path path = write(segments);
        long segmentOffset;
        try (RowgroupFile file = RowgroupFile.open(NativeFilesFacade.INSTANCE, path)) {
            segmentOffset = file.segmentOffset(1);
        }
        try (RandomAccessFile raw = new RandomAccessFile(path.toFile(), "rw")) {
            raw.seek(segmentOffset + 100);
            int value = raw.read();
            raw.seek(segmentOffset + 100);
            raw.write(value ^ 1);
        }
        try (RowgroupFile file = RowgroupFile.open(NativeFilesFacade.INSTANCE, path)) {
            file.verifySegment(0);
            ColumbaException error = assertThrows(ColumbaException.class, () -> file.verifySegment(1));
            assertEquals(ErrorCode.PAGE_CHECKSUM_MISMATCH, error.errorCode());
            assertTrue(error.getMessage().contains(path.toString()) && error.getMessage().contains("column 1")
                    && error.getMessage().contains("offset " + segmentOffset), error.getMessage());
        }
        try (RandomAccessFile raw = new RandomAccessFile(path.toFile(), "rw")) {
            raw.setLength(raw.length() - 10);
        }
        ColumbaException truncated = assertThrows(ColumbaException.class,
                () -> RowgroupFile.open(NativeFilesFacade.INSTANCE, path));
        assertEquals(ErrorCode.FILE_TRUNCATED, truncated.errorCode());
        try (RandomAccessFile raw = new RandomAccessFile(path.toFile(), "rw")) {
            raw.seek(8);
            raw.write(new byte[] {9, 0, 0, 0});
        }
        Path other = directory.resolve("8.crg");
        RowgroupFileWriter.write(NativeFilesFacade.INSTANCE, other, 8, 1, 0, segments.size(), segments);
        try (RandomAccessFile raw = new RandomAccessFile(other.toFile(), "rw")) {
            raw.seek(8);
            raw.write(new byte[] {9, 0, 0, 0});
        }
        ColumbaException tooNew = assertThrows(ColumbaException.class,
                () -> RowgroupFile.open(NativeFilesFacade.INSTANCE, other));
        assertEquals(ErrorCode.FORMAT_TOO_NEW, tooNew.errorCode());
    }

    @Test
    void readAheadIsBoundedByTheFileAndCountersAgreeWithTheOperatingSystem() {
        List<SegmentBlob> segments = segments(4, 3 << 20, 3);
        Path path = write(segments);
        for (boolean readAhead : new boolean[] {true, false}) {
            dropCache(path);
            IoCounters counters = new IoCounters();
            SegmentIo io = new SegmentIo(counters, readAhead, 1 << 20);
            ProcSelfIo before = ProcSelfIo.read();
            long sum = 0;
            try (RowgroupFile file = RowgroupFile.open(NativeFilesFacade.INSTANCE, path)) {
                io.readAhead(file, new int[] {0, 1, 3});
                for (int column : new int[] {0, 1, 3}) {
                    io.touch(file, file.segmentOffset(column), file.segmentLength(column));
                    sum += readAll(file.segment(column));
                }
                io.release(file);
            }
            io.close();
            long readBytes = ProcSelfIo.read().minus(before).readBytes();
            IoStats stats = counters.snapshot();
            assertTrue(sum != 0 || readBytes > 0);
            long touched = segments.get(0).bytes().length + segments.get(1).bytes().length + segments.get(3).bytes().length;
            assertEquals(SegmentIo.units(segments.get(0).bytes().length) + SegmentIo.units(segments.get(1).bytes().length)
                    + SegmentIo.units(segments.get(3).bytes().length), stats.lobLogicalReads());
            assertEquals(3, stats.segmentReads());
            if (readAhead) {
                assertTrue(stats.lobReadAheadReads() > 0);
                assertEquals(0, stats.lobPhysicalReads());
                assertTrue(io.largestRequestBytes() <= 1 << 20, "requests are at most the maximum");
                assertEquals(0, stats.readAheadWasted());
            } else {
                assertEquals(0, stats.lobReadAheadReads());
                assertTrue(stats.lobPhysicalReads() > 0);
            }
            assertTrue(stats.readBytes() >= touched, "every touched byte was read: " + stats);
            assertEquals(1.0, (double) stats.readBytes() / readBytes, 0.05,
                    "read-ahead " + readAhead + ": counted " + stats.readBytes() + ", /proc/self/io " + readBytes);
        }
    }
}
