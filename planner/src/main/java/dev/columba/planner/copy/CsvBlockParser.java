package dev.columba.planner.copy;

import dev.columba.columnstore.build.ColumnBatch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.TableSchema;
import dev.columba.planner.exec.StoreAssignment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Parses a run of whole CSV records from a byte array into rows of the table, written column by
 * column into a {@link ColumnBatch} (values converted straight from the bytes, {@link FieldConverter}). The state machine,
 * byte by byte: a field that starts with the quote character is quoted up to the matching quote
 * (a doubled quote, or with a distinct escape character {@code escape x}, stands for {@code x});
 * characters after the closing quote up to the delimiter belong to the field; an unquoted field
 * runs to the delimiter or a line break ({@code \n}, {@code \r\n} or a lone {@code \r}); line
 * breaks inside quotes belong to the field. A blank line is skipped. An unquoted field equal to
 * the NULL text is NULL. Only ASCII bytes have a meaning to the parser, so UTF-8 text passes
 * through whole.
 *
 * <p>A run that ends inside a record (the caller cut a block where the file continues) leaves
 * that record unparsed: {@link ParsedBlock#consumedEnd()} says where it starts. The first bad
 * record ends the run and is kept as the block's failure, with its line relative to the run's
 * start, for the reader to report when it reaches it in file order. One per thread.
 */
final class CsvBlockParser {
    private static final VarHandle LITTLE_ENDIAN_LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long LOW_BITS = 0x0101_0101_0101_0101L;
    private static final long HIGH_BITS = 0x8080_8080_8080_8080L;
    private static final long LINE_FEEDS = LOW_BITS * '\n';
    private static final long CARRIAGE_RETURNS = LOW_BITS * '\r';

    /** The delimiter in every byte of a word. */
    private final long delimiterPattern;
    private final CsvFormat format;
    private final byte delimiter;
    private final byte quote;
    private final byte escape;
    private final TableSchema schema;
    private final String table;
    private final int[] targets;
    private final FieldConverter[] converters;
    /** The table's columns no field goes to: NULL in every row. */
    private final int[] untargeted;
    /** The table's NOT NULL columns in table order. */
    private final int[] notNullColumns;
    /**
     * Whether {@link #plainRecord} may write rows: it never writes NULL, so a NOT NULL column no
     * field goes to (an error for every row) leaves every record to the general path.
     */
    private final boolean plainRecords;
    private int fieldCount;
    private int[] fieldStarts = new int[16];
    private int[] fieldEnds = new int[16];
    private boolean[] fieldQuoted = new boolean[16];
    private boolean[] fieldAscii = new boolean[16];
    private boolean[] fieldInScratch = new boolean[16];
    private byte[] scratch = new byte[256];
    private int scratchLength;
    private int recordBreaks;

    /** {@code targets[field]} is the column of the table the record's field goes to. */
    CsvBlockParser(CsvFormat format, TableSchema schema, String table, int[] targets) {
        this(format, schema, table, targets, true);
    }

    /** As above; {@code plainRecords} false leaves every record to the general path (tests compare both). */
    CsvBlockParser(CsvFormat format, TableSchema schema, String table, int[] targets, boolean plainRecords) {
        this.format = format;
        this.delimiter = format.delimiter();
        this.delimiterPattern = LOW_BITS * (format.delimiter() & 0xFF);
        this.quote = format.quote();
        this.escape = format.escape();
        this.schema = schema;
        this.table = table;
        this.targets = targets.clone();
        this.converters = new FieldConverter[targets.length];
        for (int field = 0; field < targets.length; field++) {
            converters[field] = new FieldConverter(schema.column(targets[field]), table);
        }
        boolean[] targeted = new boolean[schema.size()];
        for (int target : targets) {
            targeted[target] = true;
        }
        this.untargeted = java.util.stream.IntStream.range(0, schema.size()).filter(column -> !targeted[column])
                .toArray();
        this.notNullColumns = java.util.stream.IntStream.range(0, schema.size())
                .filter(column -> !schema.column(column).nullable()).toArray();
        this.plainRecords = plainRecords && targets.length > 0
                && java.util.Arrays.stream(untargeted).allMatch(column -> schema.column(column).nullable());
    }

    /** A record's position and its fields as text: the header. */
    record Header(int end, int lineBreaks, List<String> names) {
    }

    /**
     * The first record of {@code data[start, end)} as text, or null if the bytes end inside it
     * while the file goes on ({@code !atEof}).
     *
     * @throws ColumbaException INVALID_ARGUMENT for a quote not closed before the end of the file
     *         or bytes that are not UTF-8, with the line relative to {@code start}
     */
    Header header(byte[] data, int start, int end, boolean atEof) {
        int position = start;
        int breaks = 0;
        while (position < end && (data[position] == '\n' || data[position] == '\r')) {
            position = skipLineBreak(data, position, end);
            breaks++;
        }
        int next = scanRecord(data, position, end, atEof);
        if (next < 0) {
            return null;
        }
        List<String> names = new ArrayList<>(fieldCount);
        for (int field = 0; field < fieldCount; field++) {
            byte[] source = fieldInScratch[field] ? scratch : data;
            names.add(converters.length > 0 ? converters[0].text(source, fieldStarts[field], fieldEnds[field],
                    fieldAscii[field]) : new String(source, fieldStarts[field], fieldEnds[field] - fieldStarts[field],
                    java.nio.charset.StandardCharsets.UTF_8));
        }
        return new Header(next, breaks + recordBreaks, names);
    }

    /** Parses the records of {@code data[start, end)}; {@code atEof}: the file ends at {@code end}. */
    ParsedBlock parse(byte[] data, int start, int end, boolean atEof) {
        return parse(data, start, end, atEof, null);
    }

    /**
     * As {@link #parse(byte[], int, int, boolean)}, into {@code recycled}'s batch and line array
     * (emptied first) if not null: a block read row by row is done with once the reader moves past
     * it, and a new batch per block (a few MB of fresh arrays) was most of a rowstore load's garbage.
     */
    ParsedBlock parse(byte[] data, int start, int end, boolean atEof, ParsedBlock recycled) {
        ColumnBatch batch;
        int[] lines;
        if (recycled != null) {
            batch = recycled.batch();
            batch.clear();
            lines = recycled.rowLines();
        } else {
            // Room for records of 96 bytes on average: typical rows never grow the batch.
            int expectedRows = Math.max(16, (end - start) / 96);
            batch = new ColumnBatch(schema, expectedRows);
            lines = new int[expectedRows];
        }
        int position = start;
        int breaks = 0;
        while (position < end) {
            byte first = data[position];
            if (first == '\n' || first == '\r') {
                position = skipLineBreak(data, position, end);
                breaks++;
                continue;
            }
            int recordLine = breaks;
            int next = plainRecords ? plainRecord(data, position, end, batch) : -1;
            if (next < 0) {
                try {
                    next = scanRecord(data, position, end, atEof);
                } catch (LineFailure failure) {
                    return new ParsedBlock(batch, lines, position, breaks, recordLine + failure.lineOffset, failure.error);
                }
                if (next < 0) {
                    break;
                }
                try {
                    writeRow(data, batch);
                } catch (ColumbaException error) {
                    return new ParsedBlock(batch, lines, position, breaks, recordLine, error);
                }
            }
            int row = batch.rows();
            if (row == lines.length) {
                lines = Arrays.copyOf(lines, lines.length * 2);
            }
            lines[row] = recordLine;
            batch.commitRow();
            breaks += recordBreaks;
            position = next;
        }
        return new ParsedBlock(batch, lines, position, breaks, 0, null);
    }

    /**
     * Where the unquoted field at {@code position} stops: the first delimiter, {@code \n} or
     * {@code \r}, or {@code end}; as {@code -stop - 1} when a byte before it is not ASCII. Eight
     * bytes at a time (SWAR) while a whole word is left, then byte by byte.
     */
    static int scanUnquoted(byte[] data, int position, int end, byte delimiter, long delimiterPattern) {
        long highBits = 0;
        while (position <= end - Long.BYTES) {
            long word = (long) LITTLE_ENDIAN_LONGS.get(data, position);
            long stops = bytesEqual(word, delimiterPattern) | bytesEqual(word, LINE_FEEDS)
                    | bytesEqual(word, CARRIAGE_RETURNS);
            if (stops != 0) {
                int before = Long.numberOfTrailingZeros(stops) >>> 3;
                highBits |= before == 0 ? 0 : word & (-1L >>> (Long.SIZE - Byte.SIZE * before));
                position += before;
                return (highBits & HIGH_BITS) == 0 ? position : -position - 1;
            }
            highBits |= word;
            position += Long.BYTES;
        }
        boolean ascii = (highBits & HIGH_BITS) == 0;
        while (position < end) {
            byte b = data[position];
            if (b == delimiter || b == '\n' || b == '\r') {
                break;
            }
            ascii &= b >= 0;
            position++;
        }
        return ascii ? position : -position - 1;
    }

    /**
     * A word whose lowest set bit is the high bit of the first (lowest-addressed, little-endian)
     * byte of {@code word} equal to the byte of {@code pattern}, 0 if none is: the classic
     * has-zero-byte test on {@code word ^ pattern}, exact for the first such byte (a borrow may set
     * bits above it, which the caller ignores).
     */
    private static long bytesEqual(long word, long pattern) {
        long zeroWhereEqual = word ^ pattern;
        return (zeroWhereEqual - LOW_BITS) & ~zeroWhereEqual & HIGH_BITS;
    }

    /**
     * The fast path of {@link #parse}: the record at {@code position} written as the batch's row
     * being written in one pass, each field scanned and converted at once
     * ({@link FieldConverter#convertUnquoted}), when it is a plain one — every field unquoted, none
     * the NULL text, each of a shape the converters read straight from the bytes, as many fields as
     * expected, ended by a line break inside {@code data}. Returns the position after the line
     * break, or -1 when the record is anything else: then the general path ({@link #scanRecord},
     * {@link #writeRow}) parses it again from the start and writes every column of the row anew,
     * and it alone decides what is accepted and every error, so both paths build the same rows.
     */
    private int plainRecord(byte[] data, int position, int end, ColumnBatch batch) {
        int last = converters.length - 1;
        for (int field = 0; field <= last; field++) {
            if (position >= end || data[position] == quote) {
                return -1;
            }
            int stop = converters[field].convertUnquoted(batch, targets[field], data, position, end, delimiter,
                    delimiterPattern);
            if (stop < 0 || stop >= end || format.isNull(data, position, stop)) {
                return -1;
            }
            byte terminator = data[stop];
            if (field < last ? terminator != delimiter : terminator != '\n' && terminator != '\r') {
                return -1;
            }
            position = stop + 1;
        }
        if (data[position - 1] == '\r') {
            if (position >= end) {
                return -1; // a \r\n may be cut in two: the general path knows whether the file goes on
            }
            if (data[position] == '\n') {
                position++;
            }
        }
        for (int column : untargeted) {
            batch.setNull(column);
        }
        recordBreaks = 1;
        return position;
    }

    private static int skipLineBreak(byte[] data, int position, int end) {
        if (data[position] == '\r' && position + 1 < end && data[position + 1] == '\n') {
            return position + 2;
        }
        return position + 1;
    }

    /**
     * The scanned record as the row being written of {@code batch} (not committed); the message of
     * a failure starts where the line number ends.
     */
    private void writeRow(byte[] data, ColumnBatch batch) {
        if (fieldCount != targets.length) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, " has " + fieldCount + " field"
                    + (fieldCount == 1 ? "" : "s") + ", expected " + targets.length);
        }
        for (int column : untargeted) {
            batch.setNull(column);
        }
        for (int field = 0; field < fieldCount; field++) {
            byte[] source = fieldInScratch[field] ? scratch : data;
            int fieldStart = fieldStarts[field];
            int fieldEnd = fieldEnds[field];
            if (!fieldQuoted[field] && format.isNull(source, fieldStart, fieldEnd)) {
                batch.setNull(targets[field]);
                continue;
            }
            try {
                converters[field].convertInto(batch, targets[field], source, fieldStart, fieldEnd, fieldAscii[field]);
            } catch (ColumbaException e) {
                throw new ColumbaException(e.errorCode(), ", column " + schema.column(targets[field]).name() + ": "
                        + e.detail(), e);
            }
        }
        // As StoreAssignment.checkNotNull: the first NOT NULL column, in table order, left NULL.
        for (int column : notNullColumns) {
            if (batch.isNullInRow(column)) {
                ColumbaException e = StoreAssignment.nullNotAllowed(schema.column(column), table, "COPY");
                throw new ColumbaException(e.errorCode(), ": " + e.detail(), e);
            }
        }
    }

    /**
     * Scans one record starting at {@code position} into the field arrays; returns the position
     * after its line break (or {@code end} at the end of the file), or -1 if {@code end} comes
     * first and the file goes on. Counts the record's line breaks in {@link #recordBreaks}.
     */
    private int scanRecord(byte[] data, int position, int end, boolean atEof) {
        fieldCount = 0;
        scratchLength = 0;
        recordBreaks = 0;
        while (true) {
            if (fieldCount == fieldStarts.length) {
                growFields();
            }
            int field = fieldCount;
            if (position < end && data[position] == quote) {
                position = scanQuoted(data, position, end, atEof, field);
                if (position < 0) {
                    return -1;
                }
            } else {
                int fieldStart = position;
                int stop = scanUnquoted(data, position, end, delimiter, delimiterPattern);
                boolean ascii = stop >= 0;
                position = ascii ? stop : -stop - 1;
                if (position >= end && !atEof) {
                    return -1;
                }
                fieldStarts[field] = fieldStart;
                fieldEnds[field] = position;
                fieldQuoted[field] = false;
                fieldAscii[field] = ascii;
                fieldInScratch[field] = false;
            }
            fieldCount++;
            if (position >= end) {
                return end;
            }
            byte terminator = data[position];
            if (terminator == delimiter) {
                position++;
                continue;
            }
            recordBreaks++;
            return skipLineBreak(data, position, end);
        }
    }

    /**
     * Scans the quoted field at {@code position} (its opening quote) and what follows it up to the
     * delimiter or line break; returns where that stops, or -1 if the bytes end first and the file
     * goes on. The field is {@code data}'s bytes unless it held an escape, then a copy in scratch.
     */
    private int scanQuoted(byte[] data, int position, int end, boolean atEof, int field) {
        int quoteLine = recordBreaks;
        position++;
        int fieldStart = position;
        boolean copying = false;
        int copyStart = 0;
        boolean ascii = true;
        while (true) {
            if (position >= end) {
                if (atEof) {
                    throw new LineFailure(quoteLine, new ColumbaException(ErrorCode.INVALID_ARGUMENT,
                            ": the quoted field that starts here is not closed before the end of the file"));
                }
                return -1;
            }
            byte b = data[position];
            if (b == quote && (escape != quote || position + 1 >= end || data[position + 1] != quote)) {
                if (escape == quote && position + 1 >= end && !atEof) {
                    return -1; // a doubled quote may be cut in two
                }
                break;
            }
            if (b == escape) {
                if (position + 1 >= end) {
                    if (atEof) {
                        throw new LineFailure(quoteLine, new ColumbaException(ErrorCode.INVALID_ARGUMENT,
                                ": the quoted field that starts here is not closed before the end of the file"));
                    }
                    return -1;
                }
                if (!copying) {
                    copying = true;
                    copyStart = scratchLength;
                    appendScratch(data, fieldStart, position - fieldStart);
                }
                position++;
                b = data[position];
            } else if (b == '\n' || b == '\r' && (position + 1 >= end || data[position + 1] != '\n')) {
                recordBreaks++;
            }
            ascii &= b >= 0;
            if (copying) {
                appendScratch(b);
            }
            position++;
        }
        int quotedEnd = position;
        position++; // the closing quote
        if (position < end && data[position] != delimiter && data[position] != '\n' && data[position] != '\r') {
            // Characters after the closing quote belong to the field, as they would unquoted.
            if (!copying) {
                copying = true;
                copyStart = scratchLength;
                appendScratch(data, fieldStart, quotedEnd - fieldStart);
            }
            while (position < end && data[position] != delimiter && data[position] != '\n' && data[position] != '\r') {
                ascii &= data[position] >= 0;
                appendScratch(data[position]);
                position++;
            }
        }
        if (position >= end && !atEof) {
            return -1;
        }
        fieldQuoted[field] = true;
        fieldAscii[field] = ascii;
        fieldInScratch[field] = copying;
        fieldStarts[field] = copying ? copyStart : fieldStart;
        fieldEnds[field] = copying ? scratchLength : quotedEnd;
        return position;
    }

    private void appendScratch(byte[] source, int start, int length) {
        ensureScratch(length);
        System.arraycopy(source, start, scratch, scratchLength, length);
        scratchLength += length;
    }

    private void appendScratch(byte b) {
        ensureScratch(1);
        scratch[scratchLength++] = b;
    }

    private void ensureScratch(int more) {
        if (scratchLength + more > scratch.length) {
            scratch = Arrays.copyOf(scratch, Math.max(scratch.length * 2, scratchLength + more));
        }
    }

    private void growFields() {
        int size = fieldStarts.length * 2;
        fieldStarts = Arrays.copyOf(fieldStarts, size);
        fieldEnds = Arrays.copyOf(fieldEnds, size);
        fieldQuoted = Arrays.copyOf(fieldQuoted, size);
        fieldAscii = Arrays.copyOf(fieldAscii, size);
        fieldInScratch = Arrays.copyOf(fieldInScratch, size);
    }

    /** A failure inside a record, {@code lineOffset} line breaks after the record's first line. */
    private static final class LineFailure extends RuntimeException {
        private final int lineOffset;
        private final ColumbaException error;

        LineFailure(int lineOffset, ColumbaException error) {
            super(error.getMessage(), null, false, false);
            this.lineOffset = lineOffset;
            this.error = error;
        }
    }
}
