package dev.columba.jdbc;

import dev.columba.core.settings.Setting;
import dev.columba.core.settings.StandardSettings;
import dev.columba.planner.session.Engine;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientConnectionException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * Columba's embedded JDBC driver. URLs:
 *
 * <ul>
 *   <li>{@code jdbc:columba:<dir>}: the database in directory {@code <dir>} (relative to the working
 *       directory), created on first open;</li>
 *   <li>{@code jdbc:columba:mem:<name>}: a temporary database shared by the JVM's connections that
 *       name it, deleted when the last of them closes.</li>
 * </ul>
 *
 * <p>Properties: {@code user} and {@code password} are ignored (Columba has no accounts); every
 * other property names a setting ({@code buffer_pool_size}, {@code read_ahead}, ...) and its value
 * applies when the database opens (see {@link EngineRegistry} for connections that join an open
 * one). A database is open once per JVM, shared by its connections, and closed with the last one.
 *
 * <p>Registered with {@link DriverManager} when the class loads, which {@link java.util.ServiceLoader}
 * does through {@code META-INF/services/java.sql.Driver}.
 */
public final class ColumbaDriver implements Driver {
    static final String NAME = "Columba JDBC";

    /** The instance registered with DriverManager. */
    private static final ColumbaDriver INSTANCE = new ColumbaDriver();

    static {
        try {
            DriverManager.registerDriver(INSTANCE);
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** For ServiceLoader; DriverManager uses the instance the class registers. */
    public ColumbaDriver() {
    }

    @Override
    public boolean acceptsURL(String url) {
        return DatabaseLocation.accepts(url);
    }

    /** A connection for a {@code jdbc:columba:} URL; null for any other URL, as JDBC requires. */
    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        return connect(url, info, StandardPlanner.get());
    }

    /**
     * Connects with a given planner, used if this connection opens the engine (tests plan with
     * planners of their own on databases of their own).
     */
    static EmbeddedConnection connect(String url, Properties info, Engine.StatementPlanner planner) throws SQLException {
        DatabaseLocation location = DatabaseLocation.parse(url);
        Properties properties = DatabaseLocation.properties(url, info);
        if (!DatabaseLocation.takeCreate(url, properties) && !location.exists()) {
            throw new SQLNonTransientConnectionException("no database at '" + url + "' (" + (location instanceof
                    DatabaseLocation.Memory ? "no connection has this temporary database open" : "no control file in "
                    + ((DatabaseLocation.Directory) location).path()) + "), and create=false forbids creating one", "08001");
        }
        EngineRegistry.Lease lease = EngineRegistry.INSTANCE.acquire(location, properties, planner);
        return EmbeddedConnection.open(url, lease);
    }

    /** Every setting, with its default and description. */
    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
        DriverPropertyInfo[] properties = new DriverPropertyInfo[StandardSettings.ALL.size()];
        for (int index = 0; index < properties.length; index++) {
            Setting<?> setting = StandardSettings.ALL.get(index);
            String given = info == null ? null : info.getProperty(setting.name());
            DriverPropertyInfo property = new DriverPropertyInfo(setting.name(),
                    given != null ? given : setting.formatObject(setting.defaultValue()));
            property.description = setting.description() + " (scope " + setting.scope() + ")";
            property.required = false;
            properties[index] = property;
        }
        return properties;
    }

    /** The version of the driver and the engine it embeds (they ship together), e.g. {@code 0.1.0-SNAPSHOT}. */
    public static String version() {
        return Version.CURRENT.text();
    }

    @Override
    public int getMajorVersion() {
        return Version.CURRENT.major();
    }

    @Override
    public int getMinorVersion() {
        return Version.CURRENT.minor();
    }

    /** Not compliant: Columba's SQL is not full SQL-92 Entry Level (JDBC's test for the claim). */
    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw Errors.notSupported("java.util.logging (the driver does not log)");
    }
}
