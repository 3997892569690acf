package dev.columba.planner.session;

import dev.columba.storage.db.Database;
import dev.columba.storage.metrics.StorageMetrics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.lang.System.Logger.Level;
import java.util.concurrent.TimeUnit;

/**
 * Micrometer meters over one engine: the buffer pool's ({@link StorageMetrics}), and statements,
 * plans, commits, log syncs, sessions and warnings of the event log. Every meter is a function of a
 * cumulative figure the engine keeps anyway, read when the registry is scraped: nothing is added to
 * a statement's path, and a meter cannot disagree with {@code sys.io_stats} or {@code sys.log_stats}.
 */
public final class EngineMetrics {
    private EngineMetrics() {
    }

    /** Registers the meters of {@code engine} with {@code registry}, tagged {@code database=name}. */
    public static void bind(Engine engine, String name, MeterRegistry registry) {
        Database database = engine.database();
        StorageMetrics.bind(database.bufferPool(), name, registry);
        StatementCounters statements = engine.statementCounters();
        FunctionCounter.builder("columba.statements", statements, StatementCounters::executed).tag("database", name)
                .description("statements executed, failed ones included (a batch counts once)").register(registry);
        FunctionCounter.builder("columba.statements.failed", statements, StatementCounters::failed).tag("database", name)
                .description("statements that ended in an error").register(registry);
        FunctionTimer.builder("columba.planning", statements, StatementCounters::planned,
                        StatementCounters::planningNanos, TimeUnit.NANOSECONDS).tag("database", name)
                .description("plans made (cache misses) and the time they took").register(registry);
        FunctionCounter.builder("columba.plan_cache.hits", statements, StatementCounters::cachedPlanRuns)
                .tag("database", name).description("statements run from a cached plan").register(registry);
        FunctionCounter.builder("columba.commits", database, d -> d.transactions().commitCounters().full())
                .tag("database", name).tag("durability", "full").register(registry);
        FunctionCounter.builder("columba.commits", database, d -> d.transactions().commitCounters().delayed())
                .tag("database", name).tag("durability", "delayed").register(registry);
        FunctionCounter.builder("columba.log.syncs", database, d -> d.log().counters().syncs()).tag("database", name)
                .description("fdatasync calls on the write-ahead log").register(registry);
        FunctionCounter.builder("columba.log.written", database, d -> d.log().counters().bytes()).tag("database", name)
                .baseUnit("bytes").register(registry);
        Gauge.builder("columba.sessions", engine, Engine::openSessions).tag("database", name)
                .description("sessions open now").register(registry);
        for (Level level : new Level[] {Level.WARNING, Level.ERROR}) {
            FunctionCounter.builder("columba.events", database.events(), events -> events.count(level))
                    .tag("database", name).tag("level", level.getName())
                    .description("events of the engine's own work at this level (sys.event_log)").register(registry);
        }
    }
}
