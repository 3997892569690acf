package dev.columba.storage.catalog;

import dev.columba.core.schema.TableSchema;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the catalog knows about one object: a table, an index, a view, a partition function or
 * scheme, or a login. Immutable; a change writes
 * a new entry. The serialized form is specified in docs/format/catalog.md.
 */
public sealed interface CatalogEntry {

    int objectId();

    String name();

    /** Where the object's pages are listed (its first allocation-map page). */
    long firstOamPage();

    /** How a table stores its rows. */
    enum Organization {
        /** A B+tree ordered by the key columns; the row is the leaf value. */
        CLUSTERED,
        /** Unordered pages; rows are addressed by row id (page and slot). */
        HEAP,
        /**
         * Compressed rowgroups and delta rowgroups (module columnstore); the root and allocation map
         * are those of the table's rowgroup directory B+tree.
         */
        COLUMNSTORE
    }

    /**
     * A rowstore table.
     *
     * @param keyColumns the clustered key (empty for a heap)
     * @param uniqueKey  whether the clustered key is unique; if not, each row gets a uniquifier
     * @param rootPage   the B+tree root (clustered) or first heap page
     * @param options    table options as text (e.g. {@code storage}), for layers above
     * @param rowCount   rows in the table as of the last commit that changed it, kept exact by commits
     */
    record Table(int objectId, String name, TableSchema schema, Organization organization, List<Integer> keyColumns,
                 boolean uniqueKey, long rootPage, long firstOamPage, Map<String, String> options, long rowCount)
            implements CatalogEntry {
        public Table {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(schema, "schema");
            keyColumns = List.copyOf(keyColumns);
            options = Map.copyOf(options);
            if (rowCount < 0) {
                throw new IllegalArgumentException("table " + name + " cannot have " + rowCount + " rows");
            }
            if (organization == Organization.CLUSTERED && keyColumns.isEmpty()) {
                throw new IllegalArgumentException("clustered table " + name + " needs key columns");
            }
            if (organization != Organization.CLUSTERED && !keyColumns.isEmpty()) {
                throw new IllegalArgumentException(organization + " table " + name + " has no key columns");
            }
            for (int column : keyColumns) {
                if (column < 0 || column >= schema.size()) {
                    throw new IllegalArgumentException("key column " + column + " out of range for table " + name);
                }
            }
        }
    }

    /** A table with a different row count. */
    static Table withRowCount(Table table, long rowCount) {
        return new Table(table.objectId(), table.name(), table.schema(), table.organization(), table.keyColumns(),
                table.uniqueKey(), table.rootPage(), table.firstOamPage(), table.options(), rowCount);
    }

    /**
     * A secondary (nonclustered) index of a table: a B+tree whose key is the index key followed by
     * the row's locator (the clustered key, or the row id of a heap).
     *
     * @param descending per key column, whether it is kept in descending order (CREATE INDEX ...
     *                   (c DESC)); as many as the key columns
     */
    record Index(int objectId, String name, int tableId, List<Integer> keyColumns, List<Boolean> descending,
                 boolean unique, long rootPage, long firstOamPage) implements CatalogEntry {
        public Index {
            Objects.requireNonNull(name, "name");
            keyColumns = List.copyOf(keyColumns);
            descending = List.copyOf(descending);
            if (keyColumns.isEmpty()) {
                throw new IllegalArgumentException("index " + name + " needs key columns");
            }
            if (descending.size() != keyColumns.size()) {
                throw new IllegalArgumentException("index " + name + " has " + keyColumns.size() + " key columns and "
                        + descending.size() + " directions");
            }
        }

        /** An index whose key columns are all ascending. */
        public Index(int objectId, String name, int tableId, List<Integer> keyColumns, boolean unique, long rootPage,
                     long firstOamPage) {
            this(objectId, name, tableId, keyColumns, ascending(keyColumns.size()), unique, rootPage, firstOamPage);
        }

        /** {@code count} ascending key columns. */
        public static List<Boolean> ascending(int count) {
            return java.util.Collections.nCopies(count, false);
        }

        /** Whether some key column is descending. */
        public boolean anyDescending() {
            return descending.contains(true);
        }
    }

    /**
     * A partition function or a partition scheme (SQL Server's CREATE PARTITION FUNCTION / SCHEME),
     * kept as its statement's text, which the SQL layer reads back. It owns no pages. Tables
     * partitioned by a scheme copy what they need of it into their options when they are created.
     *
     * @param definition the CREATE statement as SQL the planner's parser reads
     */
    record PartitionObject(int objectId, String name, Kind kind, String definition) implements CatalogEntry {
        public enum Kind { FUNCTION, SCHEME }

        public PartitionObject {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(definition, "definition");
            if (definition.isBlank()) {
                throw new IllegalArgumentException("partition " + kind + " " + name + " needs a definition");
            }
        }

        /** No pages, hence no allocation map: 0. */
        @Override
        public long firstOamPage() {
            return 0;
        }
    }

    /**
     * A view: a named query, kept as its SQL text, and the columns it had when it was created (names,
     * types, nullability), which a statement naming the view sees. It owns no pages.
     *
     * @param definition the query, as SQL the planner's parser reads
     */
    record View(int objectId, String name, String definition, TableSchema schema) implements CatalogEntry {
        public View {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(definition, "definition");
            Objects.requireNonNull(schema, "schema");
            if (definition.isBlank()) {
                throw new IllegalArgumentException("view " + name + " needs a query");
            }
        }

        /** A view has no pages, hence no allocation map: 0. */
        @Override
        public long firstOamPage() {
            return 0;
        }
    }

    /**
     * A login of the wire server (SQL Server's CREATE LOGIN): a name and its SCRAM-SHA-256 verifier
     * in PostgreSQL's text form ({@code SCRAM-SHA-256$4096:salt$StoredKey:ServerKey}), never the
     * password, and whether it is a member of the sysadmin server role (SQL Server's fixed role; PostgreSQL's
     * SUPERUSER), which alone may manage logins. Logins are server-level principals: their names are a namespace
     * of their own, which {@link Catalog#byName} does not search. It owns no pages.
     */
    record Login(int objectId, String name, String verifier, boolean sysadmin) implements CatalogEntry {
        public Login {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(verifier, "verifier");
            if (name.isEmpty()) {
                throw new IllegalArgumentException("a login needs a name");
            }
            if (!verifier.startsWith("SCRAM-SHA-256$")) {
                throw new IllegalArgumentException("login " + name + " needs a SCRAM-SHA-256 verifier");
            }
        }

        /** No pages, hence no allocation map: 0. */
        @Override
        public long firstOamPage() {
            return 0;
        }

        /** Never the verifier: a login printed by mistake shows nothing to attack offline. */
        @Override
        public String toString() {
            return "Login[objectId=" + objectId + ", name=" + name + (sysadmin ? ", sysadmin" : "") + "]";
        }
    }
}
