package dev.columba.server.protocol;

/**
 * PostgreSQL's type OIDs and lengths for the types Columba has (and the few clients bind): the standard ones
 * every client knows without asking {@code pg_catalog.pg_type}.
 */
public final class PgTypes {
    /** A parameter whose type the client leaves to the server (psycopg's str, pgJDBC's dates and timestamps). */
    public static final int UNSPECIFIED = 0;
    public static final int BOOL = 16;
    public static final int BYTEA = 17;
    public static final int INT8 = 20;
    public static final int INT2 = 21;
    public static final int INT4 = 23;
    public static final int TEXT = 25;
    public static final int FLOAT4 = 700;
    public static final int FLOAT8 = 701;
    public static final int BPCHAR = 1042;
    public static final int VARCHAR = 1043;
    public static final int DATE = 1082;
    public static final int TIME = 1083;
    public static final int TIMESTAMP = 1114;
    public static final int TIMESTAMPTZ = 1184;
    public static final int NUMERIC = 1700;

    private PgTypes() {
    }

    /** {@code typlen} of RowDescription: the fixed size, or -1 for variable-length types. */
    public static short length(int typeOid) {
        return switch (typeOid) {
            case BOOL -> 1;
            case INT2 -> 2;
            case INT4, FLOAT4, DATE -> 4;
            case INT8, FLOAT8, TIMESTAMP, TIMESTAMPTZ, TIME -> 8;
            default -> -1;
        };
    }
}
