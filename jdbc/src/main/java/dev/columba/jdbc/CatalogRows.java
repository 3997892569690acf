package dev.columba.jdbc;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.planner.schema.PrimaryKey;
import dev.columba.core.type.SqlType;
import dev.columba.planner.session.Engine;
import dev.columba.storage.catalog.Catalog;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.db.Database;
import dev.columba.storage.txn.ObjectLocks;
import java.sql.DatabaseMetaData;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Locale;
import java.util.Map;

/**
 * The rows of the catalog's metadata result sets (tables, columns, primary keys, indexes), read
 * from the database's catalog as last committed: a connection does not see its own uncommitted
 * DDL here. User tables have no catalog and no schema (null); the system views are the schema
 * {@code sys}, of type {@code SYSTEM VIEW}, listed by getTables and getColumns like the others.
 *
 * <p>Key and index naming follows {@code sys.indexes}: a clustered B+tree or clustered columnstore
 * is an index named like its table. The primary key is a unique clustered key, or the unique
 * nonclustered index {@code PK_<table>} that {@code PRIMARY KEY NONCLUSTERED} creates.
 */
final class CatalogRows {
    /** Table options that mark IDENTITY and computed columns (see the planner's DDL). */
    private static final String IDENTITY_OPTION = "identity:";
    private static final String COMPUTED_OPTION = "computed:";

    private final List<CatalogEntry.Table> tables = new ArrayList<>();
    private final List<CatalogEntry.Index> indexes = new ArrayList<>();
    private final List<CatalogEntry.View> views = new ArrayList<>();
    private final Map<String, TableSchema> systemViews;

    private CatalogRows(List<CatalogEntry> entries, Map<String, TableSchema> systemViews) {
        this.systemViews = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        this.systemViews.putAll(systemViews);
        for (CatalogEntry entry : entries) {
            switch (entry) {
                case CatalogEntry.Table table -> {
                    // A partition of a partitioned table is not a table of its own to clients.
                    if (!dev.columba.planner.schema.PartitionOptions.partition(table)) {
                        tables.add(table);
                    }
                }
                case CatalogEntry.Index index -> indexes.add(index);
                case CatalogEntry.View view -> views.add(view);
                case CatalogEntry.PartitionObject ignored -> {
                    // Partition functions and schemes are not listed by JDBC's metadata.
                }
                case CatalogEntry.Login ignored -> {
                    // Nor are logins: they are server principals, not schema objects.
                }
            }
        }
        tables.sort(Comparator.comparing(CatalogEntry.Table::name, String.CASE_INSENSITIVE_ORDER));
        views.sort(Comparator.comparing(CatalogEntry.View::name, String.CASE_INSENSITIVE_ORDER));
    }

    /** The committed catalog, read with the catalog held shared as a statement would. */
    static CatalogRows read(Engine engine) {
        Database database = engine.database();
        ObjectLocks.Lease lease = database.locks().shared(Catalog.CATALOG_OBJECT_ID);
        try {
            return new CatalogRows(database.catalog().entries(database.bufferPool(), database.systemCounters()),
                    engine.systemViews());
        } finally {
            lease.close();
        }
    }

    /** The schema of the system views. */
    static final String SYSTEM_SCHEMA = "sys";

    /** Whether the system views' schema is in the scope of {@code catalog} and {@code schemaPattern}. */
    private static boolean systemInScope(String catalog, String schemaPattern) {
        return (catalog == null || catalog.isEmpty()) && (schemaPattern == null || NamePattern.of(schemaPattern)
                .matches(SYSTEM_SCHEMA));
    }

    /** User tables have no schema: they match a schema pattern that matches the empty string. */
    private static boolean inScope(String catalog, String schemaPattern) {
        return (catalog == null || catalog.isEmpty()) && NamePattern.of(schemaPattern).matches(null);
    }

    private List<CatalogEntry.Table> tables(String catalog, String schemaPattern, NamePattern names) {
        if (!inScope(catalog, schemaPattern)) {
            return List.of();
        }
        return tables.stream().filter(table -> names.matches(table.name())).toList();
    }

    /** The table named exactly {@code name} (ignoring case), for the methods that take a name, not a pattern. */
    private List<CatalogEntry.Table> named(String catalog, String schema, String name) {
        if (!inScope(catalog, schema) || name == null) {
            return List.of();
        }
        return tables.stream().filter(table -> table.name().equalsIgnoreCase(name)).toList();
    }

    private static String storage(CatalogEntry.Table table) {
        return switch (table.organization()) {
            case CLUSTERED -> "rowstore, clustered B+tree";
            case HEAP -> "rowstore heap";
            case COLUMNSTORE -> "columnstore";
        };
    }

    // ---- getTables ------------------------------------------------------------------------------

