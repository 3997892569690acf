package dev.columba.storage.wal;

import static dev.columba.storage.wal.LogFixtures.CHECKPOINT_FRAME;
import static dev.columba.storage.wal.LogFixtures.COMMIT_FRAME;
import static dev.columba.storage.wal.LogFixtures.HEADER;
import static dev.columba.storage.wal.LogFixtures.IMAGE_FRAME;
import static dev.columba.storage.wal.LogFixtures.commit;
import static dev.columba.storage.wal.LogFixtures.image;
import static dev.columba.storage.wal.LogFixtures.range;
import static dev.columba.storage.wal.LogFixtures.readAll;
import static dev.columba.storage.wal.LogFixtures.recordsOf;
import static dev.columba.storage.wal.LogFixtures.segment;
import static dev.columba.storage.wal.LogFixtures.size;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.io.NativeFilesFacade;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriteAheadLogTest {
    private static final long MEGABYTE = 1 << 20;

    @TempDir
    Path temporary;

    private WriteAheadLog open(long segmentSize) {
        return WriteAheadLog.open(NativeFilesFacade.INSTANCE, temporary.resolve("wal"), segmentSize);
    }

    @Test
    void aNewLogStartsWithOneEmptySegment() {
        try (WriteAheadLog log = open(MEGABYTE)) {
            assertTrue(Files.isDirectory(temporary.resolve("wal")));
            assertEquals(List.of(0L), log.segmentStartLsns());
            assertEquals(HEADER, size(segment(log.directory(), 0)));
            assertEquals(HEADER, log.endLsn());
            assertEquals(HEADER, log.durableLsn());
            assertEquals(new LogEnd.Clean(HEADER), log.tailAtOpen());
            assertEquals(List.of(), readAll(log, 0));
        }
    }

    @Test
    void everyRecordTypeRoundTripsWithItsLsn() {
        LogRecord.PageDelta delta = new LogRecord.PageDelta(9, List.of(range(0, 1, 2, 3), range(100, -1), range(8190, 7, 8)));
        List<LogRecord> transaction = List.of(image(9, 1), delta, image(Long.MAX_VALUE, 2), commit(77));
        List<LogRecord> checkpoint = List.of(new LogRecord.Checkpoint(HEADER));
        try (WriteAheadLog log = open(MEGABYTE)) {
            long[] lsns = new long[4];
            long commitLsn = log.append(transaction, lsns);
            int deltaFrame = LogFixtures.deltaFrame(delta);
            assertArrayEquals(new long[] {HEADER, HEADER + IMAGE_FRAME, HEADER + IMAGE_FRAME + deltaFrame,
                    HEADER + 2L * IMAGE_FRAME + deltaFrame}, lsns);
            assertEquals(HEADER + 2L * IMAGE_FRAME + deltaFrame + COMMIT_FRAME, commitLsn);
            long checkpointEnd = log.append(checkpoint);
            assertEquals(commitLsn + CHECKPOINT_FRAME, checkpointEnd);
            assertEquals(checkpointEnd, log.endLsn());
            assertEquals(checkpointEnd, size(segment(log.directory(), 0)));

            List<LogEntry> entries = readAll(log, HEADER);
            assertEquals(List.of(
                    new LogEntry(lsns[0], lsns[1], transaction.get(0), false),
                    new LogEntry(lsns[1], lsns[2], delta, false),
                    new LogEntry(lsns[2], lsns[3], transaction.get(2), false),
                    new LogEntry(lsns[3], commitLsn, transaction.get(3), true),
                    new LogEntry(commitLsn, checkpointEnd, checkpoint.getFirst(), true)), entries);
            assertEquals(entries, readAll(log, 0), "LSN 0 is the segment start: reading begins after its header");
            assertEquals(entries.subList(1, 5), readAll(log, lsns[1]), "reading from a record's LSN");
            assertEquals(entries.subList(4, 5), readAll(log, commitLsn), "reading from a commit LSN");
            assertEquals(List.of(), readAll(log, checkpointEnd), "reading from the end");

            LogRecord.Commit counters = new LogRecord.Commit(0, 0);
            log.append(List.of(counters));
            assertEquals(new WriteAheadLog.Counters(6, 3, checkpointEnd - HEADER + COMMIT_FRAME, 1, 0), log.counters());
        }
    }

    @Test
    void reopeningFindsTheEndAndAppendsContinueThere() {
        long end;
        List<LogRecord> written = new ArrayList<>();
        try (WriteAheadLog log = open(MEGABYTE)) {
            for (int transaction = 1; transaction <= 5; transaction++) {
                List<LogRecord> group = List.of(new LogRecord.PageDelta(transaction, List.of(range(transaction, transaction))),
                        commit(transaction));
                written.addAll(group);
                log.flush(log.append(group));
            }
            end = log.endLsn();
        }
        try (WriteAheadLog log = open(MEGABYTE)) {
            assertEquals(new LogEnd.Clean(end), log.tailAtOpen());
            assertEquals(end, log.endLsn());
            assertEquals(end, log.durableLsn());
            assertEquals(written, recordsOf(readAll(log, HEADER)));
            long[] lsns = new long[1];
            log.append(List.of(commit(6)), lsns);
            assertEquals(end, lsns[0]);
            written.add(commit(6));
            assertEquals(written, recordsOf(readAll(log, HEADER)));
        }
    }

    @Test
    void aGroupThatDoesNotFitStartsANewSegmentAndAnOversizedGroupGetsOneOfItsOwn() {
        long segmentSize = 20_000;
        int groupFrame = IMAGE_FRAME + COMMIT_FRAME;
        List<LogRecord> written = new ArrayList<>();
        List<Long> commitLsns = new ArrayList<>();
        try (WriteAheadLog log = open(segmentSize)) {
            for (int transaction = 0; transaction < 5; transaction++) {
                List<LogRecord> group = List.of(image(transaction, transaction), commit(transaction));
                written.addAll(group);
                commitLsns.add(log.append(group));
            }
            // Two groups fit in 20,000 bytes (32 + 2 x 8,240); the third starts a new segment at
            // the end of the log, whose first record follows the new header.
            long secondStart = HEADER + 2L * groupFrame;
            long thirdStart = secondStart + HEADER + 2L * groupFrame;
            assertEquals(List.of(0L, secondStart, thirdStart), log.segmentStartLsns());
            assertEquals(List.of(HEADER + (long) groupFrame, secondStart, secondStart + HEADER + groupFrame,
                    thirdStart, thirdStart + HEADER + groupFrame), commitLsns);
            assertEquals(secondStart, size(segment(log.directory(), 0)));
            assertEquals(thirdStart - secondStart, size(segment(log.directory(), secondStart)));

            List<LogRecord> oversized = List.of(image(10, 10), image(11, 11), image(12, 12), commit(10));
            written.addAll(oversized);
            long oversizedEnd = log.append(oversized);
            long fourthStart = thirdStart + HEADER + groupFrame;
            assertEquals(List.of(0L, secondStart, thirdStart, fourthStart), log.segmentStartLsns());
            assertEquals(HEADER + 3L * IMAGE_FRAME + COMMIT_FRAME, size(segment(log.directory(), fourthStart)),
                    "larger than the segment size");
            assertEquals(fourthStart + HEADER + 3L * IMAGE_FRAME + COMMIT_FRAME, oversizedEnd);

            written.add(commit(11));
            long afterOversized = log.append(List.of(commit(11)));
            assertEquals(oversizedEnd + HEADER + COMMIT_FRAME, afterOversized, "the oversized segment is full");
            assertEquals(5, log.segmentStartLsns().size());
            assertEquals(written, recordsOf(readAll(log, 0)));
            log.flush(afterOversized);
        }
        try (WriteAheadLog log = open(segmentSize)) {
            assertEquals(written, recordsOf(readAll(log, 0)));
            assertEquals(5, log.segmentStartLsns().size());
        }
    }

    @Test
    void removingSegmentsBeforeAnLsnKeepsTheSegmentHoldingIt() {
        long segmentSize = 20_000;
        List<Long> commitLsns = new ArrayList<>();
        try (WriteAheadLog log = open(segmentSize)) {
            for (int transaction = 0; transaction < 7; transaction++) {
                commitLsns.add(log.append(List.of(image(transaction, transaction), commit(transaction))));
            }
            List<Long> starts = log.segmentStartLsns();
            assertEquals(4, starts.size());
            LogReader earlyReader = log.read(0);

            assertEquals(0, log.removeSegmentsBefore(starts.get(1) - 1), "segment 0 still holds LSN start(1) - 1");
            assertEquals(1, log.removeSegmentsBefore(starts.get(1)));
            assertFalse(Files.exists(segment(log.directory(), 0)));
            assertEquals(starts.subList(1, 4), log.segmentStartLsns());
            ColumbaException removed = assertThrows(ColumbaException.class, () -> log.read(HEADER));
            assertEquals(ErrorCode.INVALID_ARGUMENT, removed.errorCode());
            assertTrue(removed.getMessage().contains("cannot read the log from LSN 32: it holds LSNs " + starts.get(1)),
                    removed.getMessage());

            List<LogEntry> fromSecond = readAll(log, starts.get(1));
            assertEquals(10, fromSecond.size());
            assertEquals(commit(2), fromSecond.get(1).record());

            assertEquals(2, log.removeSegmentsBefore(Long.MAX_VALUE), "never the segment appended to");
            assertEquals(List.of(starts.get(3)), log.segmentStartLsns());
            log.flush(log.append(List.of(commit(7))));

            List<LogEntry> early = new ArrayList<>();
            earlyReader.forEachRemaining(early::add);
            earlyReader.close();
            assertEquals(14, early.size(), "a reader keeps the segments it opened");
        }
        try (WriteAheadLog log = open(segmentSize)) {
            long start = log.segmentStartLsns().getFirst();
            assertEquals(List.of(commit(6), commit(7)),
                    recordsOf(readAll(log, start)).stream().filter(record -> record instanceof LogRecord.Commit).toList());
            assertThrows(ColumbaException.class, () -> log.read(start - 1));
        }
    }

    @Test
    void readRejectsLsnsOutsideTheLogOrInsideAHeader() {
        try (WriteAheadLog log = open(MEGABYTE)) {
            long end = log.append(List.of(commit(1)));
            for (long bad : new long[] {-1, 1, 31, end + 1}) {
                ColumbaException error = assertThrows(ColumbaException.class, () -> log.read(bad));
                assertEquals(ErrorCode.INVALID_ARGUMENT, error.errorCode(), error.getMessage());
                assertTrue(error.getMessage().contains("LSN " + bad), error.getMessage());
            }
            ColumbaException beyond = assertThrows(ColumbaException.class, () -> log.flush(end + 1));
            assertTrue(beyond.getMessage().contains("cannot flush the log to LSN " + (end + 1) + ": it ends at " + end),
                    beyond.getMessage());
            ColumbaException empty = assertThrows(ColumbaException.class, () -> log.append(List.of()));
            assertEquals(ErrorCode.INVALID_ARGUMENT, empty.errorCode());
        }
    }

    @Test
    void aClosedLogRefusesWorkButKeepsWhatWasFlushed() {
        WriteAheadLog log = open(MEGABYTE);
        long end = log.append(List.of(commit(1)));
        log.flush(end);
        log.close();
        log.close();
        ColumbaException append = assertThrows(ColumbaException.class, () -> log.append(List.of(commit(2))));
        assertEquals(ErrorCode.DATABASE_CLOSED, append.errorCode());
        assertEquals(ErrorCode.DATABASE_CLOSED, assertThrows(ColumbaException.class, () -> log.read(0)).errorCode());
        log.flush(end);
        WriteAheadLog reopened = open(MEGABYTE);
        assertEquals(List.of(commit(1)), recordsOf(readAll(reopened, 0)));
        long unflushed = reopened.append(List.of(commit(2)));
        reopened.close();
        ColumbaException flush = assertThrows(ColumbaException.class, () -> reopened.flush(unflushed));
        assertEquals(ErrorCode.DATABASE_CLOSED, flush.errorCode());
    }

    @Test
    void closingTheLogAndItsReadersReleasesEveryDescriptor() throws Exception {
        long before = openDescriptors();
        try (WriteAheadLog log = open(20_000)) {
            for (int transaction = 0; transaction < 5; transaction++) {
                log.append(List.of(image(transaction, transaction), commit(transaction)));
            }
            try (LogReader unread = log.read(0)) {
                assertTrue(unread.hasNext());
            }
            assertEquals(10, readAll(log, 0).size());
            assertThrows(ColumbaException.class, () -> log.read(1));
        }
        try (WriteAheadLog reopened = open(20_000)) {
            assertEquals(3, reopened.segmentStartLsns().size());
        }
        assertEquals(before, openDescriptors());
    }

    private static long openDescriptors() throws Exception {
        try (var descriptors = Files.list(Path.of("/proc/self/fd"))) {
            return descriptors.count();
        }
    }

    @Test
    void segmentSizeBelowTheMinimumIsRejected() {
        ColumbaException error = assertThrows(ColumbaException.class, () -> open(4095));
        assertEquals(ErrorCode.INVALID_ARGUMENT, error.errorCode());
        assertTrue(error.getMessage().contains("at least 4096 bytes, got 4095"), error.getMessage());
    }

    @Test
    void unrelatedFilesInTheDirectoryAreIgnored() throws Exception {
        Path directory = temporary.resolve("wal");
        Files.createDirectories(directory);
        Files.writeString(directory.resolve("README"), "not a segment");
        Files.writeString(directory.resolve("0000000000000000.wal.tmp"), "not a segment either");
        try (WriteAheadLog log = open(MEGABYTE)) {
            assertEquals(List.of(0L), log.segmentStartLsns());
        }
    }

    @Test
    void aStreamedGroupLargerThanTheChunkAndTheSegmentIsOneGroupInASegmentOfItsOwn() {
        int images = 100; // 100 x 8,212 bytes: larger than the 256 KB chunk and the 512 KB segment size
        List<LogRecord> expected = new ArrayList<>();
        try (WriteAheadLog log = open(MEGABYTE / 2)) {
            log.append(List.of(image(1, 1), commit(1)));
            long[] lsns = new long[images + 1];
            long groupBytes = (long) images * IMAGE_FRAME + COMMIT_FRAME;
            long commitLsn = log.append(images + 1, groupBytes, index -> {
                LogRecord record = index < images ? image(100 + index, index) : commit(2);
                expected.add(record);
                return record;
            }, lsns);
            assertEquals(2, log.segmentStartLsns().size(), "the group starts a segment of its own");
            long start = log.segmentStartLsns().get(1) + HEADER;
            assertEquals(start, lsns[0]);
            assertEquals(start + groupBytes, commitLsn);
            List<LogEntry> entries = readAll(log, start);
            assertEquals(expected, recordsOf(entries));
            assertTrue(entries.getLast().groupEnd());
            assertEquals(1, entries.stream().filter(LogEntry::groupEnd).count(), "one group");
        }
        try (WriteAheadLog reopened = open(MEGABYTE / 2)) {
            assertEquals(new LogEnd.Clean(reopened.endLsn()), reopened.tailAtOpen());
        }
    }

    @Test
    void aStreamedGroupWhoseSourceFailsOrWhoseSizeWasWrongLeavesNothingBehind() {
        try (WriteAheadLog log = open(MEGABYTE)) {
            long end = log.append(List.of(image(1, 1), commit(1)));
            IllegalStateException failure = assertThrows(IllegalStateException.class, () -> log.append(50, 50L * IMAGE_FRAME,
                    index -> {
                        if (index == 40) {
                            throw new IllegalStateException("the spill file could not be read");
                        }
                        return image(index, index);
                    }, null));
            assertEquals("the spill file could not be read", failure.getMessage());
            assertEquals(end, log.endLsn());
            assertEquals(end, size(segment(log.directory(), 0)), "the partial group was cut off the file");
            ColumbaException wrongSize = assertThrows(ColumbaException.class,
                    () -> log.append(2, IMAGE_FRAME, index -> index == 0 ? image(5, 5) : commit(5), null));
            assertEquals(ErrorCode.INVALID_ARGUMENT, wrongSize.errorCode());
            assertEquals(end, log.endLsn());
            assertEquals(end + COMMIT_FRAME, log.append(List.of(commit(6))), "the log goes on where it was");
        }
        try (WriteAheadLog reopened = open(MEGABYTE)) {
            assertEquals(2, recordsOf(readAll(reopened, HEADER)).stream().filter(LogRecord.Commit.class::isInstance).count());
        }
    }
}
