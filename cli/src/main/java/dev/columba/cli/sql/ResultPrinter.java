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
 * first {@value #SAMPLE} rows; later rows are streamed with the same widths (longer values cut with
 * an ellipsis), so a large result is never held in memory. NULL prints as {@code NULL}.
 */
final class ResultPrinter {
    static final int SAMPLE = 1000;
    static final int MAX_WIDTH = 80;

    private final PrintStream out;

    ResultPrinter(PrintStream out) {
        this.out = out;
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
            if (value.length() > widths[index]) {
                value = value.substring(0, widths[index] - 1) + "…";
            }
            String padding = " ".repeat(widths[index] - value.length());
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
