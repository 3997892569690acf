package dev.columba.server.catalog;

import dev.columba.server.catalog.PgCatalog.Attribute;
import dev.columba.server.catalog.PgCatalog.Relation;
import dev.columba.server.protocol.PgTypes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The SQL standard's {@code information_schema} views {@code tables}, {@code columns}, {@code schemata} and
 * {@code views}, with PostgreSQL's contents (schema {@code public}, {@code data_type} {@code character varying},
 * {@code udt_name} {@code varchar}), for the queries tools and ORMs send (SQLAlchemy's {@code has_table}, DBeaver's
 * and Metabase's column lists, hand-written {@code SELECT column_name, data_type FROM information_schema.columns
 * WHERE table_name = ...}).
 *
 * <p>Why a rewrite and not recognisers as for {@code pg_catalog} ({@link CatalogQueries}): queries of these views
 * are plain SQL that Columba runs (filters, joins, ORDER BY, aggregates), and each tool writes its own. So each view
 * the query names becomes a derived table of its rows, written into the text as {@code VALUES} from a
 * {@link PgCatalog} snapshot read for this statement (the same snapshot {@code pg_catalog}'s answers come from,
 * so both agree), and Columba runs the rest. The first {@code VALUES} row is typed NULLs that the derived table's
 * filter drops: it gives the columns their types (and a view with no rows its columns). The cost is the catalog
 * read (five small {@code sys} queries) and planning a {@code VALUES} of one row per column in the database.
 *
 * <p>A query that also reads {@code pg_catalog} is the recognisers' (pgJDBC's primary key query calls
 * {@code information_schema._pg_expandarray}); views beyond these four are refused with 0A000 naming them.
 */
public final class InformationSchema {
    private static final Pattern REFERENCE = Pattern.compile("(?i)(?<![\\w.\"])(?:information_schema|\"information_schema\")"
            + "\\s*\\.\\s*(?:(\\w+)|\"([^\"]+)\")");
    /** Words after a table reference that are no alias. */
    private static final java.util.Set<String> NOT_ALIASES = java.util.Set.of("WHERE", "JOIN", "INNER", "LEFT", "RIGHT",
            "FULL", "CROSS", "ON", "USING", "GROUP", "ORDER", "HAVING", "LIMIT", "OFFSET", "FETCH", "UNION", "EXCEPT",
            "INTERSECT", "WINDOW", "NATURAL", "OUTER", "FOR", "OPTION");
    private static final String NAME = "VARCHAR(128)";
    private static final String TEXT = "VARCHAR(4000)";
    private static final String YES_OR_NO = "VARCHAR(3)";
    private static final String NUMBER = "INT";

    private InformationSchema() {
    }

    /** One column of a view: its name and the Columba type its values are cast to. */
    private record Column(String name, String type) {
    }

    /** A view: its columns and how a source object gives a row. */
    private record View<T>(List<Column> columns, java.util.function.Function<PgCatalog, List<T>> sources,
                           BiFunction<PgCatalog, T, Object[]> row) {
        List<Object[]> rows(PgCatalog catalog) {
            List<Object[]> rows = new ArrayList<>();
            for (T source : sources.apply(catalog)) {
                rows.add(row.apply(catalog, source));
            }
            return rows;
        }
    }

    private static List<Column> columns(String... namesAndTypes) {
        List<Column> columns = new ArrayList<>();
        for (int index = 0; index < namesAndTypes.length; index += 2) {
            columns.add(new Column(namesAndTypes[index], namesAndTypes[index + 1]));
        }
        return List.copyOf(columns);
    }

    private record ColumnOf(Relation relation, Attribute attribute) {
    }

