package dev.columba.storage.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.stats.WaitCounters;
import dev.columba.core.stats.WaitType;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The segmented LRU's promotion rules, including the one that lets a touch of a recently promoted
 * page skip the lock, and its lists' integrity under touches, admissions and removals from many
 * threads at once.
 */
class EvictionPolicyTest {
    private static final int FRAMES = 100;
    /** Protected share: 50 frames, so a promoted frame stays recent for 12 insertions. */
    private static final int PROTECTED_PERCENT = 50;

    private static Frame[] frames(int count) {
        Frame[] frames = new Frame[count];
        for (int index = 0; index < count; index++) {
            frames[index] = new Frame(index, MemorySegment.ofArray(new byte[0]));
        }
        return frames;
    }

    @Test
    void anAgedProtectedPageTouchedAgainMovesToTheHeadAndOutlivesLessRecentOnes() {
        Frame[] frames = frames(FRAMES);
        EvictionPolicy policy = new EvictionPolicy(frames, PROTECTED_PERCENT, new WaitCounters());
        for (Frame frame : frames) {
            policy.admit(frame, null);
        }
        for (int index = 0; index < 50; index++) {
            policy.touch(frames[index], Access.RANDOM, null);
        }
        assertEquals(50, policy.protectedSize());
        // Frame 0 is the least recent protected page and long out of the recent window: it moves up.
        policy.touch(frames[0], Access.RANDOM, null);
        policy.touch(frames[50], Access.RANDOM, null);
        assertEquals(50, policy.protectedSize());
        assertTrue(policy.isProtected(frames[0]), "frame 0 was touched again and must have moved to the head");
        assertFalse(policy.isProtected(frames[1]), "frame 1 is now the least recent protected page: demoted");
        assertTrue(policy.isProtected(frames[50]));
    }

    @Test
    void aRecentlyPromotedPageStaysWhereItIsAndScansNeverPromote() {
        Frame[] frames = frames(FRAMES);
        EvictionPolicy policy = new EvictionPolicy(frames, PROTECTED_PERCENT, new WaitCounters());
        for (Frame frame : frames) {
            policy.admit(frame, null);
        }
        policy.touch(frames[0], Access.SCAN, null);
        assertFalse(policy.isProtected(frames[0]));
        policy.touch(frames[0], Access.RANDOM, null);
        policy.touch(frames[1], Access.RANDOM, null);
        // Frame 0 is second from the head, within the window: touching it changes nothing.
        policy.touch(frames[0], Access.RANDOM, null);
        List<Frame> candidates = new ArrayList<>();
        policy.candidates(FRAMES, candidates);
        assertEquals(frames[1], candidates.getLast(), "frame 1 stays the most recent");
        assertEquals(frames[0], candidates.get(FRAMES - 2));
    }

    @Test
    void theListsStayWholeUnderConcurrentTouchesAdmissionsAndRemovals() throws Exception {
        long seed = Long.getLong("columba.seed", System.nanoTime());
        System.out.println("EvictionPolicyTest seed " + seed);
        Frame[] frames = frames(FRAMES);
        EvictionPolicy policy = new EvictionPolicy(frames, PROTECTED_PERCENT, new WaitCounters());
        for (Frame frame : frames) {
            policy.admit(frame, null);
        }
        int threads = 6;
        CyclicBarrier start = new CyclicBarrier(threads);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        for (int thread = 0; thread < threads; thread++) {
            SplittableRandom random = new SplittableRandom(seed + thread);
            boolean churns = thread == 0;
            workers.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                    for (int round = 0; round < 50_000; round++) {
                        // Thread 0 evicts and re-admits frames only it owns (as the pool's evictor would).
                        if (churns) {
                            Frame frame = frames[random.nextInt(10)];
                            policy.remove(frame);
                            policy.admit(frame, null);
                        } else {
                            policy.touch(frames[10 + random.nextInt(FRAMES - 10)], Access.RANDOM, null);
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        for (Thread worker : workers) {
            worker.join();
        }
        if (failure.get() != null) {
            throw new AssertionError("seed " + seed, failure.get());
        }
        assertEquals(FRAMES, policy.protectedSize() + policy.probationSize(), "seed " + seed);
        assertTrue(policy.protectedSize() <= FRAMES * PROTECTED_PERCENT / 100, "seed " + seed);
        List<Frame> candidates = new ArrayList<>();
        policy.candidates(FRAMES * 2, candidates);
        Set<Frame> distinct = new HashSet<>(candidates);
        assertEquals(FRAMES, candidates.size(), "seed " + seed);
        assertEquals(FRAMES, distinct.size(), "every frame once, seed " + seed);
    }

    /**
     * A thread that admits a page while another holds the policy's latch waits, and that wait is
     * counted once as LATCH_EX, in the pool's waits and in the statement's; without another
     * holder, admissions and touches wait for nothing.
     */
    @Test
    void aWaitForTheLatchHeldByAnotherThreadIsCountedAsLatchExAndNoneWithoutContention() throws Exception {
        Frame[] frames = frames(FRAMES);
        WaitCounters pool = new WaitCounters();
        WaitCounters statement = new WaitCounters(pool);
        EvictionPolicy policy = new EvictionPolicy(frames, PROTECTED_PERCENT, pool);
        for (int index = 0; index < FRAMES / 2; index++) {
            policy.admit(frames[index], statement);
            policy.touch(frames[index], Access.RANDOM, statement);
        }
        assertEquals(0, pool.snapshot().get(WaitType.LATCH_EX).count(), "one thread never waits");

        policy.latch().lock();
        Thread admitting;
        try {
            admitting = Thread.ofPlatform().start(() -> policy.admit(frames[FRAMES - 1], statement));
            while (!policy.latch().hasQueuedThread(admitting)) {
                Thread.onSpinWait(); // until the admitting thread is blocked on the latch
            }
        } finally {
            policy.latch().unlock();
        }
        admitting.join();
        assertEquals(1, statement.snapshot().get(WaitType.LATCH_EX).count());
        assertEquals(1, pool.snapshot().get(WaitType.LATCH_EX).count(), "the pool counts the statement's wait once");
        assertTrue(pool.snapshot().get(WaitType.LATCH_EX).nanos() > 0, "the wait took time");
        for (WaitType other : WaitType.values()) {
            if (other != WaitType.LATCH_EX) {
                assertEquals(0, pool.snapshot().get(other).count(), other.name());
            }
        }
    }
}
