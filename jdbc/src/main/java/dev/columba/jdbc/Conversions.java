package dev.columba.jdbc;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.Evaluator;
import dev.columba.core.type.SqlType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * Conversions between JDBC's Java values and Columba's Java representation of SQL values (see
 * {@link SqlType}). Reading a column as another type follows SQL's CAST (text parses, numbers
 * round half away from zero, out-of-range is SQLSTATE 22003, bad text 22018), plus what JDBC
 * adds: numbers read as booleans (zero is false). Binding a parameter turns the setter's Java value
 * into the representation of its natural type (a {@code short} is an INT, a {@code java.sql.Date}
 * a {@link LocalDate}); the planner converts it further to the parameter's type.
 */
final class Conversions {
    private static final SqlType TEXT = SqlType.varchar(SqlType.VarcharType.MAX_LENGTH);

    private Conversions() {
    }

    // ---- reading: a non-null value of a column's type as what a getter returns ----------------------

    static boolean toBoolean(Object value, SqlType type) throws SQLException {
        return switch (value) {
            case BigDecimal decimal -> decimal.signum() != 0;
            case Double number -> number != 0;
            default -> (Boolean) cast(value, type, SqlType.BOOLEAN);
        };
    }

    static int toInt(Object value, SqlType type) throws SQLException {
        return value instanceof Integer number ? number : (Integer) cast(value, type, SqlType.INT);
    }

    static long toLong(Object value, SqlType type) throws SQLException {
        return value instanceof Long number ? number : (Long) cast(value, type, SqlType.BIGINT);
    }

    static double toDouble(Object value, SqlType type) throws SQLException {
        return switch (value) {
            case Double number -> number;
            case Boolean bool -> bool ? 1 : 0;
            default -> (Double) cast(value, type, SqlType.DOUBLE);
        };
    }

    /** An integer that must fit {@code [min, max]} (getShort, getByte). */
    static int toNarrowInteger(Object value, SqlType type, int min, int max, String target) throws SQLException {
        int number = toInt(value, type);
        if (number < min || number > max) {
            throw Errors.of(ErrorCode.VALUE_OUT_OF_RANGE, "value " + number + " is out of range for " + target);
        }
        return number;
    }

    static float toFloat(Object value, SqlType type) throws SQLException {
        double number = toDouble(value, type);
        if (Double.isFinite(number) && Math.abs(number) > Float.MAX_VALUE) {
            throw Errors.of(ErrorCode.VALUE_OUT_OF_RANGE, "value " + number + " is out of range for REAL");
        }
        return (float) number;
    }

    static BigDecimal toBigDecimal(Object value, SqlType type) throws SQLException {
        return switch (value) {
            case BigDecimal decimal -> decimal;
            case Integer number -> BigDecimal.valueOf(number);
            case Long number -> BigDecimal.valueOf(number);
            case Boolean bool -> bool ? BigDecimal.ONE : BigDecimal.ZERO;
            case Double number -> {
                if (!Double.isFinite(number)) {
                    throw Errors.of(ErrorCode.VALUE_OUT_OF_RANGE, "value " + number + " has no DECIMAL form");
                }
                yield BigDecimal.valueOf(number);
            }
            case String text -> {
                try {
                    yield new BigDecimal(text.strip());
                } catch (NumberFormatException e) {
                    throw Errors.of(ErrorCode.INVALID_CAST, "invalid value for DECIMAL: '" + text + "'");
                }
            }
            default -> throw Errors.of(ErrorCode.WRONG_TYPE, "cannot read a " + type.sqlName() + " value as DECIMAL");
        };
    }

    static String toText(Object value, SqlType type) throws SQLException {
        return value instanceof String text ? text : (String) cast(value, type, TEXT);
    }

    static LocalDate toLocalDate(Object value, SqlType type) throws SQLException {
        return value instanceof LocalDate date ? date : (LocalDate) cast(value, type, SqlType.DATE);
    }

    static LocalDateTime toLocalDateTime(Object value, SqlType type) throws SQLException {
        return value instanceof LocalDateTime timestamp ? timestamp : (LocalDateTime) cast(value, type, SqlType.TIMESTAMP);
    }

    /** A binary string's bytes, a UUID's 16 bytes, or the bytes hexadecimal text writes (as CAST reads them). */
    static byte[] toBytes(Object value, SqlType type) throws SQLException {
        return value instanceof byte[] bytes ? bytes
                : (byte[]) cast(value, type, SqlType.varbinary(SqlType.VarbinaryType.MAX_LENGTH));
    }

    /** A UUID, one from its 16 bytes, or from its text (as CAST reads it). */
    static java.util.UUID toUuid(Object value, SqlType type) throws SQLException {
        return value instanceof java.util.UUID uuid ? uuid : (java.util.UUID) cast(value, type, SqlType.UUID);
    }

    private static Object cast(Object value, SqlType from, SqlType to) throws SQLException {
        try {
            return Evaluator.cast(value, from, to);
        } catch (ColumbaException e) {
            throw Errors.translate(e);
        }
    }

    // ---- binding: a setter's value as a parameter value ---------------------------------------------