    private static final Map<String, View<?>> VIEWS = Map.of(
            "tables", new View<Relation>(columns("table_catalog", NAME, "table_schema", NAME, "table_name", NAME,
                    "table_type", NAME, "self_referencing_column_name", NAME, "reference_generation", NAME,
                    "user_defined_type_catalog", NAME, "user_defined_type_schema", NAME, "user_defined_type_name", NAME,
                    "is_insertable_into", YES_OR_NO, "is_typed", YES_OR_NO, "commit_action", NAME),
                    InformationSchema::tablesAndViews, InformationSchema::tableRow),
            "columns", new View<ColumnOf>(columns("table_catalog", NAME, "table_schema", NAME, "table_name", NAME,
                    "column_name", NAME, "ordinal_position", NUMBER, "column_default", TEXT, "is_nullable", YES_OR_NO,
                    "data_type", NAME, "character_maximum_length", NUMBER, "character_octet_length", NUMBER,
                    "numeric_precision", NUMBER, "numeric_precision_radix", NUMBER, "numeric_scale", NUMBER,
                    "datetime_precision", NUMBER, "interval_type", NAME, "interval_precision", NUMBER,
                    "character_set_catalog", NAME, "character_set_schema", NAME, "character_set_name", NAME,
                    "collation_catalog", NAME, "collation_schema", NAME, "collation_name", NAME,
                    "domain_catalog", NAME, "domain_schema", NAME, "domain_name", NAME,
                    "udt_catalog", NAME, "udt_schema", NAME, "udt_name", NAME, "dtd_identifier", NAME,
                    "is_self_referencing", YES_OR_NO, "is_identity", YES_OR_NO, "identity_generation", NAME,
                    "is_generated", NAME, "generation_expression", TEXT, "is_updatable", YES_OR_NO),
                    catalog -> tablesAndViews(catalog).stream().flatMap(relation -> relation.attributes().stream()
                            .map(attribute -> new ColumnOf(relation, attribute))).toList(),
                    InformationSchema::columnRow),
            "schemata", new View<String>(columns("catalog_name", NAME, "schema_name", NAME, "schema_owner", NAME,
                    "default_character_set_catalog", NAME, "default_character_set_schema", NAME,
                    "default_character_set_name", NAME, "sql_path", TEXT),
                    catalog -> {
                        List<String> names = new ArrayList<>(catalog.namespaces().stream().map(PgCatalog.Namespace::name).toList());
                        names.add("information_schema");
                        return names.stream().sorted().toList();
                    },
                    (catalog, schema) -> new Object[] {catalog.database(), schema, catalog.user(), null, null, null, null}),
            "views", new View<Relation>(columns("table_catalog", NAME, "table_schema", NAME, "table_name", NAME,
                    "view_definition", TEXT, "check_option", NAME, "is_updatable", YES_OR_NO, "is_insertable_into", YES_OR_NO,
                    "is_trigger_updatable", YES_OR_NO, "is_trigger_deletable", YES_OR_NO,
                    "is_trigger_insertable_into", YES_OR_NO),
                    catalog -> tablesAndViews(catalog).stream().filter(relation -> relation.kind() == 'v').toList(),
                    (catalog, view) -> new Object[] {catalog.database(), catalog.namespaceName(view.namespaceOid()),
                            view.name(), view.viewDefinition(), "NONE", "NO", "NO", "NO", "NO", "NO"}));

    /** Whether {@code sql} (outside its string literals) names a view of {@code information_schema}. */
    public static boolean references(String sql) {
        // Every simple-protocol statement for Columba passes here (a prepared one once, at Parse): most leave at the
        // intrinsic search for an underscore, the rest at a scan for the schema's name.
        return sql.indexOf('_') >= 0 && containsIgnoringCase(sql, "information_schema")
                && REFERENCE.matcher(Literals.withoutStrings(sql)).find();
    }

