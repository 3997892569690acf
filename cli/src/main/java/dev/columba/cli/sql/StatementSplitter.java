package dev.columba.cli.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts typed or scripted text into statements: a statement ends at a {@code ;} outside string
 * literals, quoted or bracketed identifiers and comments, or at a line holding only {@code GO}
 * (SQL Server's batch separator). Fed line by line; keeps the unfinished tail between lines.
 */
final class StatementSplitter {
    private final StringBuilder pending = new StringBuilder();
    /** The quote or comment the pending text is inside at its end: 0, '\'', '"', ']', '*' (block comment). */
    private char open;

    /** Adds one line; returns the statements it completed, trimmed, empty ones dropped. */
    List<String> add(String line) {
        List<String> complete = new ArrayList<>();
        if (open == 0 && line.strip().equalsIgnoreCase("GO")) {
            flush(complete);
            return complete;
        }
        for (int index = 0; index < line.length(); index++) {
            char character = line.charAt(index);
            char next = index + 1 < line.length() ? line.charAt(index + 1) : 0;
            switch (open) {
                case 0 -> {
                    if (character == '-' && next == '-') {
                        pending.append(line, index, line.length());
                        index = line.length();
                        continue;
                    }
                    if (character == '/' && next == '*') {
                        open = '*';
                        pending.append("/*");
                        index++;
                        continue;
                    }
                    if (character == ';') {
                        flush(complete);
                        continue;
                    }
                    if (character == '\'' || character == '"') {
                        open = character;
                    } else if (character == '[') {
                        open = ']';
                    }
                }
                case '*' -> {
                    if (character == '*' && next == '/') {
                        open = 0;
                        pending.append("*/");
                        index++;
                        continue;
                    }
                }
                default -> {
                    // A doubled quote inside a literal is the quote itself and does not close it.
                    if (character == open) {
                        if (next == open) {
                            pending.append(character).append(next);
                            index++;
                            continue;
                        }
                        open = 0;
                    }
                }
            }
            pending.append(character);
        }
        pending.append('\n');
        return complete;
    }

    /** True while a statement is unfinished (the shell shows a continuation prompt). */
    boolean inStatement() {
        return !pending.toString().isBlank();
    }

    /** The unfinished rest at the end of input, as a last statement (or none). */
    List<String> finish() {
        List<String> complete = new ArrayList<>();
        flush(complete);
        return complete;
    }

    private void flush(List<String> complete) {
        String statement = pending.toString().strip();
        pending.setLength(0);
        open = 0;
        if (!statement.isEmpty() && !onlyComments(statement)) {
            complete.add(statement);
        }
    }

    private static boolean onlyComments(String statement) {
        String withoutBlock = statement.replaceAll("(?s)/\\*.*?\\*/", "");
        return withoutBlock.lines().map(String::strip).allMatch(line -> line.isEmpty() || line.startsWith("--"));
    }
}
