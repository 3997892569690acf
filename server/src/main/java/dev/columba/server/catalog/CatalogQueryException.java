package dev.columba.server.catalog;

/** A catalog query the server cannot answer, with the SQLSTATE to report; the connection stays usable. */
public final class CatalogQueryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String sqlState;

    public CatalogQueryException(String sqlState, String message) {
        super(message);
        this.sqlState = sqlState;
    }

    public String sqlState() {
        return sqlState;
    }
}
