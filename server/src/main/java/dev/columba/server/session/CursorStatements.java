package dev.columba.server.session;

import java.util.Locale;

/**
 * PostgreSQL's cursor statements read into {@link Command}s: {@code DECLARE}, {@code FETCH}, {@code MOVE} and
 * {@code CLOSE}. Columba's own dialect has none of them (its {@code DECLARE} would be T-SQL's {@code DECLARE @x},
 * which has an {@code @}), so a statement that starts with one of these words and does not parse as PostgreSQL's
 * form is a syntax error here (42601), not something for Columba.
 */
final class CursorStatements {
    private CursorStatements() {
    }

    /** Rows in {@code ALL}: more than any result holds. */
    static final long ALL = Long.MAX_VALUE;

    /**
     * {@code DECLARE name [BINARY] [ASENSITIVE | INSENSITIVE] [[NO] SCROLL] CURSOR [WITH | WITHOUT HOLD] FOR query},
     * or null when the text is no cursor declaration (T-SQL's {@code DECLARE @x ...}).
     */
    static Command.Declare declare(String sql) {
        Tokens tokens = new Tokens(sql);
        tokens.expectWord("DECLARE");
        if (tokens.peekIsVariable()) {
            return null;
        }
        String name = tokens.name();
        boolean binary = false;
        boolean scroll = false;
        while (true) {
            String word = tokens.word();
            switch (word) {
                case "BINARY" -> binary = true;
                case "ASENSITIVE", "INSENSITIVE" -> {
                    // Columba's results never see changes made after the query started: both hold.
                }
                case "SCROLL" -> scroll = true;
                case "NO" -> tokens.expectWord("SCROLL");
                case "CURSOR" -> {
                    boolean hold = false;
                    String next = tokens.word();
                    if (next.equals("WITH") || next.equals("WITHOUT")) {
                        tokens.expectWord("HOLD");
                        hold = next.equals("WITH");
                        next = tokens.word();
                    }
                    if (!next.equals("FOR")) {
                        throw syntax("FOR", next);
                    }
                    String query = tokens.rest();
                    if (SqlText.isBlank(query)) {
                        throw new WireSqlException("42601", "syntax error: DECLARE CURSOR needs a query after FOR");
                    }
                    return new Command.Declare(name, binary, scroll, hold, query);
                }
                default -> throw syntax("CURSOR", word);
            }
        }
    }

    /**
     * {@code FETCH [direction] [FROM | IN] name} and {@code MOVE} likewise. The direction is one of NEXT, PRIOR,
     * FIRST, LAST, ABSOLUTE n, RELATIVE n, n, ALL, FORWARD [n | ALL], BACKWARD [n | ALL]; all are read here, and the
     * cursor refuses those that would go backwards.
     */
    static Command.Fetch fetch(String sql) {
        Tokens tokens = new Tokens(sql);
        boolean move = tokens.word().equals("MOVE");
        Command.Fetch.Direction direction = Command.Fetch.Direction.FORWARD;
        long count = 1;
        if (tokens.peekIsNumber()) {
            count = tokens.number();
        } else {
            String word = tokens.peekWord();
            switch (word) {
                case "NEXT" -> tokens.word();
                case "PRIOR" -> {
                    tokens.word();
                    count = -1;
                }
                case "FIRST" -> {
                    tokens.word();
                    direction = Command.Fetch.Direction.ABSOLUTE;
                }
                case "LAST" -> {
                    tokens.word();
                    direction = Command.Fetch.Direction.ABSOLUTE;
                    count = -1;
                }
                case "ABSOLUTE", "RELATIVE" -> {
                    tokens.word();
                    direction = word.equals("ABSOLUTE") ? Command.Fetch.Direction.ABSOLUTE : Command.Fetch.Direction.RELATIVE;
                    count = tokens.number();
                }
                case "ALL" -> {
                    tokens.word();
                    count = ALL;
                }
                case "FORWARD", "BACKWARD" -> {
                    tokens.word();
                    long sign = word.equals("FORWARD") ? 1 : -1;
                    if (tokens.peekIsNumber()) {
                        count = sign * tokens.number();
                    } else if (tokens.peekWord().equals("ALL")) {
                        tokens.word();
                        count = sign == 1 ? ALL : -ALL;
                    } else {
                        count = sign;
                    }
                }
                default -> {
                    // No direction: FETCH [FROM | IN] name.
                }
            }
        }
        if (tokens.peekWord().equals("FROM") || tokens.peekWord().equals("IN")) {
            tokens.word();
        }
        String name = tokens.name();
        tokens.expectEnd();
        return new Command.Fetch(name, move, direction, count);
    }

