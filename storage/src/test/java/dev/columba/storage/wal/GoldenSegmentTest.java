package dev.columba.storage.wal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.columba.storage.io.NativeFilesFacade;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A segment written by format version 1, committed under
 * {@code src/test/resources/format/wal/v1/}: this build must read it, and write the same bytes for
 * the same records. If the second test fails, the format changed: bump the version, keep this file
 * and add a new golden file ({@code docs/format/wal.md}, "History").
 */
class GoldenSegmentTest {
    private static final String GOLDEN = "/format/wal/v1/0000000000000000.wal";

    @TempDir
    Path temporary;

    /** The records in the golden file, as two groups. */
    static List<List<LogRecord>> goldenGroups() {
        byte[] image = new byte[8192];
        for (int index = 0; index < image.length; index++) {
            image[index] = (byte) (index * 31 + 7);
        }
        return List.of(
                List.of(new LogRecord.PageImage(7, image),
                        new LogRecord.PageDelta(7, List.of(LogFixtures.range(16, 1, 2, 3, 4), LogFixtures.range(8000, -1, -2))),
                        new LogRecord.Commit(42, 1_700_000_000_123_456L)),
                List.of(new LogRecord.Checkpoint(32)));
    }

    private static byte[] goldenBytes() throws IOException {
        try (InputStream input = GoldenSegmentTest.class.getResourceAsStream(GOLDEN)) {
            assertNotNull(input, GOLDEN);
            return input.readAllBytes();
        }
    }

    @Test
    void version1SegmentReadsBackExactly() throws IOException {
        Path directory = temporary.resolve("wal");
        Files.createDirectories(directory);
        Files.write(directory.resolve("0000000000000000.wal"), goldenBytes());
        List<List<LogRecord>> groups = goldenGroups();
        try (WriteAheadLog log = WriteAheadLog.open(NativeFilesFacade.INSTANCE, directory, 1 << 20)) {
            assertEquals(new LogEnd.Clean(8328), log.tailAtOpen());
            assertEquals(List.of(
                    new LogEntry(32, 8244, groups.get(0).get(0), false),
                    new LogEntry(8244, 8280, groups.get(0).get(1), false),
                    new LogEntry(8280, 8308, groups.get(0).get(2), true),
                    new LogEntry(8308, 8328, groups.get(1).get(0), true)), LogFixtures.readAll(log, 0));
        }
    }

    @Test
    void thisBuildWritesTheSameBytes() throws IOException {
        Path directory = temporary.resolve("wal");
        try (WriteAheadLog log = WriteAheadLog.open(NativeFilesFacade.INSTANCE, directory, 1 << 20)) {
            for (List<LogRecord> group : goldenGroups()) {
                log.append(group);
            }
        }
        assertArrayEquals(goldenBytes(), Files.readAllBytes(directory.resolve("0000000000000000.wal")));
    }
}
