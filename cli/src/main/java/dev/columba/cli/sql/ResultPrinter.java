package dev.columba.cli.sql;

import java.io.PrintStream;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints a result set as an aligned table followed by its row count, or as CSV or JSON
 * ({@code \pset format}). Column widths come from the
 * first {@value #SAMPLE} rows; later rows are streamed with the same widths, so a large result is
 * never held in memory. A value wider than {@value #MAX_WIDTH} characters is cut with an ellipsis,
 * except in the last column, which nothing follows (an EXPLAIN's plan lines are whole). In expanded
 * mode ({@code \x}) each row is a block of {@code column | value} lines and no value is cut. NULL
 * prints as {@code NULL}. CSV is RFC 4180's (a header line, a NULL an empty field, no row count, as psql's
 * {@code --csv}); JSON is an array with one object a row on a line of its own, numbers and booleans as
 * such, NULL as {@code null}.
 */
final class ResultPrinter {
    static final int SAMPLE = 1000;
    static final int MAX_WIDTH = 80;

    /** How results are printed. */
    enum Format { ALIGNED, CSV, JSON }

    private PrintStream out;
    private boolean expanded;
    private Format format = Format.ALIGNED;

    ResultPrinter(PrintStream out) {
        this.out = out;
    }

    /** Where results go from now on ({@code \o}). */
    void output(PrintStream out) {
        this.out = out;
    }

    PrintStream output() {
        return out;
    }

    void format(Format format) {
        this.format = format;
    }

    /** Switches expanded mode; returns whether it is now on. */
    boolean toggleExpanded() {
        expanded = !expanded;
        return expanded;
    }

    /** Prints {@code resultSet}, all columns or only the {@code columns} named. */
    void print(ResultSet resultSet, List<String> columns) throws SQLException {
        ResultSetMetaData metadata = resultSet.getMetaData();
        List<Integer> shown = new ArrayList<>();
        if (columns == null) {
            for (int column = 1; column <= metadata.getColumnCount(); column++) {
                shown.add(column);
            }
        } else {
            for (String name : columns) {
                shown.add(resultSet.findColumn(name));
            }
        }
        int count = shown.size();
        if (format == Format.CSV) {
            printCsv(resultSet, metadata, shown);
            return;
        }
        if (format == Format.JSON) {
            printJson(resultSet, metadata, shown);
            return;
        }
        if (expanded) {
            printExpanded(resultSet, metadata, shown);
            return;
        }
        String[] headers = new String[count];
        boolean[] right = new boolean[count];
        int[] widths = new int[count];
        for (int index = 0; index < count; index++) {
            headers[index] = metadata.getColumnLabel(shown.get(index));
            right[index] = numeric(metadata.getColumnType(shown.get(index)));
            widths[index] = Math.min(MAX_WIDTH, headers[index].length());
        }
        List<String[]> sample = new ArrayList<>();
        boolean more = true;
        while (sample.size() < SAMPLE && (more = resultSet.next())) {
            String[] row = row(resultSet, shown);
            for (int index = 0; index < count; index++) {
                widths[index] = Math.max(widths[index], Math.min(MAX_WIDTH, row[index].length()));
            }
            sample.add(row);
        }
        line(headers, widths, new boolean[count]);
        StringBuilder rule = new StringBuilder();
        for (int index = 0; index < count; index++) {
            rule.append(index == 0 ? "" : "-+-").append("-".repeat(widths[index]));
        }
        out.println(rule);
        long rows = 0;
        for (String[] row : sample) {
            line(row, widths, right);
            rows++;
        }
        if (more && sample.size() == SAMPLE) {
            while (resultSet.next()) {
                line(row(resultSet, shown), widths, right);
                rows++;
            }
        }
        out.println("(" + rows + (rows == 1 ? " row)" : " rows)"));
    }

    private void printExpanded(ResultSet resultSet, ResultSetMetaData metadata, List<Integer> shown) throws SQLException {
        String[] headers = new String[shown.size()];
        int width = 0;
        for (int index = 0; index < headers.length; index++) {
            headers[index] = metadata.getColumnLabel(shown.get(index));
            width = Math.max(width, headers[index].length());
        }
        long rows = 0;
        while (resultSet.next()) {
            String[] row = row(resultSet, shown);
            rows++;
            out.println("-[ RECORD " + rows + " ]" + "-".repeat(Math.max(1, width - 8)));
            for (int index = 0; index < row.length; index++) {
                out.println((headers[index] + " ".repeat(width - headers[index].length()) + " | " + row[index]).stripTrailing());
            }
        }
        out.println("(" + rows + (rows == 1 ? " row)" : " rows)"));
    }

    private void printCsv(ResultSet resultSet, ResultSetMetaData metadata, List<Integer> shown) throws SQLException {
        StringBuilder line = new StringBuilder();
        for (int index = 0; index < shown.size(); index++) {
            line.append(index == 0 ? "" : ",").append(csv(metadata.getColumnLabel(shown.get(index))));
        }
        out.println(line);
        while (resultSet.next()) {
            line.setLength(0);
            for (int index = 0; index < shown.size(); index++) {
                Object value = resultSet.getObject(shown.get(index));
                line.append(index == 0 ? "" : ",").append(value == null ? "" : csv(text(value)));
            }
            out.println(line);
        }
    }

    /** A CSV field, quoted when it holds a comma, a quote, a line break or nothing (an empty string is not NULL). */
    private static String csv(String value) {
        if (value.isEmpty() || value.indexOf(',') >= 0 || value.indexOf('"') >= 0 || value.indexOf('\n') >= 0
                || value.indexOf('\r') >= 0) {
            return '"' + value.replace("\"", "\"\"") + '"';
        }
        return value;
    }

    private void printJson(ResultSet resultSet, ResultSetMetaData metadata, List<Integer> shown) throws SQLException {
        String[] names = new String[shown.size()];
        for (int index = 0; index < names.length; index++) {
            names[index] = json(metadata.getColumnLabel(shown.get(index)));
        }
        out.println("[");
        boolean first = true;
        StringBuilder line = new StringBuilder();
        while (resultSet.next()) {
            line.setLength(0);
            line.append(first ? "" : ",\n").append('{');
            for (int index = 0; index < names.length; index++) {
                Object value = resultSet.getObject(shown.get(index));
                line.append(index == 0 ? "" : ",").append(names[index]).append(':');
                if (value == null) {
                    line.append("null");
                } else if (value instanceof Boolean || (value instanceof Number number && finite(number))) {
                    line.append(text(value));
                } else {
                    line.append(json(text(value)));
                }
            }
            out.print(line.append('}'));
            first = false;
        }
        out.println(first ? "]" : "\n]");
    }

    /** Whether a number can be written as a JSON number (NaN and the infinities cannot). */
    private static boolean finite(Number number) {
        return !(number instanceof Double d && !Double.isFinite(d)) && !(number instanceof Float f && !Float.isFinite(f));
    }

    private static String json(String value) {
        StringBuilder quoted = new StringBuilder(value.length() + 2).append('"');
        for (int index = 0; index < value.length(); index++) {
            char c = value.charAt(index);
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\r' -> quoted.append("\\r");
                case '\t' -> quoted.append("\\t");
                default -> {
                    if (c < 0x20) {
                        quoted.append(String.format("\\u%04x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }

    /** A value's text: a BigDecimal without an exponent, anything else by its toString. */
    private static String text(Object value) {
        return value instanceof java.math.BigDecimal decimal ? decimal.toPlainString() : value.toString();
    }

    private static String[] row(ResultSet resultSet, List<Integer> shown) throws SQLException {
        String[] values = new String[shown.size()];
        for (int index = 0; index < values.length; index++) {
            Object value = resultSet.getObject(shown.get(index));
            values[index] = value == null ? "NULL" : value.toString();
        }
        return values;
    }

    private void line(String[] values, int[] widths, boolean[] right) {
        StringBuilder text = new StringBuilder();
        for (int index = 0; index < values.length; index++) {
            String value = values[index].replace('\n', ' ');
            boolean last = index == values.length - 1;
            if (value.length() > widths[index] && !last) {
                value = value.substring(0, widths[index] - 1) + "…";
            }
            String padding = " ".repeat(Math.max(0, widths[index] - value.length()));
            text.append(index == 0 ? "" : " | ").append(right[index] ? padding + value : value + padding);
        }
        out.println(text.toString().stripTrailing());
    }

    private static boolean numeric(int type) {
        return switch (type) {
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.REAL, Types.FLOAT, Types.DOUBLE,
                 Types.DECIMAL, Types.NUMERIC -> true;
            default -> false;
        };
    }
}
