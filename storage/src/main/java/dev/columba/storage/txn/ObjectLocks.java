package dev.columba.storage.txn;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Statement-level consistency between readers and commits, per object (table, index, catalog).
 *
 * <p>A reading statement holds its objects shared for its whole duration; a commit holds the objects
 * whose pages it changed exclusively, but only for the instant it takes to install its page
 * versions. So a scan never sees a commit land half way through its B+tree (a page it is about to
 * follow freed and reused), and writers work alongside readers until that instant. Locks are taken
 * in ascending object id order, all at once, which rules out deadlock; fair locks keep a commit from
 * starving behind a stream of readers.
 */
public final class ObjectLocks {
    private final ConcurrentHashMap<Integer, ReentrantReadWriteLock> locks = new ConcurrentHashMap<>();

    /** Locks held on a set of objects; closing releases them. */
    public final class Lease implements AutoCloseable {
        private final int[] objectIds;
        private final boolean exclusive;
        private boolean released;

        private Lease(int[] objectIds, boolean exclusive) {
            this.objectIds = objectIds;
            this.exclusive = exclusive;
        }

        @Override
        public void close() {
            if (released) {
                return;
            }
            released = true;
            for (int index = objectIds.length - 1; index >= 0; index--) {
                ReentrantReadWriteLock lock = lockOf(objectIds[index]);
                if (exclusive) {
                    lock.writeLock().unlock();
                } else {
                    lock.readLock().unlock();
                }
            }
        }
    }

    /** Takes every object shared, waiting for commits installing into them. */
    public Lease shared(int... objectIds) {
        int[] sorted = sortedDistinct(objectIds);
        for (int objectId : sorted) {
            lockOf(objectId).readLock().lock();
        }
        return new Lease(sorted, false);
    }

    /** Takes every object exclusively, waiting for the statements reading them. */
    public Lease exclusive(int... objectIds) {
        int[] sorted = sortedDistinct(objectIds);
        for (int objectId : sorted) {
            lockOf(objectId).writeLock().lock();
        }
        return new Lease(sorted, true);
    }

    /** Whether someone waits for {@code objectId} exclusively (a commit behind a reading statement). */
    public boolean hasQueuedCommit(int objectId) {
        ReentrantReadWriteLock lock = locks.get(objectId);
        return lock != null && lock.hasQueuedThreads() && !lock.isWriteLocked();
    }

    private ReentrantReadWriteLock lockOf(int objectId) {
        return locks.computeIfAbsent(objectId, id -> new ReentrantReadWriteLock(true));
    }

    private static int[] sortedDistinct(int[] objectIds) {
        return Arrays.stream(objectIds).distinct().sorted().toArray();
    }
}
