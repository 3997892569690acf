package dev.columba.trino;

import io.trino.spi.type.SqlDate;
import io.trino.spi.type.SqlDecimal;
import io.trino.spi.type.SqlTimestamp;
import java.time.LocalDate;

/** Trino's object values of blocks ({@code Type.getObjectValue}) as the Java values the driver returns. */
final class TrinoValues {
    private TrinoValues() {
    }

    static Object toJava(Object value) {
        return switch (value) {
            case SqlDecimal decimal -> decimal.toBigDecimal();
            case SqlDate date -> LocalDate.ofEpochDay(date.getDays());
            case SqlTimestamp timestamp -> timestamp.toLocalDateTime();
            case null -> null;
            default -> value;
        };
    }
}
