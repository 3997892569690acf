package dev.columba.storage.wal;

import static dev.columba.storage.wal.LogFixtures.COMMIT_FRAME;
import static dev.columba.storage.wal.LogFixtures.HEADER;
import static dev.columba.storage.wal.LogFixtures.IMAGE_FRAME;
import static dev.columba.storage.wal.LogFixtures.commit;
import static dev.columba.storage.wal.LogFixtures.image;
import static dev.columba.storage.wal.LogFixtures.readAll;
import static dev.columba.storage.wal.LogFixtures.recordsOf;
import static dev.columba.storage.wal.LogFixtures.segment;
import static dev.columba.storage.wal.LogFixtures.size;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.io.NativeFilesFacade;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How opening and reading treat torn tails, corruption and bad segment headers. */
class LogRecoveryTest {
    private static final long SEGMENT_SIZE = 20_000;
    /** Two groups of an image and a commit fill a segment of {@link #SEGMENT_SIZE}. */
    private static final int GROUP_FRAME = IMAGE_FRAME + COMMIT_FRAME;

    @TempDir
    Path temporary;

    private Path directory() {
        return temporary.resolve("wal");
    }

    private WriteAheadLog open() {
        return WriteAheadLog.open(NativeFilesFacade.INSTANCE, directory(), SEGMENT_SIZE);
    }

    /** Writes {@code groups} groups of (image, commit); returns the commit LSNs. */
    private List<Long> writeGroups(int groups) {
        List<Long> commitLsns = new ArrayList<>();
        try (WriteAheadLog log = open()) {
            for (int transaction = 0; transaction < groups; transaction++) {
                commitLsns.add(log.append(List.of(image(transaction, transaction), commit(transaction))));
            }
            log.flush(log.endLsn());
        }
        return commitLsns;
    }

    private static List<LogRecord> groupsUpTo(int groups) {
        List<LogRecord> records = new ArrayList<>();
        for (int transaction = 0; transaction < groups; transaction++) {
            records.add(image(transaction, transaction));
            records.add(commit(transaction));
        }
        return records;
    }

    /** Damages the single segment of a log of two groups, reopens, and checks the second group was cut. */
    private void assertSecondGroupCut(Consumer<Path> damage, String reasonPart) {
        List<Long> commitLsns = writeGroups(2);
        Path file = segment(directory(), 0);
        damage.accept(file);
        long cut = commitLsns.get(0);
        long sizeBefore = size(file);
        try (WriteAheadLog log = open()) {
            LogEnd.Torn torn = assertInstanceOf(LogEnd.Torn.class, log.tailAtOpen());
            assertEquals(cut, torn.lsn());
            assertEquals(file, torn.file());
            assertEquals(cut, torn.offset());
            assertEquals(sizeBefore - cut, torn.discardedBytes());
            assertTrue(torn.reason().contains(reasonPart), torn.reason());
            assertEquals(cut, log.endLsn());
            assertEquals(cut, size(file));
            assertEquals(groupsUpTo(1), recordsOf(readAll(log, 0)));

            long[] lsns = new long[2];
            long end = log.append(List.of(image(7, 7), commit(7)), lsns);
            assertEquals(cut, lsns[0], "appends continue right after the last valid group");
            log.flush(end);
        }
        try (WriteAheadLog log = open()) {
            assertEquals(new LogEnd.Clean(commitLsns.get(0) + GROUP_FRAME), log.tailAtOpen());
            List<LogRecord> expected = new ArrayList<>(groupsUpTo(1));
            expected.addAll(List.of(image(7, 7), commit(7)));
            assertEquals(expected, recordsOf(readAll(log, 0)));
        }
    }

    @Test
    void aTailTruncatedInsideARecordIsCut() {
        assertSecondGroupCut(file -> LogFixtures.truncate(file, size(file) - COMMIT_FRAME - 100),
                "record at offset " + (HEADER + GROUP_FRAME) + " needs 8212 bytes but the file has 8112 left");
    }

