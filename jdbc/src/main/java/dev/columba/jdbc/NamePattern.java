package dev.columba.jdbc;

import java.util.regex.Pattern;

/**
 * A JDBC metadata search pattern: {@code %} matches any run of characters, {@code _} any one,
 * {@code \} escapes either; null matches everything. Names match ignoring case, as Columba resolves
 * identifiers.
 */
final class NamePattern {
    /** The escape {@link java.sql.DatabaseMetaData#getSearchStringEscape()} reports. */
    static final String ESCAPE = "\\";

    private final Pattern regex;

    private NamePattern(Pattern regex) {
        this.regex = regex;
    }

    static NamePattern of(String pattern) {
        if (pattern == null) {
            return new NamePattern(null);
        }
        StringBuilder regex = new StringBuilder();
        for (int index = 0; index < pattern.length(); index++) {
            char character = pattern.charAt(index);
            if (character == '\\' && index + 1 < pattern.length()) {
                index++;
                regex.append(Pattern.quote(String.valueOf(pattern.charAt(index))));
            } else if (character == '%') {
                regex.append(".*");
            } else if (character == '_') {
                regex.append('.');
            } else {
                regex.append(Pattern.quote(String.valueOf(character)));
            }
        }
        return new NamePattern(Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.DOTALL));
    }

    /** Whether {@code name} matches; a null name (no schema, no catalog) is matched as the empty string. */
    boolean matches(String name) {
        return regex == null || regex.matcher(name == null ? "" : name).matches();
    }
}
