package dev.columba.cli.inspect;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import java.util.List;
import java.util.StringJoiner;

/** How catalog entries read in a dump: column lists and schemas in SQL-like text. */
final class CatalogText {
    private CatalogText() {
    }

    /** {@code (id, name)}: the named columns of {@code schema}; an index out of range shows as {@code #7}. */
    static String columns(TableSchema schema, List<Integer> columnIndexes) {
        StringJoiner joiner = new StringJoiner(", ", "(", ")");
        for (int column : columnIndexes) {
            joiner.add(column >= 0 && column < schema.size() ? schema.column(column).name() : "#" + column);
        }
        return joiner.toString();
    }

    /** {@code id INT NOT NULL, name VARCHAR(40)}. */
    static String schema(TableSchema schema) {
        StringJoiner joiner = new StringJoiner(", ");
        for (Column column : schema.columns()) {
            joiner.add(column.name() + " " + column.type().sqlName() + (column.nullable() ? "" : " NOT NULL"));
        }
        return joiner.toString();
    }
}