    @Test
    void aTailTruncatedInsideARecordHeaderIsCut() {
        assertSecondGroupCut(file -> LogFixtures.truncate(file, size(file) - COMMIT_FRAME + 5),
                "incomplete record header at offset " + (HEADER + GROUP_FRAME + IMAGE_FRAME)
                        + ": 5 bytes before the end of the file, inside the group starting at offset " + (HEADER + GROUP_FRAME));
    }

    @Test
    void aGroupWithoutItsEndRecordIsCutEvenIfItsRecordsAreValid() {
        assertSecondGroupCut(file -> LogFixtures.truncate(file, size(file) - COMMIT_FRAME),
                "the group starting at offset " + (HEADER + GROUP_FRAME)
                        + " has no record marked as its end before the end of the file");
    }

    @Test
    void aTailOverwrittenWithZerosIsCut() {
        assertSecondGroupCut(file -> LogFixtures.overwrite(file, size(file) - 10, new byte[10]),
                "record at offset " + (HEADER + GROUP_FRAME + IMAGE_FRAME) + " has CRC32C");
    }

    @Test
    void aTailOverwrittenWithGarbageIsCut() {
        byte[] garbage = new byte[40];
        Arrays.fill(garbage, (byte) 0x5a);
        assertSecondGroupCut(file -> LogFixtures.overwrite(file, size(file) - COMMIT_FRAME, garbage),
                "record at offset " + (HEADER + GROUP_FRAME + IMAGE_FRAME) + " has a payload length of 1515870810 bytes");
    }

    @Test
    void aCorruptLengthIsCutWithoutAllocatingIt() {
        // The length field of the second group's image says 2 GB.
        assertSecondGroupCut(file -> LogFixtures.overwrite(file, HEADER + GROUP_FRAME + 4, new byte[] {0, 0, 0, (byte) 0x80}),
                "payload length of 2147483648 bytes, more than the largest allowed (1048576)");
    }

    @Test
    void zerosAfterTheLastGroupAreCut() {
        List<Long> commitLsns = writeGroups(1);
        Path file = segment(directory(), 0);
        LogFixtures.overwrite(file, size(file), new byte[4096]);
        try (WriteAheadLog log = open()) {
            assertEquals(new LogEnd.Torn(commitLsns.get(0), file, commitLsns.get(0), 4096,
                    "record at offset " + commitLsns.get(0) + " has CRC32C 0x00000000, computed "
                            + crcOfZeroFrameAt(commitLsns.get(0))), log.tailAtOpen());
            assertEquals(groupsUpTo(1), recordsOf(readAll(log, 0)));
        }
    }

    private static String crcOfZeroFrameAt(long lsn) {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        for (int shift = 0; shift < 64; shift += 8) {
            crc.update((int) (lsn >>> shift));
        }
        crc.update(new byte[8]);
        return String.format("0x%08x", (int) crc.getValue());
    }

    @Test
    void aBadRecordBeforeLaterSegmentsIsCorruptionNamingFileAndOffset() {
        writeGroups(5);
        Path first = segment(directory(), 0);
        long badOffset = HEADER + GROUP_FRAME + 100;
        LogFixtures.flipByte(first, badOffset);
        try (WriteAheadLog log = open(); LogReader reader = log.read(0)) {
            assertEquals(image(0, 0), reader.next().record());
            assertEquals(commit(0), reader.next().record());
            ColumbaException error = assertThrows(ColumbaException.class, reader::hasNext);
            assertEquals(ErrorCode.WAL_CORRUPT, error.errorCode());
            assertTrue(error.getMessage().contains("write-ahead log segment " + first + " at offset " + (HEADER + GROUP_FRAME)
                    + ": record at offset " + (HEADER + GROUP_FRAME) + " has CRC32C"), error.getMessage());
            assertTrue(error.getMessage().endsWith("later segments follow, so this is not a torn tail"), error.getMessage());
        }
    }

