package dev.columba.storage.heap;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.util.Locale;

/**
 * A table's data compression, SQL Server's {@code DATA_COMPRESSION}: NONE keeps rows in the row
 * format; ROW stores each value in the fewest bytes it needs; PAGE adds per-page prefix and
 * dictionary compression (docs/format/compressed-row.md). The codes are {@code
 * sys.partitions.data_compression}'s.
 */
public enum DataCompression {
    NONE(0), ROW(1), PAGE(2);

    private final int code;

    DataCompression(int code) {
        this.code = code;
    }

    /** {@code sys.partitions.data_compression}: 0 NONE, 1 ROW, 2 PAGE. */
    public int code() {
        return code;
    }

    /** The option's value as written in SQL (any case); absent (null) is NONE. */
    public static DataCompression parse(String text) {
        if (text == null) {
            return NONE;
        }
        return switch (text.strip().toUpperCase(Locale.ROOT)) {
            case "NONE" -> NONE;
            case "ROW" -> ROW;
            case "PAGE" -> PAGE;
            default -> throw new ColumbaException(ErrorCode.INVALID_ARGUMENT,
                    "DATA_COMPRESSION must be NONE, ROW or PAGE, not '" + text + "'");
        };
    }
}
