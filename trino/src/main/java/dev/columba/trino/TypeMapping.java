package dev.columba.trino;

import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import io.airlift.slice.Slice;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.CharType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Columba's SQL types as Trino types, and Trino's values of them as Columba's Java values (for
 * pushed-down constraints). Every Columba type has a Trino type of the same domain: TIMESTAMP is
 * microseconds in both, DECIMAL up to 38 digits in both, CHAR(n) blank-padded in Columba and
 * stored without its padding in Trino (the page source strips it).
 */
final class TypeMapping {
    private TypeMapping() {
    }

    static Type trinoType(SqlType type) {
        return switch (type) {
            case SqlType.BooleanType ignored -> BooleanType.BOOLEAN;
            case SqlType.IntegerType ignored -> IntegerType.INTEGER;
            case SqlType.BigintType ignored -> BigintType.BIGINT;
            case SqlType.DoubleType ignored -> DoubleType.DOUBLE;
            case SqlType.DecimalType decimal -> DecimalType.createDecimalType(decimal.precision(), decimal.scale());
            case SqlType.VarcharType varchar -> VarcharType.createVarcharType(varchar.maxLength());
            case SqlType.CharType character -> CharType.createCharType(character.length());
            case SqlType.DateType ignored -> DateType.DATE;
            case SqlType.TimestampType ignored -> TimestampType.TIMESTAMP_MICROS;
            case SqlType.VarbinaryType ignored -> VarbinaryType.VARBINARY;
            case SqlType.BinaryType ignored -> VarbinaryType.VARBINARY;
            // Trino's UUID keeps its halves in another byte order; a UUID reaches Trino as its 16 bytes.
            case SqlType.UuidType ignored -> VarbinaryType.VARBINARY;
        };
    }

    /**
     * A value of {@code column}'s Trino type as the Java value of its Columba type
     * ({@link SqlType}'s representation): what a {@code ColumnPredicate} compares with.
     */
    static Object columbaValue(SqlType type, Object trinoValue) {
        return switch (type) {
            case SqlType.BooleanType ignored -> (Boolean) trinoValue;
            case SqlType.IntegerType ignored -> Math.toIntExact((Long) trinoValue);
            case SqlType.BigintType ignored -> (Long) trinoValue;
            case SqlType.DoubleType ignored -> (Double) trinoValue;
            case SqlType.DecimalType decimal -> trinoValue instanceof Int128 wide
                    ? new BigDecimal(wide.toBigInteger(), decimal.scale())
                    : BigDecimal.valueOf((Long) trinoValue, decimal.scale());
            case SqlType.VarcharType ignored -> ((Slice) trinoValue).toStringUtf8();
            case SqlType.CharType ignored -> ((Slice) trinoValue).toStringUtf8();
            case SqlType.DateType ignored -> LocalDate.ofEpochDay((Long) trinoValue);
            case SqlType.TimestampType ignored -> {
                long micros = (Long) trinoValue;
                yield LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
                        (int) Math.floorMod(micros, 1_000_000L) * 1_000, ZoneOffset.UTC);
            }
            case SqlType.VarbinaryType ignored -> ((Slice) trinoValue).getBytes();
            case SqlType.BinaryType ignored -> ((Slice) trinoValue).getBytes();
            case SqlType.UuidType ignored -> Values.bytesToUuid(((Slice) trinoValue).getBytes(), 0);
        };
    }
}
