package dev.columba.planner.session;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.TableSchema;
import dev.columba.planner.copy.CopyFileFormat;
import dev.columba.planner.copy.CopyFileFormats;
import dev.columba.planner.copy.CopyOptions;
import dev.columba.planner.copy.ExportWriter;
import dev.columba.planner.copy.CsvWriter;
import dev.columba.planner.copy.Transcoding;
import dev.columba.planner.parser.SqlCopy;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code COPY table [(columns)] TO 'file'} and {@code COPY (query) TO 'file'}: the rows of the
 * table (as {@code SELECT columns FROM table}) or of the query, planned and run as any query of
 * the session, written as CSV ({@link CsvWriter}) in the format the options describe (the same
 * options as COPY FROM; MAXDOP has no effect here), or as Parquet or Arrow IPC
 * ({@link CopyFileFormat}). The file appears whole or not at all.
 */
final class CopyToCommand {
    private final Session session;

    CopyToCommand(Session session) {
        this.session = session;
    }

    StatementResult execute(SqlCopy copy) {
        CopyOptions options = CopyOptions.of(copy.options(), 1, copy.file());
        Path file;
        try {
            file = Path.of(copy.file());
        } catch (InvalidPathException e) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "COPY TO: '" + copy.file().replace("\0", "\\0")
                    + "' is not a file name: " + e.getReason());
        }
        SqlNode query = copy.query().orElseGet(() -> selectFrom(copy.table(), copy.columns()));
        StatementResult result = session.execute(query, List.of(), null);
        if (!(result instanceof StatementResult.Rows rows)) {
            result.close();
            throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "COPY (...) TO needs a query that returns rows");
        }
        if (options.fileFormat() != CopyOptions.FileFormat.CSV) {
            return exportFile(CopyFileFormats.of(options.fileFormat()), file, rows);
        }
        long written = 0;
        // Another encoding than UTF-8 is written through a UTF-8 copy (Transcoding).
        boolean transcoded = !options.encoding().equals(java.nio.charset.StandardCharsets.UTF_8);
        Path utf8 = transcoded ? Transcoding.temporary(session.database().directory()
                .resolve(dev.columba.storage.db.DatabaseLayout.TEMP_DIRECTORY), file.toString()) : file;
        try (rows; CsvWriter writer = new CsvWriter(utf8, file.toString(), options.format(), rows.schema())) {
            TableSchema schema = rows.schema();
            Object[] row = new Object[schema.size()];
            Batch batch;
            while ((batch = rows.next()) != null) {
                for (int live = 0; live < batch.selectedCount(); live++) {
                    int position = batch.selectedRow(live);
                    for (int column = 0; column < row.length; column++) {
                        row[column] = VectorValues.get(batch.column(column), position, schema.column(column).type());
                    }
                    writer.write(row);
                    written++;
                }
            }
            writer.commit();
            if (transcoded) {
                Transcoding.fromUtf8(utf8, file, file.toString(), options.encoding());
            }
        } finally {
            if (transcoded) {
                Transcoding.deleteQuietly(utf8);
            }
        }
        return new StatementResult.Update(written, List.of(String.format(Locale.ROOT, "COPY %d", written)),
                StatementStatistics.NONE);
    }

    /** The rows as a Parquet or Arrow file, batch by batch as execution hands them over. */
    private StatementResult exportFile(CopyFileFormat format, Path file, StatementResult.Rows rows) {
        long written = 0;
        try (rows; BufferAllocator allocator = session.engine().memory().child("COPY TO", Long.MAX_VALUE);
             ExportWriter writer = format.create(file, file.toString(), rows.schema(), allocator)) {
            Batch batch;
            while ((batch = rows.next()) != null) {
                writer.write(batch);
                written += batch.selectedCount();
            }
            writer.commit();
        }
        return new StatementResult.Update(written, List.of(String.format(Locale.ROOT, "COPY %d", written)),
                StatementStatistics.NONE);
    }

    /** {@code SELECT columns FROM table}, or {@code SELECT *} without columns. */
    private static SqlNode selectFrom(SqlIdentifier table, List<SqlIdentifier> columns) {
        SqlParserPos position = table.getParserPosition();
        SqlNodeList selectList = columns.isEmpty() ? SqlNodeList.of(SqlIdentifier.star(position))
                : new SqlNodeList(columns, position);
        return new SqlSelect(position, null, selectList, table, null, null, null, null, null, null, null, null);
    }
}
