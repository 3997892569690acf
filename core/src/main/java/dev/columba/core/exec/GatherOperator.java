package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.WaitCounters;
import dev.columba.core.stats.WaitType;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

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
 * <p>Failure and cancellation: the first error of any worker stops the others (their contexts are
 * cancelled) and is thrown to the consumer; cancelling the query cancels every worker. Closing
 * stops the workers, waits for each to close its fragment on its own thread (so allocators and
 * files are released before the query's allocator is checked), and reports a failure of theirs
 * that the consumer was not given yet, except a cancellation. A worker that fails to close its
 * fragment (an operator that did not release its memory) is always reported, cancelled or not.
 * CPU time spent on worker threads is added to the query's statistics.
 *
 * <p>Waits, in the query's statistics: a worker that must wait for the consumer to take its batch
 * waits {@link WaitType#CXPACKET}; a call of {@link #next} that finds no batch ready and blocks
 * waits {@link WaitType#CXCONSUMER} (once per call, however long). Both try first without
 * blocking, so a hand-off that needs no wait reads no clock.
 */
public final class GatherOperator implements Operator {
    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final AtomicInteger THREAD_IDS = new AtomicInteger();
    /** Worker threads, shared by every query and by {@link MergeGatherOperator}; idle ones end after a minute. */
    static final ExecutorService WORKERS = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "columba-worker-" + THREAD_IDS.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    });

    /** A batch handed over by worker {@code worker}, or (batch null) the worker's end. */
    private record Handoff(int worker, Batch batch) {
    }

    private final List<Operator> workers;
    private final TableSchema schema;
    private final LinkedBlockingQueue<Handoff> ready = new LinkedBlockingQueue<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    /** The first failure of a worker to close its fragment (a leak, say), other than a cancellation. */
    private final AtomicReference<Throwable> closeFailure = new AtomicReference<>();
    private Semaphore[] consumed;
    private CountDownLatch closed;
    private ExecutionContext group;
    private volatile boolean stopping;
    private int running;
    private int current = -1;
    private boolean opened;
    /** Whether the workers were started (at the first {@link #next}). */
    private boolean started;
    /** Whether the consumer was given the workers' failure already. */
    private boolean reported;
    /** Since when the consumer has been waiting in this call of {@link #next} (System.nanoTime), 0 while it has not had to. */
    private long consumerWaitStart;

    /** @param workers copies of one fragment, each opened, run and closed on a worker thread */
    public GatherOperator(List<Operator> workers) {
        if (workers.isEmpty()) {
            throw new ColumbaException(ErrorCode.INTERNAL, "a gather needs at least one worker");
        }
        this.workers = List.copyOf(workers);
        this.schema = workers.getFirst().schema();
        for (Operator worker : workers) {
            if (worker.schema().size() != schema.size()) {
                throw new ColumbaException(ErrorCode.INTERNAL, "the workers of a gather return different columns");
            }
        }
    }

    /** The fragment worker {@code index} runs (to learn about it; the gather runs it). */
    public Operator worker(int index) {
        return workers.get(index);
    }

    /** How many workers run the fragment. */
    public int degree() {
        return workers.size();
    }

    @Override
    public TableSchema schema() {
        return schema;
    }

    @Override
    public ExecutionMode mode() {
        for (Operator worker : workers) {
            if (worker.mode() == ExecutionMode.ROW) {
                return ExecutionMode.ROW;
            }
        }
        return ExecutionMode.BATCH;
    }

    @Override
    public void open(ExecutionContext context) {
        if (opened) {
            throw new IllegalStateException("the gather was already opened");
        }
        opened = true;
        group = context.worker();
        context.query().statistics().ranWorkers(workers.size());
        consumed = new Semaphore[workers.size()];
        closed = new CountDownLatch(workers.size());
        running = workers.size();
        for (int index = 0; index < workers.size(); index++) {
            consumed[index] = new Semaphore(0);
        }
    }

    /**
     * Starts the workers, at the first {@link #next}: not at open, because the consumer may have
     * work to do first that the workers need. A hash join opens its probe input, then builds, and
     * only then publishes its bitmap filters; workers started at open scanned before the filter
     * existed and let every row through untested (TPC-H Q17 at MAXDOP 2 aggregated all six million
     * lineitem rows instead of the six thousand of its parts, 1.8x its serial time).
     */
    private void start() {
        started = true;
        for (int index = 0; index < workers.size(); index++) {
            int worker = index;
            try {
                WORKERS.execute(() -> run(worker));
            } catch (RuntimeException e) {
                // The pool refused (the JVM is shutting down): this worker never runs.
                fail(e);
                closeUnstarted(worker);
            }
        }
    }

    private void run(int worker) {
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
            try {
                fragment.close();
            } catch (Throwable e) {
                failToClose(e);
            }
            group.query().statistics().addWorkerCpuNanos(THREADS.getCurrentThreadCpuTime() - cpuStart);
            ready.add(new Handoff(worker, null));
            closed.countDown();
        }
    }

    private void closeUnstarted(int worker) {
        try {
            workers.get(worker).close();
        } catch (RuntimeException e) {
            failToClose(e);
        }
        ready.add(new Handoff(worker, null));
        closed.countDown();
    }

    /** Records the first failure and stops every worker; later ones (often the cancellation it caused) are dropped. */
    private void fail(Throwable error) {
        if (failure.compareAndSet(null, error)) {
            stopping = true;
            group.cancel();
        }
    }

    /**
     * A worker could not close its fragment: its resources may not be released, whatever stopped
     * it. Kept apart from the running failures, so that {@link #close} reports it even when the
     * query was cancelled (when a running failure is no news).
     */
    private void failToClose(Throwable error) {
        if (!isCancellation(error)) {
            closeFailure.compareAndSet(null, error);
        }
        fail(error);
    }

    static boolean isCancellation(Throwable error) {
        return error instanceof ColumbaException columba && columba.errorCode() == ErrorCode.QUERY_CANCELLED;
    }

    @Override
    public Batch next() {
        if (!opened) {
            throw new IllegalStateException("the gather is not open");
        }
        if (!started) {
            start();
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
            if (failure.get() != null) {
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

    private void throwFailure() {
        Throwable error = failure.get();
        if (error == null) {
            return;
        }
        reported = true;
        rethrow(error);
    }

    /** Throws a worker's failure on the consumer's thread as it is, or wrapped if it is checked. */
    static void rethrow(Throwable error) {
        switch (error) {
            case ColumbaException columba -> throw columba;
            case RuntimeException runtime -> throw runtime;
            case Error fatal -> throw fatal;
            default -> throw new ColumbaException(ErrorCode.INTERNAL, "a worker failed: " + error, error);
        }
    }

    @Override
    public void close() {
        if (!opened) {
            for (Operator worker : workers) {
                worker.close();
            }
            return;
        }
        if (closed == null) {
            return;
        }
        if (!started) {
            // Never asked for a batch: the fragments were never opened, and close here.
            started = true;
            for (int worker = 0; worker < workers.size(); worker++) {
                closeUnstarted(worker);
            }
        }
        stopping = true;
        if (group != null && running > 0) {
            group.cancel();
        }
        release();
        for (Semaphore semaphore : consumed) {
            semaphore.release(Integer.MAX_VALUE / 2);
        }
        boolean interrupted = false;
        while (true) {
            try {
                closed.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        closed = null;
        Throwable error = failure.get();
        Throwable leak = closeFailure.get();
        // A failure the consumer was given already, or the cancellation that stopping caused, is not news.
        if (error != null && !reported && !isCancellation(error)) {
            if (leak != null && leak != error) {
                error.addSuppressed(leak);
            }
            throwFailure();
        }
        // A fragment that did not close cleanly is news even then: it did not release what it held.
        if (leak != null && leak != error) {
            rethrow(leak);
        }
    }
}
