package dev.columba.storage.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.stats.IoCounters;
import dev.columba.core.stats.WaitCounters;
import dev.columba.core.stats.WaitStats;
import dev.columba.core.stats.WaitType;
import dev.columba.storage.page.PageFormat;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * The buffer pool's measured waits, with real threads: a reader that requests a page whose read
 * another thread has in flight blocks on the frame's latch until the page arrives — one
 * PAGEIOLATCH_SH wait, in the statement's waits and once in the pool's; a synchronous read is a
 * wait of its own; a resident page costs no wait. The interleaving is forced: the store's read
 * ahead is held until the reader is seen blocked.
 */
class BufferPoolWaitsTest {
    /** A store of zero pages (valid: never written) whose multi-page reads wait for a gate. */
    private static final class GatedStore implements PageStore {
        final CountDownLatch gate = new CountDownLatch(1);

        @Override
        public String name() {
            return "gated";
        }

        @Override
        public void readPage(long pageId, MemorySegment target) {
            target.fill((byte) 0);
        }

        @Override
        public void readPages(long firstPageId, MemorySegment[] targets) {
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            for (MemorySegment target : targets) {
                target.fill((byte) 0);
            }
        }

        @Override
        public void writePage(long pageId, MemorySegment source) {
            throw new UnsupportedOperationException("the test writes nothing");
        }

        @Override
        public void sync() {
        }

        @Override
        public void dropOsCache() {
        }
    }

    @Test
    void aReaderBlockedOnAPageInFlightWaitsPageIoLatchAndAResidentPageCostsNoWait() throws Exception {
        GatedStore store = new GatedStore();
        try (BufferPool pool = new BufferPool(store, 64, 1)) {
            WaitCounters statement = new WaitCounters(pool.waits());
            IoCounters counters = new IoCounters(statement);
            pool.readAhead(5, 1, Access.SCAN, new IoCounters());
            Thread reader = Thread.currentThread();
            Thread opener = Thread.ofPlatform().start(() -> {
                while (reader.getState() != Thread.State.WAITING) {
                    Thread.onSpinWait(); // until the reader blocks on the frame being loaded
                }
                store.gate.countDown();
            });
            try (PageRef page = pool.read(5, Access.SCAN, counters)) {
                assertEquals(PageFormat.PAGE_SIZE, page.page().byteSize());
            }
            opener.join();
            WaitStats.Wait inFlight = statement.snapshot().get(WaitType.PAGEIOLATCH_SH);
            assertEquals(1, inFlight.count(), "one wait for the read in flight");
            assertTrue(inFlight.nanos() > 0);
            assertEquals(1, pool.waits().snapshot().get(WaitType.PAGEIOLATCH_SH).count(), "counted once in the pool");

            try (PageRef ignored = pool.read(5, Access.SCAN, counters)) {
                assertEquals(1, statement.snapshot().get(WaitType.PAGEIOLATCH_SH).count(), "a resident page: no wait");
            }
            try (PageRef ignored = pool.read(9, Access.RANDOM, counters)) {
                assertEquals(2, statement.snapshot().get(WaitType.PAGEIOLATCH_SH).count(), "a synchronous read is a wait");
            }
            assertEquals(0, statement.snapshot().get(WaitType.LATCH_EX).count(), "one reader never waits for the latch");
        }
    }
}
