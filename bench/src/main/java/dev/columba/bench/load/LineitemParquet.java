package dev.columba.bench.load;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * TPC-H lineitem as one Parquet file, beside {@link LineitemCsv}'s CSV file and made from it once by
 * DuckDB (its JDBC driver, in this JVM): the CSV loaded into a DuckDB table of the generator's
 * schema, then {@code COPY ... TO (FORMAT parquet)} with DuckDB's defaults (SNAPPY pages, row groups
 * of 122,880 rows). So the file is a Parquet file as a common writer makes it, not Columba's own,
 * and both engines of the suite read the very same file.
 */
public final class LineitemParquet {
    private LineitemParquet() {
    }

    /** The file and its size. */
    public record Description(Path file, long bytes) {
    }

    /** The Parquet file of {@code csv}: reused if there, written otherwise (progress on {@code progress}). */
    public static Description prepare(LineitemCsv.Description csv, PrintStream progress) {
        Path file = csv.file().resolveSibling("lineitem.parquet");
        try {
            if (!Files.isRegularFile(file) || Files.getLastModifiedTime(file).compareTo(Files.getLastModifiedTime(csv.file())) < 0) {
                progress.printf(Locale.ROOT, "bench: writing %s from %s with DuckDB%n", file, csv.file());
                Path temporary = file.resolveSibling("lineitem.parquet.tmp");
                List<String> columns = new ArrayList<>();
                for (Column column : csv.schema().columns()) {
                    columns.add(column.name() + " " + column.type().sqlName() + (column.nullable() ? "" : " NOT NULL"));
                }
                try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:");
                     Statement statement = duckdb.createStatement()) {
                    statement.execute("CREATE TABLE lineitem (" + String.join(", ", columns) + ")");
                    statement.execute("COPY lineitem FROM '" + quoted(csv.file()) + "' (HEADER)");
                    statement.execute("COPY lineitem TO '" + quoted(temporary) + "' (FORMAT parquet)");
                }
                Files.move(temporary, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            return new Description(file, Files.size(file));
        } catch (IOException | SQLException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static String quoted(Path path) {
        return path.toAbsolutePath().toString().replace("'", "''");
    }
}
