package dev.columba.core.context;

import dev.columba.core.settings.SettingValues;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.stats.QueryStatistics;
import java.util.Objects;

/**
 * What one statement carries down to storage: the session's settings as they were when the
 * statement started, and the statistics it collects. Valid for the statement's lifetime.
 */
public final class QueryContext {
    private final SettingValues settings;
    private final QueryStatistics statistics = new QueryStatistics();

    public QueryContext(SettingValues settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
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

    /** The counters this statement charges for reads of {@code tableName}. */
    public IoCounters counters(String tableName) {
        return statistics.table(tableName);
    }
}