    private static boolean containsIgnoringCase(String text, String lowerCaseWord) {
        char first = lowerCaseWord.charAt(0);
        for (int position = 0; position + lowerCaseWord.length() <= text.length(); position++) {
            if (Character.toLowerCase(text.charAt(position)) == first
                    && text.regionMatches(true, position, lowerCaseWord, 0, lowerCaseWord.length())) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code sql} with each {@code information_schema} view it names replaced by a derived table of the view's rows in
     * {@code catalog}, keeping the query's alias (or the view's name as one). Text inside string literals and comments
     * is left alone.
     */
    public static String rewrite(String sql, PgCatalog catalog) {
        StringBuilder out = new StringBuilder(sql.length() + 4096);
        int position = 0;
        while (position < sql.length()) {
            int skipped = skipQuotedOrComment(sql, position);
            if (skipped != position && sql.charAt(position) != '"') {
                out.append(sql, position, skipped);
                position = skipped;
                continue;
            }
            Matcher reference = REFERENCE.matcher(sql).region(position, sql.length());
            if (reference.lookingAt() && (position == 0 || !isNamePart(sql.charAt(position - 1)))) {
                String name = reference.group(1) != null ? reference.group(1).toLowerCase(Locale.ROOT) : reference.group(2);
                View<?> view = VIEWS.get(name);
                if (view == null) {
                    throw new CatalogQueryException("0A000", "information_schema." + name + " is not supported: Columba's"
                            + " server has information_schema.tables, columns, schemata and views");
                }
                out.append(derivedTable(view, catalog));
                position = reference.end();
                if (!aliasFollows(sql, position)) {
                    out.append(" AS ").append(name);
                }
                continue;
            }
            if (skipped != position) {
                out.append(sql, position, skipped);
                position = skipped;
            } else {
                out.append(sql.charAt(position++));
            }
        }
        return out.toString();
    }

    private static String derivedTable(View<?> view, PgCatalog catalog) {
        List<Column> columns = view.columns();
        StringBuilder table = new StringBuilder("(SELECT * FROM (VALUES (");
        for (int column = 0; column < columns.size(); column++) {
            table.append(column == 0 ? "" : ", ").append("CAST(NULL AS ").append(columns.get(column).type()).append(')');
        }
        table.append(')');
        for (Object[] row : view.rows(catalog)) {
            table.append(", (");
            for (int column = 0; column < row.length; column++) {
                table.append(column == 0 ? "" : ", ").append(literal(row[column]));
            }
            table.append(')');
        }
        table.append(") AS information_schema_rows (");
        for (int column = 0; column < columns.size(); column++) {
            table.append(column == 0 ? "" : ", ").append(columns.get(column).name());
        }
        // The first column (a catalog's name) is never null in a real row: the filter drops the typing row.
        return table.append(") WHERE ").append(columns.getFirst().name()).append(" IS NOT NULL)").toString();
    }

    private static String literal(Object value) {
        return switch (value) {
            case null -> "NULL";
            case Integer number -> number.toString();
            case String text -> Literals.quote(text);
            default -> throw new IllegalArgumentException("no literal for " + value.getClass().getSimpleName());
        };
    }

    /** Whether the text after a table reference starts with its alias ({@code AS x}, or a name that is no keyword). */
    private static boolean aliasFollows(String sql, int position) {
        int at = position;
        while (at < sql.length() && Character.isWhitespace(sql.charAt(at))) {
            at++;
        }
        if (at < sql.length() && sql.charAt(at) == '"') {
            return true;
        }
        int end = at;
        while (end < sql.length() && isNamePart(sql.charAt(end))) {
            end++;
        }
        if (end == at || !Character.isLetter(sql.charAt(at)) && sql.charAt(at) != '_') {
            return false;
        }
        String word = sql.substring(at, end).toUpperCase(Locale.ROOT);
        return word.equals("AS") || !NOT_ALIASES.contains(word);
    }

    private static boolean isNamePart(char character) {
        return Character.isLetterOrDigit(character) || character == '_';
    }

    private static int skipQuotedOrComment(String sql, int position) {
        char character = sql.charAt(position);
        if (character == '\'' || character == '"') {
            return SelectList.quotedEnd(sql, position);
        }
        return Literals.skipComment(sql, position);
    }

