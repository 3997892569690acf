package dev.columba.server.catalog;

/**
 * PostgreSQL's lexical pieces the server reads SQL text by: string literals ({@code 'it''s'} and the escape form
 * {@code E'a\\nb'}) and comments.
 */
public final class Literals {
    /** A literal: group 1 is {@code E} for the escape form (else empty), group 2 the text between the quotes. */
    static final String LITERAL = "([eE]?)'((?:[^'\\\\]|''|\\\\.)*)'";

    private Literals() {
    }

    /** The value of a literal matched by {@link #LITERAL}. */
    static String value(String escapePrefix, String body) {
        if (escapePrefix.isEmpty()) {
            return body.replace("''", "'");
        }
        StringBuilder out = new StringBuilder(body.length());
        for (int position = 0; position < body.length(); position++) {
            char character = body.charAt(position);
            if (character == '\'' && position + 1 < body.length() && body.charAt(position + 1) == '\'') {
                out.append('\'');
                position++;
            } else if (character == '\\' && position + 1 < body.length()) {
                char escaped = body.charAt(++position);
                out.append(switch (escaped) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    case 'r' -> '\r';
                    case 'b' -> '\b';
                    case 'f' -> '\f';
                    default -> escaped;
                });
            } else {
                out.append(character);
            }
        }
        return out.toString();
    }

    /** The position after a line or block comment starting at {@code position}, else {@code position}. */
    public static int skipComment(String sql, int position) {
        if (sql.startsWith("--", position)) {
            int end = sql.indexOf('\n', position);
            return end < 0 ? sql.length() : end + 1;
        }
        if (sql.startsWith("/*", position)) {
            int end = sql.indexOf("*/", position + 2);
            return end < 0 ? sql.length() : end + 2;
        }
        return position;
    }

    /** {@code value} as a standard literal, quotes doubled. */
    static String quote(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    /** {@code sql} with the text of its string literals removed ({@code 'pg_catalog.x'} becomes {@code ''}). */
    public static String withoutStrings(String sql) {
        StringBuilder out = new StringBuilder(sql.length());
        for (int position = 0; position < sql.length(); position++) {
            char character = sql.charAt(position);
            if (character == '\'') {
                position = SelectList.quotedEnd(sql, position) - 1;
                out.append("''");
            } else {
                out.append(character);
            }
        }
        return out.toString();
    }
}