    /** {@code CLOSE name | ALL}. */
    static Command.CloseCursor close(String sql) {
        Tokens tokens = new Tokens(sql);
        tokens.expectWord("CLOSE");
        if (tokens.peekWord().equals("ALL")) {
            tokens.word();
            tokens.expectEnd();
            return new Command.CloseCursor(null);
        }
        String name = tokens.name();
        tokens.expectEnd();
        return new Command.CloseCursor(name);
    }

    private static WireSqlException syntax(String expected, String found) {
        return new WireSqlException("42601", "syntax error: expected " + expected + " but found "
                + (found.isEmpty() ? "the end of the statement" : "\"" + found + "\""));
    }

    /** Words, names and numbers of a cursor statement, comments skipped; a trailing semicolon ends it. */
    private static final class Tokens {
        private final String sql;
        private int position;

        Tokens(String sql) {
            this.sql = sql;
        }

        private void skipSpace() {
            while (position < sql.length()) {
                int skipped = SqlText.skipComment(sql, position);
                if (skipped != position) {
                    position = skipped;
                } else if (Character.isWhitespace(sql.charAt(position))) {
                    position++;
                } else {
                    return;
                }
            }
        }

        private boolean atEnd() {
            skipSpace();
            int end = position;
            while (end < sql.length() && (sql.charAt(end) == ';' || Character.isWhitespace(sql.charAt(end)))) {
                end++;
            }
            return end == sql.length();
        }

        /** The next bare word, upper-cased, consumed; "" when a word does not come next. */
        String word() {
            String word = peekWord();
            if (!word.isEmpty()) {
                skipSpace();
                position += word.length();
            }
            return word;
        }

        String peekWord() {
            skipSpace();
            int end = position;
            while (end < sql.length() && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_')) {
                end++;
            }
            if (end == position || !Character.isLetter(sql.charAt(position)) && sql.charAt(position) != '_') {
                return "";
            }
            return sql.substring(position, end).toUpperCase(Locale.ROOT);
        }

        void expectWord(String expected) {
            String found = word();
            if (!found.equals(expected)) {
                throw syntax(expected, found);
            }
        }

        boolean peekIsVariable() {
            skipSpace();
            return position < sql.length() && sql.charAt(position) == '@';
        }

        boolean peekIsNumber() {
            skipSpace();
            int at = position;
            if (at < sql.length() && (sql.charAt(at) == '-' || sql.charAt(at) == '+')) {
                at++;
            }
            return at < sql.length() && Character.isDigit(sql.charAt(at));
        }

        long number() {
            if (!peekIsNumber()) {
                throw syntax("a number", peekWord());
            }
            int start = position;
            if (sql.charAt(position) == '-' || sql.charAt(position) == '+') {
                position++;
            }
            while (position < sql.length() && Character.isDigit(sql.charAt(position))) {
                position++;
            }
            try {
                return Long.parseLong(sql.substring(start, position));
            } catch (NumberFormatException e) {
                throw new WireSqlException("22003", "count " + sql.substring(start, position) + " is out of range");
            }
        }

        /**
         * A cursor's name: a quoted identifier as written, or a bare one folded to lower case, as PostgreSQL folds
         * identifiers (psycopg quotes the names it sends; psql users mostly do not).
         */
        String name() {
            skipSpace();
            if (position < sql.length() && sql.charAt(position) == '"') {
                StringBuilder name = new StringBuilder();
                int at = position + 1;
                while (at < sql.length()) {
                    char character = sql.charAt(at);
                    if (character == '"') {
                        if (at + 1 < sql.length() && sql.charAt(at + 1) == '"') {
                            name.append('"');
                            at += 2;
                            continue;
                        }
                        position = at + 1;
                        if (name.isEmpty()) {
                            throw new WireSqlException("42601", "zero-length delimited identifier");
                        }
                        return name.toString();
                    }
                    name.append(character);
                    at++;
                }
                throw new WireSqlException("42601", "unterminated quoted identifier");
            }
            String word = word();
            if (word.isEmpty()) {
                throw syntax("a cursor name", position < sql.length() ? String.valueOf(sql.charAt(position)) : "");
            }
            return word.toLowerCase(Locale.ROOT);
        }

        /** The text after what was read, without a trailing semicolon. */
        String rest() {
            String rest = sql.substring(position).strip();
            while (rest.endsWith(";")) {
                rest = rest.substring(0, rest.length() - 1).strip();
            }
            return rest;
        }

        void expectEnd() {
            if (!atEnd()) {
                throw syntax("the end of the statement", sql.substring(position).strip());
            }
        }
    }
}
