package dev.columba.cli.inspect;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A small table printed with aligned columns: numbers right-aligned, text left-aligned, the last
 * column unpadded. For summaries that fit in memory; long listings stream with fixed widths instead.
 */
final class TextTable {
    private final String indent;
    private final String[] headers;
    private final List<Object[]> rows = new ArrayList<>();

    TextTable(String indent, String... headers) {
        this.indent = indent;
        this.headers = headers;
    }

    TextTable row(Object... cells) {
        if (cells.length != headers.length) {
            throw new IllegalArgumentException("row of " + cells.length + " cells in a table of " + headers.length + " columns");
        }
        rows.add(cells);
        return this;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    int columnCount() {
        return headers.length;
    }

    void print(PrintStream out) {
        int[] widths = new int[headers.length];
        boolean[] numeric = new boolean[headers.length];
        for (int column = 0; column < headers.length; column++) {
            widths[column] = headers[column].length();
            numeric[column] = !rows.isEmpty();
            for (Object[] row : rows) {
                widths[column] = Math.max(widths[column], text(row[column]).length());
                numeric[column] &= row[column] instanceof Number || row[column] == null;
            }
        }
        out.println(line(headers, widths, numeric));
        for (Object[] row : rows) {
            out.println(line(row, widths, numeric));
        }
    }

    private String line(Object[] cells, int[] widths, boolean[] numeric) {
        StringBuilder line = new StringBuilder(indent);
        for (int column = 0; column < cells.length; column++) {
            String text = text(cells[column]);
            boolean last = column == cells.length - 1;
            if (numeric[column]) {
                line.append(" ".repeat(widths[column] - text.length())).append(text);
            } else {
                line.append(text);
                if (!last) {
                    line.append(" ".repeat(widths[column] - text.length()));
                }
            }
            if (!last) {
                line.append("  ");
            }
        }
        return line.toString().stripTrailing();
    }

    private static String text(Object cell) {
        return cell == null ? "" : cell.toString();
    }
}
