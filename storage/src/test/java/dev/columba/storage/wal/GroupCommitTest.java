package dev.columba.storage.wal;

import static dev.columba.storage.wal.LogFixtures.commit;
import static dev.columba.storage.wal.LogFixtures.range;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Group commit with real threads and real {@code fdatasync}s. Exact sync counts come from forced
 * interleavings (a sync point inside the sync, barriers between rounds), never from timing.
 * The class timeout only guards against a hang.
 */
@Timeout(120)
class GroupCommitTest {
    private static final long MEGABYTE = 1 << 20;

    @TempDir
    Path temporary;

    @Test
    void callersArrivingDuringASyncShareTheNextOne() throws Exception {
        FaultInjectingFiles files = new FaultInjectingFiles();
        try (WriteAheadLog log = WriteAheadLog.open(files, temporary.resolve("wal"), MEGABYTE)) {
            CountDownLatch firstSyncStarted = new CountDownLatch(1);
            CountDownLatch releaseFirstSync = new CountDownLatch(1);
            AtomicBoolean first = new AtomicBoolean(true);
            files.beforeForce(() -> {
                if (first.compareAndSet(true, false)) {
                    firstSyncStarted.countDown();
                    awaitLatch(releaseFirstSync);
                }
            });
            long syncsBefore = log.counters().syncs();
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());

            Thread leader = start(failures, () -> commitAndCheck(log, 0));
            awaitLatch(firstSyncStarted);
            // The leader is inside its fdatasync. Seven more commits append; their flushes cannot
            // be covered by the sync in flight, whose target was fixed before they appended.
            CountDownLatch appended = new CountDownLatch(7);
            List<Thread> followers = new ArrayList<>();
            for (int transaction = 1; transaction <= 7; transaction++) {
                long id = transaction;
                followers.add(start(failures, () -> {
                    long lsn = log.append(List.of(commit(id)));
                    appended.countDown();
                    log.flush(lsn);
                    assertTrue(log.durableLsn() >= lsn);
                }));
            }
            awaitLatch(appended);
            releaseFirstSync.countDown();
            leader.join();
            for (Thread follower : followers) {
                follower.join();
            }
            assertEquals(List.of(), failures);
            assertEquals(2, log.counters().syncs() - syncsBefore, "one sync for the leader, one shared by the seven");
            assertEquals(log.endLsn(), log.durableLsn());
        }
    }

    @Test
    void aLeaderWaitsForAsManyCommittersAsTheRoundBeforeHadInsideFlush() throws Exception {
        FaultInjectingFiles files = new FaultInjectingFiles();
        try (WriteAheadLog log = WriteAheadLog.open(files, temporary.resolve("wal"), MEGABYTE)) {
            // Only the group's arrival ends a gathering here, never the bound.
            log.overrideGatherBound(TimeUnit.SECONDS.toNanos(100));
            CountDownLatch firstSyncStarted = new CountDownLatch(1);
            CountDownLatch releaseFirstSync = new CountDownLatch(1);
            AtomicBoolean first = new AtomicBoolean(true);
            files.beforeForce(() -> {
                if (first.compareAndSet(true, false)) {
                    firstSyncStarted.countDown();
                    awaitLatch(releaseFirstSync);
                }
            });
            long syncsBefore = log.counters().syncs();
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());

            // Round 1: a lone leader syncs at once (no round before it); three more commit during its sync.
            List<Thread> committers = new ArrayList<>();
            committers.add(start(failures, () -> commitAndCheck(log, 0)));
            awaitLatch(firstSyncStarted);
            for (long id = 1; id <= 3; id++) {
                long transaction = id;
                committers.add(start(failures, () -> commitAndCheck(log, transaction)));
            }
            awaitCommitters(log, 4);
            releaseFirstSync.countDown();
            committers.getFirst().join();

            // Round 2: one of the three leads; four were inside flush during round 1, so it waits
            // for a fourth instead of syncing the three alone.
            awaitCommitters(log, 3);
            assertEquals(1, log.counters().syncs() - syncsBefore, "the new leader gathers, it has not synced");
            committers.add(start(failures, () -> commitAndCheck(log, 4)));
            for (Thread committer : committers) {
                committer.join();
            }
            assertEquals(List.of(), failures);
            assertEquals(2, log.counters().syncs() - syncsBefore, "one sync for the first, one for the gathered four");
            assertEquals(log.endLsn(), log.durableLsn());
            assertEquals(0, log.committersInFlush());
        }
    }

    @Test
    void aLoneCommitterNeverWaitsToGather() throws Exception {
        try (WriteAheadLog log = WriteAheadLog.open(new FaultInjectingFiles(), temporary.resolve("wal"), MEGABYTE)) {
            // Were a lone committer to gather, this bound would show as a hang the class timeout ends.
            log.overrideGatherBound(TimeUnit.SECONDS.toNanos(1000));
            long syncsBefore = log.counters().syncs();
            for (long id = 0; id < 20; id++) {
                commitAndCheck(log, id);
            }
            assertEquals(20, log.counters().syncs() - syncsBefore);
        }
    }

    @Test
    void commitsReleasedTogetherNeedOneSyncPerRound() throws Exception {
        int threads = 8;
        int rounds = 50;
        try (WriteAheadLog log = WriteAheadLog.open(new FaultInjectingFiles(), temporary.resolve("wal"), 64 * MEGABYTE)) {
            long syncsBefore = log.counters().syncs();
            CyclicBarrier appendedThisRound = new CyclicBarrier(threads);
            CyclicBarrier flushedThisRound = new CyclicBarrier(threads);
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            List<Thread> workers = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                long base = thread * 1_000L;
                workers.add(start(failures, () -> {
                    for (int round = 0; round < rounds; round++) {
                        long lsn = log.append(List.of(commit(base + round)));
                        await(appendedThisRound);
                        // Every commit of this round is appended before anyone flushes, so the
                        // first flusher's sync covers them all.
                        log.flush(lsn);
                        assertTrue(log.durableLsn() >= lsn);
                        await(flushedThisRound);
                    }
                }));
            }
            for (Thread worker : workers) {
                worker.join();
            }
            assertEquals(List.of(), failures);
            assertEquals(rounds, log.counters().syncs() - syncsBefore);
            assertEquals(threads * rounds, log.counters().groups());
        }
    }

    @Test
    void eightThreadsOfTwoHundredCommitsAreAllDurableWithFewerSyncsThanCommits() throws Exception {
        int threads = 8;
        int commitsPerThread = 200;
        Path directory = temporary.resolve("wal");
        WriteAheadLog.Counters counters;
        try (WriteAheadLog log = WriteAheadLog.open(new FaultInjectingFiles(), directory, 64 * MEGABYTE)) {
            long syncsBefore = log.counters().syncs();
            CountDownLatch startTogether = new CountDownLatch(1);
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            List<Thread> workers = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                int page = thread;
                workers.add(start(failures, () -> {
                    awaitLatch(startTogether);
                    for (int transaction = 0; transaction < commitsPerThread; transaction++) {
                        long id = page * 1_000L + transaction;
                        long lsn = log.append(List.of(
                                new LogRecord.PageDelta(page, List.of(range(transaction, transaction))), commit(id)));
                        log.flush(lsn);
                        if (log.durableLsn() < lsn) {
                            throw new AssertionError("commit " + id + " at LSN " + lsn + " not durable after flush: "
                                    + log.durableLsn());
                        }
                    }
                }));
            }
            startTogether.countDown();
            for (Thread worker : workers) {
                worker.join();
            }
            assertEquals(List.of(), failures);
            counters = log.counters();
            long syncs = counters.syncs() - syncsBefore;
            System.out.println("group commit: " + counters.groups() + " commits, " + syncs + " syncs");
            assertEquals(threads * commitsPerThread, counters.groups());
            assertEquals(2L * threads * commitsPerThread, counters.records());
            assertEquals(threads * commitsPerThread, counters.flushes());
            assertTrue(syncs < counters.groups(), syncs + " syncs for " + counters.groups() + " commits");
            assertTrue(syncs >= 1);
            assertEquals(log.endLsn(), log.durableLsn());
        }
        try (WriteAheadLog log = WriteAheadLog.open(new FaultInjectingFiles(), directory, 64 * MEGABYTE)) {
            List<List<Long>> idsByThread = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                idsByThread.add(new ArrayList<>());
            }
            for (LogEntry entry : LogFixtures.readAll(log, 0)) {
                if (entry.record() instanceof LogRecord.Commit commit) {
                    idsByThread.get((int) (commit.transactionId() / 1_000)).add(commit.transactionId() % 1_000);
                }
            }
            List<Long> inOrder = new ArrayList<>();
            for (long transaction = 0; transaction < commitsPerThread; transaction++) {
                inOrder.add(transaction);
            }
            for (List<Long> ids : idsByThread) {
                assertEquals(inOrder, ids, "each thread's commits, all present, in its order");
            }
        }
    }

    @Test
    void segmentsRollOverWhileOtherThreadsFlush() throws Exception {
        int threads = 4;
        int commitsPerThread = 60;
        Path directory = temporary.resolve("wal");
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        try (WriteAheadLog log = WriteAheadLog.open(new FaultInjectingFiles(), directory, 40_000)) {
            List<Thread> workers = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                int page = thread;
                workers.add(start(failures, () -> {
                    for (int transaction = 0; transaction < commitsPerThread; transaction++) {
                        long id = page * 1_000L + transaction;
                        log.flush(log.append(List.of(LogFixtures.image(page, id), commit(id))));
                    }
                }));
            }
            for (Thread worker : workers) {
                worker.join();
            }
            assertEquals(List.of(), failures);
            assertEquals(threads * commitsPerThread / 4, log.segmentStartLsns().size(), "four groups per segment");
            assertEquals(log.endLsn(), log.durableLsn());
        }
        try (WriteAheadLog log = WriteAheadLog.open(new FaultInjectingFiles(), directory, 40_000)) {
            List<LogEntry> entries = LogFixtures.readAll(log, 0);
            assertEquals(2 * threads * commitsPerThread, entries.size());
            for (int index = 0; index < entries.size(); index += 2) {
                LogRecord.PageImage image = (LogRecord.PageImage) entries.get(index).record();
                LogRecord.Commit commit = (LogRecord.Commit) entries.get(index + 1).record();
                assertEquals(LogFixtures.image(image.pageId(), commit.transactionId()), image, "group stayed whole");
            }
        }
    }

    private interface Work {
        void run() throws Exception;
    }

    private static Thread start(List<Throwable> failures, Work work) {
        Thread thread = new Thread(() -> {
            try {
                work.run();
            } catch (Throwable failure) {
                failures.add(failure);
            }
        });
        thread.start();
        return thread;
    }

    /** Waits until exactly {@code count} callers are inside {@link WriteAheadLog#flush}. */
    private static void awaitCommitters(WriteAheadLog log, int count) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (log.committersInFlush() != count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(log.committersInFlush() + " callers in flush, expected " + count);
            }
            Thread.onSpinWait();
        }
    }

    private static void commitAndCheck(WriteAheadLog log, long id) {
        long lsn = log.append(List.of(commit(id)));
        log.flush(lsn);
        assertTrue(log.durableLsn() >= lsn);
    }

    private static void await(CyclicBarrier barrier) throws InterruptedException, BrokenBarrierException {
        barrier.await();
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
