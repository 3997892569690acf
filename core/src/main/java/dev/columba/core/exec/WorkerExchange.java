package dev.columba.core.exec;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.schema.TableSchema;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What the exchanges that run copies of one plan fragment on worker threads share
 * ({@link GatherOperator}, {@link MergeGatherOperator}): the pool of worker threads, starting the
 * workers, and the protocol of failure, cancellation and closing. The subclasses differ only in how
 * the workers' rows reach the consumer.
 *
 * <p>The protocol: the first error of any worker is kept and cancels the others (their contexts
 * share the gather's worker group), and the consumer is given it at its next call. Every worker
 * closes its fragment on its own thread (so allocators and files are released before the query's
 * allocator is checked), and the exchange's {@link #close} waits for all of them. A fragment that
 * is never started (the consumer closed before asking for a row, or the pool refused the task) is
 * closed on the consumer's thread. At close, a failure the consumer was not given yet is thrown,
 * unless it is a cancellation (which closing itself causes); a fragment that failed to close (an
 * operator that did not release its memory) is always thrown, cancelled or not. The workers' CPU
 * time is added to the query's statistics.
 *
 * @param <F> the fragment each worker runs
 */
abstract class WorkerExchange<F extends Operator> implements Operator {
    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final AtomicInteger THREAD_IDS = new AtomicInteger();
    /** Worker threads, shared by every query and every exchange; idle ones end after a minute. */
    private static final ExecutorService WORKERS = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "columba-worker-" + THREAD_IDS.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    });

    /** The copies of the fragment, one per worker. */
    final List<F> workers;
    private final TableSchema schema;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    /** The first failure of a worker to close its fragment (a leak, say), other than a cancellation. */
    private final AtomicReference<Throwable> closeFailure = new AtomicReference<>();
    /** Counted down by each worker once it closed its fragment; null before open and after close. */
    private CountDownLatch closed;
    /** The workers' context group: cancelling it cancels every worker. */
    ExecutionContext group;
    /** Set by the first failure: workers that poll it stop early. */
    volatile boolean stopping;
    private boolean opened;
    /** Whether the workers were started (at the first {@code next}). */
    private boolean started;
    /** Whether the consumer was given the workers' failure already. */
    private boolean reported;

    /** @param what the exchange, as its messages name it */
    WorkerExchange(List<F> workers, String what) {
        if (workers.isEmpty()) {
            throw new ColumbaException(ErrorCode.INTERNAL, what + " needs at least one worker");
        }
        this.workers = List.copyOf(workers);
        this.schema = workers.getFirst().schema();
        for (Operator worker : workers) {
            if (worker.schema().size() != schema.size()) {
                throw new ColumbaException(ErrorCode.INTERNAL, "the workers of " + what + " return different columns");
            }
        }
    }

    /** The fragment worker {@code index} runs (to learn about it; the exchange runs it). */
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

    /** Opens the exchange (not the workers, which open their fragments when they start); {@code name} for the message if it was opened already. */
    final void openWorkers(ExecutionContext context, String name) {
        if (opened) {
            throw new IllegalStateException(name + " was already opened");
        }
        opened = true;
        group = context.worker();
        context.query().statistics().ranWorkers(workers.size());
        closed = new CountDownLatch(workers.size());
    }

    final boolean opened() {
        return opened;
    }

    final boolean started() {
        return started;
    }

    /**
     * Starts the workers, at the first {@code next}: not at open, because the consumer may have
     * work to do first that the workers need. A hash join opens its probe input, then builds, and
     * only then publishes its bitmap filters; workers started at open scanned before the filter
     * existed and let every row through untested (TPC-H Q17 at MAXDOP 2 aggregated all six million
     * lineitem rows instead of the six thousand of its parts, 1.8x its serial time).
     */
    final void startWorkers() {
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

    /**
     * Runs worker {@code worker} on its thread: opens its fragment in a context of {@link #group},
     * reports failures through {@link #fail}, and ends with {@link #endWorker}.
     */
    abstract void run(int worker);

    /**
     * A worker is done: closes its fragment on this thread, adds {@code cpuNanos} (its CPU time
     * before this call) and the close's CPU time to the query's statistics, and counts it closed.
     */
    final void endWorker(int worker, long cpuNanos) {
        long closeStart = THREADS.getCurrentThreadCpuTime();
        try {
            workers.get(worker).close();
        } catch (Throwable e) {
            failToClose(e);
        }
        group.query().statistics().addWorkerCpuNanos(cpuNanos + THREADS.getCurrentThreadCpuTime() - closeStart);
        workerEnded(worker, true);
        closed.countDown();
    }

    /**
     * Worker {@code worker} ended, before it is counted closed: it ran ({@code ran}), or it was
     * closed without ever starting. Tells the consumer, which may be waiting for it.
     */
    abstract void workerEnded(int worker, boolean ran);

    private void closeUnstarted(int worker) {
        try {
            workers.get(worker).close();
        } catch (RuntimeException e) {
            failToClose(e);
        }
        workerEnded(worker, false);
        closed.countDown();
    }

    /** Records the first failure and stops every worker; later ones (often the cancellation it caused) are dropped. */
    final void fail(Throwable error) {
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

    /** Whether a worker failed. */
    final boolean failed() {
        return failure.get() != null;
    }

    /** Throws the workers' first failure on the consumer's thread, if there is one. */
    final void throwFailure() {
        Throwable error = failure.get();
        if (error == null) {
            return;
        }
        reported = true;
        rethrow(error);
    }

    static boolean isCancellation(Throwable error) {
        return error instanceof ColumbaException columba && columba.errorCode() == ErrorCode.QUERY_CANCELLED;
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

    static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops the workers, waits for each to close its fragment, releases what the exchange holds
     * itself ({@link #releaseOwn}), then reports: a failure the consumer was not given yet (not a
     * cancellation), a fragment that did not close cleanly, and what releasing found, in that order.
     */
    @Override
    public final void close() {
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
            // Never asked for a row: the fragments were never opened, and close here.
            started = true;
            for (int worker = 0; worker < workers.size(); worker++) {
                closeUnstarted(worker);
            }
        }
        stopping = true;
        stopWorkers();
        awaitUninterruptibly(closed);
        closed = null;
        RuntimeException released = releaseOwn();
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
        if (released != null) {
            throw released;
        }
    }

    /** At {@link #close}, once the unstarted workers are closed: makes the running ones stop and close their fragments. */
    abstract void stopWorkers();

    /** At {@link #close}, after every worker closed: releases the exchange's own resources; the error to report, or null. */
    RuntimeException releaseOwn() {
        return null;
    }
}
