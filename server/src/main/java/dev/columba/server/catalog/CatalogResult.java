package dev.columba.server.catalog;

import dev.columba.server.protocol.BackendMessage.Field;
import java.util.List;

/**
 * The answer to a catalog query: its columns (text format, PostgreSQL type OIDs) and its rows, values as Java objects
 * of those types ({@code String}, {@code Integer}, {@code Long}, {@code Boolean}; null for SQL NULL).
 */
public record CatalogResult(List<Field> fields, List<Object[]> rows) {
    public CatalogResult {
        fields = List.copyOf(fields);
        rows = List.copyOf(rows);
        for (Object[] row : rows) {
            if (row.length != fields.size()) {
                throw new IllegalArgumentException("a row of " + row.length + " values for " + fields.size() + " columns");
            }
        }
    }
}
