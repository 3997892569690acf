package dev.columba.server.catalog;

import dev.columba.server.catalog.CatalogQueries.Value;
import dev.columba.server.catalog.PgCatalog.Attribute;
import dev.columba.server.catalog.PgCatalog.Relation;
import dev.columba.server.protocol.PgTypes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * pgJDBC 42.7's {@code DatabaseMetaData} queries: {@code getTables}, {@code getColumns}, {@code getPrimaryKeys}
 * and {@code getSchemas}. Their filters are {@code LIKE} patterns (or {@code =} names) on the schema, table and
 * column, as literals once the parameters are in; their columns are the output names pgJDBC reads.
 */
final class JdbcMetadata {
    /** pgJDBC's table-type clauses: {@code c.relkind = 'r' AND n.nspname !~ '^pg_' ...} for user schemas. */
    private static final Pattern USER_KIND_CLAUSE = Pattern.compile("(?i)c\\.relkind\\s*(?:=\\s*'(\\w)'|IN\\s*\\(([^)]*)\\))"
            + "\\s+AND\\s+n\\.nspname\\s*(?:!~\\s*'\\^pg_'|<>\\s*'pg_catalog')");

    private JdbcMetadata() {
    }

    /** {@code getTables(catalog, schemaPattern, tableNamePattern, types)}. */
    static CatalogResult tables(String sql, PgCatalog catalog) {
        Optional<Pattern> schemas = like(sql, "n\\.nspname");
        Optional<Pattern> names = like(sql, "c\\.relname");
        String kinds = null;
        if (sql.contains("AND (false")) {
            StringBuilder allowed = new StringBuilder();
            Matcher clause = USER_KIND_CLAUSE.matcher(sql);
            while (clause.find()) {
                allowed.append(clause.group(1) != null ? clause.group(1) : clause.group(2).replaceAll("[^a-zA-Z]", ""));
            }
            kinds = allowed.toString();
        }
        String allowedKinds = kinds;
        List<Relation> selected = catalog.relations().stream()
                .filter(relation -> allowedKinds == null || allowedKinds.indexOf(relation.kind()) >= 0)
                .filter(relation -> matches(schemas, catalog.namespaceName(relation.namespaceOid())))
                .filter(relation -> matches(names, relation.name()))
                .sorted(Comparator.comparing((Relation relation) -> tableType(relation.kind()))
                        .thenComparing(relation -> catalog.namespaceName(relation.namespaceOid()))
                        .thenComparing(Relation::name))
                .toList();
        return CatalogQueries.evaluate(SelectList.of(sql), selected, relation -> item -> switch (item.name()) {
            case "TABLE_CAT" -> Value.of(PgTypes.NAME, catalog.database());
            case "TABLE_SCHEM" -> Value.of(PgTypes.NAME, catalog.namespaceName(relation.namespaceOid()));
            case "TABLE_NAME" -> Value.of(PgTypes.NAME, relation.name());
            case "TABLE_TYPE" -> Value.of(PgTypes.TEXT, tableType(relation.kind()));
            case "REMARKS" -> Value.of(PgTypes.TEXT, null);
            default -> Value.literal(item);
        });
    }

    private static String tableType(char kind) {
        return switch (kind) {
            case 'r' -> "TABLE";
            case 'v' -> "VIEW";
            case 'i' -> "INDEX";
            default -> throw new IllegalArgumentException("relkind '" + kind + "' is not one Columba has");
        };
    }

    private record Column(Relation relation, Attribute attribute) {
    }

