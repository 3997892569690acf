package dev.columba.planner.session;

import dev.columba.planner.plan.PreparedStatementPlan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The engine's plans of queries and modifications, shared by every session, so that a statement run
 * again (a PreparedStatement executed with new values, or the same text sent again) is not planned
 * again. SQL Server's plan cache, in small.
 *
 * <p>A plan is found by its {@link Key}: the statement's normalized text, the values of the
 * settings that change plans, and the versions of the schema and of the statistics it was planned
 * against. Nothing is invalidated in place: DDL and statistics changes move the versions on, so an
 * older plan is never found again, and the next insert drops every entry of an older version.
 *
 * <p>A cached plan is immutable and holds no execution state: every execution builds its own
 * operator tree from it ({@link PreparedStatementPlan#instantiate}), with its own parameters, memory
 * and context, so two sessions may run the same plan at once. Thread-safe.
 */
final class PlanCache {
    /** At most this many plans; beyond it the least recently used go. */
    static final int CAPACITY = 1000;

    private final ConcurrentMap<Key, Entry> entries = new ConcurrentHashMap<>();
    /** The newest versions an insert has purged older entries for: a purge runs once per version. */
    private long purgedSchemaVersion;
    private long purgedStatisticsVersion;

    /**
     * What a plan was made for. A class rather than a record only to keep its hash: a record's
     * would hash the settings list again at every lookup (1.7% of a prepared point select).
     *
     * @param text              the statement's text, normalized ({@link #normalize}); for a plan
     *                          made by simple parameterization, the text with its literals
     *                          replaced by {@code ?} ({@link SimpleParameterization})
     * @param parameterized     whether the plan was made by simple parameterization: its markers
     *                          are the literals of ad hoc texts, not a prepared statement's own
     * @param planSettings      the values of the settings the planner reads, in a fixed order
     * @param schemaVersion     the engine's schema version when planning started
     * @param statisticsVersion the statistics store's version when planning started
     */
    static final class Key {
        private final String text;
        private final boolean parameterized;
        private final List<String> planSettings;
        private final long schemaVersion;
        private final long statisticsVersion;
        private final int hash;

        Key(String text, boolean parameterized, List<String> planSettings, long schemaVersion, long statisticsVersion) {
            this.text = java.util.Objects.requireNonNull(text, "text");
            this.parameterized = parameterized;
            this.planSettings = List.copyOf(planSettings);
            this.schemaVersion = schemaVersion;
            this.statisticsVersion = statisticsVersion;
            this.hash = java.util.Objects.hash(text, parameterized, this.planSettings, schemaVersion, statisticsVersion);
        }

        String text() {
            return text;
        }

        boolean parameterized() {
            return parameterized;
        }

        List<String> planSettings() {
            return planSettings;
        }

        long schemaVersion() {
            return schemaVersion;
        }

        long statisticsVersion() {
            return statisticsVersion;
        }

        /** Whether this key is for {@code text} under these settings and versions (the settings list compared by identity). */
        boolean sameAs(String otherText, boolean otherParameterized, List<String> otherSettings, long otherSchemaVersion,
                       long otherStatisticsVersion) {
            // The text by content: an ad hoc statement's parameterized text is a new string each time,
            // equal to the last one when only its literals changed.
            return (text == otherText || text.equals(otherText)) && parameterized == otherParameterized
                    && planSettings == otherSettings
                    && schemaVersion == otherSchemaVersion && statisticsVersion == otherStatisticsVersion;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && hash == key.hash && parameterized == key.parameterized
                    && schemaVersion == key.schemaVersion && statisticsVersion == key.statisticsVersion
                    && text.equals(key.text) && planSettings.equals(key.planSettings);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public String toString() {
            return "Key[text=" + text + ", parameterized=" + parameterized + ", planSettings=" + planSettings
                    + ", schemaVersion=" + schemaVersion + ", statisticsVersion=" + statisticsVersion + "]";
        }
    }

    /**
     * A cached plan and how it was used.
     *
     * @param bindings       for a plan made by simple parameterization, how each literal binds to its parameter; else empty
     * @param planningNanos  how long planning took
     */
    static final class Entry {
        private final Key key;
        private final PreparedStatementPlan plan;
        private final List<SimpleParameterization.Binding> bindings;
        private final long planningNanos;
        private final Instant created;
        /**
         * Counted by every session that runs the plan, often several at once: a {@link LongAdder},
         * as a single atomic counter made the entry's cache line travel between cores on every
         * execution; and {@link #lastUseMillis} is written only when it moved on by a millisecond.
         * The last use is kept as epoch milliseconds read from {@link System#currentTimeMillis}:
         * an {@code Instant.now()} per execution (a clock read with nanoseconds and an object) was
         * 1–2% of a prepared point select; {@code sys.plan_cache} shows milliseconds anyway.
         */
        private final LongAdder uses = new LongAdder();
        private volatile long lastUseMillis;

        Entry(Key key, PreparedStatementPlan plan, List<SimpleParameterization.Binding> bindings, long planningNanos,
              Instant created) {
            if (key.parameterized() == bindings.isEmpty()) {
                throw new IllegalArgumentException("a parameterized plan has bindings, and only it: " + key);
            }
            this.key = key;
            this.plan = plan;
            this.bindings = List.copyOf(bindings);
            this.planningNanos = planningNanos;
            // In milliseconds, as the last use is: a last use never shows before the creation.
            this.created = created.truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
            this.lastUseMillis = this.created.toEpochMilli();
        }

        Key key() {
            return key;
        }

        PreparedStatementPlan plan() {
            return plan;
        }

        List<SimpleParameterization.Binding> bindings() {
            return bindings;
        }

        /**
         * The text as {@code sys.plan_cache} shows it: a parameterized plan's as SQL Server shows
         * one, its parameters declared in front and each marker named, e.g.
         * {@code (@1 BIGINT)SELECT v FROM t WHERE id = @1}.
         */
        String displayText() {
            if (!key.parameterized()) {
                return key.text();
            }
            StringBuilder declared = new StringBuilder("(");
            List<dev.columba.core.type.SqlType> types = plan.parameterTypes();
            for (int index = 0; index < types.size(); index++) {
                declared.append(index == 0 ? "" : ",").append('@').append(index + 1).append(' ')
                        .append(types.get(index).sqlName());
            }
            declared.append(')');
            String text = key.text();
            int marker = 0;
            char quote = 0;
            for (int index = 0; index < text.length(); index++) {
                char character = text.charAt(index);
                if (quote != 0) {
                    declared.append(character);
                    quote = character == quote ? 0 : quote;
                } else if (character == '?') {
                    declared.append('@').append(++marker);
                } else {
                    quote = character == '"' ? '"' : character == '[' ? ']' : 0;
                    declared.append(character);
                }
            }
            return declared.toString();
        }

        long planningNanos() {
            return planningNanos;
        }

        Instant created() {
            return created;
        }

        /** Executions of the plan: the first (which planned it) and every one that found it here. */
        long uses() {
            return uses.sum();
        }

        Instant lastUse() {
            return Instant.ofEpochMilli(lastUseMillis);
        }

        long lastUseMillis() {
            return lastUseMillis;
        }

        /** Counts a use at {@code nowMillis} (epoch milliseconds); the last use only moves forward. */
        void used(long nowMillis) {
            uses.increment();
            if (nowMillis > lastUseMillis) {
                lastUseMillis = nowMillis;
            }
        }
    }

    /** The plan made for {@code key}, counted as used now; null if there is none. */
    Entry find(Key key) {
        Entry entry = entries.get(key);
        if (entry != null) {
            entry.used(System.currentTimeMillis());
        }
        return entry;
    }

    /** The plan made for {@code key}, not counted as used (the caller counts it if it runs it); null if none. */
    Entry peek(Key key) {
        return entries.get(key);
    }

    /**
     * Parameterized texts found not simple (or not plannable with markers): looked up before
     * parameterizing again, so an ad hoc statement of such a shape is parsed only once more. Keys
     * hold the versions, so stale ones are never found; the set is emptied when it grows past
     * {@link #CAPACITY}.
     */
    private final java.util.Set<Key> notParameterizable = ConcurrentHashMap.newKeySet();

    boolean isNotParameterizable(Key key) {
        return notParameterizable.contains(key);
    }

    void notParameterizable(Key key) {
        if (notParameterizable.size() >= CAPACITY) {
            notParameterizable.clear();
        }
        notParameterizable.add(key);
    }

    /**
     * Keeps {@code entry} (its first use counted), replacing a plan of the same key that another
     * session made meanwhile; drops the entries of older versions (never found again), and beyond
     * {@link #CAPACITY} the least recently used tenth.
     */
    void put(Entry entry) {
        entry.used(entry.created().toEpochMilli());
        Key key = entry.key();
        boolean purge;
        synchronized (this) {
            purge = key.schemaVersion() > purgedSchemaVersion || key.statisticsVersion() > purgedStatisticsVersion;
            purgedSchemaVersion = Math.max(purgedSchemaVersion, key.schemaVersion());
            purgedStatisticsVersion = Math.max(purgedStatisticsVersion, key.statisticsVersion());
        }
        if (purge) {
            entries.keySet().removeIf(other -> other.schemaVersion() < key.schemaVersion()
                    || other.statisticsVersion() < key.statisticsVersion());
        }
        entries.put(key, entry);
        if (entries.size() > CAPACITY) {
            List<Entry> byLastUse = new ArrayList<>(entries.values());
            byLastUse.sort(Comparator.comparingLong(Entry::lastUseMillis));
            for (Entry old : byLastUse.subList(0, byLastUse.size() - CAPACITY * 9 / 10)) {
                entries.remove(old.key(), old);
            }
        }
    }

    /** Every cached plan, most recently used first. */
    List<Entry> entries() {
        List<Entry> all = new ArrayList<>(entries.values());
        all.sort(Comparator.comparingLong(Entry::lastUseMillis).reversed());
        return all;
    }

    /**
     * The text a plan is found by: the statement with runs of whitespace outside quotes and
     * comments made one space and the ends trimmed; case and everything inside string literals and
     * quoted identifiers kept as written; a text with a comment is kept whole (a line comment ends
     * at its line's end). Two texts that differ otherwise are planned separately.
     */
    static String normalize(String sql) {
        StringBuilder text = new StringBuilder(sql.length());
        char quote = 0;
        boolean pendingSpace = false;
        for (int index = 0; index < sql.length(); index++) {
            char character = sql.charAt(index);
            if (quote != 0) {
                text.append(character);
                if (character == quote) {
                    quote = 0;
                }
                continue;
            }
            char next = index + 1 < sql.length() ? sql.charAt(index + 1) : 0;
            if (character == '-' && next == '-' || character == '/' && next == '*') {
                return sql.strip();
            }
            if (Character.isWhitespace(character)) {
                pendingSpace = !text.isEmpty();
                continue;
            }
            if (pendingSpace) {
                text.append(' ');
                pendingSpace = false;
            }
            if (character == '\'' || character == '"' || character == '[') {
                quote = character == '[' ? ']' : character;
            }
            text.append(character);
        }
        return text.toString();
    }
}
