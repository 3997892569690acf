package dev.columba.integration.tpch;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The few spellings of Columba's SQL Server-flavoured dialect that DuckDB writes differently, so
 * both engines run one text per query: bracket-quoted identifiers become double-quoted.
 */
final class DuckDbDialect {
    private static final Pattern BRACKETED = Pattern.compile("\\[([A-Za-z_][A-Za-z0-9_]*)]");

    private DuckDbDialect() {
    }

    static String translate(String sql) {
        Matcher matcher = BRACKETED.matcher(sql);
        return matcher.replaceAll("\"$1\"");
    }
}
