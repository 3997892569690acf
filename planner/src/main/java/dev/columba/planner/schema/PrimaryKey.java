package dev.columba.planner.schema;

import dev.columba.storage.catalog.CatalogEntry;
import java.util.List;
import java.util.Optional;

/**
 * A table's primary key as the catalog keeps it: the unique key of a clustered table (its clustered
 * index, named as the table), or for {@code PRIMARY KEY NONCLUSTERED} the unique index the DDL
 * names {@code PK_<table>}. The one reading of it that {@code sys.key_constraints} and JDBC's
 * {@code getPrimaryKeys} share.
 *
 * @param indexName the index that enforces it, as {@code sys.indexes} names it
 * @param columns   the key's column positions, in key order
 */
public record PrimaryKey(String indexName, List<Integer> columns) {
    private static final String NONCLUSTERED_INDEX_PREFIX = "PK_";

    /** The name of the unique index a {@code PRIMARY KEY NONCLUSTERED} of {@code table} is enforced by. */
    public static String nonclusteredIndexName(String table) {
        return NONCLUSTERED_INDEX_PREFIX + table;
    }

    /** The primary key of {@code table}, whose secondary indexes are {@code indexes}, if it has one. */
    public static Optional<PrimaryKey> of(CatalogEntry.Table table, List<CatalogEntry.Index> indexes) {
        if (table.organization() == CatalogEntry.Organization.CLUSTERED && table.uniqueKey()) {
            return Optional.of(new PrimaryKey(table.name(), table.keyColumns()));
        }
        for (CatalogEntry.Index index : indexes) {
            if (index.unique() && index.name().equalsIgnoreCase(nonclusteredIndexName(table.name()))) {
                return Optional.of(new PrimaryKey(index.name(), index.keyColumns()));
            }
        }
        return Optional.empty();
    }
}
