package dev.columba.storage.txn;

import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;

/**
 * Statement-level consistency between readers and commits, per object (table, index, catalog).
 *
 * <p>A reading statement holds its objects shared for its whole duration; a commit holds the objects
 * whose pages it changed exclusively, but only for the instant it takes to install its page
 * versions. So a scan never sees a commit land half way through its B+tree (a page it is about to
 * follow freed and reused), and writers work alongside readers until that instant. Locks are taken
 * in ascending object id order, all at once, which rules out deadlock.
 *
 * <p>A shared hold belongs to the statement, not to a thread. A query's result may be read, closed
 * or moved to the heap on another thread than the one that ran it (JDBC lets a connection's objects
 * be used from any thread, one at a time), so whichever thread ends the statement gives its holds
 * back. These were {@code ReentrantReadWriteLock}'s read locks, which only the taking thread may
 * release: finishing a result elsewhere failed with IllegalMonitorStateException and left the
 * object held, and the next commit into it waited for ever (issue 15). Each object's lock is now a
 * count of shared holds ({@link ObjectLock}), released by anyone holding the lease.
 *
 * <p>Queueing, as the read-write lock this replaces did it: non-fair; a statement takes its objects
 * shared without looking at who else waits, unless the first waiter is a commit, so a commit does
 * not starve behind a stream of readers. Fair locks made every reader queue behind anyone already
 * queued, and when a commit's instant ended the queued readers were woken one after another, each by
 * the one before it, so one descheduled thread held up all behind it; a statement on the read path
 * of every point select should not wait on other statements. A thread that already holds an object
 * shared takes it again past a waiting commit, because a statement holding a table shared may take
 * the catalog or the same table shared again (statistics, system views) while a commit waits: that
 * commit waits for the statement, which would wait for the commit. Which thread holds what is kept
 * per thread ({@link Holds}, without a lock on the owning thread); a lease whose result moved to
 * another thread moves its holds with it ({@link Lease#moveToCurrentThread()}).
 *
 * <p>A statement's lock ids are sorted without streams or boxing: it names one to a few objects
 * and takes them on every execution.
 */
public final class ObjectLocks {
    private final ConcurrentHashMap<Integer, ObjectLock> locks = new ConcurrentHashMap<>();

    /** The shared holds of each thread: what makes a thread's second take of an object reentrant. */
    private static final ThreadLocal<Holds> HOLDS = ThreadLocal.withInitial(Holds::new);

    /**
     * Locks held on a set of objects; closing releases them, on whichever thread closes. The lease
     * keeps the lock objects it took (a lock is never removed from the map), so releasing looks none
     * up again (a lookup probes the map with a boxed id; the lookups were 6% of a point select in JFR).
     */
    public static final class Lease implements AutoCloseable {
        private final ObjectLock[] held;
        private final boolean exclusive;
        /**
         * The thread the shared holds are counted for, or null for an exclusive lease. A lease is
         * used by one thread at a time, as its statement is (JDBC's connection lock orders them), and
         * handing it to another thread is a happens-before edge, so neither this nor {@link #released}
         * needs a lock.
         */
        private Holds holder;
        private boolean released;

        private Lease(ObjectLock[] held, boolean exclusive, Holds holder) {
            this.held = held;
            this.exclusive = exclusive;
            this.holder = holder;
        }

        /**
         * Counts this lease's shared holds for the calling thread from now on: the statement goes on
         * here (a result read on another thread than ran its query), so a take of the same objects
         * by this thread is the reentrant one. Cheap when nothing moved.
         */
        public void moveToCurrentThread() {
            if (released || holder == null || holder.owner == Thread.currentThread()) {
                return;
            }
            Holds current = HOLDS.get();
            holder.remove(held, held.length);
            current.add(held, held.length);
            holder = current;
        }

