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
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * I/O failures: a failed write leaves the log as it was and usable; a failure that leaves the
 * file in doubt (a failed sync, a failed cut) stops the log until it is reopened.
 */
class WriteFailureTest {
    private static final long MEGABYTE = 1 << 20;

    @TempDir
    Path temporary;

    private final FaultInjectingFiles files = new FaultInjectingFiles();

    private Path directory() {
        return temporary.resolve("wal");
    }

    private WriteAheadLog open(long segmentSize) {
        return WriteAheadLog.open(files, directory(), segmentSize);
    }

    @Test
    void aDiskFullAppendLeavesNoTraceAndTheNextAppendTakesItsPlace() {
        List<LogRecord> group = List.of(image(1, 1), image(2, 2), commit(1));
        try (WriteAheadLog log = open(MEGABYTE)) {
            long before = log.append(List.of(commit(0)));
            files.failWrite(0, 5_000, ErrorCode.DISK_FULL);
            ColumbaException full = assertThrows(ColumbaException.class, () -> log.append(group));
            assertEquals(ErrorCode.DISK_FULL, full.errorCode());
            assertEquals(before, log.endLsn());
            assertEquals(before, size(segment(directory(), 0)), "the partial group was cut off");
            assertEquals(List.of(commit(0)), recordsOf(readAll(log, 0)));
            assertEquals(1, log.counters().groups());

            long[] lsns = new long[3];
            long end = log.append(group, lsns);
            assertEquals(before, lsns[0]);
            log.flush(end);
        }
        try (WriteAheadLog log = open(MEGABYTE)) {
            assertInstanceOf(LogEnd.Clean.class, log.tailAtOpen());
            List<LogRecord> expected = new ArrayList<>(List.of(commit(0)));
            expected.addAll(group);
            assertEquals(expected, recordsOf(readAll(log, 0)));
        }
    }

    @Test
    void aGroupWrittenInSeveralChunksIsCutWhollyWhenALaterChunkFails() {
        // 40 images are more than one 256 KB write; the first write lands whole, the second fails.
        List<LogRecord> group = new ArrayList<>();
        for (int page = 0; page < 40; page++) {
            group.add(image(page, page));
        }
        group.add(commit(1));
        try (WriteAheadLog log = open(MEGABYTE)) {
            long writesBefore = files.writes();
            files.failWrite(1, 100, ErrorCode.DISK_FULL);
            assertEquals(ErrorCode.DISK_FULL, assertThrows(ColumbaException.class, () -> log.append(group)).errorCode());
            assertEquals(2, files.writes() - writesBefore, "two writes: the first whole, the second failed");
            assertEquals(HEADER, log.endLsn());
            assertEquals(HEADER, size(segment(directory(), 0)));
            log.flush(log.append(group));
            assertEquals(HEADER + 40L * IMAGE_FRAME + COMMIT_FRAME, log.endLsn());
        }
        try (WriteAheadLog log = open(MEGABYTE)) {
            assertEquals(group, recordsOf(readAll(log, 0)));
        }
    }

    @Test
    void whenTheFailedBytesCannotBeCutTheLogStopsAndReopeningCutsThem() {
        long before;
        try (WriteAheadLog log = open(MEGABYTE)) {
            before = log.append(List.of(commit(0)));
            files.failWrite(0, 5_000, ErrorCode.DISK_FULL);
            files.failTruncate();
            assertEquals(ErrorCode.DISK_FULL,
                    assertThrows(ColumbaException.class, () -> log.append(List.of(image(1, 1), commit(1)))).errorCode());
            assertEquals(before, log.endLsn());
            assertEquals(before + 5_000, size(segment(directory(), 0)), "the partial bytes are still there");
            assertEquals(List.of(commit(0)), recordsOf(readAll(log, 0)), "but readers do not see them");

            ColumbaException refused = assertThrows(ColumbaException.class, () -> log.append(List.of(commit(2))));
            assertEquals(ErrorCode.IO_ERROR, refused.errorCode());
            assertTrue(refused.getMessage().startsWith("[IO_ERROR] write-ahead log " + directory() + " stopped: an append failed at offset "
                    + before + " of " + segment(directory(), 0) + " and its partial bytes could not be cut off;"
                    + " reopen the database to recover"), refused.getMessage());
            assertEquals(ErrorCode.IO_ERROR, assertThrows(ColumbaException.class, () -> log.flush(before)).errorCode());
        }
        try (WriteAheadLog log = WriteAheadLog.open(NativeFilesFacade.INSTANCE, directory(), MEGABYTE)) {
            assertEquals(new LogEnd.Torn(before, segment(directory(), 0), before, 5_000,
                    "record at offset " + before + " needs 8212 bytes but the file has 5000 left"), log.tailAtOpen());
            assertEquals(List.of(commit(0)), recordsOf(readAll(log, 0)));
            log.flush(log.append(List.of(commit(2))));
        }
    }

