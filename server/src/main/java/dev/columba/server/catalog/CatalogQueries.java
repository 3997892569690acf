package dev.columba.server.catalog;

import dev.columba.server.catalog.PgCatalog.Attribute;
import dev.columba.server.catalog.PgCatalog.Relation;
import dev.columba.server.protocol.BackendMessage.Field;
import dev.columba.server.protocol.FrontendMessage.Format;
import dev.columba.server.protocol.PgTypes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Answers the {@code pg_catalog} queries of psql 15 ({@code \d}, {@code \dt}, {@code \dv}, {@code \di},
 * {@code \d name}, {@code \dn}, {@code \l}, {@code \df}) and pgJDBC 42.7 ({@code DatabaseMetaData.getTables},
 * {@code getColumns}, {@code getPrimaryKeys}, {@code getSchemas}, {@code current_database()}) from a
 * {@link PgCatalog}, in the server, without running them on Columba.
 *
 * <p>Why here and not as a {@code pg_catalog} schema in the planner: these queries are PostgreSQL through and
 * through (arrays and {@code information_schema._pg_expandarray(...).n} field access, {@code OPERATOR(pg_catalog.~)},
 * {@code ::regclass}, {@code E'\n'} strings, set-returning functions in select lists), none of which Columba's SQL
 * Server-flavoured dialect has or should grow. Clients send a small, fixed family of them, each with a fixed
 * shape per client version, so the server recognises a query by the catalog table it reads and its filter (a
 * relation's OID, a name pattern, a set of relkinds), and computes each item of its select list from the
 * snapshot, by the item's expression or output name ({@link SelectList}). A query over a catalog Columba has
 * nothing in (functions, triggers, policies, publications, inheritance, foreign keys) answers no rows with its
 * columns. Any other catalog query is refused with 0A000 naming the catalog it reads.
 */
public final class CatalogQueries {
    private static final Pattern CATALOG_REFERENCE = Pattern.compile(
            "(?i)\\b(pg_catalog\\s*\\.|pg_(class|namespace|attribute|type|index|database|proc|roles|user)\\b)");
    private static final Pattern SESSION_FUNCTION = Pattern.compile(
            "(?is)^\\s*select\\s+(current_catalog|current_database\\s*\\(\\s*\\)|current_schema\\s*(\\(\\s*\\))?"
                    + "|(pg_catalog\\s*\\.\\s*)?version\\s*\\(\\s*\\)|current_user|session_user)"
                    + "(\\s+as\\s+(?<alias>\"[^\"]+\"|\\w+))?\\s*;?\\s*$");
    private static final Pattern OID_FILTER = Pattern.compile(
            "(?i)\\b(?:c\\.oid|a\\.attrelid|r\\.conrelid)\\s*=\\s*'?(\\d+)'?");
    private static final Pattern VIEW_DEFINITION = Pattern.compile("(?is)^select\\s+pg_catalog\\.pg_get_viewdef\\(\\s*'?(\\d+)'?");
    private static final Pattern RELKINDS = Pattern.compile("(?i)c\\.relkind\\s+IN\\s*\\(([^)]*)\\)");
    /** Catalogs Columba has nothing in: a query over one of them has no rows. */
    private static final Pattern EMPTY_CATALOG = Pattern.compile("(?i)(?:\\bfrom|,|(?<!left )\\bjoin)\\s+"
            + "pg_catalog\\s*\\.\\s*(pg_proc|pg_policy|pg_statistic_ext|pg_publication|pg_publication_rel|pg_inherits"
            + "|pg_trigger|pg_rewrite|pg_event_trigger|pg_extension|pg_foreign_table|pg_partitioned_table|pg_sequence"
            + "|pg_subscription)\\b");
    private static final Pattern FOREIGN_KEYS = Pattern.compile("(?i)contype\\s*=\\s*'f'");
    /** {@code SHOW name}, also {@code SHOW TRANSACTION ISOLATION LEVEL}. */
    private static final Pattern SHOW = Pattern.compile("(?is)^\\s*show\\s+(?<name>[a-z_][\\w.]*(\\s+[a-z_]\\w*)*)\\s*;?\\s*$");

    private CatalogQueries() {
    }

    /**
     * Whether {@code sql} is a query that reads PostgreSQL's catalog (outside its string literals) or asks a session
     * function, so the server answers it.
     */
    public static boolean isCatalogQuery(String sql) {
        if (SHOW.matcher(sql).matches()) {
            return true;
        }
        // Every statement passes here: anything but a SELECT (a large INSERT, say) is let through unscanned.
        if (!sql.stripLeading().regionMatches(true, 0, "select", 0, "select".length())) {
            return false;
        }
        return SESSION_FUNCTION.matcher(sql).matches() || CATALOG_REFERENCE.matcher(Literals.withoutStrings(sql)).find();
    }

    /**
     * The answer to a catalog query whose parameters have been replaced by literals; the catalog is read only if
     * the query needs it.
     */
    public static CatalogResult answer(String sql, CatalogSource catalog) {
        String text = sql.strip();
        Matcher show = SHOW.matcher(text);
        if (show.matches()) {
            return show(show.group("name"), catalog);
        }
        Matcher session = SESSION_FUNCTION.matcher(text);
        if (session.matches()) {
            return sessionFunction(session, catalog);
        }
        String lower = SelectList.normalize(text).toLowerCase(Locale.ROOT);
        if (lower.contains("as \"table_type\"") && lower.contains("from pg_catalog.pg_namespace n, pg_catalog.pg_class c")) {
            return JdbcMetadata.tables(text, catalog.read());
        }
        if (lower.startsWith("select * from (select current_database() as current_database, n.nspname,c.relname,a.attname")
                || lower.startsWith("select * from (select n.nspname,c.relname,a.attname")) {
            return JdbcMetadata.columns(text, catalog.read());
        }
        if (lower.contains("information_schema._pg_expandarray(") && lower.contains("as \"pk_name\"")) {
            return JdbcMetadata.primaryKeys(text, catalog.read());
        }
        if (lower.contains("as \"non_unique\"") && lower.contains("as \"index_qualifier\"")) {
            return JdbcMetadata.indexInfo(text, catalog.read());
        }
        if (lower.startsWith("select nspname as \"table_schem\"")) {
            return JdbcMetadata.schemas(text, catalog.read());
        }
        if (lower.contains("from pg_catalog.pg_cursors")) {
            return cursors(text, catalog);
        }
        Matcher viewDefinition = VIEW_DEFINITION.matcher(text);
        if (viewDefinition.find()) {
            String definition = catalog.read().relation(Long.parseLong(viewDefinition.group(1)))
                    .map(Relation::viewDefinition).orElse(null);
            return new CatalogResult(List.of(field("pg_get_viewdef", PgTypes.TEXT)),
                    List.<Object[]>of(new Object[] {definition}));
        }
        if (EMPTY_CATALOG.matcher(text).find() || (lower.contains("pg_catalog.pg_constraint") && FOREIGN_KEYS.matcher(text).find())) {
            return empty(text);
        }
        if (lower.contains("from pg_catalog.pg_class c, pg_catalog.pg_class c2, pg_catalog.pg_index i")) {
            return indexes(text, catalog.read());
        }
        if (lower.contains("from pg_catalog.pg_index i, pg_catalog.pg_class c, pg_catalog.pg_class c2, pg_catalog.pg_am a")) {
            return indexOwnFlags(text, catalog.read());
        }
        if (lower.contains("from pg_catalog.pg_attribute a ") && lower.contains("a.attrelid =")) {
            return attributes(text, catalog.read());
        }
        if (lower.contains("from pg_catalog.pg_constraint r ") && lower.contains("r.contype = 'c'")) {
            return checks(text, catalog.read());
        }
        if (lower.contains("from pg_catalog.pg_class c ")) {
            return relations(text, catalog.read());
        }
        if (lower.contains("from pg_catalog.pg_namespace n ")) {
            return namespaces(text, catalog.read());
        }
        if (lower.contains("from pg_catalog.pg_roles r ")) {
            return roles(text, catalog);
        }
        if (lower.contains("from pg_catalog.pg_database d ")) {
            return databases(text, catalog.read());
        }
        throw new CatalogQueryException("0A000", "Columba's server does not answer this PostgreSQL catalog query"
                + " (it answers psql's \\d, \\dt, \\dv, \\di, \\dn, \\du, \\l, \\df and pgJDBC's DatabaseMetaData): "
                + abbreviate(text));
    }

    /** Where answers come from: the session's names, known without reading anything, and the catalog, read on demand. */
    public interface CatalogSource {
        /** The database name the client connected with. */
        String database();

        /** The connected user. */
        String user();

        /** The catalog now; each call reads it afresh. */
        PgCatalog read();

        /** The value of a run-time parameter the server reported to the client at startup (ParameterStatus), or null. */
        default String parameter(String name) {
            return null;
        }

        /** The session's open cursors ({@code pg_cursors}), in the order they were declared. */
        default List<OpenCursor> cursors() {
            return List.of();
        }

        /** The database's logins ({@code sys.server_principals}); read on demand. */
        default List<Role> logins() {
            return List.of();
        }
    }

    /** A row of {@code pg_roles}: a login, and whether it is a member of sysadmin (PostgreSQL's superuser). */
    public record Role(String name, boolean superuser) {
    }

    /** A row of {@code pg_cursors}: one open cursor of the session. */
    public record OpenCursor(String name, String statement, boolean holdable, boolean binary, boolean scrollable) {
    }

    // ---- pg_cursors ---------------------------------------------------------------------------------

    private static final Pattern CURSOR_NAME = Pattern.compile("(?i)\\bname\\s*=\\s*'((?:[^']|'')*)'");

    /**
     * {@code pg_cursors}, which psycopg asks before it closes a named cursor it did not declare itself
     * ({@code SELECT 1 FROM pg_catalog.pg_cursors WHERE name = '...'}); filtered by a {@code name = '...'}.
     */
    private static CatalogResult cursors(String sql, CatalogSource catalog) {
        Matcher name = CURSOR_NAME.matcher(sql);
        String wanted = name.find() ? name.group(1).replace("''", "'") : null;
        List<OpenCursor> selected = catalog.cursors().stream()
                .filter(cursor -> wanted == null || cursor.name().equals(wanted)).toList();
        return evaluate(SelectList.of(sql), selected, cursor -> item -> switch (item.expression()) {
            case "name" -> Value.of(PgTypes.TEXT, cursor.name());
            case "statement" -> Value.of(PgTypes.TEXT, cursor.statement());
            case "is_holdable" -> Value.of(PgTypes.BOOL, cursor.holdable());
            case "is_binary" -> Value.of(PgTypes.BOOL, cursor.binary());
            case "is_scrollable" -> Value.of(PgTypes.BOOL, cursor.scrollable());
            default -> Value.literal(item);
        });
    }

    // ---- SHOW ---------------------------------------------------------------------------------------

    /**
     * {@code SHOW name}: the parameters the server reported at startup, and the settings clients ask for with it
     * (pgJDBC's {@code getTransactionIsolation} and pools asking the same). One row, one text column named as
     * PostgreSQL names it; an unknown name is 42704, {@code SHOW ALL} 0A000.
     */
    private static CatalogResult show(String written, CatalogSource catalog) {
        String name = written.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
        String column = name;
        String value = switch (name) {
            case "transaction isolation level", "transaction_isolation", "default_transaction_isolation" -> {
                column = name.equals("transaction isolation level") ? "transaction_isolation" : name;
                yield "read committed";
            }
            case "transaction_read_only", "default_transaction_read_only" -> "off";
            case "search_path" -> "\"$user\", public";
            case "all" -> throw new CatalogQueryException("0A000", "SHOW ALL is not supported; SHOW takes one parameter");
            default -> catalog.parameter(name);
        };
        if (value == null) {
            throw new CatalogQueryException("42704", "unrecognized configuration parameter \"" + written.strip() + "\"");
        }
        return new CatalogResult(List.of(field(column, PgTypes.TEXT)), List.<Object[]>of(new Object[] {value}));
    }

    // ---- session functions --------------------------------------------------------------------------

    private static CatalogResult sessionFunction(Matcher session, CatalogSource catalog) {
        String function = session.group(1).toLowerCase(Locale.ROOT).replaceAll("\\s", "")
                .replace("pg_catalog.", "").replace("()", "");
        String name = session.group("alias") != null ? unquoteAlias(session.group("alias")) : function;
        Object value = switch (function) {
            case "current_catalog", "current_database" -> catalog.database();
            case "current_schema" -> "public";
            case "current_user", "session_user" -> catalog.user();
            default -> "PostgreSQL 15.0 (Columba)";
        };
        return new CatalogResult(List.of(field(name, function.equals("version") ? PgTypes.TEXT : PgTypes.NAME)),
                List.<Object[]>of(new Object[] {value}));
    }

    private static String unquoteAlias(String alias) {
        return alias.startsWith("\"") ? alias.substring(1, alias.length() - 1) : alias.toLowerCase(Locale.ROOT);
    }

    // ---- psql: relations ------------------------------------------------------------------------------

    /** {@code \d}, {@code \dt}, {@code \dv}, {@code \di} lists, {@code \d name}'s lookup, and one relation's flags. */
    private static CatalogResult relations(String sql, PgCatalog catalog) {
        Optional<Pattern> names = regexFilter(sql, "c\\.relname");
        Optional<Pattern> schemas = regexFilter(sql, "n\\.nspname");
        boolean visibleOnly = sql.contains("pg_table_is_visible(c.oid)");
        Matcher oid = OID_FILTER.matcher(sql);
        Long oidFilter = oid.find() ? Long.parseLong(oid.group(1)) : null;
        Matcher kinds = RELKINDS.matcher(sql);
        String kindFilter = kinds.find() ? kinds.group(1).replaceAll("[^a-zA-Z]", "") : null;
        List<Relation> selected = catalog.relations().stream()
                .filter(relation -> oidFilter == null || relation.oid() == oidFilter)
                .filter(relation -> kindFilter == null || kindFilter.indexOf(relation.kind()) >= 0)
                .filter(relation -> !visibleOnly || relation.namespaceOid() == PgCatalog.PUBLIC_NAMESPACE)
                .filter(relation -> names.map(pattern -> pattern.matcher(relation.name()).find()).orElse(true))
                .filter(relation -> schemas.map(pattern ->
                        pattern.matcher(catalog.namespaceName(relation.namespaceOid())).find()).orElse(true))
                .sorted(Comparator.comparing((Relation relation) -> catalog.namespaceName(relation.namespaceOid()))
                        .thenComparing(Relation::name))
                .toList();
        return evaluate(SelectList.of(sql), selected, relation -> relationValue(catalog, relation));
    }

    private static Function<SelectList.Item, Value> relationValue(PgCatalog catalog, Relation relation) {
        return item -> switch (item.name()) {
            case "Schema" -> Value.of(PgTypes.NAME, catalog.namespaceName(relation.namespaceOid()));
            case "Name" -> Value.of(PgTypes.NAME, relation.name());
            case "Type" -> Value.of(PgTypes.TEXT, kindName(relation.kind()));
            case "Owner" -> Value.of(PgTypes.NAME, catalog.user());
            case "Table" -> Value.of(PgTypes.NAME, catalog.relation(relation.tableOid()).map(Relation::name).orElse(null));
            case "Persistence" -> Value.of(PgTypes.TEXT, "permanent");
            case "Access method" -> Value.of(PgTypes.NAME, relation.accessMethod());
            case "Size", "Description" -> Value.of(PgTypes.TEXT, null);
            default -> switch (item.expression()) {
                case "c.oid" -> Value.of(PgTypes.OID, relation.oid());
                case "n.nspname" -> Value.of(PgTypes.NAME, catalog.namespaceName(relation.namespaceOid()));
                case "c.relname" -> Value.of(PgTypes.NAME, relation.name());
                case "c.relchecks" -> Value.of(PgTypes.INT2, relation.checks().size());
                case "c.relkind" -> Value.of(PgTypes.CHAR, String.valueOf(relation.kind()));
                case "c.relhasindex" -> Value.of(PgTypes.BOOL, !catalog.indexesOf(relation).isEmpty());
                case "c.relpersistence" -> Value.of(PgTypes.CHAR, "p");
                case "c.relreplident" -> Value.of(PgTypes.CHAR, "d");
                case "c.reltablespace", "c.reloftype" -> Value.of(PgTypes.OID, 0);
                case "am.amname" -> Value.of(PgTypes.NAME, relation.accessMethod());
                case "c.relhasrules", "c.relhastriggers", "c.relrowsecurity", "c.relforcerowsecurity",
                     "c.relispartition" -> Value.of(PgTypes.BOOL, false);
                default -> item.expression().startsWith("pg_catalog.array_to_string(c.reloptions")
                        || item.expression().startsWith("case when c.reloftype = 0")
                        ? Value.of(PgTypes.TEXT, "") : Value.literal(item);
            };
        };
    }

    private static String kindName(char kind) {
        return switch (kind) {
            case 'r' -> "table";
            case 'v' -> "view";
            case 'i' -> "index";
            default -> throw new IllegalArgumentException("relkind '" + kind + "' is not one Columba has");
        };
    }

    /** {@code \d name}'s columns: {@code WHERE a.attrelid = 'oid' AND a.attnum > 0}. */
    private static CatalogResult attributes(String sql, PgCatalog catalog) {
        Relation relation = filteredRelation(sql, catalog);
        List<Attribute> attributes = relation == null ? List.of() : relation.attributes();
        return evaluate(SelectList.of(sql), attributes, attribute -> item -> {
            String expression = item.expression();
            return switch (expression) {
                case "a.attname" -> Value.of(PgTypes.NAME, attribute.name());
                case "a.attnum" -> Value.of(PgTypes.INT2, attribute.number());
                case "pg_catalog.format_type(a.atttypid, a.atttypmod)" ->
                        Value.of(PgTypes.TEXT, PgTypes.formatType(attribute.typeOid(), attribute.typeModifier()));
                case "a.attnotnull" -> Value.of(PgTypes.BOOL, attribute.notNull());
                case "a.attidentity" -> Value.of(PgTypes.CHAR, attribute.identity() ? "a" : "");
                case "a.attgenerated" -> Value.of(PgTypes.CHAR, "");
                case "a.attstorage" -> Value.of(PgTypes.CHAR, PgTypes.length(attribute.typeOid()) > 0 ? "p"
                        : attribute.typeOid() == PgTypes.NUMERIC ? "m" : "x");
                case "a.attcompression" -> Value.of(PgTypes.CHAR, "");
                default -> {
                    if (item.name().equals("is_key")) {
                        yield Value.of(PgTypes.TEXT, "yes"); // Columba's indexes have no INCLUDE columns
                    }
                    if (expression.startsWith("(select pg_catalog.pg_get_expr(d.adbin")) {
                        yield Value.of(PgTypes.TEXT, attribute.defaultExpression());
                    }
                    if (expression.startsWith("pg_catalog.pg_get_indexdef(a.attrelid, a.attnum")) {
                        yield Value.of(PgTypes.TEXT, attribute.name());
                    }
                    yield expression.startsWith("(select c.collname") || expression.contains("col_description")
                            || expression.contains("attstattarget") ? Value.of(PgTypes.TEXT, null) : Value.literal(item);
                }
            };
        });
    }

    /** {@code \d name}'s indexes: the table's index relations with their constraints. */
    private static CatalogResult indexes(String sql, PgCatalog catalog) {
        Relation table = filteredRelation(sql, catalog);
        List<Relation> indexes = table == null ? List.of() : catalog.indexesOf(table).stream()
                .sorted(Comparator.comparing((Relation index) -> !index.index().primary()).thenComparing(Relation::name))
                .toList();
        return evaluate(SelectList.of(sql), indexes, index -> item -> {
            PgCatalog.Index shape = index.index();
            return switch (item.expression()) {
                case "c2.relname" -> Value.of(PgTypes.NAME, index.name());
                case "i.indisprimary" -> Value.of(PgTypes.BOOL, shape.primary());
                case "i.indisunique" -> Value.of(PgTypes.BOOL, shape.unique());
                case "i.indisclustered" -> Value.of(PgTypes.BOOL, shape.clustered());
                case "i.indisvalid" -> Value.of(PgTypes.BOOL, true);
                case "i.indisreplident", "condeferrable", "condeferred" -> Value.of(PgTypes.BOOL, false);
                case "contype" -> Value.of(PgTypes.CHAR, shape.backsConstraint() ? String.valueOf(shape.constraintType()) : null);
                case "c2.reltablespace" -> Value.of(PgTypes.OID, 0);
                case "pg_catalog.pg_get_indexdef(i.indexrelid, 0, true)" ->
                        Value.of(PgTypes.TEXT, indexDefinition(table, index));
                case "pg_catalog.pg_get_constraintdef(con.oid, true)" -> Value.of(PgTypes.TEXT, shape.backsConstraint()
                        ? (shape.primary() ? "PRIMARY KEY " : "UNIQUE ") + keyList(index) : null);
                default -> Value.literal(item);
            };
        });
    }

    /** {@code \\d index}'s flags of the index itself and the table it is on. */
    private static CatalogResult indexOwnFlags(String sql, PgCatalog catalog) {
        Relation index = filteredRelation(sql, catalog);
        List<Relation> selected = index == null || index.kind() != 'i' ? List.of() : List.of(index);
        return evaluate(SelectList.of(sql), selected, relation -> item -> switch (item.expression()) {
            case "i.indisunique" -> Value.of(PgTypes.BOOL, relation.index().unique());
            case "i.indisprimary" -> Value.of(PgTypes.BOOL, relation.index().primary());
            case "i.indisclustered" -> Value.of(PgTypes.BOOL, relation.index().clustered());
            case "i.indisvalid" -> Value.of(PgTypes.BOOL, true);
            case "i.indisreplident", "i.indnullsnotdistinct" -> Value.of(PgTypes.BOOL, false);
            case "a.amname" -> Value.of(PgTypes.NAME, relation.accessMethod());
            case "c2.relname" -> Value.of(PgTypes.NAME, catalog.relation(relation.tableOid()).map(Relation::name).orElse(null));
            case "pg_catalog.pg_get_expr(i.indpred, i.indrelid, true)" -> Value.of(PgTypes.TEXT, null); // no partial indexes
            default -> item.name().equals("condeferrable") || item.name().equals("condeferred")
                    ? Value.of(PgTypes.BOOL, false) : Value.literal(item);
        });
    }

    /** {@code pg_get_indexdef}: the CREATE INDEX statement PostgreSQL would print. */
    static String indexDefinition(Relation table, Relation index) {
        return "CREATE " + (index.index().unique() ? "UNIQUE " : "") + "INDEX " + quote(index.name()) + " ON public."
                + quote(table.name()) + " USING " + index.accessMethod() + " " + keyList(index);
    }

    private static String keyList(Relation index) {
        return index.attributes().stream().map(attribute -> quote(attribute.name()))
                .collect(Collectors.joining(", ", "(", ")"));
    }

    /** An identifier as PostgreSQL prints it: bare when lower case letters, digits and underscores, else quoted. */
    static String quote(String name) {
        return name.matches("[a-z_][a-z0-9_$]*") ? name : "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /** {@code \d name}'s check constraints. */
    private static CatalogResult checks(String sql, PgCatalog catalog) {
        Relation table = filteredRelation(sql, catalog);
        List<PgCatalog.Check> checks = table == null ? List.of()
                : table.checks().stream().sorted(Comparator.comparing(PgCatalog.Check::name)).toList();
        return evaluate(SelectList.of(sql), checks, check -> item -> switch (item.expression()) {
            case "r.conname" -> Value.of(PgTypes.NAME, check.name());
            case "pg_catalog.pg_get_constraintdef(r.oid, true)" -> Value.of(PgTypes.TEXT, "CHECK (" + check.definition() + ")");
            default -> Value.literal(item);
        });
    }

    private static Relation filteredRelation(String sql, PgCatalog catalog) {
        Matcher oid = OID_FILTER.matcher(sql);
        return oid.find() ? catalog.relation(Long.parseLong(oid.group(1))).orElse(null) : null;
    }

    // ---- psql: schemas and databases ------------------------------------------------------------------

    /** {@code \dn}: the schemas, without {@code pg_*} and {@code information_schema} unless a pattern names them. */
    private static CatalogResult namespaces(String sql, PgCatalog catalog) {
        Optional<Pattern> names = regexFilter(sql, "n\\.nspname");
        boolean hideSystem = sql.contains("!~ '^pg_'");
        List<PgCatalog.Namespace> selected = catalog.namespaces().stream()
                .filter(namespace -> !hideSystem || !namespace.name().startsWith("pg_"))
                .filter(namespace -> names.map(pattern -> pattern.matcher(namespace.name()).find()).orElse(true))
                .sorted(Comparator.comparing(PgCatalog.Namespace::name)).toList();
        return evaluate(SelectList.of(sql), selected, namespace -> item -> switch (item.name()) {
            case "Name" -> Value.of(PgTypes.NAME, namespace.name());
            case "Owner" -> Value.of(PgTypes.NAME, catalog.user());
            case "Access privileges", "Description" -> Value.of(PgTypes.TEXT, null);
            default -> item.expression().equals("n.oid") ? Value.of(PgTypes.OID, namespace.oid()) : Value.literal(item);
        });
    }

    /** {@code \l}: the one database the server serves. */
    private static CatalogResult databases(String sql, PgCatalog catalog) {
        return evaluate(SelectList.of(sql), List.of(catalog), database -> item -> switch (item.name()) {
            case "Name" -> Value.of(PgTypes.NAME, database.database());
            case "Owner" -> Value.of(PgTypes.NAME, database.user());
            case "Encoding" -> Value.of(PgTypes.NAME, "UTF8");
            case "Collate", "Ctype" -> Value.of(PgTypes.NAME, "C");
            case "Locale Provider" -> Value.of(PgTypes.TEXT, "libc");
            case "ICU Locale", "Access privileges", "Size", "Tablespace", "Description" -> Value.of(PgTypes.TEXT, null);
            default -> Value.literal(item);
        });
    }

    /**
     * {@code \du}: the connected user, the one role there is. Columba has no accounts, and a client the server
     * let in may do everything, so the role has every attribute.
     */
    private static CatalogResult roles(String sql, CatalogSource catalog) {
        Optional<Pattern> names = regexFilter(sql, "r\\.rolname");
        // Every login, and the connected user if no login has its name: the database's owner, who may do everything.
        TreeMap<String, Role> roles = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        roles.put(catalog.user(), new Role(catalog.user(), true));
        catalog.logins().forEach(login -> roles.put(login.name(), login));
        List<Role> users = roles.values().stream()
                .filter(role -> names.map(pattern -> pattern.matcher(role.name()).find()).orElse(true)).toList();
        return evaluate(SelectList.of(sql), users, role -> item -> switch (item.expression()) {
            case "r.rolname" -> Value.of(PgTypes.NAME, role.name());
            // Managing logins (CREATE ROLE's part) takes sysadmin; Columba has no CREATE DATABASE.
            case "r.rolsuper", "r.rolcreaterole" -> Value.of(PgTypes.BOOL, role.superuser());
            case "r.rolcreatedb" -> Value.of(PgTypes.BOOL, false);
            case "r.rolinherit", "r.rolcanlogin" -> Value.of(PgTypes.BOOL, true);
            case "r.rolreplication", "r.rolbypassrls" -> Value.of(PgTypes.BOOL, false);
            case "r.rolconnlimit" -> Value.of(PgTypes.INT4, -1);
            case "r.rolvaliduntil" -> Value.of(PgTypes.TIMESTAMPTZ, null);
            default -> switch (item.name()) {
                case "memberof" -> Value.of(PgTypes.TEXT, "{}");
                case "description" -> Value.of(PgTypes.TEXT, null);
                default -> Value.literal(item);
            };
        });
    }

    // ---- common ---------------------------------------------------------------------------------------

    /** No rows, with the columns the select list names (the first select list of a UNION), all as text. */
    private static CatalogResult empty(String sql) {
        List<Field> fields = new ArrayList<>();
        for (SelectList.Item item : SelectList.of(sql).items()) {
            fields.add(field(item.name(), PgTypes.TEXT));
        }
        return new CatalogResult(fields, List.of());
    }

    /** A value of a select-list item, with its column's type. */
    record Value(int typeOid, Object value) {
        static Value of(int typeOid, Object value) {
            return new Value(typeOid, value);
        }

        /**
         * An item the query computes without the catalog: a literal. Anything else is refused rather than guessed
         * (a wrong value would pass for a right one).
         */
        static Value literal(SelectList.Item item) {
            String expression = item.expression();
            return switch (expression) {
                case "true" -> of(PgTypes.BOOL, true);
                case "false" -> of(PgTypes.BOOL, false);
                case "null" -> of(PgTypes.TEXT, null);
                default -> {
                    if (expression.length() >= 2 && expression.startsWith("'") && expression.endsWith("'")) {
                        yield of(PgTypes.TEXT, expression.substring(1, expression.length() - 1).replace("''", "'"));
                    }
                    if (expression.matches("-?\\d{1,9}")) {
                        yield of(PgTypes.INT4, Integer.parseInt(expression));
                    }
                    throw new CatalogQueryException("0A000", "Columba's server does not compute " + expression
                            + " (column " + item.name() + ") in a catalog query");
                }
            };
        }
    }

    /**
     * Rows of {@code sources}, each item of the select list computed by {@code values}; the column types are those
     * the first row gives (or the items' types for a source given without rows).
     */
    static <T> CatalogResult evaluate(SelectList select, List<T> sources,
                                      Function<T, Function<SelectList.Item, Value>> values) {
        List<SelectList.Item> items = select.items();
        int[] types = new int[items.size()];
        java.util.Arrays.fill(types, PgTypes.TEXT);
        List<Object[]> rows = new ArrayList<>(sources.size());
        for (T source : sources) {
            Function<SelectList.Item, Value> row = values.apply(source);
            Object[] rowValues = new Object[items.size()];
            for (int column = 0; column < items.size(); column++) {
                Value value = row.apply(items.get(column));
                types[column] = value.typeOid();
                rowValues[column] = value.value();
            }
            rows.add(rowValues);
        }
        List<Field> fields = new ArrayList<>(items.size());
        for (int column = 0; column < items.size(); column++) {
            fields.add(field(items.get(column).name(), types[column]));
        }
        return new CatalogResult(fields, rows);
    }

    static Field field(String name, int typeOid) {
        return new Field(name, typeOid, PgTypes.length(typeOid), -1, Format.TEXT);
    }

    /**
     * psql's name pattern on {@code column}: {@code column OPERATOR(pg_catalog.~) '^(name)$' COLLATE ...}, as a
     * Java pattern. Names match case-insensitively, as Columba's do.
     */
    static Optional<Pattern> regexFilter(String sql, String column) {
        Matcher matcher = Pattern.compile("(?i)" + column + "\\s+OPERATOR\\(pg_catalog\\.~\\)\\s+" + Literals.LITERAL)
                .matcher(sql);
        return matcher.find() ? Optional.of(Pattern.compile(Literals.value(matcher.group(1), matcher.group(2)),
                Pattern.CASE_INSENSITIVE)) : Optional.empty();
    }

    private static String abbreviate(String sql) {
        String flat = sql.replaceAll("\\s+", " ");
        return flat.length() > 160 ? flat.substring(0, 160) + "..." : flat;
    }
}