    @Test
    void aSegmentThatNoLongerEndsWhereTheNextStartsIsCorruption() {
        writeGroups(3);
        Path first = segment(directory(), 0);
        LogFixtures.truncate(first, size(first) - COMMIT_FRAME);
        ColumbaException error = assertThrows(ColumbaException.class, this::open);
        assertEquals(ErrorCode.WAL_CORRUPT, error.errorCode());
        long secondStart = HEADER + 2L * GROUP_FRAME;
        assertTrue(error.getMessage().contains(first + " at offset " + (secondStart - COMMIT_FRAME) + ": the segment ends at LSN "
                + (secondStart - COMMIT_FRAME) + " but the next segment, " + String.format("%016x.wal", secondStart)
                + ", starts at LSN " + secondStart), error.getMessage());
    }

    @Test
    void anEarlierSegmentEndingInsideAGroupIsCorruption() {
        writeGroups(3);
        Path first = segment(directory(), 0);
        // Rewrite the first segment's last commit, validly framed but without the group-end flag.
        long commitLsn = HEADER + GROUP_FRAME + IMAGE_FRAME;
        byte[] frame = new byte[COMMIT_FRAME];
        RecordCodec.encode(commit(1), commitLsn, false, frame, 0, new java.util.zip.CRC32C());
        LogFixtures.overwrite(first, commitLsn, frame);
        try (WriteAheadLog log = open(); LogReader reader = log.read(0)) {
            for (int record = 0; record < 4; record++) {
                reader.next();
            }
            ColumbaException error = assertThrows(ColumbaException.class, reader::hasNext);
            assertEquals(ErrorCode.WAL_CORRUPT, error.errorCode());
            assertTrue(error.getMessage().contains(first + " at offset " + (HEADER + GROUP_FRAME)
                    + ": the group starting here does not end before the end of the segment, and later segments follow"),
                    error.getMessage());
        }
    }

    @Test
    void aBadRecordInTheMiddleOfTheLastSegmentEndsTheReadAsTorn() {
        List<Long> commitLsns = writeGroups(2);
        try (WriteAheadLog log = open()) {
            Path file = segment(directory(), 0);
            LogFixtures.flipByte(file, HEADER + 50);
            try (LogReader reader = log.read(0)) {
                assertFalse(reader.hasNext());
                LogEnd.Torn torn = assertInstanceOf(LogEnd.Torn.class, reader.end());
                assertEquals(HEADER, torn.lsn());
                assertEquals(file, torn.file());
                assertEquals(HEADER, torn.offset());
                assertEquals(commitLsns.get(1) - HEADER, torn.discardedBytes());
                assertTrue(torn.reason().startsWith("record at offset 32 has CRC32C"), torn.reason());
            }
        }
    }

