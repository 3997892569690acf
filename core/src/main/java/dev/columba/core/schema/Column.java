package dev.columba.core.schema;

import dev.columba.core.type.SqlType;
import java.util.Objects;

/** A column of a table: name, type and whether it admits NULL. */
public record Column(String name, SqlType type, boolean nullable) {
    public Column {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        if (name.isBlank()) {
            throw new IllegalArgumentException("column name must not be blank");
        }
    }

    public static Column notNull(String name, SqlType type) {
        return new Column(name, type, false);
    }

    public static Column nullable(String name, SqlType type) {
        return new Column(name, type, true);
    }
}
