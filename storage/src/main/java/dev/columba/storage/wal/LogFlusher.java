package dev.columba.storage.wal;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Makes delayed commits durable in the background (docs/design/storage.md, "Delayed durability").
 * A delayed commit appends its group to the log, calls {@link #requestFlush()} and returns; the
 * flusher's thread then starts a {@link WriteAheadLog#flush} of the whole log no later than
 * {@code intervalNanos} after the first request it has not yet served, so every delayed commit is
 * on storage at most that interval plus one sync after it returned (and as soon as any later full
 * commit's sync, which covers everything before it, ends). Requests that arrive while the thread
 * waits or syncs are served together by its next sync.
 *
 * <p>The thread is a platform daemon thread, started at the first request, so a database that
 * never commits delayed has none. {@link #close()} stops it without flushing: the owner flushes
 * (a database's close checkpoints, which syncs the log). A failed sync is handed to
 * {@code onFailure} (the log has stopped itself by then; the database refuses further writes).
 *
 * <p>Thread-safe.
 */
public final class LogFlusher implements AutoCloseable {
    /**
     * The longest a delayed commit waits before the flusher starts syncing it: 5 ms, documented as
     * the bound (docs/design/storage.md). SQL Server has no fixed bound (its log buffer is flushed
     * when full, at a durable commit or by sp_flush_log); PostgreSQL's walwriter wakes every
     * {@code wal_writer_delay} (200 ms by default).
     */
    public static final long DEFAULT_INTERVAL_NANOS = 5_000_000;

    private final WriteAheadLog log;
    private final long intervalNanos;
    private final Consumer<RuntimeException> onFailure;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    // Guarded by lock.
    private boolean pending;
    private long firstPendingNanos;
    private boolean closed;
    private Thread thread;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong flushes = new AtomicLong();

    /**
     * @param intervalNanos the longest a request waits for its sync to start
     * @param onFailure told of a sync that failed
     */
    public LogFlusher(WriteAheadLog log, long intervalNanos, Consumer<RuntimeException> onFailure) {
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("the flush interval must be positive, got " + intervalNanos + " ns");
        }
        this.log = log;
        this.intervalNanos = intervalNanos;
        this.onFailure = onFailure;
    }

    /**
     * Asks for everything appended so far to be synced within the interval; returns at once. Does
     * nothing once closed (the owner flushes at close).
     */
    public void requestFlush() {
        requests.incrementAndGet();
        lock.lock();
        try {
            if (closed) {
                return;
            }
            if (!pending) {
                pending = true;
                firstPendingNanos = System.nanoTime();
                changed.signal();
            }
            if (thread == null) {
                thread = Thread.ofPlatform().daemon().name("columba-log-flusher " + log.directory()).start(this::run);
            }
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        while (true) {
            lock.lock();
            try {
                while (!pending && !closed) {
                    changed.awaitUninterruptibly();
                }
                long remaining = firstPendingNanos + intervalNanos - System.nanoTime();
                while (!closed && remaining > 0) {
                    try {
                        changed.awaitNanos(remaining);
                    } catch (InterruptedException e) {
                        return;
                    }
                    remaining = firstPendingNanos + intervalNanos - System.nanoTime();
                }
                if (closed) {
                    return;
                }
                pending = false;
            } finally {
                lock.unlock();
            }
            try {
                log.flush(log.endLsn());
                flushes.incrementAndGet();
            } catch (RuntimeException failure) {
                onFailure.accept(failure);
            }
        }
    }

    /** Requests served since creation, and the syncs the flusher's thread asked for (tests, statistics). */
    public record Counters(long requests, long flushes) {
    }

    public Counters counters() {
        return new Counters(requests.get(), flushes.get());
    }

    /** Stops the thread, waiting for a sync in progress to end; does not flush what is pending. */
    @Override
    public void close() {
        Thread running;
        lock.lock();
        try {
            closed = true;
            changed.signalAll();
            running = thread;
        } finally {
            lock.unlock();
        }
        if (running != null) {
            boolean interrupted = false;
            while (true) {
                try {
                    running.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
