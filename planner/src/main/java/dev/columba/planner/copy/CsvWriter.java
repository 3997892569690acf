package dev.columba.planner.copy;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.Evaluator;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Writes rows as CSV in a {@link CsvFormat}, the way {@link CsvReader} reads them back: a value
 * in its SQL text form (as CAST to VARCHAR writes it), NULL as the NULL text unquoted, and a
 * field quoted when it holds the delimiter, the quote, the escape, a line break, or would
 * otherwise read as NULL (an empty string with {@code NULL ''}); inside quotes the quote (and a
 * distinct escape character) is escaped. The rows go to a temporary file beside the target,
 * synced and renamed over it when {@link #commit} is called, so a failed export leaves no half
 * file. One thread.
 */
public final class CsvWriter implements AutoCloseable {
    private static final SqlType TEXT = SqlType.varchar(SqlType.VarcharType.MAX_LENGTH);

    private final Path target;
    private final Path temporary;
    private final String fileName;
    private final TableSchema schema;
    private final String nullText;
    private final char delimiter;
    private final char quote;
    private final char escape;
    private final FileChannel channel;
    private final BufferedWriter writer;
    private final StringBuilder line = new StringBuilder();
    private boolean committed;

    /**
     * Creates the temporary file and writes the header if the format has one.
     *
     * @throws ColumbaException IO_ERROR if the file cannot be written
     */
    public CsvWriter(Path target, String fileName, CsvFormat format, TableSchema schema) {
        this.target = target;
        this.fileName = fileName;
        this.temporary = target.resolveSibling(target.getFileName() + ".columba-copy.tmp");
        this.schema = schema;
        this.nullText = new String(format.nullText(), StandardCharsets.UTF_8);
        this.delimiter = (char) format.delimiter();
        this.quote = (char) format.quote();
        this.escape = (char) format.escape();
        try {
            this.channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot write " + fileName + ": " + e.getMessage(), e);
        }
        this.writer = new BufferedWriter(new OutputStreamWriter(Channels.newOutputStream(channel),
                StandardCharsets.UTF_8), 1 << 16);
        if (format.header()) {
            for (int column = 0; column < schema.size(); column++) {
                if (column > 0) {
                    line.append(delimiter);
                }
                appendText(schema.column(column).name());
            }
            endLine();
        }
    }

    /** Writes one row, values in the schema's order. */
    public void write(Object[] row) {
        for (int column = 0; column < schema.size(); column++) {
            if (column > 0) {
                line.append(delimiter);
            }
            Object value = row[column];
            if (value == null) {
                line.append(nullText);
            } else if (value instanceof String text) {
                appendText(text);
            } else {
                appendText((String) Evaluator.cast(value, schema.column(column).type(), TEXT));
            }
        }
        endLine();
    }

    /** Syncs the file and puts it in the target's place. */
    public void commit() {
        try {
            writer.flush();
            channel.force(true);
            channel.close();
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            committed = true;
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot write " + fileName + ": " + e.getMessage(), e);
        }
    }

    /** Without {@link #commit}: removes the temporary file, leaving the target as it was. */
    @Override
    public void close() {
        if (committed) {
            return;
        }
        try {
            channel.close();
            Files.deleteIfExists(temporary);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot remove " + temporary + ": " + e.getMessage(), e);
        }
    }

    private void appendText(String text) {
        boolean quoted = text.equals(nullText);
        for (int index = 0; index < text.length() && !quoted; index++) {
            char c = text.charAt(index);
            quoted = c == delimiter || c == quote || c == escape || c == '\n' || c == '\r';
        }
        if (!quoted) {
            line.append(text);
            return;
        }
        line.append(quote);
        for (int index = 0; index < text.length(); index++) {
            char c = text.charAt(index);
            if (c == quote || (c == escape && escape != quote)) {
                line.append(escape);
            }
            line.append(c);
        }
        line.append(quote);
    }

    private void endLine() {
        line.append('\n');
        try {
            writer.append(line);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot write " + fileName + ": " + e.getMessage(), e);
        }
        line.setLength(0);
    }
}