    // ---- rows ---------------------------------------------------------------------------------------

    /** Tables and views, user and system, in schema and name order. */
    private static List<Relation> tablesAndViews(PgCatalog catalog) {
        return catalog.relations().stream().filter(relation -> relation.kind() == 'r' || relation.kind() == 'v')
                .sorted(Comparator.comparing((Relation relation) -> catalog.namespaceName(relation.namespaceOid()))
                        .thenComparing(Relation::name))
                .toList();
    }

    private static Object[] tableRow(PgCatalog catalog, Relation relation) {
        boolean table = relation.kind() == 'r';
        return new Object[] {catalog.database(), catalog.namespaceName(relation.namespaceOid()), relation.name(),
                table ? "BASE TABLE" : "VIEW", null, null, null, null, null,
                table && relation.namespaceOid() == PgCatalog.PUBLIC_NAMESPACE ? "YES" : "NO", "NO", null};
    }

    private static Object[] columnRow(PgCatalog catalog, ColumnOf column) {
        Relation relation = column.relation();
        Attribute attribute = column.attribute();
        int type = attribute.typeOid();
        int modifier = attribute.typeModifier();
        Integer characterLength = (type == PgTypes.VARCHAR || type == PgTypes.BPCHAR) && modifier >= 4 ? modifier - 4 : null;
        Integer octetLength = switch (type) {
            // PostgreSQL's figure: four bytes a character in UTF-8, and 1 GB for a string without a length.
            case PgTypes.VARCHAR, PgTypes.BPCHAR, PgTypes.TEXT -> characterLength != null ? characterLength * 4 : 1073741824;
            default -> null;
        };
        Integer precision = switch (type) {
            case PgTypes.INT2 -> 16;
            case PgTypes.INT4 -> 32;
            case PgTypes.INT8 -> 64;
            case PgTypes.FLOAT4 -> 24;
            case PgTypes.FLOAT8 -> 53;
            case PgTypes.NUMERIC -> modifier >= 4 ? (modifier - 4) >> 16 : null;
            default -> null;
        };
        Integer radix = switch (type) {
            case PgTypes.INT2, PgTypes.INT4, PgTypes.INT8, PgTypes.FLOAT4, PgTypes.FLOAT8 -> 2;
            case PgTypes.NUMERIC -> 10;
            default -> null;
        };
        Integer scale = switch (type) {
            case PgTypes.INT2, PgTypes.INT4, PgTypes.INT8 -> 0;
            case PgTypes.NUMERIC -> modifier >= 4 ? (modifier - 4) & 0xFFFF : null;
            default -> null;
        };
        Integer datetimePrecision = switch (type) {
            case PgTypes.DATE -> 0;
            case PgTypes.TIME, PgTypes.TIMESTAMP, PgTypes.TIMESTAMPTZ -> 6;
            default -> null;
        };
        String dataType = switch (type) {
            // format_type without the modifier: the standard's name of the type.
            case PgTypes.VARCHAR -> "character varying";
            case PgTypes.BPCHAR -> "character";
            case PgTypes.NUMERIC -> "numeric";
            default -> PgTypes.formatType(type, -1);
        };
        boolean userTable = relation.kind() == 'r' && relation.namespaceOid() == PgCatalog.PUBLIC_NAMESPACE;
        return new Object[] {catalog.database(), catalog.namespaceName(relation.namespaceOid()), relation.name(),
                attribute.name(), attribute.number(), attribute.identity() ? null : attribute.defaultExpression(),
                attribute.notNull() ? "NO" : "YES", dataType, characterLength, octetLength, precision, radix, scale,
                datetimePrecision, null, null, null, null, null, null, null, null, null, null, null,
                catalog.database(), "pg_catalog", PgTypes.typeName(type), Integer.toString(attribute.number()), "NO",
                attribute.identity() ? "YES" : "NO", attribute.identity() ? "ALWAYS" : null, "NEVER", null,
                userTable ? "YES" : "NO"};
    }
}
