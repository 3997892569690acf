package dev.columba.storage.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The queueing rules of {@link ObjectLocks} on real threads: a statement already holding an object
 * shared takes it (or another) again past a waiting commit; a new statement waits behind that
 * commit; commits and statements exclude each other. Interleavings are forced by waiting for the
 * lock's queue to reach a known length, never by sleeping.
 */
class ObjectLocksTest {
    private static final int TABLE = 7;
    private static final long WAIT_SECONDS = 30;

    @Test
    void sortsAndDropsDuplicateIdsLeavingTheArgumentAlone() {
        int[] given = {9, 3, 9, 1, 3};
        assertArrayEquals(new int[] {1, 3, 9}, ObjectLocks.sortedDistinct(given));
        assertArrayEquals(new int[] {9, 3, 9, 1, 3}, given);
        assertArrayEquals(new int[] {4}, ObjectLocks.sortedDistinct(new int[] {4}));
        assertArrayEquals(new int[] {}, ObjectLocks.sortedDistinct(new int[] {}));
        assertArrayEquals(new int[] {-2, 0, 5}, ObjectLocks.sortedDistinct(new int[] {5, 0, -2, 5, 0}));
    }

    @Test
    void aStatementTakesItsObjectsAgainPastAWaitingCommitAndANewOneWaitsBehindIt() throws Exception {
        ObjectLocks locks = new ObjectLocks();
        ObjectLocks.Lease statement = locks.shared(TABLE, 0);
        AtomicBoolean committed = new AtomicBoolean();
        CompletableFuture<Void> commit = commit(locks, committed, TABLE);
        awaitWaiting(locks, TABLE, 1);
        assertTrue(locks.hasQueuedCommit(TABLE));

        // Same thread, same object and the catalog again (statistics, a system view): no deadlock.
        try (ObjectLocks.Lease nested = locks.shared(0, TABLE)) {
            assertFalse(committed.get());
        }

        AtomicBoolean newReaderIn = new AtomicBoolean();
        CompletableFuture<Boolean> newStatement = CompletableFuture.supplyAsync(() -> {
            try (ObjectLocks.Lease ignored = locks.shared(TABLE)) {
                newReaderIn.set(true);
                return committed.get();
            }
        }, Thread.ofPlatform()::start);
        awaitWaiting(locks, TABLE, 2);
        assertFalse(newReaderIn.get(), "a statement arriving behind a waiting commit must wait for it");

        statement.close();
        commit.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertTrue(newStatement.get(WAIT_SECONDS, TimeUnit.SECONDS), "the later statement ran after the commit");
        assertEquals(0, locks.waiting(TABLE));
    }

    @Test
    void aCommitWaitsForEveryStatementReadingItsObjects() throws Exception {
        ObjectLocks locks = new ObjectLocks();
        ObjectLocks.Lease first = locks.shared(TABLE);
        ObjectLocks.Lease second = locks.shared(TABLE + 1, TABLE);
        AtomicBoolean committed = new AtomicBoolean();
        CompletableFuture<Void> commit = commit(locks, committed, TABLE + 1, TABLE);
        awaitWaiting(locks, TABLE, 1);
        first.close();
        assertFalse(committed.get());
        second.close();
        second.close(); // closing twice releases once
        commit.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertTrue(committed.get());
        try (ObjectLocks.Lease again = locks.exclusive(TABLE, TABLE + 1)) {
            assertEquals(0, locks.waiting(TABLE));
        }
    }

    @Test
    void aGroupTakenAgainAndAgainHoldsEachOfItsObjectsUntilReleased() throws Exception {
        ObjectLocks locks = new ObjectLocks();
        ObjectLocks.Group group = locks.group(TABLE + 1, TABLE, TABLE + 1);
        assertTrue(group.of(locks));
        assertFalse(group.of(new ObjectLocks()), "a group belongs to the locks of one database");
        for (int execution = 0; execution < 3; execution++) {
            ObjectLocks.Lease statement = group.shared();
            AtomicBoolean committed = new AtomicBoolean();
            // Each object of the group is held: a commit of either waits for the statement.
            int committedObject = TABLE + execution % 2;
            CompletableFuture<Void> commit = commit(locks, committed, committedObject);
            awaitWaiting(locks, committedObject, 1);
            assertFalse(committed.get());
            statement.close();
            commit.get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertTrue(committed.get());
        }
        // Released in full: both objects can be taken exclusively at once.
        try (ObjectLocks.Lease ignored = locks.exclusive(TABLE, TABLE + 1)) {
            assertEquals(0, locks.waiting(TABLE));
            assertEquals(0, locks.waiting(TABLE + 1));
        }
    }

