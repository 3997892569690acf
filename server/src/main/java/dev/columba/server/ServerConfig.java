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
 * @param password a password for every user name that has no login of its own ({@code --password}); it is checked
 *        by SCRAM-SHA-256 like a login's, against a verifier made when the server starts. Empty: only logins
 *        ({@code CREATE LOGIN}) authenticate
 * @param authentication trust (no password asked; allowed on a loopback address only) or SCRAM-SHA-256
 * @param tls the PKCS12 key store to answer SSLRequest with TLS, or empty to refuse it ({@code N})
 * @param requireTlsRemote whether a client connecting from an address that is not a loopback one must use TLS
 * @param maxConnections the most clients connected at once; one more is refused with SQLSTATE 53300
 * @param maxMessageLength the longest client message accepted, in bytes; a longer one closes the connection
 * @param metricsPort the HTTP port serving Prometheus metrics at {@code /metrics} on {@code host}; 0 picks a free one,
 *        {@link #NO_METRICS} serves none
 */
public record ServerConfig(Path database, String host, int port, Optional<String> password,
                           Authentication authentication, Optional<Tls> tls, boolean requireTlsRemote,
                           int maxConnections, int maxMessageLength, int metricsPort) {
    public static final int DEFAULT_PORT = 5432;
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_MAX_CONNECTIONS = 100;
    public static final int DEFAULT_MAX_MESSAGE_LENGTH = 64 << 20;
    public static final int NO_METRICS = -1;

    /** How clients prove who they are. */
    public enum Authentication {
        /** Anyone may connect as any user: for a loopback address, where only this machine's users reach the server. */
        TRUST,
        /** SCRAM-SHA-256 (RFC 7677) against a login's verifier, or against {@code --password}'s. */
        SCRAM
    }

    /** A PKCS12 key store holding the server's private key and certificate chain (keytool -genkeypair makes one). */
    public record Tls(Path keyStore, String keyStorePassword) {
        public Tls {
            Objects.requireNonNull(keyStore, "keyStore");
            Objects.requireNonNull(keyStorePassword, "keyStorePassword");
        }

        /** Never the password. */
        @Override
        public String toString() {
            return "Tls[keyStore=" + keyStore + "]";
        }
    }

    public ServerConfig {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(authentication, "authentication");
        Objects.requireNonNull(tls, "tls");
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
        if (password.isPresent() && password.get().isEmpty()) {
            throw new IllegalArgumentException("--password cannot be empty");
        }
        if (password.isPresent() && authentication == Authentication.TRUST) {
            throw new IllegalArgumentException("--password asks for a password, which trust authentication never does:"
                    + " use SCRAM authentication");
        }
        if (authentication == Authentication.TRUST && !isLoopback(host)) {
            throw new IllegalArgumentException("listening on " + host + " with trust authentication would let anyone in:"
                    + " use SCRAM authentication (logins made with CREATE LOGIN, or --password), or listen on a"
                    + " loopback address such as 127.0.0.1");
        }
        if (requireTlsRemote && tls.isEmpty()) {
            throw new IllegalArgumentException("requiring TLS needs a key store (--tls-keystore)");
        }
    }

    /** The defaults for a database: 127.0.0.1:5432, trust, no TLS. */
    public static ServerConfig of(Path database) {
        return new ServerConfig(database, DEFAULT_HOST, DEFAULT_PORT, Optional.empty(), Authentication.TRUST,
                Optional.empty(), false, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_MESSAGE_LENGTH, NO_METRICS);
    }

    /** The authentication a server listening on {@code host} gets unless told otherwise: trust on loopback only. */
    public static Authentication defaultAuthentication(String host, boolean passwordGiven) {
        return passwordGiven || !isLoopback(host) ? Authentication.SCRAM : Authentication.TRUST;
    }

    public ServerConfig withPort(int newPort) {
        return new ServerConfig(database, host, newPort, password, authentication, tls, requireTlsRemote, maxConnections,
                maxMessageLength, metricsPort);
    }

    /** Listens on {@code newHost}; trust becomes SCRAM if the new address is not a loopback one. */
    public ServerConfig withHost(String newHost) {
        Authentication kept = authentication == Authentication.TRUST && !isLoopback(newHost) ? Authentication.SCRAM
                : authentication;
        return new ServerConfig(database, newHost, port, password, kept, tls, requireTlsRemote, maxConnections,
                maxMessageLength, metricsPort);
    }

    /** A password for every user without a login of its own, checked by SCRAM. */
    public ServerConfig withPassword(String newPassword) {
        return new ServerConfig(database, host, port, Optional.of(newPassword), Authentication.SCRAM, tls,
                requireTlsRemote, maxConnections, maxMessageLength, metricsPort);
    }

    public ServerConfig withAuthentication(Authentication newAuthentication) {
        return new ServerConfig(database, host, port, password, newAuthentication, tls, requireTlsRemote, maxConnections,
                maxMessageLength, metricsPort);
    }

    public ServerConfig withTls(Path keyStore, String keyStorePassword, boolean requireRemote) {
        return new ServerConfig(database, host, port, password, authentication,
                Optional.of(new Tls(keyStore, keyStorePassword)), requireRemote, maxConnections, maxMessageLength,
                metricsPort);
    }

    public ServerConfig withMaxConnections(int connections) {
        return new ServerConfig(database, host, port, password, authentication, tls, requireTlsRemote, connections,
                maxMessageLength, metricsPort);
    }

    public ServerConfig withMetricsPort(int newMetricsPort) {
        return new ServerConfig(database, host, port, password, authentication, tls, requireTlsRemote, maxConnections,
                maxMessageLength, newMetricsPort);
    }

    /** Never the password. */
    @Override
    public String toString() {
        return "ServerConfig[database=" + database + ", host=" + host + ", port=" + port + ", password="
                + (password.isPresent() ? "(given)" : "(none)") + ", authentication=" + authentication + ", tls=" + tls
                + ", requireTlsRemote=" + requireTlsRemote + ", maxConnections=" + maxConnections
                + ", maxMessageLength=" + maxMessageLength + ", metricsPort=" + metricsPort + "]";
    }

    static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("unknown host " + host, e);
        }
    }
}
