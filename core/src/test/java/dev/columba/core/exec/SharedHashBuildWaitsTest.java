package dev.columba.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.context.QueryContext;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.EvaluationContext;
import dev.columba.core.memory.Memory;
import dev.columba.core.stats.WaitStats;
import dev.columba.core.stats.WaitType;
import java.time.LocalDateTime;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;

/**
 * HTBUILD, the wait for a hash join's shared build: a worker that asks for the table while another
 * worker is building it waits, and that is one wait of the query; the builder itself waits for
 * nothing. Real threads, the interleaving forced: the builder finishes (here: fails) only once
 * the other worker is seen waiting on the build.
 */
class SharedHashBuildWaitsTest {
    @Test
    void aWorkerWaitingForAnotherToBuildTheTableWaitsHtBuildOnce() throws Exception {
        try (Memory memory = new Memory(1L << 26); BufferAllocator query = memory.child("query", 1L << 24)) {
            ExecutionContext context = new ExecutionContext(QueryContext.withDefaults(), query, 16,
                    new EvaluationContext(LocalDateTime.of(2024, 6, 1, 12, 0)));
            SharedHashBuild shared = SharedHashBuild.readByOne();
            shared.register();
            shared.register();
            ColumbaException buildFailure = new ColumbaException(ErrorCode.IO_ERROR, "the build input failed");
            CompletableFuture<Throwable> waiterSaw = new CompletableFuture<>();
            AtomicReference<Thread> waiter = new AtomicReference<>();
            ColumbaException failed = assertThrows(ColumbaException.class, () -> shared.acquire(context.worker(), allocator -> {
                // Building: the other worker asks for the table meanwhile, and must wait for it.
                waiter.set(Thread.ofPlatform().start(() -> {
                    try {
                        shared.acquire(context.worker(), unused -> {
                            throw new AssertionError("the table is being built by the other worker");
                        });
                        waiterSaw.completeExceptionally(new AssertionError("the waiting worker got a table"));
                    } catch (Throwable e) {
                        waiterSaw.complete(e);
                    }
                }));
                while (waiter.get().getState() != Thread.State.TIMED_WAITING) {
                    Thread.onSpinWait(); // until the other worker waits on the build
                }
                throw buildFailure;
            }));
            assertSame(buildFailure, failed);
            assertSame(buildFailure, waiterSaw.get(), "the waiting worker gets the builder's failure");
            waiter.get().join();
            shared.release(null);
            shared.release(null);
            WaitStats waits = context.query().statistics().waits().snapshot();
            assertEquals(1, waits.get(WaitType.HTBUILD).count(), "the builder did not wait; the other worker waited once");
            assertTrue(waits.get(WaitType.HTBUILD).nanos() > 0);
            assertEquals(0, waits.get(WaitType.CXPACKET).count() + waits.get(WaitType.CXCONSUMER).count());
        }
    }
}
