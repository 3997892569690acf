package dev.columba.core.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.junit.jupiter.api.Test;

/** The allocator tree: children on stripes by thread, limits, leak checks at close. */
class MemoryTest {
    @Test
    void childrenMadeOnManyThreadsAtOnceAreCountedUnderTheRootAndFreed() throws Exception {
        int threads = 8;
        int rounds = 2000;
        try (Memory memory = new Memory(1L << 30)) {
            CyclicBarrier start = new CyclicBarrier(threads);
            CyclicBarrier allHolding = new CyclicBarrier(threads + 1);
            CyclicBarrier release = new CyclicBarrier(threads + 1);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> workers = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                workers.add(Thread.ofPlatform().start(() -> {
                    try {
                        start.await();
                        for (int round = 0; round < rounds; round++) {
                            try (BufferAllocator child = memory.child("statement", 1 << 20);
                                 ArrowBuf buffer = child.buffer(1024)) {
                                buffer.setLong(0, round);
                                if (buffer.getLong(0) != round) {
                                    throw new AssertionError("read back " + buffer.getLong(0));
                                }
                            }
                        }
                        try (BufferAllocator child = memory.child("holder", 1 << 20);
                             ArrowBuf buffer = child.buffer(4096)) {
                            allHolding.await();
                            release.await();
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                        allHolding.reset();
                        release.reset();
                    }
                }));
            }
            allHolding.await();
            assertTrue(memory.allocatedBytes() >= threads * 4096L, "held: " + memory.allocatedBytes());
            release.await();
            for (Thread worker : workers) {
                worker.join();
            }
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            assertEquals(0, memory.allocatedBytes());
        }
    }

    @Test
    void aChildKeepsItsOwnLimit() {
        try (Memory memory = new Memory(1L << 30);
             BufferAllocator child = memory.child("small", 4096)) {
            assertThrows(OutOfMemoryException.class, () -> child.buffer(8192));
        }
    }

    @Test
    void closingWhileAChildStillHoldsMemoryReportsTheLeak() {
        Memory memory = new Memory(1L << 30);
        BufferAllocator leaked = memory.child("leaked statement", 1 << 20);
        ArrowBuf buffer = leaked.buffer(512);
        IllegalStateException failure = assertThrows(IllegalStateException.class, memory::close);
        assertTrue(failure.getMessage().contains("leaked"), failure.getMessage());
        assertTrue(buffer.capacity() >= 512);
    }
}
