package dev.columba.planner.copy;

import dev.columba.columnstore.build.ColumnBatch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import dev.columba.planner.exec.StoreAssignment;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * One column of an imported file bound to the table column it fills ({@link ImportTarget#bind}):
 * writes the file's values into that column of a {@link ColumnBatch}'s row being written. A value
 * whose representation is already the column's — a whole number, date, timestamp or decimal of
 * the column's scale within the column's range, a double into DOUBLE, ASCII text that fits — is
 * stored as it is; anything else goes through {@link StoreAssignment#convert}, which is where
 * every error comes from, so a value is accepted, converted and refused exactly as INSERT would.
 * One per column and reading thread (the UTF-8 decoder is not thread-safe).
 */
public final class ImportedColumn {
    private static final long[] POWERS_OF_TEN = new long[19];
    /** Eight bytes of an array at a time, for the ASCII check. */
    private static final java.lang.invoke.VarHandle LONGS = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
            long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    static {
        POWERS_OF_TEN[0] = 1;
        for (int power = 1; power < POWERS_OF_TEN.length; power++) {
            POWERS_OF_TEN[power] = POWERS_OF_TEN[power - 1] * 10;
        }
    }

    private final FileColumn fileColumn;
    private final SqlType fileType;
    private final Column column;
    private final int target;
    private final String table;
    /** The file's whole-number representation is the column's when it lies in [min, max]. */
    private final boolean sameLongs;
    private final long min;
    private final long max;
    private final boolean doubles;
    /** VARCHAR(n) or CHAR(n): n; otherwise -1. */
    private final int maxLength;
    private final boolean isChar;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);

    ImportedColumn(FileColumn fileColumn, Column column, int target, String table) {
        this.fileColumn = fileColumn;
        this.fileType = fileColumn.type();
        this.column = column;
        this.target = target;
        this.table = table;
        SqlType to = column.type();
        long low = Long.MIN_VALUE;
        long high = Long.MAX_VALUE;
        boolean same = switch (to) {
            case SqlType.BooleanType ignored -> fileType instanceof SqlType.BooleanType;
            case SqlType.IntegerType ignored -> {
                low = Integer.MIN_VALUE;
                high = Integer.MAX_VALUE;
                yield fileType instanceof SqlType.IntegerType || fileType instanceof SqlType.BigintType;
            }
            case SqlType.BigintType ignored -> fileType instanceof SqlType.IntegerType || fileType instanceof SqlType.BigintType;
            case SqlType.DateType ignored -> fileType instanceof SqlType.DateType;
            case SqlType.TimestampType ignored -> fileType instanceof SqlType.TimestampType;
            case SqlType.DecimalType decimal when decimal.precision() <= 18 -> {
                high = POWERS_OF_TEN[decimal.precision()] - 1;
                low = -high;
                yield fileType instanceof SqlType.DecimalType fileDecimal && fileDecimal.scale() == decimal.scale();
            }
            default -> false;
        };
        this.sameLongs = same;
        this.min = low;
        this.max = high;
        this.doubles = to instanceof SqlType.DoubleType && fileType instanceof SqlType.DoubleType;
        this.maxLength = switch (to) {
            case SqlType.VarcharType varchar -> varchar.maxLength();
            case SqlType.CharType character -> character.length();
            default -> -1;
        };
        this.isChar = to instanceof SqlType.CharType;
    }

    /** The file's column. */
    public FileColumn fileColumn() {
        return fileColumn;
    }

    /** The table's column this fills. */
    public Column column() {
        return column;
    }

    /** Its position in the table's schema. */
    public int target() {
        return target;
    }

    public void setNull(ColumnBatch batch) {
        batch.setNull(target);
    }

    /**
     * A value of the file's type held as a whole number: BOOLEAN 0 or 1, INT, BIGINT, DATE (days
     * since the epoch), TIMESTAMP (microseconds since the epoch), DECIMAL (unscaled, at the file's scale).
     */
    public void setLong(ColumnBatch batch, long value) {
        putLong(batch, batch.rows(), value);
    }

    /** A DOUBLE of the file. */
    public void setDouble(ColumnBatch batch, double value) {
        putDouble(batch, batch.rows(), value);
    }

    /**
     * A string of the file as UTF-8 bytes {@code bytes[start, end)}, checked to be UTF-8.
     *
     * @throws ColumbaException BAD_COPY_FILE for bytes that are not UTF-8
     */
    public void setUtf8(ColumnBatch batch, byte[] bytes, int start, int end) {
        putUtf8(batch, batch.rows(), bytes, start, end);
    }

    /** A value of the file's type in its Java representation (see {@link SqlType}), not null. */
    public void setObject(ColumnBatch batch, Object value) {
        putObject(batch, batch.rows(), value);
    }

    // The same for row {@code row} of a batch written a column at a time (ColumnBatch#reserve).

    public void putNull(ColumnBatch batch, int row) {
        batch.putNull(target, row);
    }

    /** As {@link #setLong}, into row {@code row}. */
    public void putLong(ColumnBatch batch, int row, long value) {
        if (sameLongs && value >= min && value <= max) {
            batch.putLong(target, row, value);
        } else {
            putObject(batch, row, switch (fileType) {
                case SqlType.BooleanType ignored -> value != 0;
                case SqlType.IntegerType ignored -> (int) value;
                case SqlType.BigintType ignored -> value;
                case SqlType.DateType ignored -> Values.daysToDate(Math.toIntExact(value));
                case SqlType.TimestampType ignored -> Values.microsToTimestamp(value);
                case SqlType.DecimalType decimal -> BigDecimal.valueOf(value, decimal.scale());
                default -> throw new IllegalStateException("the file's " + fileType.sqlName() + " is not a whole number");
            });
        }
    }

    /** As {@link #setDouble}, into row {@code row}. */
    public void putDouble(ColumnBatch batch, int row, double value) {
        if (doubles) {
            batch.putDouble(target, row, value);
        } else {
            putObject(batch, row, value);
        }
    }

    /** As {@link #setUtf8}, into row {@code row}. */
    public void putUtf8(ColumnBatch batch, int row, byte[] bytes, int start, int end) {
        if (storesAsIs(bytes, start, end)) {
            batch.putBytes(target, row, bytes, start, end);
            return;
        }
        String text;
        try {
            text = decoder.decode(ByteBuffer.wrap(bytes, start, end - start)).toString();
        } catch (CharacterCodingException e) {
            throw new ColumbaException(ErrorCode.BAD_COPY_FILE, "the value is not UTF-8", e);
        }
        putObject(batch, row, text);
    }

    /**
     * True when the string {@code bytes[start, end)} is stored as its bytes, without a check or
     * conversion: ASCII that fits the column. A reader that meets the same string many times (a
     * dictionary's entry) asks once and then calls {@link #putBytesAsIs}.
     */
    public boolean storesAsIs(byte[] bytes, int start, int end) {
        int length = end - start;
        return maxLength >= 0 && (isChar ? length == maxLength : length <= maxLength) && isAscii(bytes, start, end);
    }

    /** Row {@code row} set to {@code bytes[start, end)}, for which {@link #storesAsIs} is true. */
    public void putBytesAsIs(ColumnBatch batch, int row, byte[] bytes, int start, int end) {
        batch.putBytes(target, row, bytes, start, end);
    }

    /** As {@link #setObject}, into row {@code row}. */
    public void putObject(ColumnBatch batch, int row, Object value) {
        batch.putValue(target, row, StoreAssignment.convert(value, fileType, column, table));
    }

    private static boolean isAscii(byte[] bytes, int start, int end) {
        int index = start;
        for (; index + Long.BYTES <= end; index += Long.BYTES) {
            if (((long) LONGS.get(bytes, index) & 0x8080_8080_8080_8080L) != 0) {
                return false;
            }
        }
        for (; index < end; index++) {
            if (bytes[index] < 0) {
                return false;
            }
        }
        return true;
    }
}
