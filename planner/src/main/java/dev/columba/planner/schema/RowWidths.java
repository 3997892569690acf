package dev.columba.planner.schema;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;

/** Estimated bytes of a row, for page counts in the cost model (no data is read to plan). */
final class RowWidths {
    private RowWidths() {
    }

    /** Variable-length values are assumed a quarter full, at most 200 bytes. */
    static int estimate(TableSchema schema) {
        int bytes = 4 + schema.size() / 8 + 1;
        for (Column column : schema.columns()) {
            bytes += switch (column.type()) {
                case SqlType.VarcharType varchar -> 2 + Math.min(200, Math.max(1, varchar.maxLength() / 4));
                case SqlType.CharType character -> 2 + character.length();
                case SqlType.VarbinaryType varbinary -> 2 + Math.min(200, Math.max(1, varbinary.maxLength() / 4));
                case SqlType.BinaryType binary -> 2 + binary.length();
                case SqlType.UuidType ignored -> SqlType.UuidType.BYTES;
                case SqlType.DecimalType decimal -> decimal.precision() <= 18 ? 8 : 16;
                case SqlType.BooleanType ignored -> 1;
                case SqlType.IntegerType ignored -> 4;
                case SqlType.DateType ignored -> 4;
                case SqlType.BigintType ignored -> 8;
                case SqlType.DoubleType ignored -> 8;
                case SqlType.TimestampType ignored -> 8;
            };
        }
        return bytes;
    }
}
