package dev.columba.server.catalog;

import dev.columba.server.protocol.PgTypes;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Columba's catalog in PostgreSQL's terms, read once per catalog query through one session's connection (its
 * {@code sys} views and the embedded driver's {@code DatabaseMetaData}, the way every client sees tables): the
 * namespaces of {@code pg_namespace}, and the tables, views, system views and indexes of {@code pg_class} with
 * their attributes, indexes and constraints.
 *
 * <p>OIDs are stable and agree between queries, because psql looks a table up by name in one query and asks for its
 * columns by OID in the next: a user table, view or index with Columba object id {@code id} is
 * {@code 16384 + 2 * id} (16384 is PostgreSQL's first user OID), and the clustered B+tree of a table, which shares
 * the table's object id in Columba, is {@code 16384 + 2 * id + 1}. A system view's OID is its place in the name order
 * of {@code sys}'s views from {@link #SYSTEM_VIEW_OID_BASE}, stable for one Columba version.
 */
public record PgCatalog(String database, String user, List<Namespace> namespaces, List<Relation> relations) {
    public static final int PG_CATALOG_NAMESPACE = 11;
    public static final int PUBLIC_NAMESPACE = 2200;
    /** {@code sys}: Columba's system views, a schema off the search path as {@code pg_catalog}'s neighbours are. */
    public static final int SYS_NAMESPACE = 12000;
    public static final int SYSTEM_VIEW_OID_BASE = 12001;
    public static final int FIRST_USER_OID = 16384;
    /** The one role, {@code pg_authid}'s bootstrap superuser OID; it owns everything. */
    public static final int OWNER_OID = 10;
    public static final int DATABASE_OID = 16383;

    public PgCatalog {
        namespaces = List.copyOf(namespaces);
        relations = List.copyOf(relations);
    }

    /** A schema. */
    public record Namespace(int oid, String name) {
    }

    /**
     * A {@code pg_class} row. {@code kind} is PostgreSQL's {@code relkind}: {@code r} table, {@code v} view,
     * {@code i} index. An index has {@code tableOid} and {@code index}; a table has its indexes as relations of
     * their own, {@code checks} and {@code accessMethod} ({@code heap}, {@code btree} for the clustered B+tree
     * organisation, {@code columnstore}); a user view has its {@code viewDefinition} as Columba keeps it.
     */
    public record Relation(int oid, String name, int namespaceOid, char kind, List<Attribute> attributes, int tableOid,
                           Index index, List<Check> checks, String accessMethod, String viewDefinition) {
        public Relation {
            attributes = List.copyOf(attributes);
            checks = List.copyOf(checks);
        }
    }

    /** A {@code pg_attribute} row of a relation, numbered from 1. */
    public record Attribute(int number, String name, int typeOid, int typeModifier, boolean notNull,
                            String defaultExpression, boolean identity) {
    }

    /**
     * What {@code pg_index} and {@code pg_constraint} say of an index: its key attribute numbers and, when it
     * backs a PRIMARY KEY or UNIQUE constraint, that constraint's name and type ({@code p} or {@code u}).
     */
    public record Index(boolean primary, boolean unique, boolean clustered, List<Integer> keys, String constraintName,
                        char constraintType) {
        public Index {
            keys = List.copyOf(keys);
        }

        public boolean backsConstraint() {
            return constraintName != null;
        }
    }

    /** A CHECK constraint with its condition as Columba wrote it. */
    public record Check(String name, String definition) {
    }

    public Optional<Relation> relation(long oid) {
        return relations.stream().filter(relation -> relation.oid() == oid).findFirst();
    }

    public Optional<Namespace> namespace(int oid) {
        return namespaces.stream().filter(namespace -> namespace.oid() == oid).findFirst();
    }

    public String namespaceName(int oid) {
        return namespace(oid).map(Namespace::name).orElse(null);
    }

    /** The indexes of a table, by name. */
    public List<Relation> indexesOf(Relation table) {
        return relations.stream().filter(relation -> relation.kind() == 'i' && relation.tableOid() == table.oid())
                .sorted(java.util.Comparator.comparing(Relation::name)).toList();
    }

    /** A table's primary key index, if it has one. */
    public Optional<Relation> primaryKey(Relation table) {
        return indexesOf(table).stream().filter(index -> index.index().primary()).findFirst();
    }

    /**
     * Reads the catalog through {@code connection}; {@code database} is the name the client connected with (the
     * server serves one), and {@code user} owns everything (Columba has no owners).
     */
    public static PgCatalog read(Connection connection, String database, String user) throws SQLException {
        List<Namespace> namespaces = List.of(new Namespace(PG_CATALOG_NAMESPACE, "pg_catalog"),
                new Namespace(PUBLIC_NAMESPACE, "public"), new Namespace(SYS_NAMESPACE, "sys"));
        List<Relation> relations = new ArrayList<>();
        DatabaseMetaData metadata = connection.getMetaData();
        Map<String, List<Attribute>> tableColumns = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        Map<String, List<Attribute>> systemColumns = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        try (ResultSet columns = metadata.getColumns(null, null, "%", "%")) {
            while (columns.next()) {
                int typeOid = PgTypes.ofColumn(columns.getInt("DATA_TYPE"), columns.getString("TYPE_NAME"));
                int size = columns.getInt("COLUMN_SIZE");
                int scale = columns.getInt("DECIMAL_DIGITS");
                Map<String, List<Attribute>> owner = "sys".equalsIgnoreCase(columns.getString("TABLE_SCHEM"))
                        ? systemColumns : tableColumns;
                List<Attribute> attributes = owner.computeIfAbsent(columns.getString("TABLE_NAME"), name -> new ArrayList<>());
                attributes.add(new Attribute(attributes.size() + 1, columns.getString("COLUMN_NAME"), typeOid,
                        PgTypes.typeModifier(typeOid, size, scale),
                        columns.getInt("NULLABLE") == DatabaseMetaData.columnNoNulls, columns.getString("COLUMN_DEF"),
                        "YES".equals(columns.getString("IS_AUTOINCREMENT"))));
            }
        }
        Map<String, List<Check>> checks = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (Object[] row : rows(connection, "SELECT table_name, constraint_name, definition FROM sys.check_constraints")) {
            checks.computeIfAbsent((String) row[0], name -> new ArrayList<>()).add(new Check((String) row[1], (String) row[2]));
        }
        Map<String, Integer> tableOids = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (Object[] row : rows(connection, "SELECT table_name, object_id, storage FROM sys.tables")) {
            String name = (String) row[0];
            int oid = userOid(((Number) row[1]).intValue());
            tableOids.put(name, oid);
            String storage = ((String) row[2]).toUpperCase(Locale.ROOT);
            String method = storage.contains("COLUMNSTORE") ? "columnstore" : storage.contains("CLUSTERED") ? "btree" : "heap";
            relations.add(new Relation(oid, name, PUBLIC_NAMESPACE, 'r', tableColumns.getOrDefault(name, List.of()), 0,
                    null, checks.getOrDefault(name, List.of()), method, null));
        }
        for (Object[] row : rows(connection, "SELECT view_name, object_id, definition FROM sys.views")) {
            String name = (String) row[0];
            relations.add(new Relation(userOid(((Number) row[1]).intValue()), name, PUBLIC_NAMESPACE, 'v',
                    viewColumns(connection, name), 0, null, List.of(), null, (String) row[2]));
        }
        relations.addAll(indexes(connection, tableOids, relations));
        int systemOid = SYSTEM_VIEW_OID_BASE;
        for (Map.Entry<String, List<Attribute>> view : systemColumns.entrySet()) {
            relations.add(new Relation(systemOid++, view.getKey(), SYS_NAMESPACE, 'v', view.getValue(), 0, null,
                    List.of(), null, null));
        }
        return new PgCatalog(database, user, namespaces, relations);
    }

    private static int userOid(int objectId) {
        return FIRST_USER_OID + 2 * objectId;
    }

    /** The index relations: the clustered B+tree of each clustered table and every nonclustered index. */
    private static List<Relation> indexes(Connection connection, Map<String, Integer> tableOids, List<Relation> tables)
            throws SQLException {
        Map<String, String[]> constraintsByIndex = new HashMap<>();
        for (Object[] row : rows(connection, "SELECT table_name, constraint_name, type, index_name FROM sys.key_constraints")) {
            constraintsByIndex.put(key((String) row[0], (String) row[3]), new String[] {(String) row[1], (String) row[2]});
        }
        Map<Integer, Relation> tablesByOid = new LinkedHashMap<>();
        tables.forEach(table -> tablesByOid.put(table.oid(), table));
        List<Relation> indexes = new ArrayList<>();
        for (Object[] row : rows(connection,
                "SELECT table_name, index_name, object_id, type, is_unique, key_columns FROM sys.indexes")) {
            String tableName = (String) row[0];
            String indexName = (String) row[1];
            String type = (String) row[3];
            Integer tableOid = tableName == null ? null : tableOids.get(tableName);
            if (indexName == null || tableOid == null || type.contains("COLUMNSTORE")) {
                continue; // a heap has no index; a columnstore's organisation is its access method, not an index
            }
            Relation table = tablesByOid.get(tableOid);
            boolean clustered = type.equals("CLUSTERED");
            String[] constraint = constraintsByIndex.get(key(tableName, indexName));
            boolean primary = constraint != null && constraint[1].equals("PK");
            String name = indexName;
            if (clustered && indexName.equalsIgnoreCase(tableName)) {
                // Columba names a table's clustered B+tree after the table; PostgreSQL's names are unique per schema.
                name = primary && !constraint[0].equalsIgnoreCase(tableName) ? constraint[0]
                        : tableName + (primary ? "_pkey" : "_clustered");
            }
            List<Integer> keys = new ArrayList<>();
            String keyColumns = (String) row[5];
            if (keyColumns != null && !keyColumns.isEmpty()) {
                for (String column : keyColumns.split(", ")) {
                    table.attributes().stream().filter(attribute -> attribute.name().equalsIgnoreCase(column.strip()))
                            .findFirst().ifPresent(attribute -> keys.add(attribute.number()));
                }
            }
            int objectId = ((Number) row[2]).intValue();
            int oid = clustered ? userOid(objectId) + 1 : userOid(objectId);
            String constraintName = constraint == null ? null
                    : constraint[0].equalsIgnoreCase(tableName) ? name : constraint[0];
            List<Attribute> attributes = new ArrayList<>();
            for (int key : keys) {
                Attribute column = table.attributes().get(key - 1);
                attributes.add(new Attribute(attributes.size() + 1, column.name(), column.typeOid(), column.typeModifier(),
                        false, null, false));
            }
            indexes.add(new Relation(oid, name, PUBLIC_NAMESPACE, 'i', attributes, tableOid,
                    new Index(primary, Boolean.TRUE.equals(row[4]), clustered, keys, constraintName,
                            constraint == null ? ' ' : primary ? 'p' : 'u'), List.of(), "btree", null));
        }
        return indexes;
    }

    private static String key(String table, String index) {
        return (table + "\u0000" + index).toLowerCase(Locale.ROOT);
    }

    /** A view's columns, from the columns of its empty result (Columba plans it without reading anything). */
    private static List<Attribute> viewColumns(Connection connection, String view) {
        List<Attribute> attributes = new ArrayList<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT * FROM \"" + view.replace("\"", "\"\"") + "\" WHERE 1 = 0")) {
            ResultSetMetaData metadata = rows.getMetaData();
            for (int column = 1; column <= metadata.getColumnCount(); column++) {
                int typeOid = PgTypes.ofColumn(metadata.getColumnType(column), metadata.getColumnTypeName(column));
                attributes.add(new Attribute(column, metadata.getColumnLabel(column), typeOid,
                        PgTypes.typeModifier(typeOid, metadata.getPrecision(column), metadata.getScale(column)),
                        metadata.isNullable(column) == ResultSetMetaData.columnNoNulls, null, false));
            }
        } catch (SQLException e) {
            // A view whose tables changed under it no longer plans; it is listed without columns, as psql shows it.
            return List.of();
        }
        return attributes;
    }

    private static List<Object[]> rows(Connection connection, String sql) throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            int count = result.getMetaData().getColumnCount();
            while (result.next()) {
                Object[] row = new Object[count];
                for (int column = 0; column < count; column++) {
                    row[column] = result.getObject(column + 1);
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
