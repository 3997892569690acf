package dev.columba.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.WaitStats;
import dev.columba.core.stats.WaitType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * The exchange of parallel plans: three workers, each a source of its own, on threads of their
 * own; the gather returns all their rows (in no particular order), stops and closes every worker
 * when one fails, when the query is cancelled or when the consumer stops early, and leaves no
 * memory behind (the base class checks the query's allocator after each case).
 */
class GatherOperatorTest extends OperatorTestBase {
    @Override
    int inputCount() {
        return 3;
    }

    @Override
    Operator create(List<Operator> inputs) {
        return new GatherOperator(inputs);
    }

    @Override
    List<Object[]> expected(List<List<Object[]>> inputs) {
        List<Object[]> all = new ArrayList<>();
        inputs.forEach(all::addAll);
        return all;
    }

    @Test
    void oneFailingWorkerStopsTheOthersAndItsErrorReachesTheConsumer() {
        List<Operator> workers = List.of(
                new ListSource(SCHEMA, randomRows(5000), 10, null, -1),
                new ListSource(SCHEMA, randomRows(50), 10, null, 2),
                new ListSource(SCHEMA, randomRows(5000), 10, null, -1));
        GatherOperator gather = new GatherOperator(workers);
        gather.open(context(10));
        ColumbaException failure = assertThrows(ColumbaException.class, () -> {
            while (gather.next() != null) {
                // drains until the second worker fails
            }
        });
        assertEquals(ErrorCode.IO_ERROR, failure.errorCode());
        gather.close();
        for (Operator worker : workers) {
            assertTrue(((ListSource) worker).closed, "every worker closed its fragment");
        }
        assertEquals(0, queryAllocator.getAllocatedMemory());
    }

    /**
     * A worker whose fragment cannot close cleanly (here a fake that reports a leak, as an
     * operator's allocator check does) is reported by the gather's close even when the query was
     * cancelled, where the cancellation itself is no news.
     */
    @Test
    void aFragmentThatFailsToCloseIsReportedEvenWhenTheQueryWasCancelled() {
        List<ListSource> sources = List.of(
                new ListSource(SCHEMA, randomRows(5000), 10, null, -1),
                new ListSource(SCHEMA, randomRows(5000), 10, null, -1));
        GatherOperator gather = new GatherOperator(List.of(sources.get(0), new FailsToClose(sources.get(1))));
        ExecutionContext context = context(10);
        gather.open(context);
        context.cancel();
        ColumbaException cancelled = assertThrows(ColumbaException.class, gather::next);
        assertEquals(ErrorCode.QUERY_CANCELLED, cancelled.errorCode());
        ColumbaException leak = assertThrows(ColumbaException.class, gather::close);
        assertEquals(ErrorCode.INTERNAL, leak.errorCode());
        assertTrue(leak.getMessage().contains("did not release its memory"), leak.getMessage());
        for (ListSource source : sources) {
            assertTrue(source.closed || !source.opened, "every worker closed its fragment");
        }
    }

    @Test
    void aCancelledQueryWhoseWorkersCloseCleanlyClosesWithoutError() {
        List<ListSource> sources = List.of(
                new ListSource(SCHEMA, randomRows(5000), 10, null, -1),
                new ListSource(SCHEMA, randomRows(5000), 10, null, -1));
        GatherOperator gather = new GatherOperator(List.copyOf(sources));
        ExecutionContext context = context(10);
        gather.open(context);
        assertNotNull(gather.next(), "a first batch before the cancellation");
        context.cancel();
        assertEquals(ErrorCode.QUERY_CANCELLED, assertThrows(ColumbaException.class, gather::next).errorCode());
        gather.close();
        for (ListSource source : sources) {
            assertTrue(source.closed || !source.opened, "every worker closed its fragment");
        }
    }

    /**
     * The workers start at the first batch asked for, not at open: a hash join opens its probe
     * input before it builds and publishes its bitmap filters, and workers that scanned meanwhile
     * let every row through untested. (The fragments' flags are read after the gather's hand-offs
     * and close, which order them.)
     */
    @Test
    void workersStartAtTheFirstBatchAskedForNotAtOpen() throws Exception {
        List<ListSource> sources = List.of(
                new ListSource(SCHEMA, randomRows(100), 10, null, -1),
                new ListSource(SCHEMA, randomRows(100), 10, null, -1));
        GatherOperator gather = new GatherOperator(List.copyOf(sources));
        gather.open(context(10));
        // Time enough for a worker thread started at open to have opened its fragment.
        Thread.sleep(200);
        gather.close();
        for (ListSource source : sources) {
            assertFalse(source.opened, "a fragment opened before any batch was asked for");
            assertTrue(source.closed, "a fragment never run is closed by the gather's close");
        }
        List<ListSource> again = List.of(
                new ListSource(SCHEMA, randomRows(100), 10, null, -1),
                new ListSource(SCHEMA, randomRows(100), 10, null, -1));
        assertEquals(200, run(new GatherOperator(List.copyOf(again)), context(10)).size());
        for (ListSource source : again) {
            assertTrue(source.opened && source.closed, "every fragment ran once batches were asked for");
        }
    }

    /** A fragment that closes its input, then reports a leak, as an operator whose allocator still held memory does. */
    private static final class FailsToClose implements Operator {
        private final Operator input;

        FailsToClose(Operator input) {
            this.input = input;
        }

        @Override
        public TableSchema schema() {
            return input.schema();
        }

        @Override
        public ExecutionMode mode() {
            return input.mode();
        }

        @Override
        public void open(ExecutionContext context) {
            input.open(context);
        }

        @Override
        public Batch next() {
            return input.next();
        }

        @Override
        public void close() {
            input.close();
            throw new ColumbaException(ErrorCode.INTERNAL, "FailsToClose did not release its memory: 1024 bytes");
        }
    }

    /**
     * The consumer asks for a batch while the only worker is held at its first one: the consumer
     * blocks, and that is one CXCONSUMER wait. The worker is let go only once the consumer's thread
     * is seen waiting, so the wait is certain.
     */
    @Test
    void aConsumerThatBlocksForItsWorkersWaitsCxConsumer() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        Held held = new Held(new ListSource(SCHEMA, randomRows(30), 10, null, -1), gate);
        GatherOperator gather = new GatherOperator(List.of(held));
        ExecutionContext context = context(10);
        gather.open(context);
        Thread consumer = Thread.currentThread();
        Thread opener = Thread.ofPlatform().start(() -> {
            while (consumer.getState() != Thread.State.TIMED_WAITING) {
                Thread.onSpinWait(); // until the consumer blocks polling for a batch
            }
            gate.countDown();
        });
        assertNotNull(gather.next());
        opener.join();
        WaitStats.Wait consumerWaits = context.query().statistics().waits().snapshot().get(WaitType.CXCONSUMER);
        assertEquals(1, consumerWaits.count(), "one call of next, one wait");
        assertTrue(consumerWaits.nanos() > 0);
        while (gather.next() != null) {
            // drains
        }
        gather.close();
    }

    /**
     * A worker that hands over its first batch and must wait for the consumer to take it (the
     * consumer asks for the next batch only once the worker's thread is seen waiting) waits
     * CXPACKET; the consumer, which found a batch ready, did not wait.
     */
    @Test
    void aWorkerThatWaitsForItsConsumerWaitsCxPacket() {
        Held held = new Held(new ListSource(SCHEMA, randomRows(30), 10, null, -1), new CountDownLatch(0));
        GatherOperator gather = new GatherOperator(List.of(held));
        ExecutionContext context = context(10);
        gather.open(context);
        assertNotNull(gather.next());
        while (held.thread.getState() != Thread.State.WAITING) {
            Thread.onSpinWait(); // until the worker blocks for the consumer to take its batch
        }
        while (gather.next() != null) {
            // drains
        }
        gather.close();
        WaitStats waits = context.query().statistics().waits().snapshot();
        assertTrue(waits.get(WaitType.CXPACKET).count() >= 1, waits.toString());
        assertTrue(waits.get(WaitType.CXPACKET).nanos() > 0, waits.toString());
        assertEquals(0, waits.get(WaitType.HTBUILD).count());
    }

    /** A worker's fragment that waits for a gate before its first batch and remembers the thread it runs on. */
    private static final class Held implements Operator {
        private final Operator input;
        private final CountDownLatch gate;
        volatile Thread thread;

        Held(Operator input, CountDownLatch gate) {
            this.input = input;
            this.gate = gate;
        }

        @Override
        public TableSchema schema() {
            return input.schema();
        }

        @Override
        public ExecutionMode mode() {
            return input.mode();
        }

        @Override
        public void open(ExecutionContext context) {
            thread = Thread.currentThread();
            input.open(context);
        }

        @Override
        public Batch next() {
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return input.next();
        }

        @Override
        public void close() {
            input.close();
        }
    }

    @Test
    void workersRunOnThreadsOfTheirOwnAndTheirCpuTimeIsCounted() {
        List<Operator> workers = new ArrayList<>();
        for (int worker = 0; worker < 3; worker++) {
            workers.add(new ListSource(SCHEMA, randomRows(2000), 50, null, -1));
        }
        GatherOperator gather = new GatherOperator(workers);
        ExecutionContext context = context(50);
        assertEquals(6000, run(gather, context).size());
        assertEquals(3, context.query().statistics().degree());
        assertTrue(context.query().statistics().workerCpuNanos() > 0, "the workers' CPU time is the statement's");
    }
}
