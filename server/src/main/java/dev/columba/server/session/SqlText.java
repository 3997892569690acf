package dev.columba.server.session;

import dev.columba.server.catalog.Literals;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the server needs to know about SQL text before Columba sees it: where a simple query's statements
 * end, PostgreSQL's {@code $n} parameters as JDBC's {@code ?} markers, and the leading keywords (for the
 * statements the server answers itself and for command tags). String literals, quoted identifiers and
 * comments are skipped, so a {@code ;} or {@code $1} inside them counts for nothing.
 */
final class SqlText {
    private SqlText() {
    }

    /** Statement text with {@code ?} markers, and for each marker the 1-based {@code $n} it stands for. */
    record JdbcSql(String sql, int[] parameterNumbers) {
        /** How many parameters the client binds: the highest {@code $n}. */
        int parameterCount() {
            int highest = 0;
            for (int number : parameterNumbers) {
                highest = Math.max(highest, number);
            }
            return highest;
        }
    }

    /** The statements of a simple query, split at top-level semicolons; blank ones dropped. */
    static List<String> split(String sql) {
        List<String> statements = new ArrayList<>();
        int start = 0;
        int position = 0;
        while (position < sql.length()) {
            char character = sql.charAt(position);
            int skipped = skipQuotedOrComment(sql, position);
            if (skipped != position) {
                position = skipped;
            } else if (character == ';') {
                addIfNotBlank(statements, sql.substring(start, position));
                start = ++position;
            } else {
                position++;
            }
        }
        addIfNotBlank(statements, sql.substring(start));
        return statements;
    }

    private static void addIfNotBlank(List<String> statements, String statement) {
        if (!isBlank(statement)) {
            statements.add(statement.strip());
        }
    }

    /** Whether the text holds nothing but white space, semicolons and comments. */
    static boolean isBlank(String sql) {
        return words(sql, 1).isEmpty();
    }

    /** The text with {@code $n} parameters replaced by {@code ?} and a trailing semicolon removed. */
    static JdbcSql toJdbc(String sql) {
        StringBuilder out = new StringBuilder(sql.length());
        List<Integer> numbers = new ArrayList<>();
        int position = 0;
        while (position < sql.length()) {
            int skipped = skipQuotedOrComment(sql, position);
            if (skipped != position) {
                out.append(sql, position, skipped);
                position = skipped;
                continue;
            }
            char character = sql.charAt(position);
            if (character == '$' && position + 1 < sql.length() && Character.isDigit(sql.charAt(position + 1))
                    && (position == 0 || !Character.isLetterOrDigit(sql.charAt(position - 1)))) {
                int end = position + 1;
                while (end < sql.length() && Character.isDigit(sql.charAt(end))) {
                    end++;
                }
                int number;
                try {
                    number = Integer.parseInt(sql.substring(position + 1, end));
                } catch (NumberFormatException e) {
                    number = 0;
                }
                if (number < 1 || number > 65535) {
                    throw new WireSqlException("42P02", "there is no parameter " + sql.substring(position, end));
                }
                numbers.add(number);
                out.append('?');
                position = end;
            } else {
                out.append(character);
                position++;
            }
        }
        String text = out.toString().strip();
        while (text.endsWith(";")) {
            text = text.substring(0, text.length() - 1).strip();
        }
        return new JdbcSql(text, numbers.stream().mapToInt(Integer::intValue).toArray());
    }

    /**
     * The statement with its parameters written in as literals (strings quoted, NULL for null), for the catalog
     * queries the server answers itself from their text.
     */
    static String withLiterals(JdbcSql jdbc, Object[] values) {
        String sql = jdbc.sql();
        StringBuilder out = new StringBuilder(sql.length() + 16 * values.length);
        int marker = 0;
        int position = 0;
        while (position < sql.length()) {
            int skipped = skipQuotedOrComment(sql, position);
            if (skipped != position) {
                out.append(sql, position, skipped);
                position = skipped;
            } else if (sql.charAt(position) == '?' && marker < jdbc.parameterNumbers().length) {
                Object value = values[jdbc.parameterNumbers()[marker++] - 1];
                out.append(value == null ? "NULL" : value instanceof Number || value instanceof Boolean
                        ? value.toString() : "'" + value.toString().replace("'", "''") + "'");
                position++;
            } else {
                out.append(sql.charAt(position++));
            }
        }
        return out.toString();
    }

    /** Up to {@code limit} leading words (letters, digits, underscores), upper-cased, comments skipped. */
    static List<String> words(String sql, int limit) {
        List<String> words = new ArrayList<>();
        int position = 0;
        while (position < sql.length() && words.size() < limit) {
            char character = sql.charAt(position);
            int skipped = skipComment(sql, position);
            if (skipped != position) {
                position = skipped;
            } else if (Character.isLetter(character) || character == '_') {
                int end = position;
                while (end < sql.length() && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_')) {
                    end++;
                }
                words.add(sql.substring(position, end).toUpperCase(Locale.ROOT));
                position = end;
            } else if (Character.isWhitespace(character) || character == ';') {
                position++;
            } else {
                // Punctuation ends the leading words: "(SELECT 1)" has none, "SET a = 1" has two.
                break;
            }
        }
        return words;
    }

    /** The text after the first {@code count} words, stripped (for SET's value). */
    static String afterWords(String sql, int count) {
        int position = 0;
        int seen = 0;
        while (position < sql.length() && seen < count) {
            int skipped = skipComment(sql, position);
            if (skipped != position) {
                position = skipped;
                continue;
            }
            char character = sql.charAt(position);
            if (Character.isLetter(character) || character == '_') {
                while (position < sql.length()
                        && (Character.isLetterOrDigit(sql.charAt(position)) || sql.charAt(position) == '_')) {
                    position++;
                }
                seen++;
            } else {
                position++;
            }
        }
        return sql.substring(position).strip();
    }

    /** The position after a string literal, quoted identifier or comment starting at {@code position}, else it. */
    private static int skipQuotedOrComment(String sql, int position) {
        char character = sql.charAt(position);
        if (character == '\'' || character == '"') {
            int end = position + 1;
            while (end < sql.length()) {
                if (sql.charAt(end) == character) {
                    if (end + 1 < sql.length() && sql.charAt(end + 1) == character) {
                        end += 2;
                        continue;
                    }
                    return end + 1;
                }
                end++;
            }
            return sql.length();
        }
        return skipComment(sql, position);
    }

    /** The position after a line or block comment starting at {@code position}, else it. */
    static int skipComment(String sql, int position) {
        return Literals.skipComment(sql, position);
    }
}
