package dev.columba.jdbc;

/**
 * Counts the {@code ?} parameter markers of a statement the way the parser's lexer sees them:
 * not inside string literals ({@code '...'}, quotes doubled), quoted identifiers ({@code "..."} and
 * {@code [...]}), or comments ({@code -- ...} to the end of the line, {@code /* ... *}{@code /}).
 * A prepared statement knows its parameter count from this before the statement first runs.
 */
final class ParameterMarkers {
    private ParameterMarkers() {
    }

    static int count(String sql) {
        int markers = 0;
        int position = 0;
        int length = sql.length();
        while (position < length) {
            char character = sql.charAt(position);
            switch (character) {
                case '\'' -> position = closingQuote(sql, position + 1, '\'');
                case '"' -> position = closingQuote(sql, position + 1, '"');
                case '[' -> position = closingQuote(sql, position + 1, ']');
                case '-' -> {
                    if (position + 1 < length && sql.charAt(position + 1) == '-') {
                        int newline = sql.indexOf('\n', position);
                        position = newline < 0 ? length : newline + 1;
                    } else {
                        position++;
                    }
                }
                case '/' -> {
                    if (position + 1 < length && sql.charAt(position + 1) == '*') {
                        int end = sql.indexOf("*/", position + 2);
                        position = end < 0 ? length : end + 2;
                    } else {
                        position++;
                    }
                }
                case '?' -> {
                    markers++;
                    position++;
                }
                default -> position++;
            }
        }
        return markers;
    }

    /** The position after the quote that closes one opened before {@code from}; a doubled quote is part of the text. */
    private static int closingQuote(String sql, int from, char quote) {
        int position = from;
        while (position < sql.length()) {
            if (sql.charAt(position) == quote) {
                if (position + 1 < sql.length() && sql.charAt(position + 1) == quote) {
                    position += 2;
                    continue;
                }
                return position + 1;
            }
            position++;
        }
        return position;
    }
}
