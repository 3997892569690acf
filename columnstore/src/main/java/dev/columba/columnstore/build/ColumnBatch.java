package dev.columba.columnstore.build;

import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import dev.columba.storage.row.RowColumns;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;

/**
 * Rows of a table held column by column in primitive arrays, the hand-over of a bulk load from
 * its parser to the {@link RowgroupBuilder} ({@link RowgroupBuilder#addBatch}): no object per row
 * or per value. Each column has one of four layouts, decided by its type:
 * <ul>
 *   <li>{@link Layout#LONG}: BOOLEAN (0 or 1), INT, BIGINT, DATE (days since the epoch),
 *       TIMESTAMP (microseconds since the epoch), DECIMAL of precision at most 18 (the unscaled
 *       value at the column's scale) — a {@code long[]};</li>
 *   <li>{@link Layout#DOUBLE}: DOUBLE — a {@code double[]};</li>
 *   <li>{@link Layout#BYTES}: VARCHAR and CHAR — the values' UTF-8 bytes back to back in one
 *       {@code byte[]}, value {@code i} ending at {@code ends[i]} and starting where value
 *       {@code i - 1} ends;</li>
 *   <li>{@link Layout#OBJECT}: DECIMAL of precision above 18 — its Java value ({@link BigDecimal}).</li>
 * </ul>
 * Values are stored in their column's canonical form, as store assignment made them (a DECIMAL at
 * its scale, a CHAR blank-padded to its length). NULL is a flag per value.
 *
 * <p>Written one row at a time: every column of row {@link #rows()} is set, then
 * {@link #commitRow()} makes it part of the batch; a row left uncommitted (its record turned out
 * bad) is overwritten by the next. Or a column at a time, as a columnar file decodes: after
 * {@link #reserve} the {@code put} methods set row {@code rows() + k} of one column (a BYTES
 * column's rows in ascending order, since its values lie back to back), and
 * {@link #commitRows} makes the rows written part of the batch. Owned by one thread at a time:
 * written by a parser, then read by the builder.
 *
 * <p>A rowstore load reads it as {@link RowColumns}: the rowstore's codecs encode each row from
 * these arrays, without {@link #row}'s Java object per value.
 */
public final class ColumnBatch implements RowColumns {
    /** How a column's values are held. */
    public enum Layout { LONG, DOUBLE, BYTES, OBJECT }

    private final TableSchema schema;
    private final Layout[] layouts;
    private final long[][] longs;
    private final double[][] doubles;
    private final byte[][] bytes;
    private final int[][] ends;
    private final Object[][] objects;
    private final boolean[][] nulls;
    /** Per column: some committed or uncommitted row is NULL (rows without are copied without a check). */
    private final boolean[] mayHaveNulls;
    private int capacity;
    private int rows;

    public ColumnBatch(TableSchema schema, int initialCapacity) {
        this.schema = schema;
        int columns = schema.size();
        this.capacity = Math.max(16, initialCapacity);
        this.layouts = new Layout[columns];
        this.longs = new long[columns][];
        this.doubles = new double[columns][];
        this.bytes = new byte[columns][];
        this.ends = new int[columns][];
        this.objects = new Object[columns][];
        this.nulls = new boolean[columns][];
        this.mayHaveNulls = new boolean[columns];
        for (int column = 0; column < columns; column++) {
            Layout layout = layoutOf(schema.column(column).type());
            layouts[column] = layout;
            switch (layout) {
                case LONG -> longs[column] = new long[capacity];
                case DOUBLE -> doubles[column] = new double[capacity];
                case BYTES -> {
                    bytes[column] = new byte[capacity * 16];
                    ends[column] = new int[capacity];
                }
                case OBJECT -> objects[column] = new Object[capacity];
            }
            nulls[column] = new boolean[capacity];
        }
    }

    /** The layout of a column of {@code type}. */
    public static Layout layoutOf(SqlType type) {
        return switch (type) {
            case SqlType.BooleanType ignored -> Layout.LONG;
            case SqlType.IntegerType ignored -> Layout.LONG;
            case SqlType.BigintType ignored -> Layout.LONG;
            case SqlType.DateType ignored -> Layout.LONG;
            case SqlType.TimestampType ignored -> Layout.LONG;
            case SqlType.DecimalType decimal -> decimal.precision() <= 18 ? Layout.LONG : Layout.OBJECT;
            case SqlType.DoubleType ignored -> Layout.DOUBLE;
            case SqlType.VarcharType ignored -> Layout.BYTES;
            case SqlType.CharType ignored -> Layout.BYTES;
            // Binary strings and UUIDs are rare in bulk loads: their Java values, as wide decimals.
            case SqlType.VarbinaryType ignored -> Layout.OBJECT;
            case SqlType.BinaryType ignored -> Layout.OBJECT;
            case SqlType.UuidType ignored -> Layout.OBJECT;
        };
    }