    /**
     * A statement's holds belong to the statement: its lease, taken on one thread, is released on
     * another (a result read to its end or closed there), and the commit waiting for it goes on. With
     * a read-write lock's read locks this threw IllegalMonitorStateException and left the object held.
     */
    @Test
    void aLeaseTakenOnOneThreadIsReleasedOnAnother() throws Exception {
        ObjectLocks locks = new ObjectLocks();
        ExecutorService threadA = Executors.newSingleThreadExecutor();
        ExecutorService threadB = Executors.newSingleThreadExecutor();
        try {
            ObjectLocks.Lease statement = threadA.submit(() -> locks.shared(TABLE, 0)).get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertEquals(1, locks.sharedHolds(TABLE));
            AtomicBoolean committed = new AtomicBoolean();
            CompletableFuture<Void> commit = commit(locks, committed, TABLE);
            awaitWaiting(locks, TABLE, 1);
            threadB.submit(statement::close).get(WAIT_SECONDS, TimeUnit.SECONDS);
            commit.get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertTrue(committed.get());
            assertEquals(0, locks.sharedHolds(TABLE));
            assertEquals(0, locks.sharedHolds(0));

            // Released in full, thread A's count included: A is no longer taken for a holder, so a
            // new take of A's queues behind a waiting commit.
            ObjectLocks.Lease other = locks.shared(TABLE);
            CompletableFuture<Void> second = CompletableFuture.runAsync(() -> {
                try (ObjectLocks.Lease ignored = locks.exclusive(TABLE)) {
                    assertEquals(0, locks.sharedHolds(TABLE));
                }
            }, Thread.ofPlatform()::start);
            awaitWaiting(locks, TABLE, 1);
            Future<?> takeOfA = threadA.submit(() -> locks.shared(TABLE).close());
            awaitWaiting(locks, TABLE, 2);
            assertFalse(takeOfA.isDone(), "thread A holds nothing now: its take waits behind the commit");
            other.close();
            second.get(WAIT_SECONDS, TimeUnit.SECONDS);
            takeOfA.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } finally {
            threadA.shutdownNow();
            threadB.shutdownNow();
        }
    }

    /**
     * A lease moved to the thread that now reads its result: that thread's second take of the object
     * passes a waiting commit (reentrant, no deadlock), the first thread's does not.
     */
    @Test
    void aLeaseMovedToAnotherThreadMakesThatThreadsTakesReentrant() throws Exception {
        ObjectLocks locks = new ObjectLocks();
        ExecutorService threadA = Executors.newSingleThreadExecutor();
        ExecutorService threadB = Executors.newSingleThreadExecutor();
        try {
            ObjectLocks.Lease statement = threadA.submit(() -> locks.shared(TABLE)).get(WAIT_SECONDS, TimeUnit.SECONDS);
            threadB.submit(statement::moveToCurrentThread).get(WAIT_SECONDS, TimeUnit.SECONDS);
            AtomicBoolean committed = new AtomicBoolean();
            CompletableFuture<Void> commit = commit(locks, committed, TABLE);
            awaitWaiting(locks, TABLE, 1);
            threadB.submit(() -> locks.shared(TABLE).close()).get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertFalse(committed.get(), "the statement still holds the table");
            Future<?> takeOfA = threadA.submit(() -> locks.shared(TABLE).close());
            awaitWaiting(locks, TABLE, 2);
            assertFalse(takeOfA.isDone(), "thread A no longer holds the table: its take waits behind the commit");
            threadB.submit(statement::close).get(WAIT_SECONDS, TimeUnit.SECONDS);
            commit.get(WAIT_SECONDS, TimeUnit.SECONDS);
            takeOfA.get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertEquals(0, locks.sharedHolds(TABLE));
        } finally {
            threadA.shutdownNow();
            threadB.shutdownNow();
        }
    }

    /** A commit on its own thread: takes {@code objectIds} exclusively, then sets {@code committed}. */
    private static CompletableFuture<Void> commit(ObjectLocks locks, AtomicBoolean committed, int... objectIds) {
        return CompletableFuture.runAsync(() -> {
            try (ObjectLocks.Lease ignored = locks.exclusive(objectIds)) {
                committed.set(true);
            }
        }, Thread.ofPlatform()::start);
    }

    /** Waits until {@code count} threads queue for {@code objectId}; fails after a generous bound. */
    private static void awaitWaiting(ObjectLocks locks, int objectId, int count) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (locks.waiting(objectId) < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(count + " threads never queued for object " + objectId);
            }
            Thread.onSpinWait();
        }
    }
}