        @Override
        public void close() {
            if (released) {
                return;
            }
            released = true;
            if (holder != null) {
                holder.remove(held, held.length);
            }
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
        private final ObjectLock[] locks;

        private Group(ObjectLock[] locks) {
            this.locks = locks;
        }

        /** Takes every object of the group shared, as {@link ObjectLocks#shared} does. */
        public Lease shared() {
            return take(false);
        }

        private Lease take(boolean exclusive) {
            ObjectLock[] ordered = locks;
            Holds holds = exclusive ? null : HOLDS.get();
            for (int index = 0; index < ordered.length; index++) {
                try {
                    if (exclusive) {
                        ordered[index].acquireExclusive();
                    } else {
                        ordered[index].takeShared(holds);
                    }
                } catch (RuntimeException | Error e) {
                    release(ordered, index, exclusive);
                    throw e;
                }
            }
            if (holds != null) {
                holds.add(ordered, ordered.length);
            }
            return new Lease(ordered, exclusive, holds);
        }

        /** Whether the group holds the locks of {@code owner}, the locks of one database. */
        public boolean of(ObjectLocks owner) {
            return owner == ObjectLocks.this;
        }
    }

    /** The group of the objects {@code objectIds} names (in any order, repeats allowed), to be taken again and again. */
    public Group group(int... objectIds) {
        int[] sorted = sortedDistinct(objectIds);
        ObjectLock[] ordered = new ObjectLock[sorted.length];
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
    private static void release(ObjectLock[] held, int count, boolean exclusive) {
        for (int index = count - 1; index >= 0; index--) {
            if (exclusive) {
                held[index].release(1);
            } else {
                held[index].releaseShared(1);
            }
        }
    }

    /** Whether someone waits for {@code objectId} exclusively (a commit behind a reading statement). */
    public boolean hasQueuedCommit(int objectId) {
        ObjectLock lock = locks.get(objectId);
        return lock != null && lock.hasQueuedThreads() && !lock.isExclusive();
    }

    /** Threads waiting for {@code objectId}, shared or exclusive (for tests of the queueing order). */
    int waiting(int objectId) {
        ObjectLock lock = locks.get(objectId);
        return lock == null ? 0 : lock.getQueueLength();
    }

    /** Shared holds of {@code objectId} now, by any statement on any thread (for tests). */
    int sharedHolds(int objectId) {
        ObjectLock lock = locks.get(objectId);
        return lock == null ? 0 : Math.max(0, lock.state());
    }

    private ObjectLock lockOf(int objectId) {
        ObjectLock lock = locks.get(objectId);
        return lock != null ? lock : locks.computeIfAbsent(objectId, id -> new ObjectLock());
    }

    /**
     * One object's lock: its state is the number of shared holds, or {@link #EXCLUSIVE} while a
     * commit installs. No hold is owned by a thread, so any thread may release one. A shared take
     * waits while a commit holds the object, and also, unless it is reentrant, while a commit is the
     * first in the queue (see the class comment).
     */
    static final class ObjectLock extends AbstractQueuedSynchronizer {
        private static final int EXCLUSIVE = -1;
        /** {@link #tryAcquireShared}'s argument for a take by a thread that already holds the object. */
        private static final int REENTRANT = 1;
        private static final int NEW = 0;

        /**
         * Threads in {@link #acquire} now: whether the first queued thread waits for a commit
         * (AbstractQueuedSynchronizer does not say which mode a queued thread waits in). Commits are
         * rare next to statements, so this set is written once per commit and read only when
         * someone queues.
         */
        private final Set<Thread> exclusiveWaiters = ConcurrentHashMap.newKeySet();

        int state() {
            return getState();
        }

        boolean isExclusive() {
            return getState() == EXCLUSIVE;
        }

        /** Takes the object shared for a thread whose holds are {@code holds}. */
        void takeShared(Holds holds) {
            if (tryAcquireShared(NEW) >= 0) {
                return;
            }
            acquireShared(holds.holds(this) ? REENTRANT : NEW);
        }

        @Override
        protected int tryAcquireShared(int reentrant) {
            while (true) {
                int state = getState();
                if (state == EXCLUSIVE) {
                    return -1;
                }
                if (reentrant != REENTRANT && firstQueuedIsCommit()) {
                    return -1;
                }
                if (compareAndSetState(state, state + 1)) {
                    // Positive: a shared take after this one may succeed too, so AQS wakes the next.
                    return 1;
                }
            }
        }

        private boolean firstQueuedIsCommit() {
            if (!hasQueuedThreads()) {
                return false;
            }
            Thread first = getFirstQueuedThread();
            return first != null && first != Thread.currentThread() && exclusiveWaiters.contains(first);
        }

        @Override
        protected boolean tryReleaseShared(int unused) {
            while (true) {
                int state = getState();
                if (state <= 0) {
                    throw new IllegalStateException("an object lock released shared more often than taken (state " + state + ")");
                }
                if (compareAndSetState(state, state - 1)) {
                    return state == 1;
                }
            }
        }

        @Override
        protected boolean tryAcquire(int unused) {
            return getState() == 0 && compareAndSetState(0, EXCLUSIVE);
        }

        /** Takes the object exclusively, known as a commit to shared takes while it waits. */
        void acquireExclusive() {
            if (tryAcquire(1)) {
                return;
            }
            Thread current = Thread.currentThread();
            exclusiveWaiters.add(current);
            try {
                acquire(1);
            } finally {
                exclusiveWaiters.remove(current);
            }
        }

        @Override
        protected boolean tryRelease(int unused) {
            if (getState() != EXCLUSIVE) {
                throw new IllegalStateException("an object lock released exclusively while not held so");
            }
            setState(0);
            return true;
        }
    }

    /**
     * The objects one thread's statements hold shared, with how many holds each: read when a take of
     * that thread meets a waiting commit. Only the owning thread reads and changes the arrays, without
     * a lock (a point select takes and releases its objects at every execution, and two monitor
     * entries there tripled the locking's cost); a lease released or moved away on another thread
     * leaves its objects in {@link #releasedElsewhere}, which the owner applies before it next looks.
     * Until then the owner may count an object it no longer holds, which at worst lets one of its
     * statements pass a waiting commit once. A thread holds a few objects at a time, so arrays
     * searched in order.
     */
    static final class Holds {
        private final Thread owner = Thread.currentThread();
        private ObjectLock[] locks = new ObjectLock[4];
        private int[] counts = new int[4];
        private int size;
        private final ConcurrentLinkedQueue<ObjectLock[]> releasedElsewhere = new ConcurrentLinkedQueue<>();

        /** Whether the owner holds {@code lock}; on the owning thread only. */
        boolean holds(ObjectLock lock) {
            applyReleasedElsewhere();
            return indexOf(lock) >= 0;
        }

        /** Counts {@code count} objects of {@code taken} as held; on the owning thread only. */
        void add(ObjectLock[] taken, int count) {
            applyReleasedElsewhere();
            for (int takenIndex = 0; takenIndex < count; takenIndex++) {
                ObjectLock lock = taken[takenIndex];
                int index = indexOf(lock);
                if (index >= 0) {
                    counts[index]++;
                    continue;
                }
                if (size == locks.length) {
                    locks = Arrays.copyOf(locks, size * 2);
                    counts = Arrays.copyOf(counts, size * 2);
                }
                locks[size] = lock;
                counts[size] = 1;
                size++;
            }
        }

        /** Counts {@code count} objects of {@code released} as given back, on any thread. */
        void remove(ObjectLock[] released, int count) {
            if (Thread.currentThread() != owner) {
                releasedElsewhere.add(Arrays.copyOf(released, count));
                return;
            }
            applyReleasedElsewhere();
            removeNow(released, count);
        }

        private void applyReleasedElsewhere() {
            if (releasedElsewhere.isEmpty()) {
                return;
            }
            ObjectLock[] released;
            while ((released = releasedElsewhere.poll()) != null) {
                removeNow(released, released.length);
            }
        }

        private void removeNow(ObjectLock[] released, int count) {
            for (int releasedIndex = 0; releasedIndex < count; releasedIndex++) {
                int index = indexOf(released[releasedIndex]);
                if (index < 0) {
                    throw new IllegalStateException("a shared hold released that was not counted");
                }
                if (--counts[index] == 0) {
                    size--;
                    locks[index] = locks[size];
                    counts[index] = counts[size];
                    locks[size] = null;
                }
            }
        }

        private int indexOf(ObjectLock lock) {
            for (int index = 0; index < size; index++) {
                if (locks[index] == lock) {
                    return index;
                }
            }
            return -1;
        }
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