    /** {@code getColumns(catalog, schemaPattern, tableNamePattern, columnNamePattern)}: the inner query's columns. */
    static CatalogResult columns(String sql, PgCatalog catalog) {
        Optional<Pattern> schemas = like(sql, "n\\.nspname");
        Optional<Pattern> names = like(sql, "c\\.relname");
        Optional<Pattern> columnNames = like(sql, "(?:a\\.)?attname");
        List<Column> columns = new ArrayList<>();
        catalog.relations().stream()
                .filter(relation -> relation.kind() != 'i')
                .filter(relation -> matches(schemas, catalog.namespaceName(relation.namespaceOid())))
                .filter(relation -> matches(names, relation.name()))
                .sorted(Comparator.comparing((Relation relation) -> catalog.namespaceName(relation.namespaceOid()))
                        .thenComparing(Relation::name))
                .forEach(relation -> relation.attributes().stream()
                        .filter(attribute -> matches(columnNames, attribute.name()))
                        .forEach(attribute -> columns.add(new Column(relation, attribute))));
        String inner = sql.substring(sql.indexOf('(') + 1);
        return CatalogQueries.evaluate(SelectList.of(inner), columns, column -> item -> {
            Attribute attribute = column.attribute();
            return switch (item.name()) {
                case "current_database" -> Value.of(PgTypes.NAME, catalog.database());
                case "nspname" -> Value.of(PgTypes.NAME, catalog.namespaceName(column.relation().namespaceOid()));
                case "relname" -> Value.of(PgTypes.NAME, column.relation().name());
                case "attname" -> Value.of(PgTypes.NAME, attribute.name());
                case "atttypid" -> Value.of(PgTypes.OID, attribute.typeOid());
                case "attnotnull" -> Value.of(PgTypes.BOOL, attribute.notNull());
                case "atttypmod" -> Value.of(PgTypes.INT4, attribute.typeModifier());
                case "attlen" -> Value.of(PgTypes.INT2, (int) PgTypes.length(attribute.typeOid()));
                case "typtypmod" -> Value.of(PgTypes.INT4, -1);
                case "attnum" -> Value.of(PgTypes.INT8, (long) attribute.number());
                case "attidentity" -> Value.of(PgTypes.CHAR, attribute.identity() ? "a" : null);
                case "attgenerated" -> Value.of(PgTypes.CHAR, null);
                case "adsrc" -> Value.of(PgTypes.TEXT, attribute.defaultExpression());
                case "description" -> Value.of(PgTypes.TEXT, null);
                case "typbasetype" -> Value.of(PgTypes.OID, 0);
                case "typtype" -> Value.of(PgTypes.CHAR, "b");
                default -> Value.literal(item);
            };
        });
    }

    private record KeyColumn(Relation table, Relation index, int position) {
    }

    /** The key columns of {@code index} on {@code table}, in key order. */
    private static void addKeyColumns(List<KeyColumn> keys, Relation table, Relation index) {
        for (int position = 1; position <= index.attributes().size(); position++) {
            keys.add(new KeyColumn(table, index, position));
        }
    }

    /** The tables {@code n.nspname = 'schema'} and {@code ct.relname = 'table'} name (either may be absent), by name. */
    private static List<Relation> namedTables(String sql, PgCatalog catalog) {
        Optional<String> schema = equalTo(sql, "n\\.nspname");
        Optional<String> table = equalTo(sql, "ct\\.relname");
        return catalog.relations().stream()
                .filter(relation -> relation.kind() == 'r')
                .filter(relation -> schema.map(name -> name.equalsIgnoreCase(catalog.namespaceName(relation.namespaceOid())))
                        .orElse(true))
                .filter(relation -> table.map(name -> name.equalsIgnoreCase(relation.name())).orElse(true))
                .sorted(Comparator.comparing(Relation::name))
                .toList();
    }

    /** {@code getPrimaryKeys(catalog, schema, table)}: one row per key column, in key order. */
    static CatalogResult primaryKeys(String sql, PgCatalog catalog) {
        List<KeyColumn> keys = new ArrayList<>();
        for (Relation table : namedTables(sql, catalog)) {
            catalog.primaryKey(table).ifPresent(index -> addKeyColumns(keys, table, index));
        }
        return CatalogQueries.evaluate(SelectList.of(sql), keys, key -> item -> switch (item.name()) {
            case "TABLE_CAT" -> Value.of(PgTypes.NAME, catalog.database());
            case "TABLE_SCHEM" -> Value.of(PgTypes.NAME, catalog.namespaceName(key.table().namespaceOid()));
            case "TABLE_NAME" -> Value.of(PgTypes.NAME, key.table().name());
            case "COLUMN_NAME" -> Value.of(PgTypes.NAME, key.index().attributes().get(key.position() - 1).name());
            case "KEY_SEQ" -> Value.of(PgTypes.INT4, key.position());
            case "PK_NAME" -> Value.of(PgTypes.NAME, key.index().index().constraintName());
            case "IS_NOT_NULL" -> Value.of(PgTypes.BOOL, true);
            default -> Value.literal(item);
        });
    }

