package dev.columba.jdbc;

import dev.columba.planner.session.Session;
import java.sql.SQLException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One execution of a statement as far as stopping it goes: from the call that starts it until it
 * finished (for a query: its rows were read, buffered or closed). {@link Session#cancel()} stops
 * whatever the session runs now, so a cancel (from {@code Statement.cancel} on another thread, or
 * the query timer) must only reach the session while this execution is the one running: every
 * cancel and the finish take the connection's cancel lock, and a statement on a connection starts
 * only after the previous one finished.
 *
 * <p>The run announces its statement to the session when it is created ({@link Session#beginStatement}),
 * so a cancel that lands before the statement reaches the parser still stops its parsing and
 * planning. A cancel that arrives while the statement is still being planned, before the session
 * has an execution to stop, is also remembered and delivered once the query's rows exist.
 */
final class StatementRun {
    /** One daemon thread for every query timeout of the JVM; a timer that fires only asks to cancel. */
    private static final ScheduledThreadPoolExecutor TIMER = timer();

    private final Session session;
    private final Object cancelLock;
    private final int timeoutSeconds;
    private ScheduledFuture<?> timeout;
    private boolean finished;
    private boolean cancelRequested;
    private boolean timedOut;
    private boolean rolledBack;

    StatementRun(Session session, Object cancelLock, int timeoutSeconds) {
        this.session = session;
        this.cancelLock = cancelLock;
        this.timeoutSeconds = timeoutSeconds;
        session.beginStatement();
        if (timeoutSeconds > 0) {
            timeout = TIMER.schedule(() -> cancel(true), timeoutSeconds, TimeUnit.SECONDS);
        }
    }

    private static ScheduledThreadPoolExecutor timer() {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "columba-query-timeout");
            thread.setDaemon(true);
            return thread;
        });
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }

    /** Asks the running statement to stop; nothing once it finished. */
    void cancel(boolean byTimer) {
        synchronized (cancelLock) {
            if (finished) {
                return;
            }
            cancelRequested = true;
            timedOut |= byTimer;
            session.cancel();
        }
    }

    /**
     * {@code Connection.rollback()} on another thread: stops the statement as {@link #cancel} does,
     * and its failure says why ({@link Errors#rolledBack}); the rollback runs once it has stopped.
     */
    void cancelForRollback() {
        synchronized (cancelLock) {
            if (finished) {
                return;
            }
            cancelRequested = true;
            rolledBack = true;
            session.cancel();
        }
    }

    /** The query's execution exists now: delivers a cancel that came before it did. */
    void executionStarted() {
        synchronized (cancelLock) {
            if (cancelRequested && !finished) {
                session.cancel();
            }
        }
    }

    /** The statement is over; later cancels do nothing. */
    void finish() {
        synchronized (cancelLock) {
            finished = true;
        }
        if (timeout != null) {
            timeout.cancel(false);
        }
    }

    /**
     * The exception to report for a failure of this run: a cancellation the timer caused is a
     * timeout, one a rollback on another thread caused says so.
     */
    SQLException failure(SQLException failure) {
        boolean timerCancelled;
        boolean rollbackCancelled;
        synchronized (cancelLock) {
            timerCancelled = timedOut;
            rollbackCancelled = rolledBack;
        }
        if (Errors.QUERY_CANCELLED_STATE.equals(failure.getSQLState())) {
            if (rollbackCancelled) {
                return Errors.rolledBack(failure);
            }
            if (timerCancelled) {
                return Errors.timeout(timeoutSeconds, failure);
            }
        }
        return failure;
    }
}
