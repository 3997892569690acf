package dev.columba.server.session;

import java.util.Objects;
import java.util.Optional;

/**
 * What every session of a server shares.
 *
 * @param jdbcUrl the embedded database each client connection opens a connection to
 * @param password the password clients must give (cleartext authentication), or empty for trust
 * @param serverVersion the {@code server_version} reported to clients (a PostgreSQL version clients accept)
 * @param cancelKeys the live sessions, for CancelRequests
 */
public record SessionConfig(String jdbcUrl, Optional<String> password, String serverVersion, CancelKeys cancelKeys) {
    public SessionConfig {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(serverVersion, "serverVersion");
        Objects.requireNonNull(cancelKeys, "cancelKeys");
    }
}