    /** {@code getIndexInfo(catalog, schema, table, unique, approximate)}: one row per index key column. */
    static CatalogResult indexInfo(String sql, PgCatalog catalog) {
        boolean uniqueOnly = Pattern.compile("(?i)AND\\s+i\\.indisunique\\b").matcher(sql).find();
        List<KeyColumn> keys = new ArrayList<>();
        for (Relation table : namedTables(sql, catalog)) {
            for (Relation index : catalog.indexesOf(table)) {
                if (!uniqueOnly || index.index().unique()) {
                    addKeyColumns(keys, table, index);
                }
            }
        }
        keys.sort(Comparator.comparing((KeyColumn key) -> !key.index().index().unique())
                .thenComparing(key -> key.index().index().clustered() ? 1 : 3)
                .thenComparing(key -> key.index().name())
                .thenComparing(KeyColumn::position));
        return CatalogQueries.evaluate(SelectList.of(sql), keys, key -> item -> switch (item.name()) {
            case "TABLE_CAT" -> Value.of(PgTypes.NAME, catalog.database());
            case "TABLE_SCHEM" -> Value.of(PgTypes.NAME, catalog.namespaceName(key.table().namespaceOid()));
            case "TABLE_NAME" -> Value.of(PgTypes.NAME, key.table().name());
            case "NON_UNIQUE" -> Value.of(PgTypes.BOOL, !key.index().index().unique());
            case "INDEX_NAME" -> Value.of(PgTypes.NAME, key.index().name());
            case "TYPE" -> Value.of(PgTypes.INT4, key.index().index().clustered() ? 1 : 3);
            case "ORDINAL_POSITION" -> Value.of(PgTypes.INT4, key.position());
            case "COLUMN_NAME" -> Value.of(PgTypes.TEXT, key.index().attributes().get(key.position() - 1).name());
            case "ASC_OR_DESC" -> Value.of(PgTypes.TEXT, "A");
            case "CARDINALITY", "PAGES" -> Value.of(PgTypes.INT8, 0L);
            default -> Value.of(PgTypes.TEXT, null);
        });
    }

    /** {@code getSchemas(catalog, schemaPattern)}. */
    static CatalogResult schemas(String sql, PgCatalog catalog) {
        Optional<Pattern> names = like(sql, "nspname");
        List<PgCatalog.Namespace> selected = catalog.namespaces().stream()
                .filter(namespace -> matches(names, namespace.name()))
                .sorted(Comparator.comparing(PgCatalog.Namespace::name)).toList();
        return CatalogQueries.evaluate(SelectList.of(sql), selected, namespace -> item -> switch (item.name()) {
            case "TABLE_SCHEM" -> Value.of(PgTypes.NAME, namespace.name());
            case "TABLE_CATALOG" -> Value.of(PgTypes.NAME, catalog.database());
            default -> Value.literal(item);
        });
    }

    private static boolean matches(Optional<Pattern> pattern, String value) {
        return pattern.map(regex -> value != null && regex.matcher(value).matches()).orElse(true);
    }

    /** {@code column LIKE 'pattern'} as a Java pattern ({@code %}, {@code _}, backslash escapes), case-insensitive. */
    static Optional<Pattern> like(String sql, String column) {
        Matcher matcher = Pattern.compile("(?i)(?<![\\w.])" + column + "\\s+LIKE\\s+" + Literals.LITERAL).matcher(sql);
        if (!matcher.find()) {
            return Optional.empty();
        }
        String pattern = Literals.value(matcher.group(1), matcher.group(2));
        StringBuilder regex = new StringBuilder();
        for (int position = 0; position < pattern.length(); position++) {
            char character = pattern.charAt(position);
            if (character == '\\' && position + 1 < pattern.length()) {
                regex.append(Pattern.quote(String.valueOf(pattern.charAt(++position))));
            } else if (character == '%') {
                regex.append(".*");
            } else if (character == '_') {
                regex.append('.');
            } else {
                regex.append(Pattern.quote(String.valueOf(character)));
            }
        }
        return Optional.of(Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE | Pattern.DOTALL));
    }

    /** {@code column = 'name'}. */
    static Optional<String> equalTo(String sql, String column) {
        Matcher matcher = Pattern.compile("(?i)(?<![\\w.])" + column + "\\s*=\\s*" + Literals.LITERAL).matcher(sql);
        return matcher.find() ? Optional.of(Literals.value(matcher.group(1), matcher.group(2))) : Optional.empty();
    }
}
