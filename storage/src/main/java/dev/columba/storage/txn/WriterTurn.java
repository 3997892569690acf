package dev.columba.storage.txn;

import java.util.concurrent.Semaphore;

/**
 * The single writer's turn: held from a write transaction's begin to its commit or rollback, and by
 * checkpoints that need no write in progress. It belongs to the transaction, not to a thread: a
 * JDBC connection may begin a transaction on one thread and commit or roll it back on another
 * (connection pools, asynchronous frameworks, a transaction manager rolling back a timed-out
 * transaction). A {@link java.util.concurrent.locks.ReentrantLock} here made such a rollback fail
 * with IllegalMonitorStateException and left the turn held by the first thread forever, so that
 * every later writer and the closing checkpoint waited (issue 15).
 *
 * <p>The thread that took the turn may take it again (a CHECKPOINT inside its own transaction), as
 * it could with the reentrant lock this replaces; each take is matched by one {@link #release()},
 * from any thread. Fair: writers get the turn in the order they asked.
 */
final class WriterTurn {
    private final Semaphore turn = new Semaphore(1, true);
    /** The thread that took the turn, while it is held. Guarded by this. */
    private Thread taker;
    /** How many takes are not yet released. Guarded by this. */
    private int takes;

    /** Waits for the turn; at once if this thread took it and it is still held. */
    void take() {
        Thread current = Thread.currentThread();
        synchronized (this) {
            if (taker == current && takes > 0) {
                takes++;
                return;
            }
        }
        turn.acquireUninterruptibly();
        synchronized (this) {
            taker = current;
            takes = 1;
        }
    }

    /** Gives back one take; the last one frees the turn for the next writer, whichever thread calls it. */
    synchronized void release() {
        if (takes == 0) {
            throw new IllegalStateException("the writer's turn is not held");
        }
        takes--;
        if (takes == 0) {
            taker = null;
            turn.release();
        }
    }
}
