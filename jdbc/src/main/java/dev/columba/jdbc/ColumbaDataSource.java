package dev.columba.jdbc;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A {@link DataSource} for frameworks that are configured with one (Spring, connection pools, JNDI):
 * a bean holding a {@code jdbc:columba:} URL and connection properties, which opens connections
 * as {@link ColumbaDriver} does. User and password are accepted and ignored: Columba has no
 * accounts. Connections to one database share its engine, so a pool in front of this costs no
 * more than the connections it keeps.
 */
public final class ColumbaDataSource implements DataSource {
    private volatile String url;
    private final Properties properties = new Properties();
    private volatile int loginTimeout;
    private volatile PrintWriter logWriter;

    public ColumbaDataSource() {
    }

    public ColumbaDataSource(String url) {
        setUrl(url);
    }

    /** The URL connections are opened with: {@code jdbc:columba:<dir>[;name=value]...} or {@code jdbc:columba:mem:<name>}. */
    public void setUrl(String url) {
        this.url = url;
    }

    public String getUrl() {
        return url;
    }

    /** Sets a connection property: a setting ({@code max_dop}, {@code buffer_pool_size}, ...) or {@code create}. */
    public void setProperty(String name, String value) {
        synchronized (properties) {
            properties.setProperty(name, value);
        }
    }

    @Override
    public Connection getConnection() throws SQLException {
        String current = url;
        if (current == null || !DatabaseLocation.accepts(current)) {
            throw new SQLException("ColumbaDataSource has no jdbc:columba: URL (setUrl), it has " + current, "08001");
        }
        Properties copy = new Properties();
        synchronized (properties) {
            copy.putAll(properties);
        }
        return ColumbaDriver.connect(current, copy, StandardPlanner.get());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return getConnection();
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    /** Kept as JDBC asks; opening an embedded database does not wait for a server, so it is not used. */
    @Override
    public void setLoginTimeout(int seconds) {
        this.loginTimeout = seconds;
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeout;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw Errors.notSupported("java.util.logging (the driver does not log)");
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        throw new SQLException("ColumbaDataSource is not a " + type.getName(), "0A000");
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return type.isInstance(this);
    }
}
