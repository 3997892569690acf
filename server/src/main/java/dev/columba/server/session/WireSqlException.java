package dev.columba.server.session;

/**
 * An error the server itself raises for a statement (a bad parameter value, a command in a failed
 * transaction), with its SQLSTATE; it ends the statement like an engine error and leaves the connection usable.
 */
final class WireSqlException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String sqlState;

    WireSqlException(String sqlState, String message) {
        super(message);
        this.sqlState = sqlState;
    }

    String sqlState() {
        return sqlState;
    }
}
