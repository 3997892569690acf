package dev.columba.server.session;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A {@code COPY ... FROM STDIN} or {@code COPY ... TO STDOUT}: the rows travel in the protocol's
 * CopyData messages instead of a file. What Columba runs is its own COPY of a file (in) or the query
 * (out); this holds what the server needs to get there: the target or source as written, and the
 * options in PostgreSQL's two spellings, {@code [WITH] (FORMAT csv, HEADER, ...)} and the older
 * {@code [WITH] CSV HEADER DELIMITER ','}.
 *
 * @param in        true for FROM STDIN, false for TO STDOUT
 * @param target    the text between COPY and FROM/TO: a table with an optional column list, or
 *                  {@code (query)} (TO only)
 * @param csv       FORMAT csv; otherwise PostgreSQL's text format (binary is refused)
 * @param delimiter the field separator: tab in text format, comma in CSV unless given
 * @param nullText  the text of a NULL: {@code \N} in text format, empty in CSV unless given
 * @param header    whether the first line names the columns (skipped in, written out)
 * @param quote     CSV's quote character
 * @param escape    CSV's escape character (the quote unless given)
 */
record WireCopy(boolean in, String target, boolean csv, char delimiter, String nullText, boolean header,
                char quote, char escape) {

    /**
     * The COPY of {@code sql} if it reads STDIN or writes STDOUT, else null (a COPY of a file is
     * Columba's own statement).
     *
     * @throws WireSqlException 42601 for options this cannot read, 0A000 for FORMAT binary and
     *         options Columba does not have
     */
    static WireCopy of(String sql) {
        List<Token> tokens = Token.scan(sql);
        if (tokens.isEmpty() || !tokens.getFirst().isWord("COPY")) {
            return null;
        }
        int depth = 0;
        for (int index = 1; index + 1 < tokens.size(); index++) {
            Token token = tokens.get(index);
            if (token.text().equals("(")) {
                depth++;
            } else if (token.text().equals(")")) {
                depth--;
            } else if (depth == 0 && (token.isWord("FROM") || token.isWord("TO"))) {
                Token next = tokens.get(index + 1);
                boolean in = token.isWord("FROM");
                if (!(in ? next.isWord("STDIN") : next.isWord("STDOUT"))) {
                    return null;
                }
                String target = sql.substring(tokens.get(1).start(), token.start()).strip();
                if (target.isEmpty()) {
                    throw new WireSqlException("42601", "COPY names no table");
                }
                if (in && target.startsWith("(")) {
                    throw new WireSqlException("42601", "COPY FROM STDIN loads a table, not a query");
                }
                return withOptions(in, target, tokens.subList(index + 2, tokens.size()));
            }
        }
        return null;
    }

    private static WireCopy withOptions(boolean in, String target, List<Token> tokens) {
        Options options = new Options();
        int index = 0;
        if (index < tokens.size() && tokens.get(index).isWord("WITH")) {
            index++;
        }
        if (index < tokens.size() && tokens.get(index).text().equals("(")) {
            index = options.readList(tokens, index + 1);
        } else {
            index = options.readLegacy(tokens, index);
        }
        if (index < tokens.size() && tokens.get(index).text().equals(";")) {
            index++;
        }
        if (index < tokens.size()) {
            throw new WireSqlException("42601", "syntax error in COPY at \"" + tokens.get(index).text() + "\"");
        }
        return options.copy(in, target);
    }

    /** The SQL that gives COPY TO STDOUT's rows: the query as written, or the table's columns. */
    String query() {
        if (target.startsWith("(")) {
            return target.substring(1, target.lastIndexOf(')')).strip();
        }
        int columns = target.indexOf('(');
        if (columns < 0) {
            return "SELECT * FROM " + target;
        }
        return "SELECT " + target.substring(columns + 1, target.lastIndexOf(')')) + " FROM " + target.substring(0, columns);
    }

    /** The options as they are read, then checked together. */
    private static final class Options {
        String format;
        Character delimiter;
        String nullText;
        boolean header;
        Character quote;
        Character escape;

        /** {@code name [value], ...)}: PostgreSQL 9.0's form. Returns the index after the closing parenthesis. */
        int readList(List<Token> tokens, int index) {
            while (true) {
                if (index >= tokens.size()) {
                    throw new WireSqlException("42601", "COPY's option list is not closed");
                }
                Token name = tokens.get(index++);
                if (!name.isWordToken()) {
                    throw new WireSqlException("42601", "syntax error in COPY's options at \"" + name.text() + "\"");
                }
                String value = null;
                if (index < tokens.size() && !tokens.get(index).text().equals(",") && !tokens.get(index).text().equals(")")) {
                    value = tokens.get(index++).value();
                }
                set(name.text().toLowerCase(Locale.ROOT), value);
                if (index >= tokens.size()) {
                    throw new WireSqlException("42601", "COPY's option list is not closed");
                }
                String separator = tokens.get(index++).text();
                if (separator.equals(")")) {
                    return index;
                }
                if (!separator.equals(",")) {
                    throw new WireSqlException("42601", "syntax error in COPY's options at \"" + separator + "\"");
                }
            }
        }

        /** {@code [BINARY] [DELIMITER [AS] 'c'] [NULL [AS] 'text'] [CSV [HEADER] [QUOTE [AS] 'q'] [ESCAPE [AS] 'e']]}. */
        int readLegacy(List<Token> tokens, int index) {
            while (index < tokens.size() && tokens.get(index).isWordToken()) {
                String word = tokens.get(index++).text().toLowerCase(Locale.ROOT);
                switch (word) {
                    case "binary" -> set("format", "binary");
                    case "csv" -> set("format", "csv");
                    case "header" -> header = true;
                    case "delimiter", "null", "quote", "escape" -> {
                        if (index < tokens.size() && tokens.get(index).isWord("AS")) {
                            index++;
                        }
                        if (index >= tokens.size() || !tokens.get(index).quoted()) {
                            throw new WireSqlException("42601", "COPY " + word.toUpperCase(Locale.ROOT)
                                    + " needs a quoted value");
                        }
                        set(word, tokens.get(index++).value());
                    }
                    default -> throw new WireSqlException("0A000", "COPY option " + word.toUpperCase(Locale.ROOT)
                            + " is not supported over the wire");
                }
            }
            return index;
        }

        void set(String name, String value) {
            switch (name) {
                case "format" -> format = value == null ? "" : value.toLowerCase(Locale.ROOT);
                case "delimiter" -> delimiter = character(name, value);
                case "null" -> nullText = required(name, value);
                case "header" -> header = value == null || switch (value.toLowerCase(Locale.ROOT)) {
                    case "true", "on", "1" -> true;
                    case "false", "off", "0" -> false;
                    default -> throw new WireSqlException("22023", "COPY HEADER takes a Boolean, not " + value);
                };
                case "quote" -> quote = character(name, value);
                case "escape" -> escape = character(name, value);
                case "encoding" -> {
                    String encoding = required(name, value).replace("-", "").toUpperCase(Locale.ROOT);
                    if (!encoding.equals("UTF8") && !encoding.equals("UNICODE")) {
                        throw new WireSqlException("0A000", "COPY ENCODING " + value
                                + " is not supported over the wire: the server speaks UTF8 only");
                    }
                }
                default -> throw new WireSqlException("0A000", "COPY option " + name.toUpperCase(Locale.ROOT)
                        + " is not supported over the wire; it takes FORMAT, DELIMITER, NULL, HEADER, QUOTE, ESCAPE"
                        + " and ENCODING 'UTF8'");
            }
        }

        WireCopy copy(boolean in, String target) {
            boolean csv;
            switch (format == null ? "text" : format) {
                case "text" -> csv = false;
                case "csv" -> csv = true;
                case "binary" -> throw new WireSqlException("0A000", "COPY's binary format is not supported; use text or csv");
                default -> throw new WireSqlException("22023", "COPY format \"" + format + "\" is not recognized");
            }
            if (!csv && (quote != null || escape != null)) {
                throw new WireSqlException("22023", "COPY QUOTE and ESCAPE are available only in CSV mode");
            }
            char separator = delimiter != null ? delimiter : csv ? ',' : '\t';
            char quoteCharacter = quote != null ? quote : '"';
            String nullValue = nullText != null ? nullText : csv ? "" : "\\N";
            if (separator == '\n' || separator == '\r' || (!csv && separator == '\\')) {
                throw new WireSqlException("22023", "COPY delimiter cannot be a line break or backslash");
            }
            if (csv && separator == quoteCharacter) {
                throw new WireSqlException("22023", "COPY delimiter and quote must be different");
            }
            if (nullValue.indexOf(separator) >= 0 || nullValue.indexOf('\n') >= 0 || nullValue.indexOf('\r') >= 0) {
                throw new WireSqlException("22023", "COPY NULL must not hold the delimiter or a line break");
            }
            return new WireCopy(in, target, csv, separator, nullValue, header, quoteCharacter,
                    escape != null ? escape : quoteCharacter);
        }

        private static char character(String name, String value) {
            String text = required(name, value);
            if (text.length() != 1 || text.charAt(0) > 0x7f) {
                throw new WireSqlException("22023", "COPY " + name.toUpperCase(Locale.ROOT)
                        + " must be a single one-byte character, not '" + text + "'");
            }
            return text.charAt(0);
        }

        private static String required(String name, String value) {
            if (value == null) {
                throw new WireSqlException("42601", "COPY " + name.toUpperCase(Locale.ROOT) + " needs a value");
            }
            return value;
        }
    }

    /**
     * One token of a COPY statement: a word, a quoted identifier, a string literal (also {@code E'...'}
     * with backslash escapes), or one character of punctuation.
     *
     * @param value the word, the identifier, or the literal's value
     */
    private record Token(String text, int start, String value, Kind kind) {
        enum Kind { WORD, IDENTIFIER, STRING, PUNCTUATION }

        boolean isWord(String word) {
            return kind == Kind.WORD && text.equalsIgnoreCase(word);
        }

        boolean isWordToken() {
            return kind == Kind.WORD || kind == Kind.IDENTIFIER;
        }

        boolean quoted() {
            return kind == Kind.STRING;
        }

        static List<Token> scan(String sql) {
            List<Token> tokens = new ArrayList<>();
            int position = 0;
            while (position < sql.length()) {
                char character = sql.charAt(position);
                int afterComment = SqlText.skipComment(sql, position);
                if (afterComment != position) {
                    position = afterComment;
                } else if (Character.isWhitespace(character)) {
                    position++;
                } else if ((character == 'E' || character == 'e') && position + 1 < sql.length()
                        && sql.charAt(position + 1) == '\'') {
                    position = string(sql, position, position + 1, true, tokens);
                } else if (character == '\'') {
                    position = string(sql, position, position, false, tokens);
                } else if (character == '"') {
                    int end = position + 1;
                    StringBuilder name = new StringBuilder();
                    while (end < sql.length()) {
                        if (sql.charAt(end) == '"') {
                            if (end + 1 < sql.length() && sql.charAt(end + 1) == '"') {
                                name.append('"');
                                end += 2;
                                continue;
                            }
                            break;
                        }
                        name.append(sql.charAt(end++));
                    }
                    tokens.add(new Token(sql.substring(position, Math.min(end + 1, sql.length())), position,
                            name.toString(), Kind.IDENTIFIER));
                    position = end + 1;
                } else if (Character.isLetterOrDigit(character) || character == '_' || character == '$') {
                    int end = position;
                    while (end < sql.length() && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_'
                            || sql.charAt(end) == '$' || sql.charAt(end) == '.')) {
                        end++;
                    }
                    String word = sql.substring(position, end);
                    tokens.add(new Token(word, position, word, Kind.WORD));
                    position = end;
                } else {
                    tokens.add(new Token(String.valueOf(character), position, String.valueOf(character), Kind.PUNCTUATION));
                    position++;
                }
            }
            return tokens;
        }

        /** Reads the literal opening at {@code quote}; E'' literals take backslash escapes. */
        private static int string(String sql, int start, int quote, boolean escapes, List<Token> tokens) {
            StringBuilder value = new StringBuilder();
            int position = quote + 1;
            while (position < sql.length()) {
                char character = sql.charAt(position);
                if (character == '\'') {
                    if (position + 1 < sql.length() && sql.charAt(position + 1) == '\'') {
                        value.append('\'');
                        position += 2;
                        continue;
                    }
                    break;
                }
                if (escapes && character == '\\' && position + 1 < sql.length()) {
                    char escaped = sql.charAt(position + 1);
                    value.append(switch (escaped) {
                        case 't' -> '\t';
                        case 'n' -> '\n';
                        case 'r' -> '\r';
                        case 'b' -> '\b';
                        case 'f' -> '\f';
                        default -> escaped;
                    });
                    position += 2;
                    continue;
                }
                value.append(character);
                position++;
            }
            if (position >= sql.length()) {
                throw new WireSqlException("42601", "unterminated quoted string in COPY");
            }
            tokens.add(new Token(sql.substring(start, position + 1), start, value.toString(), Kind.STRING));
            return position + 1;
        }
    }
}
