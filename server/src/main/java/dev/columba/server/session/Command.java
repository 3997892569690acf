package dev.columba.server.session;

import dev.columba.server.catalog.CatalogQueries;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a statement is for the server: transaction control and PostgreSQL session settings it answers
 * itself, or SQL it passes to Columba.
 */
sealed interface Command {
    /**
     * PostgreSQL settings clients set at connect that change nothing in Columba's answers: floats always go
     * out in their shortest exact form (extra_float_digits above 0), dates in ISO, text in UTF-8, and
     * timestamps carry no zone.
     */
    Set<String> IGNORED_SETTINGS = Set.of("extra_float_digits", "application_name", "client_encoding", "datestyle",
            "timezone", "intervalstyle", "client_min_messages", "search_path", "standard_conforming_strings",
            "bytea_output", "lc_messages", "lc_monetary", "lc_numeric", "lc_time", "escape_string_warning");

    /** BEGIN, BEGIN WORK/TRANSACTION, START TRANSACTION. */
    record Begin() implements Command {
    }

    /** COMMIT, END. */
    record Commit() implements Command {
    }

    /** ROLLBACK, ABORT (not ROLLBACK TO SAVEPOINT). */
    record Rollback() implements Command {
    }

    /** {@code SET name = value} for one of {@link #IGNORED_SETTINGS}; {@code value} as written. */
    record IgnoredSetting(String name, String value) implements Command {
    }

    /**
     * {@code DEALLOCATE [PREPARE] name | ALL}: closes statements prepared through the protocol's Parse
     * message by name (clients such as psycopg deallocate them with this statement, not with Close).
     *
     * @param name the statement's name, or null for ALL
     */
    record Deallocate(String name) implements Command {
    }

    /**
     * {@code DECLARE name ... CURSOR [WITH HOLD] FOR query}: a server-side cursor over {@code query}'s result
     * ({@link CursorStatements#declare}).
     */
    record Declare(String name, boolean binary, boolean scroll, boolean hold, String query) implements Command {
    }

    /**
     * {@code FETCH} or {@code MOVE} ({@code move}) of a cursor. FORWARD takes {@code count} rows ahead (negative:
     * backwards; {@link CursorStatements#ALL} for ALL); ABSOLUTE goes to row {@code count} (1 the first, -1 the
     * last); RELATIVE {@code count} rows from the current one.
     */
    record Fetch(String name, boolean move, Direction direction, long count) implements Command {
        enum Direction { FORWARD, ABSOLUTE, RELATIVE }
    }

    /** {@code CLOSE name}, or {@code CLOSE ALL} when {@code name} is null. */
    record CloseCursor(String name) implements Command {
    }

    /** No statement at all (an empty query string). */
    record Empty() implements Command {
    }

    /**
     * A query of PostgreSQL's catalog ({@code pg_catalog.*}) or a session function ({@code current_database()}),
     * which the server answers itself ({@link dev.columba.server.catalog.CatalogQueries}).
     */
    record Catalog(String text) implements Command {
    }

    /** {@code COPY ... FROM STDIN | TO STDOUT}, whose rows travel in CopyData messages ({@link WireCopy}). */
    record Copy(WireCopy copy) implements Command {
    }

    /** Anything else, for Columba. */
    record Sql(String text) implements Command {
    }

    static Command of(String sql) {
        List<String> words = SqlText.words(sql, 4);
        if (words.isEmpty()) {
            return SqlText.isBlank(sql) ? new Empty() : new Sql(sql);
        }
        if (CatalogQueries.isCatalogQuery(sql)) {
            return new Catalog(sql);
        }
        String first = words.getFirst();
        String second = words.size() > 1 ? words.get(1) : "";
        return switch (first) {
            case "BEGIN" -> new Begin();
            case "START" -> second.equals("TRANSACTION") ? new Begin() : new Sql(sql);
            case "COMMIT", "END" -> new Commit();
            case "ROLLBACK", "ABORT" -> second.equals("TO") ? new Sql(sql) : new Rollback();
            case "SET" -> setting(sql, words);
            case "DEALLOCATE" -> deallocate(sql, words);
            case "DECLARE" -> {
                Declare declare = CursorStatements.declare(sql);
                yield declare == null ? new Sql(sql) : declare;
            }
            case "FETCH", "MOVE" -> CursorStatements.fetch(sql);
            case "CLOSE" -> CursorStatements.close(sql);
            case "COPY" -> {
                WireCopy copy = WireCopy.of(sql);
                yield copy == null ? new Sql(sql) : new Copy(copy);
            }
            default -> new Sql(sql);
        };
    }

    private static Command deallocate(String sql, List<String> words) {
        int nameAt = words.size() > 2 && words.get(1).equals("PREPARE") ? 2 : 1;
        String name = SqlText.afterWords(sql, nameAt).strip();
        if (name.endsWith(";")) {
            name = name.substring(0, name.length() - 1).strip();
        }
        if (name.equalsIgnoreCase("ALL")) {
            return new Deallocate(null);
        }
        if (name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"")) {
            return new Deallocate(name.substring(1, name.length() - 1).replace("\"\"", "\""));
        }
        if (name.isEmpty() || !name.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '_' || c == '$')) {
            return new Sql(sql);
        }
        // An unquoted name is folded to lower case, as PostgreSQL folds identifiers.
        return new Deallocate(name.toLowerCase(Locale.ROOT));
    }

    /** {@code SET [SESSION CHARACTERISTICS AS] TRANSACTION ISOLATION LEVEL level}, as pgJDBC's setTransactionIsolation sends it. */
    java.util.regex.Pattern ISOLATION = java.util.regex.Pattern.compile(
            "(?is)^\\s*set\\s+(session\\s+characteristics\\s+as\\s+)?transaction\\s+isolation\\s+level\\s+"
                    + "(?<level>read\\s+committed|read\\s+uncommitted|repeatable\\s+read|serializable)\\s*;?\\s*$");

    private static Command setting(String sql, List<String> words) {
        java.util.regex.Matcher isolation = ISOLATION.matcher(sql);
        if (isolation.matches()) {
            String level = isolation.group("level").replaceAll("\\s+", " ").toUpperCase(Locale.ROOT);
            if (level.equals("REPEATABLE READ") || level.equals("SERIALIZABLE")) {
                // Refused rather than run at a weaker level than the client asked for.
                throw new WireSqlException("0A000", "isolation level " + level + " is not supported: Columba"
                        + " transactions are READ COMMITTED (each statement reads the data committed when it starts)");
            }
            return new IgnoredSetting("transaction_isolation", level);
        }
        int nameAt = words.size() > 2 && (words.get(1).equals("SESSION") || words.get(1).equals("LOCAL")) ? 2 : 1;
        if (words.size() <= nameAt) {
            return new Sql(sql);
        }
        String name = words.get(nameAt).toLowerCase(Locale.ROOT);
        if (name.equals("time") && words.size() > nameAt + 1 && words.get(nameAt + 1).equals("ZONE")) {
            return new IgnoredSetting("timezone", SqlText.afterWords(sql, nameAt + 2));
        }
        if (!IGNORED_SETTINGS.contains(name)) {
            return new Sql(sql);
        }
        String value = SqlText.afterWords(sql, nameAt + 1);
        if (value.startsWith("=")) {
            value = value.substring(1).strip();
        } else if (value.regionMatches(true, 0, "TO", 0, 2)) {
            value = value.substring(2).strip();
        }
        if (value.endsWith(";")) {
            value = value.substring(0, value.length() - 1).strip();
        }
        return new IgnoredSetting(name, value);
    }
}