    /**
     * The Columba representation of a parameter value given as any Java object {@code setObject}
     * accepts; null stays null.
     *
     * <p>Beyond the classes of Columba's own types: an {@code Instant}, {@code OffsetDateTime} or
     * {@code ZonedDateTime} binds as the TIMESTAMP it is in the JVM's default time zone, the zone
     * {@code setTimestamp(Timestamp)} and {@code getTimestamp} use, so {@code getObject(i,
     * Instant.class)} gives the same instant back (pgJDBC, which sets the server's TimeZone to the
     * JVM's, stores a {@code timestamp without time zone} the same way). A {@code UUID} binds as a
     * UUID, which a VARCHAR or CHAR(36) place takes as its canonical lowercase text; a {@code byte[]}
     * as a copy (the caller may reuse its array), a binary string.
     *
     * @throws SQLException 42804 for a class that has no Columba type (a time of day: Columba has no
     *         TIME type)
     */
    static Object parameter(Object value) throws SQLException {
        return switch (value) {
            case null -> null;
            case Integer number -> number;
            case Long number -> number;
            case Double number -> number;
            case BigDecimal number -> number;
            case String text -> text;
            case Boolean bool -> bool;
            case LocalDate date -> date;
            case LocalDateTime timestamp -> timestamp;
            case Short number -> number.intValue();
            case Byte number -> number.intValue();
            // Through its shortest decimal form, so 0.1f binds as 0.1 and not as 0.10000000149011612.
            case Float number -> Double.parseDouble(number.toString());
            case BigInteger number -> new BigDecimal(number);
            case Character character -> character.toString();
            case char[] characters -> new String(characters);
            case java.sql.Timestamp timestamp -> timestamp.toLocalDateTime();
            case java.sql.Date date -> date.toLocalDate();
            case java.sql.Time ignored -> throw Errors.of(ErrorCode.WRONG_TYPE,
                    "Columba has no TIME type; bind a java.sql.Timestamp or LocalDateTime");
            case java.util.Date date -> new java.sql.Timestamp(date.getTime()).toLocalDateTime();
            case java.time.Instant instant -> LocalDateTime.ofInstant(instant, java.time.ZoneId.systemDefault());
            case java.time.OffsetDateTime timestamp ->
                    timestamp.atZoneSameInstant(java.time.ZoneId.systemDefault()).toLocalDateTime();
            case java.time.ZonedDateTime timestamp ->
                    timestamp.withZoneSameInstant(java.time.ZoneId.systemDefault()).toLocalDateTime();
            case java.util.UUID uuid -> uuid;
            case java.time.LocalTime ignored -> throw Errors.of(ErrorCode.WRONG_TYPE,
                    "Columba has no TIME type; bind a LocalDateTime (a date with the time)");
            case java.time.OffsetTime ignored -> throw Errors.of(ErrorCode.WRONG_TYPE,
                    "Columba has no TIME type; bind an OffsetDateTime (a date with the time)");
            case byte[] bytes -> bytes.clone();
            default -> throw Errors.of(ErrorCode.WRONG_TYPE, "Columba has no type for parameter values of "
                    + value.getClass().getName());
        };
    }

    /**
     * {@code setObject(index, value, targetSqlType, scaleOrLength)}: the value converted to the
     * Columba type that stands for the {@link Types} code.
     */
    static Object parameter(Object value, int targetSqlType, int scaleOrLength) throws SQLException {
        Object natural = parameter(value);
        if (natural == null) {
            return null;
        }
        SqlType from = typeOf(natural);
        return switch (targetSqlType) {
            case Types.BIT, Types.BOOLEAN -> toBoolean(natural, from);
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER -> toInt(natural, from);
            case Types.BIGINT -> toLong(natural, from);
            case Types.FLOAT, Types.REAL, Types.DOUBLE -> toDouble(natural, from);
            case Types.DECIMAL, Types.NUMERIC -> {
                BigDecimal decimal = toBigDecimal(natural, from);
                yield scaleOrLength >= 0 ? decimal.setScale(scaleOrLength, RoundingMode.HALF_UP) : decimal;
            }
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR, Types.LONGNVARCHAR,
                 Types.CLOB, Types.NCLOB -> toText(natural, from);
            case Types.DATE -> toLocalDate(natural, from);
            case Types.TIMESTAMP -> toLocalDateTime(natural, from);
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> toBytes(natural, from);
            case Types.OTHER, Types.JAVA_OBJECT -> natural;
            default -> throw Errors.notSupported("binding a parameter as java.sql.Types code " + targetSqlType);
        };
    }

    /** The type whose Java representation {@code value} is. */
    static SqlType typeOf(Object value) {
        return switch (value) {
            case Boolean ignored -> SqlType.BOOLEAN;
            case Integer ignored -> SqlType.INT;
            case Long ignored -> SqlType.BIGINT;
            case Double ignored -> SqlType.DOUBLE;
            case BigDecimal decimal -> SqlType.decimal(SqlType.DecimalType.MAX_PRECISION,
                    Math.clamp(decimal.scale(), 0, SqlType.DecimalType.MAX_PRECISION));
            case String ignored -> TEXT;
            case LocalDate ignored -> SqlType.DATE;
            case LocalDateTime ignored -> SqlType.TIMESTAMP;
            case byte[] ignored -> SqlType.varbinary(SqlType.VarbinaryType.MAX_LENGTH);
            case java.util.UUID ignored -> SqlType.UUID;
            default -> throw new IllegalArgumentException("not a Columba value: " + value.getClass().getName());
        };
    }
}
