package dev.columba.server;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one thread a client session runs on, in message order. One thread per session, not a shared pool,
 * because Columba's sessions are bound to a thread: a write transaction holds the engine's writer lock, a
 * lock owned by the thread that began it, until the thread that began it commits or rolls back. A long
 * statement therefore holds its own session's thread and nobody else's; the network threads only decode.
 */
final class SessionThread {
    private final ExecutorService thread;
    private final AtomicInteger pending = new AtomicInteger();

    SessionThread(String name) {
        this.thread = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), task -> {
            Thread session = new Thread(task, name);
            session.setDaemon(true);
            return session;
        });
    }

    /** Queues a task behind the ones queued before it. */
    void execute(Runnable task) {
        pending.incrementAndGet();
        thread.execute(() -> {
            try {
                task.run();
            } finally {
                pending.decrementAndGet();
            }
        });
    }

    /** Tasks queued and not finished yet. */
    int pending() {
        return pending.get();
    }

    /** Runs {@code last} after every queued task, then lets the thread end. */
    void finish(Runnable last) {
        execute(last);
        thread.shutdown();
    }
}
