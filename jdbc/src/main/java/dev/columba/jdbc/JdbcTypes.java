package dev.columba.jdbc;

import dev.columba.core.type.SqlType;
import java.math.BigDecimal;
import java.sql.Date;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.List;
import java.util.UUID;

/**
 * How Columba's types look through JDBC: the {@link Types} code, the type name (without its
 * length or precision), precision and scale, display size and the class {@code getObject} returns.
 * The one place these answers are written, for result set metadata and database metadata alike.
 */
final class JdbcTypes {
    /** Digits of precision a DOUBLE carries (IEEE 754 binary64 round-trips 17 significant digits). */
    static final int DOUBLE_PRECISION = 17;

    /** {@code yyyy-mm-dd hh:mm:ss.ffffff}. */
    static final int TIMESTAMP_WIDTH = 26;

    /** Fractional digits of a TIMESTAMP: microseconds. */
    static final int TIMESTAMP_SCALE = 6;

    /** One type of each kind Columba stores, at its widest, in the order getTypeInfo lists them. */
    static final List<SqlType> ALL = List.of(SqlType.BOOLEAN, SqlType.INT, SqlType.BIGINT, SqlType.DOUBLE,
            SqlType.decimal(SqlType.DecimalType.MAX_PRECISION, 0), SqlType.character(SqlType.CharType.MAX_LENGTH),
            SqlType.varchar(SqlType.VarcharType.MAX_LENGTH), SqlType.DATE, SqlType.TIMESTAMP,
            SqlType.binary(SqlType.BinaryType.MAX_LENGTH), SqlType.varbinary(SqlType.VarbinaryType.MAX_LENGTH), SqlType.UUID);

    /** Characters of a UUID's text form, {@code xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}. */
    static final int UUID_WIDTH = 36;

    private JdbcTypes() {
    }

    static int jdbcType(SqlType type) {
        return switch (type) {
            case SqlType.BooleanType ignored -> Types.BOOLEAN;
            case SqlType.IntegerType ignored -> Types.INTEGER;
            case SqlType.BigintType ignored -> Types.BIGINT;
            case SqlType.DoubleType ignored -> Types.DOUBLE;
            case SqlType.DecimalType ignored -> Types.DECIMAL;
            case SqlType.VarcharType ignored -> Types.VARCHAR;
            case SqlType.CharType ignored -> Types.CHAR;
            case SqlType.DateType ignored -> Types.DATE;
            case SqlType.TimestampType ignored -> Types.TIMESTAMP;
            case SqlType.VarbinaryType ignored -> Types.VARBINARY;
            case SqlType.BinaryType ignored -> Types.BINARY;
            // As PostgreSQL's driver reports uuid: no java.sql.Types code names it.
            case SqlType.UuidType ignored -> Types.OTHER;
        };
    }

    /** The type's name as the parser reads it, without length or precision: {@code DECIMAL}, {@code VARCHAR}. */
    static String typeName(SqlType type) {
        String name = type.sqlName();
        int parenthesis = name.indexOf('(');
        return parenthesis < 0 ? name : name.substring(0, parenthesis);
    }

    /**
     * Decimal digits for numbers, characters for strings, bytes for binary strings, the width of
     * the text form for dates, times and UUIDs.
     */
    static int precision(SqlType type) {
        return switch (type) {
            case SqlType.BooleanType ignored -> 1;
            case SqlType.IntegerType ignored -> 10;
            case SqlType.BigintType ignored -> 19;
            case SqlType.DoubleType ignored -> DOUBLE_PRECISION;
            case SqlType.DecimalType decimal -> decimal.precision();
            case SqlType.VarcharType varchar -> varchar.maxLength();
            case SqlType.CharType character -> character.length();
            case SqlType.DateType ignored -> 10;
            case SqlType.TimestampType ignored -> TIMESTAMP_WIDTH;
            case SqlType.VarbinaryType varbinary -> varbinary.maxLength();
            case SqlType.BinaryType binary -> binary.length();
            case SqlType.UuidType ignored -> UUID_WIDTH;
        };
    }

    static int scale(SqlType type) {
        return switch (type) {
            case SqlType.DecimalType decimal -> decimal.scale();
            case SqlType.TimestampType ignored -> TIMESTAMP_SCALE;
            case SqlType.BooleanType ignored -> 0;
            case SqlType.IntegerType ignored -> 0;
            case SqlType.BigintType ignored -> 0;
            case SqlType.DoubleType ignored -> 0;
            case SqlType.VarcharType ignored -> 0;
            case SqlType.CharType ignored -> 0;
            case SqlType.DateType ignored -> 0;
            case SqlType.VarbinaryType ignored -> 0;
            case SqlType.BinaryType ignored -> 0;
            case SqlType.UuidType ignored -> 0;
        };
    }

    /** Characters the value's text form needs at most: a binary string's is two hexadecimal digits a byte. */
    static int displaySize(SqlType type) {
        return switch (type) {
            case SqlType.BooleanType ignored -> 5;
            case SqlType.IntegerType ignored -> 11;
            case SqlType.BigintType ignored -> 20;
            case SqlType.DoubleType ignored -> 24;
            case SqlType.DecimalType decimal -> decimal.precision() + (decimal.scale() > 0 ? 2 : 1);
            case SqlType.VarcharType varchar -> varchar.maxLength();
            case SqlType.CharType character -> character.length();
            case SqlType.DateType ignored -> 10;
            case SqlType.TimestampType ignored -> TIMESTAMP_WIDTH;
            case SqlType.VarbinaryType varbinary -> (int) Math.min(Integer.MAX_VALUE, 2L * varbinary.maxLength());
            case SqlType.BinaryType binary -> 2 * binary.length();
            case SqlType.UuidType ignored -> UUID_WIDTH;
        };
    }

    static boolean isNumeric(SqlType type) {
        return type instanceof SqlType.IntegerType || type instanceof SqlType.BigintType
                || type instanceof SqlType.DoubleType || type instanceof SqlType.DecimalType;
    }

    static boolean isCharacter(SqlType type) {
        return type instanceof SqlType.VarcharType || type instanceof SqlType.CharType;
    }

    /** The class {@code ResultSet.getObject(int)} returns for values of the type. */
    static Class<?> javaClass(SqlType type) {
        return switch (type) {
            case SqlType.BooleanType ignored -> Boolean.class;
            case SqlType.IntegerType ignored -> Integer.class;
            case SqlType.BigintType ignored -> Long.class;
            case SqlType.DoubleType ignored -> Double.class;
            case SqlType.DecimalType ignored -> BigDecimal.class;
            case SqlType.VarcharType ignored -> String.class;
            case SqlType.CharType ignored -> String.class;
            case SqlType.DateType ignored -> Date.class;
            case SqlType.TimestampType ignored -> Timestamp.class;
            case SqlType.VarbinaryType ignored -> byte[].class;
            case SqlType.BinaryType ignored -> byte[].class;
            case SqlType.UuidType ignored -> UUID.class;
        };
    }
}
