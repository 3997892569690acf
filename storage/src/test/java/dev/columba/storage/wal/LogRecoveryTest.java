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
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
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

    private static byte[] readAllBytes(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private WriteAheadLog open(RecoveryOptions options) {
        return WriteAheadLog.open(NativeFilesFacade.INSTANCE, directory(), SEGMENT_SIZE, options);
    }

    private RecoveryOptions options(long durableLsn, long redoLsn, RecoveryOptions.OnDamage onDamage) {
        return new RecoveryOptions(durableLsn, redoLsn, temporary.resolve("damaged"), onDamage);
    }

    /** Bytes of every segment file, by name. */
    private Map<String, byte[]> logBytes() {
        try (Stream<Path> files = Files.list(directory())) {
            Map<String, byte[]> bytes = new TreeMap<>();
            for (Path file : files.toList()) {
                bytes.put(file.getFileName().toString(), Files.readAllBytes(file));
            }
            return bytes;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Opens the log expecting a refusal for damage at {@code offset} of {@code file}: the error names
     * file, offset, LSN and {@code problemPart}; no byte of the log changed; the damaged segments
     * are preserved, byte for byte, in the damaged directory.
     */
    private ColumbaException assertRefused(Path file, long offset, String problemPart) {
        return assertRefused(file, offset, problemPart, RecoveryOptions.refuse(temporary.resolve("damaged")));
    }

    private ColumbaException assertRefused(Path file, long offset, String problemPart, RecoveryOptions options) {
        Map<String, byte[]> before = logBytes();
        ColumbaException error = assertThrows(ColumbaException.class, () -> open(options));
        assertEquals(ErrorCode.WAL_CORRUPT, error.errorCode());
        long lsn = LogFormat.startLsnOfName(file.getFileName().toString()) + offset;
        assertTrue(error.getMessage().contains("write-ahead log segment " + file + " at offset " + offset + " (LSN " + lsn
                + "): " + problemPart), error.getMessage());
        Map<String, byte[]> after = logBytes();
        assertEquals(before.keySet(), after.keySet());
        before.forEach((name, bytes) -> assertArrayEquals(bytes, after.get(name), name + " changed"));
        Path copy = preservedCopy();
        assertTrue(error.getMessage().contains("a copy of the damaged segments is in " + copy), error.getMessage());
        try {
            assertArrayEquals(before.get(file.getFileName().toString()),
                    Files.readAllBytes(copy.resolve(file.getFileName())));
            assertTrue(Files.readString(copy.resolve("report.txt")).contains(problemPart));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        assertEquals(ErrorCode.WAL_CORRUPT, assertThrows(ColumbaException.class, () -> open(options)).errorCode(),
                "refused again");
        assertEquals(copy, preservedCopy(), "refusing the same damage again keeps one copy");
        return error;
    }

    /** The one incident folder under damaged/. */
    private Path preservedCopy() {
        try (Stream<Path> incidents = Files.list(temporary.resolve("damaged"))) {
            List<Path> all = incidents.toList();
            assertEquals(1, all.size(), all.toString());
            return all.getFirst();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
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
        byte[] tail = Arrays.copyOfRange(readAllBytes(file), (int) cut, (int) sizeBefore);
        try (WriteAheadLog log = open()) {
            try {
                assertArrayEquals(tail, Files.readAllBytes(preservedCopy().resolve(file.getFileName() + ".tail-" + cut)),
                        "the cut bytes are kept aside");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
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
    void garbageOverTheLastRecordIsCorruptionNotATornTail() {
        // A whole frame's worth of non-zero bytes is not what an interrupted append leaves.
        List<Long> commitLsns = writeGroups(2);
        Path file = segment(directory(), 0);
        byte[] garbage = new byte[COMMIT_FRAME];
        Arrays.fill(garbage, (byte) 0x5a);
        long commitOffset = commitLsns.get(1) - COMMIT_FRAME;
        LogFixtures.overwrite(file, commitOffset, garbage);
        assertRefused(file, commitOffset, "record at offset " + commitOffset + " has a payload length of 1515870810 bytes");
    }

    @Test
    void aCorruptLengthFollowedByAValidRecordIsCorruptionFoundWithoutAllocatingIt() {
        // The length field of the second group's image says 2 GB; its commit is still valid after it.
        writeGroups(2);
        Path file = segment(directory(), 0);
        LogFixtures.overwrite(file, HEADER + GROUP_FRAME + 4, new byte[] {0, 0, 0, (byte) 0x80});
        ColumbaException error = assertRefused(file, HEADER + GROUP_FRAME, "record at offset " + (HEADER + GROUP_FRAME)
                + " has a payload length of 2147483648 bytes, more than the largest allowed (1048576)");
        long commitOffset = HEADER + GROUP_FRAME + IMAGE_FRAME;
        assertTrue(error.getMessage().contains("a valid record follows at offset " + commitOffset + " (LSN "
                + commitOffset + "), so this is not a torn tail"), error.getMessage());
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
    void aBadRecordBeforeLaterSegmentsIsCorruptionNamingFileOffsetAndLsn() {
        writeGroups(5);
        Path first = segment(directory(), 0);
        LogFixtures.flipByte(first, HEADER + GROUP_FRAME + 100);
        ColumbaException error = assertRefused(first, HEADER + GROUP_FRAME,
                "record at offset " + (HEADER + GROUP_FRAME) + " has CRC32C");
        assertTrue(error.getMessage().contains("later segments follow, so this is not a torn tail"), error.getMessage());
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
        assertRefused(first, HEADER + GROUP_FRAME, "the group starting at offset " + (HEADER + GROUP_FRAME)
                + " has no record marked as its end before the end of the segment, and later segments follow");
    }

    @Test
    void aRecordDamagedAfterOpenIsCorruptionToAReader() {
        writeGroups(2);
        try (WriteAheadLog log = open()) {
            Path file = segment(directory(), 0);
            LogFixtures.flipByte(file, HEADER + 50);
            try (LogReader reader = log.read(0)) {
                ColumbaException error = assertThrows(ColumbaException.class, reader::hasNext);
                assertEquals(ErrorCode.WAL_CORRUPT, error.errorCode());
                assertTrue(error.getMessage().contains(file + " at offset 32 (LSN 32): record at offset 32 has CRC32C"),
                        error.getMessage());
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

    @Test
    void aDamagedRecordFollowedByCommittedGroupsIsCorruptionAndNothingIsCut() {
        List<Long> commitLsns = writeGroups(2);
        try (WriteAheadLog log = open()) {
            for (int transaction = 2; transaction < 2 + 4; transaction++) {
                log.append(List.of(new LogRecord.PageDelta(transaction, List.of(LogFixtures.range(8, transaction))),
                        commit(transaction)));
            }
            log.flush(log.endLsn());
        }
        Path file = segment(directory(), 0);
        long damaged = commitLsns.get(1) + 20;
        LogFixtures.flipByte(file, damaged);
        ColumbaException error = assertRefused(file, commitLsns.get(1),
                "record at offset " + commitLsns.get(1) + " has CRC32C");
        assertTrue(error.getMessage().contains("a valid record follows at offset "), error.getMessage());
        assertTrue(error.getMessage().contains("The log can be trusted up to LSN " + commitLsns.get(1)), error.getMessage());

        LogFixtures.flipByte(file, damaged);
        try (WriteAheadLog log = open()) {
            assertEquals(12, readAll(log, 0).size(), "with the byte restored, every record is there");
        }
    }

    @Test
    void aDamagedLastRecordIsCorruptionThoughNothingFollowsIt() {
        List<Long> commitLsns = writeGroups(2);
        Path file = segment(directory(), 0);
        long commitOffset = commitLsns.get(1) - COMMIT_FRAME;
        LogFixtures.flipByte(file, commitOffset + 14);
        assertRefused(file, commitOffset, "record at offset " + commitOffset + " has CRC32C");
        assertTrue(Files.exists(file));
    }

    @Test
    void aTornLookingTailInsideWhatTheControlFileProvesDurableIsCorruption() {
        List<Long> commitLsns = writeGroups(2);
        Path file = segment(directory(), 0);
        LogFixtures.truncate(file, size(file) - 5);
        long secondGroup = commitLsns.get(0);
        ColumbaException error = assertRefused(file, secondGroup + IMAGE_FRAME, "record at offset "
                + (secondGroup + IMAGE_FRAME) + " needs 28 bytes but the file has 23 left",
                options(commitLsns.get(1), 0, RecoveryOptions.OnDamage.REFUSE));
        assertTrue(error.getMessage().contains("the log reached storage up to LSN " + commitLsns.get(1)), error.getMessage());
    }

    @Test
    void aLogEndingBeforeWhatTheControlFileProvesDurableIsCorruption() {
        List<Long> commitLsns = writeGroups(2);
        Path file = segment(directory(), 0);
        LogFixtures.truncate(file, commitLsns.get(0));
        assertRefused(file, commitLsns.get(0), "the log ends here, but it reached storage up to LSN " + commitLsns.get(1),
                options(commitLsns.get(1), 0, RecoveryOptions.OnDamage.REFUSE));
    }

    /**
     * Every byte of a log of small groups, flipped in turn, with nothing known about durability
     * (as after a crash): each flip is refused as damage, leaves every byte of the log as it was,
     * and once the byte is restored the log opens with every record.
     */
    @Test
    void everySingleByteFlipIsRefusedAndTheLogSurvivesIt() throws Exception {
        List<LogRecord> written = new ArrayList<>();
        try (WriteAheadLog log = open()) {
            for (int transaction = 1; transaction <= 5; transaction++) {
                List<LogRecord> group = new ArrayList<>();
                group.add(new LogRecord.PageDelta(transaction, List.of(LogFixtures.range(transaction, 1, 2, 3))));
                if (transaction % 3 == 0) {
                    group.add(new LogRecord.PageDelta(transaction + 100, List.of(LogFixtures.range(0, 0, 0))));
                }
                group.add(transaction % 4 == 0 ? new LogRecord.Checkpoint(HEADER) : commit(transaction));
                log.append(group);
                written.addAll(group);
            }
            log.flush(log.endLsn());
        }
        Path file = segment(directory(), 0);
        byte[] original = Files.readAllBytes(file);
        for (int offset = 0; offset < original.length; offset++) {
            LogFixtures.flipByte(file, offset);
            int flipped = offset;
            ColumbaException error = assertThrows(ColumbaException.class, this::open, () -> "flip at offset " + flipped);
            assertEquals(ErrorCode.Category.CORRUPTION, error.errorCode().category(), error.getMessage());
            assertTrue(error.getMessage().contains(file.toString()), error.getMessage());
            assertArrayEquals(Files.readAllBytes(file), flippedCopy(original, offset), "flip at offset " + offset
                    + " left the log as it was");
            LogFixtures.flipByte(file, offset);
            deleteTree(temporary.resolve("damaged"));
        }
        try (WriteAheadLog log = open()) {
            assertEquals(new LogEnd.Clean(original.length), log.tailAtOpen());
            assertEquals(written, recordsOf(readAll(log, 0)));
        }
    }

    private static byte[] flippedCopy(byte[] original, int offset) {
        byte[] copy = original.clone();
        copy[offset] = (byte) ~copy[offset];
        return copy;
    }

    private static void deleteTree(Path root) throws java.io.IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    @Test
    void pointInTimeRecoveryCutsAtTheLastWholeGroupBeforeTheDamageAndKeepsTheOriginal() throws Exception {
        List<Long> commitLsns = writeGroups(2);
        Path file = segment(directory(), 0);
        LogFixtures.flipByte(file, commitLsns.get(0) + 40);
        byte[] original = Files.readAllBytes(file);
        RecoveryOptions pointInTime = options(0, HEADER, RecoveryOptions.OnDamage.RECOVER_TO_LAST_CONSISTENT_POINT);
        try (WriteAheadLog log = open(pointInTime)) {
            LogRepair repair = log.repairAtOpen().orElseThrow();
            assertEquals(commitLsns.get(0), repair.recoveredToLsn());
            assertEquals(commitLsns.get(1) - commitLsns.get(0), repair.discardedBytes());
            assertEquals(file, repair.damage().file());
            assertEquals(commitLsns.get(0), repair.damage().offset());
            assertArrayEquals(original, Files.readAllBytes(repair.preservedIn().resolve(file.getFileName())));
            assertTrue(repair.describe().contains("bytes of log after it were discarded, with every transaction they held"),
                    repair.describe());
            assertEquals(List.of(0L, commitLsns.get(0)), log.segmentStartLsns(), "a new segment starts at the cut");
            assertEquals(commitLsns.get(0) + HEADER, log.endLsn());
            assertEquals(groupsUpTo(1), recordsOf(readAll(log, 0)));
            log.flush(log.append(List.of(image(7, 7), commit(7))));
        }
        try (WriteAheadLog log = open()) {
            assertTrue(log.repairAtOpen().isEmpty());
            List<LogRecord> expected = new ArrayList<>(groupsUpTo(1));
            expected.addAll(List.of(image(7, 7), commit(7)));
            assertEquals(expected, recordsOf(readAll(log, 0)));
        }
    }

    @Test
    void pointInTimeRecoveryNeverCutsBeforeTheRedoPoint() throws Exception {
        List<Long> commitLsns = writeGroups(2);
        Path file = segment(directory(), 0);
        LogFixtures.flipByte(file, HEADER + 40);
        long redo = commitLsns.get(0);
        assertRefused(file, HEADER, "record at offset " + HEADER + " has CRC32C",
                options(0, redo, RecoveryOptions.OnDamage.REFUSE));
        try (WriteAheadLog log = open(options(0, redo, RecoveryOptions.OnDamage.RECOVER_TO_LAST_CONSISTENT_POINT))) {
            LogRepair repair = log.repairAtOpen().orElseThrow();
            assertEquals(commitLsns.get(1), repair.recoveredToLsn(), "the damage lies before the redo point: nothing after it is lost");
            assertEquals(0, repair.discardedBytes());
            assertEquals(List.of(0L, commitLsns.get(1)), log.segmentStartLsns());
            assertEquals(List.of(image(1, 1), commit(1)), recordsOf(readAll(log, redo)));
            assertEquals(1, log.removeSegmentsBefore(log.endLsn()), "the damaged segment goes at the next checkpoint");
        }
        try (WriteAheadLog log = open()) {
            assertEquals(new LogEnd.Clean(commitLsns.get(1) + HEADER), log.tailAtOpen());
        }
    }

    @Test
    void readOnlyOpensAtTheLastConsistentPointAndChangesNoLogFile() {
        List<Long> commitLsns = writeGroups(2);
        Path file = segment(directory(), 0);
        LogFixtures.flipByte(file, commitLsns.get(0) + 40);
        Map<String, byte[]> before = logBytes();
        try (WriteAheadLog log = open(options(0, HEADER, RecoveryOptions.OnDamage.OPEN_READ_ONLY_AT_LAST_CONSISTENT_POINT))) {
            assertTrue(log.readOnly());
            assertEquals(commitLsns.get(0), log.endLsn());
            assertEquals(groupsUpTo(1), recordsOf(readAll(log, 0)));
            LogRepair opened = log.repairAtOpen().orElseThrow();
            assertTrue(opened.readOnly());
            assertEquals(commitLsns.get(0), opened.recoveredToLsn());
            assertEquals(commitLsns.get(1) - commitLsns.get(0), opened.discardedBytes());
            assertTrue(opened.describe().contains("opened read-only, ending at LSN " + commitLsns.get(0)), opened.describe());
            ColumbaException append = assertThrows(ColumbaException.class, () -> log.append(List.of(commit(9))));
            assertEquals(ErrorCode.DATABASE_READ_ONLY, append.errorCode());
            assertEquals("25006", append.errorCode().sqlState());
            assertEquals(ErrorCode.DATABASE_READ_ONLY,
                    assertThrows(ColumbaException.class, () -> log.removeSegmentsBefore(log.endLsn())).errorCode());
            log.flush(log.endLsn());
        }
        Map<String, byte[]> after = logBytes();
        assertEquals(before.keySet(), after.keySet());
        before.forEach((name, bytes) -> assertArrayEquals(bytes, after.get(name), name + " changed"));
        assertEquals(ErrorCode.WAL_CORRUPT, assertThrows(ColumbaException.class, this::open).errorCode(),
                "the damage is still there for the default");
    }
}