    static final TableSchema TABLES = MetadataSchemas.schema("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE",
            "REMARKS", MetadataSchemas.TEXT, "TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "SELF_REFERENCING_COL_NAME", "REF_GENERATION");

    static final String SYSTEM_VIEW_TYPE = "SYSTEM VIEW";
    static final String TABLE_TYPE = "TABLE";
    static final String VIEW_TYPE = "VIEW";

    /** System views, tables, then views (JDBC orders by TABLE_TYPE first), each by name. */
    List<Object[]> tables(String catalog, String schemaPattern, String tableNamePattern, String[] types) {
        List<Object[]> rows = new ArrayList<>();
        NamePattern names = NamePattern.of(tableNamePattern);
        if (systemInScope(catalog, schemaPattern)
                && (types == null || List.of(types).stream().anyMatch(SYSTEM_VIEW_TYPE::equalsIgnoreCase))) {
            for (String view : systemViews.keySet()) {
                if (names.matches(view)) {
                    rows.add(new Object[] {null, SYSTEM_SCHEMA, view, SYSTEM_VIEW_TYPE, null, null, null, null, null, null});
                }
            }
        }
        if (types == null || List.of(types).stream().anyMatch(TABLE_TYPE::equalsIgnoreCase)) {
            for (CatalogEntry.Table table : tables(catalog, schemaPattern, names)) {
                rows.add(new Object[] {null, null, table.name(), TABLE_TYPE, storage(table), null, null, null, null, null});
            }
        }
        if (inScope(catalog, schemaPattern) && (types == null || List.of(types).stream().anyMatch(VIEW_TYPE::equalsIgnoreCase))) {
            for (CatalogEntry.View view : views) {
                if (names.matches(view.name())) {
                    rows.add(new Object[] {null, null, view.name(), VIEW_TYPE, null, null, null, null, null, null});
                }
            }
        }
        return rows;
    }

    // ---- getColumns -----------------------------------------------------------------------------

    static final TableSchema COLUMNS = MetadataSchemas.schema("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME",
            "DATA_TYPE", SqlType.INT, "TYPE_NAME", "COLUMN_SIZE", SqlType.INT, "BUFFER_LENGTH", SqlType.INT,
            "DECIMAL_DIGITS", SqlType.INT, "NUM_PREC_RADIX", SqlType.INT, "NULLABLE", SqlType.INT, "REMARKS", MetadataSchemas.TEXT, "COLUMN_DEF",
            "SQL_DATA_TYPE", SqlType.INT, "SQL_DATETIME_SUB", SqlType.INT, "CHAR_OCTET_LENGTH", SqlType.INT,
            "ORDINAL_POSITION", SqlType.INT, "IS_NULLABLE", "SCOPE_CATALOG", "SCOPE_SCHEMA", "SCOPE_TABLE",
            "SOURCE_DATA_TYPE", SqlType.INT, "IS_AUTOINCREMENT", "IS_GENERATEDCOLUMN");

    List<Object[]> columns(String catalog, String schemaPattern, String tableNamePattern, String columnNamePattern) {
        NamePattern columnNames = NamePattern.of(columnNamePattern);
        List<Object[]> rows = new ArrayList<>();
        if (systemInScope(catalog, schemaPattern)) {
            NamePattern names = NamePattern.of(tableNamePattern);
            systemViews.forEach((view, schema) -> {
                if (names.matches(view)) {
                    for (int columnIndex = 0; columnIndex < schema.size(); columnIndex++) {
                        Column column = schema.column(columnIndex);
                        if (columnNames.matches(column.name())) {
                            rows.add(columnRow(SYSTEM_SCHEMA, view, column, columnIndex, Map.of()));
                        }
                    }
                }
            });
        }
        for (CatalogEntry.Table table : tables(catalog, schemaPattern, NamePattern.of(tableNamePattern))) {
            for (int columnIndex = 0; columnIndex < table.schema().size(); columnIndex++) {
                Column column = table.schema().column(columnIndex);
                if (!columnNames.matches(column.name())) {
                    continue;
                }
                rows.add(columnRow(null, table.name(), column, columnIndex, table.options()));
            }
        }
        return rows;
    }

    /** One getColumns row: a column of a table in {@code schema} (null for user tables) with its table's options. */
    private static Object[] columnRow(String schema, String table, Column column, int columnIndex,
                                      Map<String, String> options) {
        SqlType type = column.type();
        String computed = options.get(COMPUTED_OPTION + column.name());
        return new Object[] {null, schema, table, column.name(), JdbcTypes.jdbcType(type),
                JdbcTypes.typeName(type), JdbcTypes.precision(type), null, decimalDigits(type), radix(type),
                column.nullable() ? DatabaseMetaData.columnNullable : DatabaseMetaData.columnNoNulls,
                computed == null ? null : "computed: " + computed,
                options.get(dev.columba.planner.schema.TableConstraints.DEFAULT_OPTION + column.name()), null,
                null, octetLength(type),
                columnIndex + 1, column.nullable() ? "YES" : "NO", null, null, null, null,
                options.containsKey(IDENTITY_OPTION + column.name()) ? "YES" : "NO", computed != null ? "YES" : "NO"};
    }

    /** Fractional digits: the scale of exact numbers and timestamps, null where digits do not apply. */
    static Integer decimalDigits(SqlType type) {
        return JdbcTypes.isNumeric(type) || type instanceof SqlType.TimestampType ? JdbcTypes.scale(type) : null;
    }

    static Integer radix(SqlType type) {
        return JdbcTypes.isNumeric(type) ? 10 : null;
    }

    /** Bytes a character value may take: four per character in UTF-8. */
    static Integer octetLength(SqlType type) {
        return JdbcTypes.isCharacter(type) ? (int) Math.min(Integer.MAX_VALUE, 4L * JdbcTypes.precision(type)) : null;
    }

    // ---- getPrimaryKeys -------------------------------------------------------------------------

    static final TableSchema PRIMARY_KEYS = MetadataSchemas.schema("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME",
            "KEY_SEQ", SqlType.INT, "PK_NAME");

    List<Object[]> primaryKeys(String catalog, String schema, String tableName) {
        List<Object[]> rows = new ArrayList<>();
        for (CatalogEntry.Table table : named(catalog, schema, tableName)) {
            Optional<PrimaryKey> primaryKey = PrimaryKey.of(table, indexesOf(table));
            List<Integer> key = primaryKey.map(PrimaryKey::columns).orElse(List.of());
            for (int position = 0; position < key.size(); position++) {
                rows.add(new Object[] {null, null, table.name(), table.schema().column(key.get(position)).name(),
                        position + 1, primaryKey.get().indexName()});
            }
        }
        rows.sort(Comparator.comparing(row -> ((String) row[3]).toLowerCase(Locale.ROOT)));
        return rows;
    }

    private List<CatalogEntry.Index> indexesOf(CatalogEntry.Table table) {
        return indexes.stream().filter(index -> index.tableId() == table.objectId()).toList();
    }

    // ---- getIndexInfo ---------------------------------------------------------------------------

    static final TableSchema INDEX_INFO = MetadataSchemas.schema("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME",
            "NON_UNIQUE", SqlType.BOOLEAN, "INDEX_QUALIFIER", "INDEX_NAME", "TYPE", SqlType.INT, "ORDINAL_POSITION",
            SqlType.INT, "COLUMN_NAME", "ASC_OR_DESC", "CARDINALITY", SqlType.BIGINT, "PAGES", SqlType.BIGINT,
            "FILTER_CONDITION");

    List<Object[]> indexInfo(String catalog, String schema, String tableName, boolean uniqueOnly) {
        List<Object[]> rows = new ArrayList<>();
        for (CatalogEntry.Table table : named(catalog, schema, tableName)) {
            switch (table.organization()) {
                case CLUSTERED -> addIndexRows(rows, table, table.name(), table.uniqueKey(),
                        DatabaseMetaData.tableIndexClustered, table.keyColumns(),
                        CatalogEntry.Index.ascending(table.keyColumns().size()), uniqueOnly);
                case COLUMNSTORE -> {
                    List<Integer> all = new ArrayList<>();
                    for (int column = 0; column < table.schema().size(); column++) {
                        all.add(column);
                    }
                    addIndexRows(rows, table, table.name(), false, DatabaseMetaData.tableIndexOther, all, null, uniqueOnly);
                }
                case HEAP -> {
                }
            }
            for (CatalogEntry.Index index : indexesOf(table)) {
                addIndexRows(rows, table, index.name(), index.unique(), DatabaseMetaData.tableIndexOther, index.keyColumns(),
                        index.descending(), uniqueOnly);
            }
        }
        rows.sort(Comparator.<Object[], Boolean>comparing(row -> (Boolean) row[3])
                .thenComparing(row -> (Integer) row[6])
                .thenComparing(row -> ((String) row[5]).toLowerCase(Locale.ROOT))
                .thenComparing(row -> (Integer) row[7]));
        return rows;
    }

    private static void addIndexRows(List<Object[]> rows, CatalogEntry.Table table, String indexName, boolean unique,
                                     int type, List<Integer> columns, List<Boolean> descending, boolean uniqueOnly) {
        if (uniqueOnly && !unique) {
            return;
        }
        // Distinct key values: every row's, for a unique index; unknown otherwise.
        Long cardinality = unique ? table.rowCount() : null;
        for (int position = 0; position < columns.size(); position++) {
            rows.add(new Object[] {null, null, table.name(), !unique, null, indexName, type, position + 1,
                    table.schema().column(columns.get(position)).name(),
                    descending == null ? null : descending.get(position) ? "D" : "A", cardinality, null, null});
        }
    }
}
