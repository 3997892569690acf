package dev.columba.core.schema;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The ordered columns of a table. Column names are unique ignoring case, as SQL compares
 * unquoted identifiers.
 */
public record TableSchema(List<Column> columns) {
    public TableSchema {
        columns = List.copyOf(columns);
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a table needs at least one column");
        }
        Set<String> seen = new HashSet<>();
        for (Column column : columns) {
            if (!seen.add(column.name().toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("duplicate column name " + column.name());
            }
        }
    }

    public static TableSchema of(Column... columns) {
        return new TableSchema(List.of(columns));
    }

    public int size() {
        return columns.size();
    }

    public Column column(int columnIndex) {
        return columns.get(columnIndex);
    }

    /** The index of the column named {@code name} (ignoring case), or -1. */
    public int indexOf(String name) {
        for (int columnIndex = 0; columnIndex < columns.size(); columnIndex++) {
            if (columns.get(columnIndex).name().equalsIgnoreCase(name)) {
                return columnIndex;
            }
        }
        return -1;
    }
}
