package dev.columba.storage.row;

import dev.columba.core.type.SqlType;

/**
 * How a {@link SqlType} is held in the row and key formats: the SQL types, with DECIMAL split by
 * the width of its unscaled value. Both codecs switch on this enum so that the per-value path is a
 * table switch rather than a type test.
 */
enum PhysicalType {
    BOOLEAN(1),
    INT(4),
    DATE(4),
    BIGINT(8),
    TIMESTAMP(8),
    DOUBLE(8),
    /** DECIMAL of precision 1..18: the unscaled value fits a signed 64-bit integer. */
    DECIMAL64(8),
    /** DECIMAL of precision 19..38: the unscaled value as a signed 128-bit integer. */
    DECIMAL128(16),
    VARCHAR(-1),
    CHAR(-1),
    /** VARBINARY: its bytes, in the variable-length section. */
    VARBINARY(-1),
    /** BINARY(n): its bytes zero-padded to n, in the variable-length section. */
    BINARY(-1),
    /** UUID: its 16 bytes, most significant first, in the fixed-width section. */
    UUID(16);

    /** The largest DECIMAL precision whose unscaled values all fit a {@code long}: 10^18 - 1 < 2^63. */
    static final int MAX_DECIMAL64_PRECISION = 18;

    private final int width;

    PhysicalType(int width) {
        this.width = width;
    }

    static PhysicalType of(SqlType type) {
        return switch (type) {
            case SqlType.BooleanType ignored -> BOOLEAN;
            case SqlType.IntegerType ignored -> INT;
            case SqlType.BigintType ignored -> BIGINT;
            case SqlType.DoubleType ignored -> DOUBLE;
            case SqlType.DecimalType decimal -> decimal.precision() <= MAX_DECIMAL64_PRECISION ? DECIMAL64 : DECIMAL128;
            case SqlType.VarcharType ignored -> VARCHAR;
            case SqlType.CharType ignored -> CHAR;
            case SqlType.VarbinaryType ignored -> VARBINARY;
            case SqlType.BinaryType ignored -> BINARY;
            case SqlType.UuidType ignored -> UUID;
            case SqlType.DateType ignored -> DATE;
            case SqlType.TimestampType ignored -> TIMESTAMP;
        };
    }

    /** Bytes of a value in the fixed-width section of a row, or -1 for a variable-length type. */
    int width() {
        return width;
    }

    boolean variableLength() {
        return width < 0;
    }
}
