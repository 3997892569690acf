package dev.columba.core.context;

import dev.columba.core.settings.SettingValues;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.stats.QueryStatistics;
import dev.columba.core.stats.WaitCounters;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What one statement carries down to storage: the session's settings as they were when the
 * statement started, and the statistics it collects. Valid for the statement's lifetime.
 */
public final class QueryContext {
    private final SettingValues settings;
    private final QueryStatistics statistics;
    /** Identity values the statement's inserts handed out, in order. */
    private final List<GeneratedKeys> generatedKeys = new ArrayList<>();

    /** A statement outside a database (tools, tests): its waits count only in its own statistics. */
    public QueryContext(SettingValues settings) {
        this(settings, null);
    }

    /** @param databaseWaits the database's waits, which the statement's waits add to (null: none) */
    public QueryContext(SettingValues settings, WaitCounters databaseWaits) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.statistics = new QueryStatistics(databaseWaits);
    }

    /** A context with default settings, for tools and tests that run outside a session. */
    public static QueryContext withDefaults() {
        return new QueryContext(SettingValues.defaults());
    }

    public SettingValues settings() {
        return settings;
    }

    public QueryStatistics statistics() {
        return statistics;
    }

    /** Records identity values an insert of this statement handed out. */
    public synchronized void addGeneratedKeys(GeneratedKeys keys) {
        generatedKeys.add(keys);
    }

    /** The identity values the statement's inserts handed out, in order; empty if none. */
    public synchronized List<GeneratedKeys> generatedKeys() {
        return List.copyOf(generatedKeys);
    }

    /** The counters this statement charges for reads of {@code tableName}. */
    public IoCounters counters(String tableName) {
        return statistics.table(tableName);
    }
}