    @Test
    void aSegmentWithBadMagicIsRejected() {
        writeGroups(3);
        Path first = segment(directory(), 0);
        LogFixtures.overwrite(first, 0, "NOT-WAL!".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        ColumbaException error = assertThrows(ColumbaException.class, this::open);
        assertEquals(ErrorCode.FILE_MAGIC_MISMATCH, error.errorCode());
        assertTrue(error.getMessage().contains(first + " at offset 0: magic is 4e4f542d57414c21, expected 434c4d422d57414c"),
                error.getMessage());

        Path last = segment(directory(), HEADER + 2L * GROUP_FRAME);
        LogFixtures.overwrite(first, 0, "CLMB-WAL".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        LogFixtures.overwrite(last, 3, new byte[] {'X'});
        assertEquals(ErrorCode.FILE_MAGIC_MISMATCH, assertThrows(ColumbaException.class, this::open).errorCode());
    }

    @Test
    void aSegmentOfANewerFormatVersionIsRejected() {
        writeGroups(1);
        Path file = segment(directory(), 0);
        LogFixtures.overwrite(file, 8, new byte[] {2, 0});
        ColumbaException tooNew = assertThrows(ColumbaException.class, this::open);
        assertEquals(ErrorCode.FORMAT_TOO_NEW, tooNew.errorCode());
        assertTrue(tooNew.getMessage().contains(file + " at offset 8: format version 2 is newer than the newest this build reads (1)"),
                tooNew.getMessage());

        LogFixtures.overwrite(file, 8, new byte[] {0, 0});
        ColumbaException tooOld = assertThrows(ColumbaException.class, this::open);
        assertEquals(ErrorCode.FORMAT_TOO_OLD, tooOld.errorCode());
        assertTrue(tooOld.getMessage().contains(file + " at offset 8: format version 0 is older than the oldest this build reads (1)"),
                tooOld.getMessage());
    }

    @Test
    void aSegmentHeaderWithABadChecksumOrWrongStartIsCorrupt() {
        writeGroups(1);
        Path file = segment(directory(), 0);
        LogFixtures.flipByte(file, 20);
        ColumbaException badCrc = assertThrows(ColumbaException.class, this::open);
        assertEquals(ErrorCode.WAL_CORRUPT, badCrc.errorCode());
        assertTrue(badCrc.getMessage().contains(file + " at offset 28: segment header CRC32C is "), badCrc.getMessage());
        LogFixtures.flipByte(file, 20);

        Path renamed = segment(directory(), 0x100);
        try {
            Files.move(file, renamed);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        ColumbaException wrongStart = assertThrows(ColumbaException.class, this::open);
        assertEquals(ErrorCode.WAL_CORRUPT, wrongStart.errorCode());
        assertTrue(wrongStart.getMessage().contains(renamed + " at offset 16: segment header says start LSN 0 but the file name says 256"),
                wrongStart.getMessage());
    }

    @Test
    void aLastSegmentWhoseCreationWasInterruptedIsWrittenAgain() throws Exception {
        List<Long> commitLsns = writeGroups(2);
        long nextStart = commitLsns.get(1);
        Path interrupted = segment(directory(), nextStart);
        Files.write(interrupted, new byte[] {'C', 'L', 'M'});
        try (WriteAheadLog log = open()) {
            assertEquals(new LogEnd.Torn(nextStart + HEADER, interrupted, 0, 3, "segment header incomplete (3 bytes, short): rewritten"),
                    log.tailAtOpen());
            assertEquals(List.of(0L, nextStart), log.segmentStartLsns());
            assertEquals(HEADER, size(interrupted));
            log.flush(log.append(List.of(commit(9))));
            List<LogRecord> expected = new ArrayList<>(groupsUpTo(2));
            expected.add(commit(9));
            assertEquals(expected, recordsOf(readAll(log, 0)));
        }

        Files.write(segment(directory(), 0), new byte[HEADER + 5]);
        Files.delete(interrupted);
        try (WriteAheadLog log = open()) {
            assertEquals(new LogEnd.Torn(HEADER, segment(directory(), 0), 0, HEADER + 5,
                    "segment header incomplete (37 bytes, zeros): rewritten"), log.tailAtOpen());
            assertEquals(List.of(), readAll(log, 0));
        }
    }

    @Test
    void aValidFrameThatBreaksTheFormatIsCorruptEvenAtTheTail() {
        writeGroups(1);
        Path file = segment(directory(), 0);
        // Rewrite the commit's frame with an unknown type and a CRC that matches it.
        long commitOffset = HEADER + IMAGE_FRAME;
        byte[] frame = new byte[COMMIT_FRAME];
        RecordCodec.writeInt(frame, 4, 16);
        frame[8] = 99;
        frame[9] = 1;
        RecordCodec.writeInt(frame, 0, RecordCodec.frameCrc(commitOffset, frame, 0, COMMIT_FRAME, new java.util.zip.CRC32C()));
        LogFixtures.overwrite(file, commitOffset, frame);
        ColumbaException error = assertThrows(ColumbaException.class, this::open);
        assertEquals(ErrorCode.WAL_CORRUPT, error.errorCode());
        assertTrue(error.getMessage().contains(file + " at offset " + commitOffset + ": unknown record type 99"),
                error.getMessage());
    }
}
