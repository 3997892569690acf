package dev.columba.bench.load;

import dev.columba.bench.harness.PreparedDatabase;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.TableSchema;
import dev.columba.datagen.RowCursor;
import dev.columba.datagen.TpchGenerator;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * TPC-H lineitem at one scale factor as a CSV file, the load suite's input: dbgen's rows
 * ({@link TpchGenerator}), a header line of the column names, comma-separated, a field quoted (its
 * quotes doubled) only when it holds a comma, a quote or a line break, as DuckDB and PostgreSQL
 * export. Written once to {@code <dataDirectory>/load-sf<scale>/lineitem.csv} and reused
 * ({@link PreparedDatabase}).
 */
public final class LineitemCsv {
    /** Changes whenever the file's shape changes, so that older files are written again. */
    static final String SHAPE = "load-csv-v1";
    static final String FILE = "lineitem.csv";

    private LineitemCsv() {
    }

    /** The prepared file, its rows and bytes. */
    public record Description(Path file, double scaleFactor, long rows, long bytes, TableSchema schema) {
    }

    /**
     * The file at {@code scaleFactor} under {@code dataDirectory}: reused if a previous run wrote it,
     * written otherwise (progress on {@code progress}).
     */
    public static Description prepare(Path dataDirectory, double scaleFactor, PrintStream progress) {
        TpchGenerator generator = TpchGenerator.of(TpchGenerator.Table.LINEITEM, scaleFactor);
        String scale = scaleText(scaleFactor);
        PreparedDatabase prepared = PreparedDatabase.in(dataDirectory, "load-sf" + scale);
        Map<String, String> identity = Map.of("shape", SHAPE, "scaleFactor", scale);
        Path file = prepared.directory().resolve(FILE);
        if (prepared.reusable(identity) == null || !Files.isRegularFile(file)) {
            prepared.startLoad(identity);
            progress.printf(Locale.ROOT, "bench: writing TPC-H lineitem at scale factor %s (%,d rows) to %s%n", scale,
                    generator.rowCount(), file);
            write(generator, file);
            prepared.finishLoad(identity, new Properties(), "TPC-H lineitem at scale factor " + scale + " as CSV");
        }
        try {
            return new Description(file, scaleFactor, generator.rowCount(), Files.size(file), generator.schema());
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot read the size of " + file + ": " + e.getMessage(), e);
        }
    }

    /** The scale factor as written in directory names and reports: {@code 1}, {@code 0.1}. */
    public static String scaleText(double scaleFactor) {
        return BigDecimal.valueOf(scaleFactor).stripTrailingZeros().toPlainString();
    }

    private static void write(TpchGenerator generator, Path file) {
        try {
            Files.createDirectories(file.getParent());
            try (BufferedWriter writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                TableSchema schema = generator.schema();
                StringBuilder line = new StringBuilder();
                for (int columnIndex = 0; columnIndex < schema.size(); columnIndex++) {
                    line.append(columnIndex == 0 ? "" : ",").append(schema.column(columnIndex).name());
                }
                writer.append(line).append('\n');
                RowCursor cursor = generator.cursor();
                while (cursor.next()) {
                    line.setLength(0);
                    Object[] row = cursor.row();
                    for (int columnIndex = 0; columnIndex < row.length; columnIndex++) {
                        if (columnIndex > 0) {
                            line.append(',');
                        }
                        switch (row[columnIndex]) {
                            case String text -> appendText(line, text);
                            case BigDecimal decimal -> line.append(decimal.toPlainString());
                            case Object value -> line.append(value);
                        }
                    }
                    writer.append(line).append('\n');
                }
            }
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static void appendText(StringBuilder line, String text) {
        boolean quote = text.indexOf(',') >= 0 || text.indexOf('"') >= 0 || text.indexOf('\n') >= 0
                || text.indexOf('\r') >= 0;
        if (quote) {
            line.append('"').append(text.replace("\"", "\"\"")).append('"');
        } else {
            line.append(text);
        }
    }
}
