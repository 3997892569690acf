package dev.columba.server.protocol;

import dev.columba.core.type.SqlType;
import java.sql.Types;

/**
 * PostgreSQL's type OIDs and lengths for the types Columba has (and the few clients bind): the standard ones
 * every client knows without asking {@code pg_catalog.pg_type}.
 */
public final class PgTypes {
    /** A parameter whose type the client leaves to the server (psycopg's str, pgJDBC's dates and timestamps). */
    public static final int UNSPECIFIED = 0;
    public static final int BOOL = 16;
    public static final int BYTEA = 17;
    /** PostgreSQL's one-byte {@code "char"}, the type of {@code pg_class.relkind} and the like. */
    public static final int CHAR = 18;
    /** {@code name}, the type of catalog identifiers. */
    public static final int NAME = 19;
    public static final int INT8 = 20;
    public static final int INT2 = 21;
    public static final int INT4 = 23;
    public static final int TEXT = 25;
    public static final int OID = 26;
    public static final int FLOAT4 = 700;
    public static final int FLOAT8 = 701;
    public static final int BPCHAR = 1042;
    public static final int VARCHAR = 1043;
    public static final int DATE = 1082;
    public static final int TIME = 1083;
    public static final int TIMESTAMP = 1114;
    public static final int TIMESTAMPTZ = 1184;
    public static final int NUMERIC = 1700;
    /** uuid; a uuid parameter binds as its canonical text, which a UUID or a VARCHAR place takes. */
    public static final int UUID = 2950;

    private PgTypes() {
    }

    /** {@code typlen} of RowDescription: the fixed size, or -1 for variable-length types. */
    public static short length(int typeOid) {
        return switch (typeOid) {
            case BOOL -> 1;
            case INT2 -> 2;
            case INT4, FLOAT4, DATE -> 4;
            case INT8, FLOAT8, TIMESTAMP, TIMESTAMPTZ, TIME -> 8;
            case UUID -> 16;
            default -> -1;
        };
    }

    /**
     * The type OID Columba's values of a column go out as: {@link #ofJdbcType}, but Columba's UUID
     * (JDBC's OTHER, type name UUID, as pgJDBC reports uuid) as uuid.
     */
    public static int ofColumn(int jdbcType, String typeName) {
        return jdbcType == Types.OTHER && "UUID".equalsIgnoreCase(typeName) ? UUID : ofJdbcType(jdbcType);
    }

    /** The type OID Columba's values of a JDBC type go out as. */
    public static int ofJdbcType(int jdbcType) {
        return switch (jdbcType) {
            case Types.BOOLEAN, Types.BIT -> BOOL;
            case Types.SMALLINT, Types.TINYINT -> INT2;
            case Types.INTEGER -> INT4;
            case Types.BIGINT -> INT8;
            case Types.REAL -> FLOAT4;
            case Types.DOUBLE, Types.FLOAT -> FLOAT8;
            case Types.DECIMAL, Types.NUMERIC -> NUMERIC;
            case Types.CHAR, Types.NCHAR -> BPCHAR;
            case Types.VARCHAR, Types.NVARCHAR, Types.LONGVARCHAR -> VARCHAR;
            case Types.DATE -> DATE;
            case Types.TIMESTAMP -> TIMESTAMP;
            case Types.TIMESTAMP_WITH_TIMEZONE -> TIMESTAMPTZ;
            case Types.TIME -> TIME;
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> BYTEA;
            default -> TEXT;
        };
    }

    /** PostgreSQL's {@code atttypmod}: {@code ((precision << 16) | scale) + 4} for numeric, length + 4 for strings. */
    public static int typeModifier(int typeOid, int precision, int scale) {
        return switch (typeOid) {
            case NUMERIC -> precision > 0 ? ((precision << 16) | scale) + 4 : -1;
            case VARCHAR, BPCHAR -> precision > 0 && precision < SqlType.VarcharType.MAX_LENGTH - 4
                    ? precision + 4 : -1; // Columba's widest VARCHAR is PostgreSQL's unbounded varchar
            default -> -1;
        };
    }

    /** {@code pg_type.typname}: the internal name of a type. */
    public static String typeName(int typeOid) {
        return switch (typeOid) {
            case BOOL -> "bool";
            case BYTEA -> "bytea";
            case CHAR -> "char";
            case NAME -> "name";
            case INT8 -> "int8";
            case INT2 -> "int2";
            case INT4 -> "int4";
            case TEXT -> "text";
            case OID -> "oid";
            case FLOAT4 -> "float4";
            case FLOAT8 -> "float8";
            case BPCHAR -> "bpchar";
            case VARCHAR -> "varchar";
            case DATE -> "date";
            case TIME -> "time";
            case TIMESTAMP -> "timestamp";
            case TIMESTAMPTZ -> "timestamptz";
            case NUMERIC -> "numeric";
            case UUID -> "uuid";
            default -> "unknown";
        };
    }

    /** What PostgreSQL's {@code format_type(oid, typmod)} prints: the SQL name with its modifier. */
    public static String formatType(int typeOid, int typeModifier) {
        return switch (typeOid) {
            case BOOL -> "boolean";
            case INT2 -> "smallint";
            case INT4 -> "integer";
            case INT8 -> "bigint";
            case FLOAT4 -> "real";
            case FLOAT8 -> "double precision";
            case NUMERIC -> typeModifier < 4 ? "numeric"
                    : "numeric(" + ((typeModifier - 4) >> 16) + "," + ((typeModifier - 4) & 0xFFFF) + ")";
            case BPCHAR -> typeModifier < 4 ? "bpchar" : "character(" + (typeModifier - 4) + ")";
            case VARCHAR -> typeModifier < 4 ? "character varying" : "character varying(" + (typeModifier - 4) + ")";
            case DATE -> "date";
            case TIME -> "time without time zone";
            case TIMESTAMP -> "timestamp without time zone";
            case TIMESTAMPTZ -> "timestamp with time zone";
            case CHAR -> "\"char\"";
            default -> typeName(typeOid);
        };
    }
}