    public TableSchema schema() {
        return schema;
    }

    /** Committed rows. */
    public int rows() {
        return rows;
    }

    public Layout layout(int column) {
        return layouts[column];
    }

    // ---- Writing row rows() ---------------------------------------------------------------------

    /** Sets a LONG column of the row being written. */
    public void setLong(int column, long value) {
        putLong(column, rows, value);
    }

    /** Sets a DOUBLE column of the row being written. */
    public void setDouble(int column, double value) {
        putDouble(column, rows, value);
    }

    /** Sets a BYTES column of the row being written to the UTF-8 bytes {@code source[start, end)}. */
    public void setBytes(int column, byte[] source, int start, int end) {
        putBytes(column, rows, source, start, end);
    }

    /** Sets a column of the row being written to NULL. */
    public void setNull(int column) {
        putNull(column, rows);
    }

    /**
     * Sets a column of the row being written to {@code value}, a Java value of its type in
     * canonical form (the representation of {@link SqlType}), or null.
     */
    public void setValue(int column, Object value) {
        putValue(column, rows, value);
    }

    // ---- Writing a column at a time ---------------------------------------------------------------

    /** Makes room for rows {@code [rows(), rows() + count)} to be written with the {@code put} methods. */
    public void reserve(int count) {
        // One spare row: commitRow grows the arrays when its row reaches the capacity.
        while ((long) rows + count >= capacity) {
            grow();
        }
    }

    /** Sets row {@code row} (at least {@link #rows()}, below the reserved rows) of a LONG column. */
    public void putLong(int column, int row, long value) {
        longs[column][row] = value;
        nulls[column][row] = false;
    }

    /** Sets row {@code row} of a DOUBLE column. */
    public void putDouble(int column, int row, double value) {
        doubles[column][row] = value;
        nulls[column][row] = false;
    }

