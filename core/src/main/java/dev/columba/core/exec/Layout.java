package dev.columba.core.exec;

import dev.columba.core.type.SqlType;

/**
 * How a SQL type lies in its Arrow vector, which is all a per-row loop needs to know: DATE shares
 * INT's 4 bytes, TIMESTAMP BIGINT's 8, CHAR VARCHAR's offsets and UTF-8 bytes; VARBINARY, BINARY and UUID
 * hold their bytes in that same layout (UTF8 names the layout, not the content: compared and
 * hashed as unsigned bytes). Loops switch on
 * this enum (a jump table) rather than on the type itself (a chain of type tests).
 */
enum Layout {
    BIT,
    INT32,
    INT64,
    FLOAT64,
    DECIMAL128,
    UTF8;

    static Layout of(SqlType type) {
        return switch (type) {
            case SqlType.BooleanType ignored -> BIT;
            case SqlType.IntegerType ignored -> INT32;
            case SqlType.DateType ignored -> INT32;
            case SqlType.BigintType ignored -> INT64;
            case SqlType.TimestampType ignored -> INT64;
            case SqlType.DoubleType ignored -> FLOAT64;
            case SqlType.DecimalType ignored -> DECIMAL128;
            case SqlType.VarcharType ignored -> UTF8;
            case SqlType.CharType ignored -> UTF8;
            case SqlType.VarbinaryType ignored -> UTF8;
            case SqlType.BinaryType ignored -> UTF8;
            case SqlType.UuidType ignored -> UTF8;
        };
    }

    static boolean isVariableWidth(SqlType type) {
        return of(type) == UTF8;
    }
}
