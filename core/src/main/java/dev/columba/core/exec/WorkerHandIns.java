package dev.columba.core.exec;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import org.apache.arrow.memory.BufferAllocator;

/**
 * What every exchange among the workers of one parallel fragment shares (today {@link
 * SharedAggregation}'s partition tables): the workers register when their operators are made, before any runs,
 * so the number of partitions (one per worker) is known; each worker hands in once and waits until
 * every registered worker has; the first failure is kept and thrown to every worker that waits or
 * asks later; a worker that stops before handing in fails the ones still waiting (their partitions
 * cannot be whole); and the last registered worker to release frees what was handed in and the
 * allocator it lives in. Subclasses keep what the workers make, under this monitor.
 */
abstract class WorkerHandIns {
    private int registered;
    private int users;
    private int handedIn;
    private RuntimeException failure;
    private BufferAllocator memory;

    /** Counts a worker and returns its number (its partition); {@link #workerRegistered} runs under the monitor. */
    final synchronized int register() {
        if (handedIn > 0) {
            throw new IllegalStateException("a worker registered after the first hand-in");
        }
        users++;
        workerRegistered();
        return registered++;
    }

    /** A worker registered: make room for what it will make. Called under the monitor. */
    abstract void workerRegistered();

    /** The number of partitions: one per registered worker. */
    final synchronized int partitions() {
        return registered;
    }

    /**
     * The allocator of everything the workers make, made on first use as a child of the query's.
     * Throws the first failure instead once there is one. Called under the monitor.
     */
    final BufferAllocator memory(ExecutionContext context, String name) {
        throwIfFailed();
        if (memory == null) {
            memory = context.allocator().newChildAllocator(name, 0, Long.MAX_VALUE);
        }
        return memory;
    }

    /** Throws the first failure, if any. Called under the monitor. */
    final void throwIfFailed() {
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * Counts a worker's hand-in and waits until every registered worker has handed in (or one
     * failed, which is thrown). Called under the monitor, whose wait lets the others in.
     */
    final void handInAndAwaitAll(ExecutionContext context, String what) {
        throwIfFailed();
        handedIn++;
        notifyAll();
        while (handedIn < registered && failure == null) {
            context.checkCancelled();
            try {
                wait(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ColumbaException(ErrorCode.QUERY_CANCELLED, "interrupted while waiting for " + what, e);
            }
        }
        throwIfFailed();
    }

    /** Keeps the first failure for every worker and wakes the waiting ones. */
    final synchronized void fail(RuntimeException e) {
        if (failure == null) {
            failure = e;
        }
        notifyAll();
    }

    /**
     * A registered worker is done; {@code handedInRows} says whether it handed in. One that did not
     * fails the others still waiting. The last one to release takes, under the monitor, what is
     * left ({@link #takeEverything}) and the allocator, and closes them outside it.
     */
    final void release(boolean handedInRows, String what) {
        Runnable closeLeft;
        BufferAllocator memoryToClose;
        synchronized (this) {
            users--;
            if (!handedInRows && handedIn < registered && failure == null) {
                failure = new ColumbaException(ErrorCode.QUERY_CANCELLED, "a worker stopped before handing in to " + what);
                notifyAll();
            }
            if (users > 0) {
                return;
            }
            closeLeft = takeEverything();
            memoryToClose = memory;
            memory = null;
        }
        closeLeft.run();
        if (memoryToClose != null) {
            memoryToClose.close();
        }
    }

    /**
     * Removes everything the workers made that is still held, and returns what closes it (run
     * outside the monitor). Called under the monitor.
     */
    abstract Runnable takeEverything();
}