    /**
     * Sets row {@code row} of a BYTES column to the UTF-8 bytes {@code source[start, end)}; row
     * {@code row - 1} of the column, if written, is already set (the bytes follow its bytes).
     */
    public void putBytes(int column, int row, byte[] source, int start, int end) {
        int length = end - start;
        int from = valueStart(column, row);
        byte[] data = bytes[column];
        if (from + length > data.length) {
            data = Arrays.copyOf(data, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(2L * data.length,
                    (long) from + length)));
            bytes[column] = data;
        }
        System.arraycopy(source, start, data, from, length);
        ends[column][row] = from + length;
        nulls[column][row] = false;
    }

    /** Sets row {@code row} of a column to NULL. */
    public void putNull(int column, int row) {
        nulls[column][row] = true;
        mayHaveNulls[column] = true;
        if (layouts[column] == Layout.BYTES) {
            ends[column][row] = valueStart(column, row);
        } else if (layouts[column] == Layout.OBJECT) {
            objects[column][row] = null;
        }
    }

    /** Sets row {@code row} of a column to a Java value in canonical form, or null (see {@link #setValue}). */
    public void putValue(int column, int row, Object value) {
        if (value == null) {
            putNull(column, row);
            return;
        }
        SqlType type = schema.column(column).type();
        switch (layouts[column]) {
            case LONG -> putLong(column, row, switch (type) {
                case SqlType.BooleanType ignored -> (Boolean) value ? 1 : 0;
                case SqlType.IntegerType ignored -> (Integer) value;
                case SqlType.BigintType ignored -> (Long) value;
                case SqlType.DateType ignored -> Values.dateToDays((LocalDate) value);
                case SqlType.TimestampType ignored -> Values.timestampToMicros((LocalDateTime) value);
                case SqlType.DecimalType decimal -> ((BigDecimal) Values.canonical(decimal, value)).unscaledValue()
                        .longValueExact();
                default -> throw new IllegalStateException("no LONG layout for " + type.sqlName());
            });
            case DOUBLE -> putDouble(column, row, (Double) value);
            case BYTES -> {
                byte[] utf8 = ((String) value).getBytes(StandardCharsets.UTF_8);
                putBytes(column, row, utf8, 0, utf8.length);
            }
            case OBJECT -> {
                objects[column][row] = Values.canonical(type, value);
                nulls[column][row] = false;
            }
        }
    }

    /** True when row {@code row} of a column, committed or written, is NULL. */
    @Override
    public boolean isNull(int column, int row) {
        return nulls[column][row];
    }

    /** Makes {@code count} rows written column by column part of the batch (every column of each set). */
    public void commitRows(int count) {
        reserve(count);
        rows += count;
    }

    /** True when column {@code column} of the row being written is NULL. */
    public boolean isNullInRow(int column) {
        return nulls[column][rows];
    }

    /** Makes the row being written part of the batch; the next row is written after it. */
    public void commitRow() {
        rows++;
        if (rows == capacity) {
            grow();
        }
    }

    /** Forgets every row; the arrays are kept for the next rows. */
    public void clear() {
        rows = 0;
        Arrays.fill(mayHaveNulls, false);
    }

    private void grow() {
        capacity *= 2;
        for (int column = 0; column < layouts.length; column++) {
            switch (layouts[column]) {
                case LONG -> longs[column] = Arrays.copyOf(longs[column], capacity);
                case DOUBLE -> doubles[column] = Arrays.copyOf(doubles[column], capacity);
                case BYTES -> ends[column] = Arrays.copyOf(ends[column], capacity);
                case OBJECT -> objects[column] = Arrays.copyOf(objects[column], capacity);
            }
            nulls[column] = Arrays.copyOf(nulls[column], capacity);
        }
    }

    // ---- Reading --------------------------------------------------------------------------------

    long[] longs(int column) {
        return longs[column];
    }

    double[] doubles(int column) {
        return doubles[column];
    }

    /** The UTF-8 bytes of a BYTES column's rows, back to back (see {@link #valueStart}). */
    @Override
    public byte[] bytes(int column) {
        return bytes[column];
    }

    int[] ends(int column) {
        return ends[column];
    }

    Object[] objects(int column) {
        return objects[column];
    }

    boolean[] nulls(int column) {
        return nulls[column];
    }

    /** False when no row of the column is NULL. */
    boolean mayHaveNulls(int column) {
        return mayHaveNulls[column];
    }

    /** Where value {@code row} of BYTES column {@code column} starts. */
    @Override
    public int valueStart(int column, int row) {
        return row == 0 ? 0 : ends[column][row - 1];
    }

    /** Where value {@code row} of BYTES column {@code column} ends. */
    @Override
    public int valueEnd(int column, int row) {
        return ends[column][row];
    }

    /** Value {@code row} of a LONG column. */
    @Override
    public long longValue(int column, int row) {
        return longs[column][row];
    }

    /** Value {@code row} of a DOUBLE column. */
    @Override
    public double doubleValue(int column, int row) {
        return doubles[column][row];
    }

    /** The UTF-8 byte length of value {@code row} of BYTES column {@code column} (0 for NULL). */
    public int byteLength(int column, int row) {
        return ends[column][row] - valueStart(column, row);
    }

    /** Row {@code row} as Java values in column order (the representation of {@link SqlType}). */
    public Object[] row(int row) {
        Object[] values = new Object[layouts.length];
        for (int column = 0; column < layouts.length; column++) {
            values[column] = value(column, row);
        }
        return values;
    }

    /** The Java value of column {@code column} at row {@code row}, or null. */
    @Override
    public Object value(int column, int row) {
        if (nulls[column][row]) {
            return null;
        }
        SqlType type = schema.column(column).type();
        return switch (layouts[column]) {
            case LONG -> {
                long value = longs[column][row];
                yield switch (type) {
                    case SqlType.BooleanType ignored -> value != 0;
                    case SqlType.IntegerType ignored -> (int) value;
                    case SqlType.BigintType ignored -> value;
                    case SqlType.DateType ignored -> Values.daysToDate((int) value);
                    case SqlType.TimestampType ignored -> Values.microsToTimestamp(value);
                    case SqlType.DecimalType decimal -> BigDecimal.valueOf(value, decimal.scale());
                    default -> throw new IllegalStateException("no LONG layout for " + type.sqlName());
                };
            }
            case DOUBLE -> doubles[column][row];
            case BYTES -> new String(bytes[column], valueStart(column, row), byteLength(column, row),
                    StandardCharsets.UTF_8);
            case OBJECT -> objects[column][row];
        };
    }
}
