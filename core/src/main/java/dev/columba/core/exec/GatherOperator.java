package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.WaitCounters;
import dev.columba.core.stats.WaitType;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The exchange of a parallel plan, SQL Server's Parallelism (Gather Streams): runs each of its
 * inputs — copies of one plan fragment that share their work through morsels, each claiming
 * rowgroups of the same scan — on a worker thread of its own, and returns their batches as they
 * come, in no particular order.
 *
 * <p>Hand-off without copying: a worker passes its batch to the consumer and waits until the
 * consumer asks for the next batch (the batch is valid until then, as the operator contract says),
 * so each worker has at most one batch in flight while the others keep working. Workers are
 * mostly partial aggregations or top-N, whose output is small; a fragment that returns many rows
 * runs at the consumer's pace.
 *
 * <p>Failure, cancellation and closing as {@link WorkerExchange} says: the first error of any
 * worker stops the others and is thrown to the consumer; cancelling the query cancels every
 * worker; closing stops the workers, waits for each to close its fragment on its own thread, and
 * reports what the consumer was not told yet.
 *
 * <p>Waits, in the query's statistics: a worker that must wait for the consumer to take its batch
 * waits {@link WaitType#CXPACKET}; a call of {@link #next} that finds no batch ready and blocks
 * waits {@link WaitType#CXCONSUMER} (once per call, however long). Both try first without
 * blocking, so a hand-off that needs no wait reads no clock.
 */
public final class GatherOperator extends WorkerExchange<Operator> {
    /** A batch handed over by worker {@code worker}, or (batch null) the worker's end. */
    private record Handoff(int worker, Batch batch) {
    }

    private final LinkedBlockingQueue<Handoff> ready = new LinkedBlockingQueue<>();
    private Semaphore[] consumed;
    private int running;
    private int current = -1;
    /** Since when the consumer has been waiting in this call of {@link #next} (System.nanoTime), 0 while it has not had to. */
    private long consumerWaitStart;

    /** @param workers copies of one fragment, each opened, run and closed on a worker thread */
    public GatherOperator(List<Operator> workers) {
        super(workers, "a gather");
    }

    @Override
    public void open(ExecutionContext context) {
        openWorkers(context, "the gather");
        consumed = new Semaphore[workers.size()];
        running = workers.size();
        for (int index = 0; index < workers.size(); index++) {
            consumed[index] = new Semaphore(0);
        }
    }

    @Override
    void run(int worker) {
        long cpuStart = THREADS.getCurrentThreadCpuTime();
        Operator fragment = workers.get(worker);
        try {
            fragment.open(group.worker());
            WaitCounters waits = group.query().statistics().waits();
            for (Batch batch = fragment.next(); batch != null && !stopping; batch = fragment.next()) {
                ready.add(new Handoff(worker, batch));
                if (!consumed[worker].tryAcquire()) {
                    long waitStart = System.nanoTime();
                    consumed[worker].acquire();
                    waits.record(WaitType.CXPACKET, System.nanoTime() - waitStart);
                }
            }
        } catch (InterruptedException e) {
            fail(new ColumbaException(ErrorCode.QUERY_CANCELLED, "a worker of the query was interrupted", e));
            Thread.currentThread().interrupt();
        } catch (Throwable e) {
            fail(e);
        } finally {
            endWorker(worker, THREADS.getCurrentThreadCpuTime() - cpuStart);
        }
    }

    @Override
    void workerEnded(int worker, boolean ran) {
        ready.add(new Handoff(worker, null));
    }

    @Override
    public Batch next() {
        if (!opened()) {
            throw new IllegalStateException("the gather is not open");
        }
        if (!started()) {
            startWorkers();
        }
        release();
        try {
            return nextHandoff();
        } finally {
            recordConsumerWait();
        }
    }

    /** One wait of the consumer for its workers, if this call of {@link #next} had to block. */
    private void recordConsumerWait() {
        if (consumerWaitStart != 0) {
            group.query().statistics().waits().record(WaitType.CXCONSUMER, System.nanoTime() - consumerWaitStart);
            consumerWaitStart = 0;
        }
    }

    /** The next batch a worker handed over, null once every worker ended; blocks (a measured wait) while none is ready. */
    private Batch nextHandoff() {
        while (true) {
            throwFailure();
            group.checkCancelled();
            if (running == 0) {
                return null;
            }
            Handoff handoff = ready.poll();
            if (handoff == null) {
                if (consumerWaitStart == 0) {
                    consumerWaitStart = System.nanoTime();
                }
                try {
                    handoff = ready.poll(100, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ColumbaException(ErrorCode.QUERY_CANCELLED, "the query was interrupted", e);
                }
            }
            if (handoff == null) {
                continue;
            }
            if (handoff.batch() == null) {
                running--;
                continue;
            }
            if (failed()) {
                consumed[handoff.worker()].release();
                continue;
            }
            current = handoff.worker();
            return handoff.batch();
        }
    }

    /** Lets the worker whose batch the consumer holds go on. */
    private void release() {
        if (current >= 0) {
            consumed[current].release();
            current = -1;
        }
    }

    /** Cancels the workers still running and lets every one that waits for the consumer go on (to its end). */
    @Override
    void stopWorkers() {
        if (group != null && running > 0) {
            group.cancel();
        }
        release();
        for (Semaphore semaphore : consumed) {
            semaphore.release(Integer.MAX_VALUE / 2);
        }
    }
}
