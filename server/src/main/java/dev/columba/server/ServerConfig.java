package dev.columba.server;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * How a {@link PgServer} runs.
 *
 * @param database the Columba database directory every client connection opens
 * @param host the address to listen on
 * @param port the TCP port; 0 picks a free one ({@link PgServer#port()} tells which)
 * @param password the password every client must give (cleartext authentication), or empty to trust every
 *        client, which is allowed on a loopback address only
 * @param maxConnections the most clients connected at once; one more is refused with SQLSTATE 53300
 * @param maxMessageLength the longest client message accepted, in bytes; a longer one closes the connection
 * @param metricsPort the HTTP port serving Prometheus metrics at {@code /metrics} on {@code host}; 0 picks a free one,
 *        {@link #NO_METRICS} serves none
 */
public record ServerConfig(Path database, String host, int port, Optional<String> password, int maxConnections,
                           int maxMessageLength, int metricsPort) {
    public static final int DEFAULT_PORT = 5432;
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_MAX_CONNECTIONS = 100;
    public static final int DEFAULT_MAX_MESSAGE_LENGTH = 64 << 20;
    public static final int NO_METRICS = -1;

    public ServerConfig {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(password, "password");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be between 0 and 65535, got " + port);
        }
        if (metricsPort != NO_METRICS && (metricsPort < 0 || metricsPort > 65535)) {
            throw new IllegalArgumentException("the metrics port must be between 0 and 65535, got " + metricsPort);
        }
        if (maxConnections < 1 || maxConnections > 4096) {
            throw new IllegalArgumentException("the connection limit must be between 1 and 4096, got " + maxConnections);
        }
        if (maxMessageLength < 1024) {
            throw new IllegalArgumentException("the message length limit must be at least 1024 bytes, got "
                    + maxMessageLength);
        }
        if (password.isEmpty() && !isLoopback(host)) {
            throw new IllegalArgumentException("listening on " + host + " without a password would let anyone in:"
                    + " give --password, or listen on a loopback address such as 127.0.0.1");
        }
    }

    /** The defaults for a database: 127.0.0.1:5432, no password. */
    public static ServerConfig of(Path database) {
        return new ServerConfig(database, DEFAULT_HOST, DEFAULT_PORT, Optional.empty(), DEFAULT_MAX_CONNECTIONS,
                DEFAULT_MAX_MESSAGE_LENGTH, NO_METRICS);
    }

    public ServerConfig withPort(int newPort) {
        return new ServerConfig(database, host, newPort, password, maxConnections, maxMessageLength, metricsPort);
    }

    public ServerConfig withHost(String newHost) {
        return new ServerConfig(database, newHost, port, password, maxConnections, maxMessageLength, metricsPort);
    }

    public ServerConfig withPassword(String newPassword) {
        return new ServerConfig(database, host, port, Optional.of(newPassword), maxConnections, maxMessageLength,
                metricsPort);
    }

    public ServerConfig withMaxConnections(int connections) {
        return new ServerConfig(database, host, port, password, connections, maxMessageLength, metricsPort);
    }

    public ServerConfig withMetricsPort(int newMetricsPort) {
        return new ServerConfig(database, host, port, password, maxConnections, maxMessageLength, newMetricsPort);
    }

    private static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("unknown host " + host, e);
        }
    }
}
