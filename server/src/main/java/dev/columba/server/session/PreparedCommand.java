package dev.columba.server.session;

import dev.columba.server.catalog.InformationSchema;
import dev.columba.server.catalog.Literals;
import dev.columba.server.catalog.PgCatalog;
import dev.columba.server.protocol.BackendMessage.Field;
import dev.columba.server.protocol.PgTypes;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A statement prepared by Parse: what it is, its text for Columba, and its parameters' type OIDs (those Parse
 * named, padded with 0 for unspecified up to the highest {@code $n}). Kept per connection by name.
 */
final class PreparedCommand {
    /** Leading keywords of statements whose result columns a probe can find without running them. */
    private static final Set<String> QUERY_KEYWORDS = Set.of("SELECT", "WITH", "VALUES");
    private static final Set<String> DATA_CHANGES = Set.of("INSERT", "UPDATE", "DELETE");
    private static final Pattern ROW_RETURNING = Pattern.compile("(?i)\\b(RETURNING|OUTPUT)\\b");
    /** Leading keywords of changes, which return rows with a RETURNING (or OUTPUT) clause. */
    private static final Set<String> CHANGE_KEYWORDS = Set.of("INSERT", "UPDATE", "DELETE", "MERGE");

    private final Command command;
    private final SqlText.JdbcSql jdbc;
    private final boolean returnsNoRows;
    private final List<Integer> parameterTypes;
    /** Names an {@code information_schema} view, so each run rewrites it; known once here, not per execution. */
    private final boolean readsInformationSchema;
    /** The result columns found by {@link #describe}; null until then. */
    private List<Field> described;
    private boolean describedOnce;

    private PreparedCommand(Command command, SqlText.JdbcSql jdbc, List<Integer> parameterTypes) {
        this.command = command;
        this.jdbc = jdbc;
        this.parameterTypes = parameterTypes;
        this.readsInformationSchema = InformationSchema.references(jdbc.sql());
        List<String> first = SqlText.words(jdbc.sql(), 1);
        this.returnsNoRows = !first.isEmpty() && DATA_CHANGES.contains(first.getFirst()) && !mayReturnRows(jdbc.sql());
    }

    static PreparedCommand of(String query, List<Integer> declaredTypes) {
        Command command = Command.of(query);
        SqlText.JdbcSql jdbc = switch (command) {
            case Command.Sql ignored -> SqlText.toJdbc(query);
            case Command.Catalog ignored -> SqlText.toJdbc(query);
            // A cursor's parameters are those of its query, which is what runs.
            case Command.Declare declare -> SqlText.toJdbc(declare.query());
            default -> new SqlText.JdbcSql(query, new int[0]);
        };
        int count = Math.max(jdbc.parameterCount(), declaredTypes.size());
        List<Integer> types = new ArrayList<>(count);
        for (int index = 0; index < count; index++) {
            types.add(index < declaredTypes.size() ? declaredTypes.get(index) : PgTypes.UNSPECIFIED);
        }
        return new PreparedCommand(command, jdbc, List.copyOf(types));
    }

    /** The text Columba runs: {@code sql} (this statement's, with {@code ?} markers) or its rewrite of the views now. */
    String forColumba(String sql, java.util.function.Supplier<PgCatalog> catalog) {
        return readsInformationSchema ? InformationSchema.rewrite(sql, catalog.get()) : sql;
    }

    Command command() {
        return command;
    }

    /**
     * Whether the statement is an INSERT, UPDATE or DELETE that returns no rows (no RETURNING or OUTPUT clause,
     * judged conservatively: the word anywhere outside a string literal counts), so its executions may be batched.
     */
    boolean returnsNoRows() {
        return returnsNoRows;
    }

    SqlText.JdbcSql jdbc() {
        return jdbc;
    }

    List<Integer> parameterTypes() {
        return parameterTypes;
    }

    /**
     * Whether a change's text holds the word RETURNING or OUTPUT outside its string literals: then it is planned
     * to describe it, and never batched. Conservative: a column named {@code output} counts too.
     */
    private static boolean mayReturnRows(String sql) {
        return ROW_RETURNING.matcher(Literals.withoutStrings(sql)).find();
    }

    /**
     * The columns the statement returns, in text format, or null if it returns none. The embedded driver gives
     * no result metadata before execution, so a query's columns come from running it wrapped as
     * {@code SELECT * FROM (query) WHERE 1 = 0} with null parameters: the planner folds the false filter into
     * an empty result, so nothing is read, and the columns are the query's. A change (INSERT, UPDATE,
     * DELETE, MERGE) that may have a RETURNING or OUTPUT clause is planned, not run, and its plan says
     * its columns (none without the clause). Other statements (DDL, commands) return no rows.
     */
    List<Field> describe(Connection connection, java.util.function.Supplier<PgCatalog> catalog) throws SQLException {
        if (describedOnce) {
            return described;
        }
        if (command instanceof Command.Sql) {
            List<String> words = SqlText.words(jdbc.sql(), 1);
            boolean query = words.isEmpty() ? jdbc.sql().startsWith("(") : QUERY_KEYWORDS.contains(words.getFirst());
            if (query) {
                String probe = "SELECT * FROM (" + forColumba(jdbc.sql(), catalog) + ") AS columba_describe WHERE 1 = 0";
                try (PreparedStatement statement = connection.prepareStatement(probe)) {
                    for (int marker = 1; marker <= jdbc.parameterNumbers().length; marker++) {
                        statement.setObject(marker, null);
                    }
                    try (ResultSet rows = statement.executeQuery()) {
                        described = Columns.fields(rows.getMetaData());
                    }
                }
            } else if (!words.isEmpty() && CHANGE_KEYWORDS.contains(words.getFirst()) && mayReturnRows(jdbc.sql())) {
                try (PreparedStatement statement = connection.prepareStatement(forColumba(jdbc.sql(), catalog))) {
                    java.sql.ResultSetMetaData columns = statement.getMetaData();
                    described = columns == null ? null : Columns.fields(columns);
                }
            }
        }
        describedOnce = true;
        return described;
    }
}
