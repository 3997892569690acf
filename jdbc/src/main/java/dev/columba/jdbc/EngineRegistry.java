package dev.columba.jdbc;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.settings.Setting;
import dev.columba.core.settings.StandardSettings;
import dev.columba.planner.session.Engine;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The engines this JVM has open, one per database, shared by every connection to it and reference
 * counted: the first connection opens the engine, the last one to close closes it (a temporary
 * database is then deleted). A database directory can be open only once at a time (its
 * {@code Database} refuses a second opening), so every connection must come through here.
 *
 * <p>Open-time settings: the first connection's properties are the engine's global settings for
 * this opening. A later connection's properties must agree with them, except session-scoped
 * settings, which that connection gets as its own session values.
 */
final class EngineRegistry {
    /** The JVM's registry: every driver instance shares it, as they share the databases. */
    static final EngineRegistry INSTANCE = new EngineRegistry();

    /** Connection properties that are not settings and that Columba ignores (it has no accounts). */
    private static final Set<String> IGNORED_PROPERTIES = Set.of("user", "password");

    private final ConcurrentHashMap<String, Slot> slots = new ConcurrentHashMap<>();

    /**
     * One database's engine and its connections. Its monitor orders opening, joining and closing;
     * a slot whose engine was closed is retired and replaced by a fresh one on the next acquire.
     */
    private static final class Slot {
        Engine engine;
        int connections;
        boolean retired;
    }

    /** A connection's share of an engine, plus the session values its properties ask for. */
    record Lease(DatabaseLocation location, Engine engine, Map<Setting<?>, String> sessionValues) {
    }

    /**
     * The engine of {@code location}, opening it if no connection has it open.
     *
     * @param properties connection properties: {@code user} and {@code password} are ignored,
     *        every other key must name a setting
     * @throws SQLException for an unknown setting or a bad value, a startup setting that differs
     *         from the open engine's, or a database that cannot be opened
     */
    Lease acquire(DatabaseLocation location, Properties properties, Engine.StatementPlanner planner) throws SQLException {
        Map<Setting<?>, String> settings = settings(properties);
        while (true) {
            Slot slot = slots.computeIfAbsent(location.key(), key -> new Slot());
            synchronized (slot) {
                if (slot.retired) {
                    continue;
                }
                if (slot.engine == null) {
                    try {
                        slot.engine = open(location, settings, planner);
                    } catch (RuntimeException | Error e) {
                        slot.retired = true;
                        slots.remove(location.key(), slot);
                        throw Errors.translate(e);
                    }
                    slot.connections = 1;
                    return new Lease(location, slot.engine, Map.of());
                }
                Map<Setting<?>, String> sessionValues = sessionValues(location, slot.engine, settings);
                slot.connections++;
                return new Lease(location, slot.engine, sessionValues);
            }
        }
    }

    /** Gives back a connection's share; the last one closes the engine. */
    void release(Lease lease) throws SQLException {
        Slot slot = slots.get(lease.location().key());
        if (slot == null) {
            return;
        }
        synchronized (slot) {
            if (slot.retired || slot.engine != lease.engine()) {
                return;
            }
            slot.connections--;
            if (slot.connections > 0) {
                return;
            }
            slot.retired = true;
            slots.remove(lease.location().key(), slot);
            Engine closing = slot.engine;
            slot.engine = null;
            try {
                closing.close();
            } catch (RuntimeException | Error e) {
                throw Errors.translate(e);
            }
        }
    }

    /** Connections open now to the database at {@code location}: 0 when its engine is closed. */
    int connections(DatabaseLocation location) {
        Slot slot = slots.get(location.key());
        if (slot == null) {
            return 0;
        }
        synchronized (slot) {
            return slot.retired ? 0 : slot.connections;
        }
    }

    private static Engine open(DatabaseLocation location, Map<Setting<?>, String> settings, Engine.StatementPlanner planner) {
        Properties open = new Properties();
        settings.forEach((setting, value) -> open.setProperty(setting.name(), value));
        return switch (location) {
            case DatabaseLocation.Directory directory -> Engine.open(directory.path(), open, planner);
            case DatabaseLocation.Memory memory -> Engine.temporary(memory.name(), open, planner);
        };
    }

    /** The settings among the properties, each checked (name and value) before anything opens. */
    private static Map<Setting<?>, String> settings(Properties properties) throws SQLException {
        Map<Setting<?>, String> settings = new LinkedHashMap<>();
        if (properties == null) {
            return settings;
        }
        for (String name : properties.stringPropertyNames()) {
            if (IGNORED_PROPERTIES.contains(name.toLowerCase(Locale.ROOT))) {
                continue;
            }
            String value = properties.getProperty(name);
            try {
                Setting<?> setting = StandardSettings.byName(name);
                setting.parse(value);
                settings.put(setting, value);
            } catch (ColumbaException e) {
                throw Errors.translate(e);
            }
        }
        return settings;
    }

    /**
     * What a connection joining an open engine must set in its session: the session-scoped
     * settings whose value differs from the engine's. A differing startup or global setting cannot
     * apply to one connection, so it is an error.
     */
    private static Map<Setting<?>, String> sessionValues(DatabaseLocation location, Engine engine,
                                                         Map<Setting<?>, String> settings) throws SQLException {
        Map<Setting<?>, String> sessionValues = new LinkedHashMap<>();
        for (Map.Entry<Setting<?>, String> entry : settings.entrySet()) {
            Setting<?> setting = entry.getKey();
            Object wanted = setting.parse(entry.getValue());
            Object current = engine.globalSettings().get(setting);
            if (Objects.equals(wanted, current)) {
                continue;
            }
            if (setting.scope() != Setting.Scope.SESSION) {
                throw Errors.of(ErrorCode.SETTING_NOT_SESSION_SCOPED, "database " + describe(location)
                        + " is already open with " + setting.name() + " = " + setting.formatObject(current) + ", and a "
                        + setting.scope().name().toLowerCase(Locale.ROOT) + " setting is the same for every connection"
                        + " (ALTER SYSTEM SET changes it)");
            }
            sessionValues.put(setting, entry.getValue());
        }
        return sessionValues;
    }

    private static String describe(DatabaseLocation location) {
        return switch (location) {
            case DatabaseLocation.Directory directory -> directory.path().toString();
            case DatabaseLocation.Memory memory -> DatabaseLocation.MEMORY_PREFIX + memory.name();
        };
    }
}
