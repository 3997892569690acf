package dev.columba.server.session;

import dev.columba.core.auth.ScramVerifier;
import java.util.Objects;
import java.util.Optional;

/**
 * What every session of a server shares.
 *
 * @param jdbcUrl the embedded database each client connection opens a connection to
 * @param logins where SCRAM-SHA-256 verifiers come from, or empty to trust every client
 * @param requireTlsRemote whether a client from an address that is not a loopback one must have started TLS
 * @param serverVersion the {@code server_version} reported to clients (a PostgreSQL version clients accept)
 * @param cancelKeys the live sessions, for CancelRequests
 */
public record SessionConfig(String jdbcUrl, Optional<Logins> logins, boolean requireTlsRemote, String serverVersion,
                            CancelKeys cancelKeys) {
    public SessionConfig {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(logins, "logins");
        Objects.requireNonNull(serverVersion, "serverVersion");
        Objects.requireNonNull(cancelKeys, "cancelKeys");
    }

    /** The verifiers clients are authenticated against; called on session threads, so it must be thread-safe. */
    @FunctionalInterface
    public interface Logins {
        /** The verifier of {@code user}, or empty when no password lets that user in. */
        Optional<ScramVerifier> verifier(String user);
    }
}
