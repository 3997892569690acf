package dev.columba.server.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The items of a catalog query's outermost select list, each as its expression (whitespace collapsed, lower case
 * outside quotes, so clients' layout does not matter) and its output name (the alias, else the last name of the
 * expression, as PostgreSQL names a column).
 */
record SelectList(List<Item> items) {
    SelectList {
        items = List.copyOf(items);
    }

    record Item(String expression, String name) {
    }

    /** The select list of {@code sql}, which starts with SELECT. */
    static SelectList of(String sql) {
        String text = sql.strip();
        int start = skipWord(text, 0, "select");
        int end = topLevelWord(text, start, "from");
        String list = text.substring(start, end < 0 ? text.length() : end).strip();
        if (list.endsWith(";")) {
            list = list.substring(0, list.length() - 1);
        }
        List<Item> items = new ArrayList<>();
        for (String part : splitTopLevel(list)) {
            items.add(item(part.strip()));
        }
        return new SelectList(items);
    }

    private static Item item(String part) {
        int as = lastTopLevelAs(part);
        String expression = as < 0 ? part : part.substring(0, as).strip();
        String name;
        if (as >= 0) {
            name = unquote(part.substring(as + 3).strip());
        } else {
            String last = expression;
            int dot = last.lastIndexOf('.');
            if (dot >= 0 && !last.endsWith(")")) {
                last = last.substring(dot + 1);
            }
            name = last.endsWith(")") ? last.substring(0, Math.max(0, last.indexOf('('))) : unquote(last);
            int innerDot = name.lastIndexOf('.');
            name = innerDot >= 0 ? name.substring(innerDot + 1) : name;
        }
        return new Item(normalize(expression), name);
    }

    private static String unquote(String name) {
        if (name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"")) {
            return name.substring(1, name.length() - 1).replace("\"\"", "\"");
        }
        return name.toLowerCase(Locale.ROOT);
    }

    /** Whitespace collapsed to one space, removed inside parentheses' edges, lower case outside quotes. */
    static String normalize(String expression) {
        StringBuilder out = new StringBuilder(expression.length());
        boolean space = false;
        for (int position = 0; position < expression.length(); position++) {
            char character = expression.charAt(position);
            if (character == '\'' || character == '"') {
                int end = quotedEnd(expression, position);
                if (space && !out.isEmpty()) {
                    out.append(' ');
                }
                space = false;
                out.append(expression, position, end);
                position = end - 1;
            } else if (Character.isWhitespace(character)) {
                space = true;
            } else {
                char last = out.isEmpty() ? ' ' : out.charAt(out.length() - 1);
                if (space && last != '(' && character != ')' && !out.isEmpty()) {
                    out.append(' ');
                }
                space = false;
                out.append(Character.toLowerCase(character));
            }
        }
        return out.toString();
    }

    /** The items of a comma-separated list, split at commas outside parentheses and quotes. */
    static List<String> splitTopLevel(String list) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int from = 0;
        for (int position = 0; position < list.length(); position++) {
            char character = list.charAt(position);
            if (character == '\'' || character == '"') {
                position = quotedEnd(list, position) - 1;
            } else if (character == '(' || character == '[') {
                depth++;
            } else if (character == ')' || character == ']') {
                depth--;
            } else if (character == ',' && depth == 0) {
                parts.add(list.substring(from, position));
                from = position + 1;
            }
        }
        parts.add(list.substring(from));
        return parts;
    }

    /** The position of {@code word} (a keyword, any case) outside parentheses and quotes from {@code from}, or -1. */
    static int topLevelWord(String text, int from, String word) {
        int depth = 0;
        for (int position = from; position < text.length(); position++) {
            char character = text.charAt(position);
            if (character == '\'' || character == '"') {
                position = quotedEnd(text, position) - 1;
            } else if (character == '(') {
                depth++;
            } else if (character == ')') {
                depth--;
            } else if (depth == 0 && isWordAt(text, position, word)) {
                return position;
            }
        }
        return -1;
    }

    private static int lastTopLevelAs(String part) {
        int found = -1;
        int depth = 0;
        for (int position = 0; position < part.length(); position++) {
            char character = part.charAt(position);
            if (character == '\'' || character == '"') {
                position = quotedEnd(part, position) - 1;
            } else if (character == '(') {
                depth++;
            } else if (character == ')') {
                depth--;
            } else if (depth == 0 && isWordAt(part, position, "as")) {
                found = position;
            }
        }
        return found;
    }

    private static boolean isWordAt(String text, int position, String word) {
        int end = position + word.length();
        return end <= text.length() && text.regionMatches(true, position, word, 0, word.length())
                && (position == 0 || !isNamePart(text.charAt(position - 1)))
                && (end == text.length() || !isNamePart(text.charAt(end)));
    }

    /** A character that continues a name; a closing quote does not, so {@code "PK_NAME"FROM} has the word FROM. */
    private static boolean isNamePart(char character) {
        return Character.isLetterOrDigit(character) || character == '_' || character == '.';
    }

    private static int skipWord(String text, int from, String word) {
        return isWordAt(text, from, word) ? from + word.length() : from;
    }

    /** The position after the quoted text starting at {@code start} (a doubled quote stays inside). */
    static int quotedEnd(String text, int start) {
        char quote = text.charAt(start);
        int position = start + 1;
        while (position < text.length()) {
            if (text.charAt(position) == quote) {
                if (position + 1 < text.length() && text.charAt(position + 1) == quote) {
                    position += 2;
                    continue;
                }
                return position + 1;
            }
            position++;
        }
        return text.length();
    }
}
