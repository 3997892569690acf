package dev.columba.trino;

import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.type.Type;
import java.util.Objects;

/**
 * A column of a Columba table as Trino sees it.
 * Public, as every handle: Trino serializes handles to JSON (Jackson) between its nodes.
 *
 * @param name    the column's name in lower case (Trino's identifiers)
 * @param ordinal the column's position in the Columba table's schema
 * @param type    its Trino type ({@link TypeMapping})
 */
public record ColumbaColumnHandle(String name, int ordinal, Type type) implements ColumnHandle {
    public ColumbaColumnHandle {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        if (ordinal < 0) {
            throw new IllegalArgumentException("column " + name + " at ordinal " + ordinal);
        }
    }

    ColumnMetadata metadata() {
        return new ColumnMetadata(name, type);
    }
}
