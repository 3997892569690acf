package dev.columba.planner.session;

import java.util.concurrent.atomic.LongAdder;

/**
 * Cumulative counts of an engine's statements since it opened: executed, failed, planned (with the
 * time planning took) and run from a cached plan. Sessions on many threads add to them without
 * contending; the metrics read them as functions, so what a dashboard shows cannot drift from them.
 */
public final class StatementCounters {
    private final LongAdder executed = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder planned = new LongAdder();
    private final LongAdder planningNanos = new LongAdder();
    private final LongAdder cachedPlanRuns = new LongAdder();

    void countExecuted() {
        executed.increment();
    }

    void countFailed() {
        failed.increment();
    }

    void countPlanned(long elapsedNanos) {
        planned.increment();
        planningNanos.add(elapsedNanos);
    }

    void countCachedPlanRun() {
        cachedPlanRuns.increment();
    }

    /** Statements executed (a batch counts once), failed ones included. */
    public long executed() {
        return executed.sum();
    }

    /** Statements that ended in an error. */
    public long failed() {
        return failed.sum();
    }

    /** Plans made (cache misses and plans never cached). */
    public long planned() {
        return planned.sum();
    }

    /** Wall time spent making those plans, in nanoseconds. */
    public long planningNanos() {
        return planningNanos.sum();
    }

    /** Runs of a plan found in the plan cache. */
    public long cachedPlanRuns() {
        return cachedPlanRuns.sum();
    }
}