    @Test
    void aFailedSyncStopsTheLogForEveryone() {
        try (WriteAheadLog log = open(MEGABYTE)) {
            long durable = log.durableLsn();
            long end = log.append(List.of(commit(1)));
            files.failForce(0);
            ColumbaException failed = assertThrows(ColumbaException.class, () -> log.flush(end));
            assertEquals(ErrorCode.IO_ERROR, failed.errorCode());
            assertTrue(failed.getMessage().contains("injected: fdatasync failed"), failed.getMessage());
            assertEquals(durable, log.durableLsn());

            ColumbaException refused = assertThrows(ColumbaException.class, () -> log.append(List.of(commit(2))));
            assertTrue(refused.getMessage().contains("stopped: fdatasync of " + segment(directory(), 0) + " failed"),
                    refused.getMessage());
            assertThrows(ColumbaException.class, () -> log.flush(end));
        }
        try (WriteAheadLog log = open(MEGABYTE)) {
            assertEquals(List.of(commit(1)), recordsOf(readAll(log, 0)), "reopening re-reads what the file holds");
        }
    }

    @Test
    @Timeout(60) // guards against a hang only
    void callersWaitingOnAFailedSyncGetTheFailure() throws Exception {
        try (WriteAheadLog log = open(MEGABYTE)) {
            CountDownLatch syncStarted = new CountDownLatch(1);
            CountDownLatch releaseSync = new CountDownLatch(1);
            AtomicBoolean first = new AtomicBoolean(true);
            files.beforeForce(() -> {
                if (first.compareAndSet(true, false)) {
                    syncStarted.countDown();
                    await(releaseSync);
                }
            });
            files.failForce(0);
            AtomicReference<Throwable> leaderOutcome = new AtomicReference<>();
            AtomicReference<Throwable> followerOutcome = new AtomicReference<>();
            Thread leader = new Thread(() -> leaderOutcome.set(assertThrows(ColumbaException.class,
                    () -> log.flush(log.append(List.of(commit(1)))))));
            leader.start();
            await(syncStarted);
            long followerLsn = log.append(List.of(commit(2)));
            Thread follower = new Thread(() -> followerOutcome.set(assertThrows(ColumbaException.class,
                    () -> log.flush(followerLsn))));
            follower.start();
            releaseSync.countDown();
            leader.join();
            follower.join();
            assertTrue(leaderOutcome.get().getMessage().contains("injected: fdatasync failed"), leaderOutcome.get().getMessage());
            assertTrue(followerOutcome.get().getMessage().contains("stopped: fdatasync of"), followerOutcome.get().getMessage());
            assertEquals(1, log.counters().syncs(), "only the sync at open succeeded");
        }
    }

    @Test
    void aDiskFullWhileStartingASegmentLeavesNoFileAndTheNextAppendStartsIt() {
        long segmentSize = 20_000;
        int groupFrame = IMAGE_FRAME + COMMIT_FRAME;
        long nextStart = HEADER + 2L * groupFrame;
        try (WriteAheadLog log = open(segmentSize)) {
            log.append(List.of(image(0, 0), commit(0)));
            log.append(List.of(image(1, 1), commit(1)));
            files.failWrite(0, 10, ErrorCode.DISK_FULL);
            ColumbaException full = assertThrows(ColumbaException.class, () -> log.append(List.of(image(2, 2), commit(2))));
            assertEquals(ErrorCode.DISK_FULL, full.errorCode());
            assertTrue(full.getMessage().contains(segment(directory(), nextStart).toString()), full.getMessage());
            assertFalse(Files.exists(segment(directory(), nextStart)));
            assertEquals(List.of(0L), log.segmentStartLsns());
            assertEquals(nextStart, log.endLsn());
            assertEquals(nextStart, log.durableLsn(), "the full segment was synced before the next was started");

            long[] lsns = new long[2];
            log.flush(log.append(List.of(image(2, 2), commit(2)), lsns));
            assertEquals(nextStart + HEADER, lsns[0]);
            assertEquals(List.of(0L, nextStart), log.segmentStartLsns());
        }
        try (WriteAheadLog log = open(segmentSize)) {
            assertEquals(List.of(image(0, 0), commit(0), image(1, 1), commit(1), image(2, 2), commit(2)),
                    recordsOf(readAll(log, 0)));
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
