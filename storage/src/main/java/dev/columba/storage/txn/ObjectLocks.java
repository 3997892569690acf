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
 * in ascending object id order, all at once, which rules out deadlock.
 *
 * <p>The locks are non-fair: a statement takes its objects shared without looking at who else waits,
 * unless the first waiter is a commit (Java's non-fair {@link ReentrantReadWriteLock} lets a new
 * reader in only when the head of its queue is not a writer), so a commit still does not starve
 * behind a stream of readers. Fair locks made every reader queue behind anyone already queued, and
 * when a commit's instant ended the queued readers were woken one after another, each by the one
 * before it, so one descheduled thread held up all behind it; a statement on the read path of
 * every point select should not wait on other statements. Reentrant, because a statement holding
 * a table shared may take the catalog or the same table shared again (statistics, system views)
 * while a commit waits.
 *
 * <p>A statement's lock ids are sorted without streams or boxing: it names one to a few objects
 * and takes them on every execution.
 */
public final class ObjectLocks {
    private final ConcurrentHashMap<Integer, ReentrantReadWriteLock> locks = new ConcurrentHashMap<>();

    /**
     * Locks held on a set of objects; closing releases them. The lease keeps the lock objects it
     * took (a lock is never removed from the map), so releasing looks none up again (a lookup
     * probes the map with a boxed id; the lookups were 6% of a point select in JFR).
     */
    public static final class Lease implements AutoCloseable {
        private final ReentrantReadWriteLock[] held;
        private final boolean exclusive;
        private boolean released;

        private Lease(ReentrantReadWriteLock[] held, boolean exclusive) {
            this.held = held;
            this.exclusive = exclusive;
        }

        @Override
        public void close() {
            if (released) {
                return;
            }
            released = true;
            release(held, held.length, exclusive);
        }
    }

    /**
     * The locks of a fixed set of objects, found and put in order once: a cached plan names the same
     * objects at every execution, so taking them again needs no sorting and no map lookups (both
     * were a third of the locking's samples in a point select). Valid for as long as these locks
     * are, the database's lifetime (locks are never removed).
     */
    public final class Group {
        private final ReentrantReadWriteLock[] locks;

        private Group(ReentrantReadWriteLock[] locks) {
            this.locks = locks;
        }

        /** Takes every object of the group shared, as {@link ObjectLocks#shared} does. */
        public Lease shared() {
            return take(false);
        }

        private Lease take(boolean exclusive) {
            ReentrantReadWriteLock[] ordered = locks;
            for (int index = 0; index < ordered.length; index++) {
                try {
                    if (exclusive) {
                        ordered[index].writeLock().lock();
                    } else {
                        ordered[index].readLock().lock();
                    }
                } catch (RuntimeException | Error e) {
                    release(ordered, index, exclusive);
                    throw e;
                }
            }
            return new Lease(ordered, exclusive);
        }

        /** Whether the group holds the locks of {@code owner}, the locks of one database. */
        public boolean of(ObjectLocks owner) {
            return owner == ObjectLocks.this;
        }
    }

    /** The group of the objects {@code objectIds} names (in any order, repeats allowed), to be taken again and again. */
    public Group group(int... objectIds) {
        int[] sorted = sortedDistinct(objectIds);
        ReentrantReadWriteLock[] ordered = new ReentrantReadWriteLock[sorted.length];
        for (int index = 0; index < sorted.length; index++) {
            ordered[index] = lockOf(sorted[index]);
        }
        return new Group(ordered);
    }

    /** Takes every object shared, waiting for commits installing into them. */
    public Lease shared(int... objectIds) {
        return take(objectIds, false);
    }

    /** Takes every object exclusively, waiting for the statements reading them. */
    public Lease exclusive(int... objectIds) {
        return take(objectIds, true);
    }

    private Lease take(int[] objectIds, boolean exclusive) {
        return group(objectIds).take(exclusive);
    }

    /** Releases the first {@code count} locks of {@code held}, last first. */
    private static void release(ReentrantReadWriteLock[] held, int count, boolean exclusive) {
        for (int index = count - 1; index >= 0; index--) {
            if (exclusive) {
                held[index].writeLock().unlock();
            } else {
                held[index].readLock().unlock();
            }
        }
    }

    /** Whether someone waits for {@code objectId} exclusively (a commit behind a reading statement). */
    public boolean hasQueuedCommit(int objectId) {
        ReentrantReadWriteLock lock = locks.get(objectId);
        return lock != null && lock.hasQueuedThreads() && !lock.isWriteLocked();
    }

    /** Threads waiting for {@code objectId}, shared or exclusive (for tests of the queueing order). */
    int waiting(int objectId) {
        ReentrantReadWriteLock lock = locks.get(objectId);
        return lock == null ? 0 : lock.getQueueLength();
    }

    private ReentrantReadWriteLock lockOf(int objectId) {
        ReentrantReadWriteLock lock = locks.get(objectId);
        return lock != null ? lock : locks.computeIfAbsent(objectId, id -> new ReentrantReadWriteLock(false));
    }

    /** {@code objectIds} ascending without duplicates, in a new array (the caller's is left as it is). */
    static int[] sortedDistinct(int[] objectIds) {
        int[] sorted = new int[objectIds.length];
        int count = 0;
        for (int objectId : objectIds) {
            int position = count;
            while (position > 0 && sorted[position - 1] > objectId) {
                position--;
            }
            if (position > 0 && sorted[position - 1] == objectId) {
                continue;
            }
            System.arraycopy(sorted, position, sorted, position + 1, count - position);
            sorted[position] = objectId;
            count++;
        }
        return count == sorted.length ? sorted : Arrays.copyOf(sorted, count);
    }
}
