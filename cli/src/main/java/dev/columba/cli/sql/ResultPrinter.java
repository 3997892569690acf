package dev.columba.cli.sql;

import java.io.PrintStream;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints a result set as an aligned table followed by its row count. Column widths come from the
 * first {@value #SAMPLE} rows; later rows are streamed with the same widths, so a large result is
 * never held in memory. A value wider than {@value #MAX_WIDTH} characters is cut with an ellipsis,
 * except in the last column, which nothing follows (an EXPLAIN's plan lines are whole). In expanded
 * mode ({@code \x}) each row is a block of {@code column | value} lines and no value is cut. NULL
 * prints as {@code NULL}.
 */
final class ResultPrinter {
    static final int SAMPLE = 1000;
    static final int MAX_WIDTH = 80;

    private final PrintStream out;
    private boolean expanded;

    ResultPrinter(PrintStream out) {
        this.out = out;
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
