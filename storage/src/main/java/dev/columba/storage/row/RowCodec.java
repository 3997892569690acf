package dev.columba.storage.row;

import static dev.columba.storage.row.RowFormat.FLAG_OUT_OF_ROW;
import static dev.columba.storage.row.RowFormat.FLAG_WIDE_OFFSETS;
import static dev.columba.storage.row.RowFormat.HEADER_BYTES;
import static dev.columba.storage.row.RowFormat.LOB_REF_BYTES;
import static dev.columba.storage.row.RowFormat.ROW_INT;
import static dev.columba.storage.row.RowFormat.ROW_LONG;
import static dev.columba.storage.row.RowFormat.ROW_SHORT;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarBinaryVector;

/**
 * Encodes and decodes the rows of one table in row format version 1 ({@code docs/format/row.md}).
 *
 * <p>A row is a header (version and flags, column count), a null bitmap, the fixed-width values in
 * column order, an end-offset table for the variable-length values (VARCHAR, CHAR, VARBINARY, BINARY), an optional
 * out-of-row bitmap and the variable-length bytes. Everything before the offset table sits at a
 * position the schema fixes, so reading one fixed-width column costs a header check and one load,
 * and a variable-length column two more loads: a scan decodes only the columns it projects.
 *
 * <p>Values go in and come out as the Java objects {@link SqlType} documents; a VARCHAR, CHAR,
 * VARBINARY or BINARY column may instead hold a {@link LobRef} when the storage layer keeps its bytes on overflow pages.
 * The primitive decoders ({@link #decodeInt}, {@link #decodeLong}, {@link #decodeDouble}, ...) read
 * fixed-width values without boxing, for vectorized scans.
 *
 * <p>Every read checks the row's structure against the bytes of {@code source} it may touch, so a
 * corrupt row fails with {@link ErrorCode#INDEX_CORRUPT} (or {@link ErrorCode#FORMAT_TOO_NEW}) and
 * the offset of the row, never with an out-of-bounds access. Calling a decoder with a column index
 * out of range, or one of the wrong type, is a programming error and throws
 * {@link IndexOutOfBoundsException} or {@link IllegalArgumentException}.
 *
 * <p>Immutable and thread-safe.
 */
public final class RowCodec {
    /** The row format's little-endian values written into a row's own array ({@link #encode(RowColumns, int, int)}). */
    /** A UUID's halves, big-endian so that the stored bytes are the UUID's bytes in the order its text writes them. */
    private static final ValueLayout.OfLong UUID_HALF = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final VarHandle ARRAY_SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle ARRAY_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle ARRAY_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final TableSchema schema;
    private final int columnCount;
    private final PhysicalType[] physicalTypes;
    private final boolean[] nullable;
    /** Per column, {@code column <name> <SQL type>}: the start of every message about its values. */
    private final String[] labels;
    /** Per column, the DECIMAL scale, else 0. */
    private final int[] scales;
    /** Per column, the VARCHAR or CHAR length in characters, else -1. */
    private final int[] characterLimits;
    /** Per column, the offset of its value from the row start if it is fixed-width, else -1. */
    private final int[] fixedOffsets;
    /** Per column, its index among the variable-length columns, else -1. */
    private final int[] variableIndexes;
    /** Per variable-length column index, its column. */
    private final int[] variableColumns;
    private final int variableCount;
    /** The end of the fixed-width section and the start of the offset table. */
    private final int offsetTableStart;
    private final int outOfRowBitmapBytes;

    public RowCodec(TableSchema schema) {
        this.schema = Objects.requireNonNull(schema, "schema");
        columnCount = schema.size();
        if (columnCount > RowFormat.MAX_COLUMNS) {
            throw new IllegalArgumentException("a row holds at most " + RowFormat.MAX_COLUMNS + " columns, schema has " + columnCount);
        }
        physicalTypes = new PhysicalType[columnCount];
        nullable = new boolean[columnCount];
        labels = new String[columnCount];
        scales = new int[columnCount];
        characterLimits = new int[columnCount];
        fixedOffsets = new int[columnCount];
        variableIndexes = new int[columnCount];
        int fixedOffset = HEADER_BYTES + bitmapBytes(columnCount);
        int variables = 0;
        for (int columnIndex = 0; columnIndex < columnCount; columnIndex++) {
            Column column = schema.column(columnIndex);
            PhysicalType physical = PhysicalType.of(column.type());
            physicalTypes[columnIndex] = physical;
            nullable[columnIndex] = column.nullable();
            labels[columnIndex] = "column " + column.name() + " " + column.type().sqlName();
            scales[columnIndex] = column.type() instanceof SqlType.DecimalType decimal ? decimal.scale() : 0;
            characterLimits[columnIndex] = ColumnValues.characterLimit(column.type());
            if (physical.variableLength()) {
                fixedOffsets[columnIndex] = -1;
                variableIndexes[columnIndex] = variables++;
            } else {
                fixedOffsets[columnIndex] = fixedOffset;
                variableIndexes[columnIndex] = -1;
                fixedOffset += physical.width();
            }
        }
        variableCount = variables;
        variableColumns = new int[variables];
        for (int columnIndex = 0; columnIndex < columnCount; columnIndex++) {
            if (variableIndexes[columnIndex] >= 0) {
                variableColumns[variableIndexes[columnIndex]] = columnIndex;
            }
        }
        offsetTableStart = fixedOffset;
        outOfRowBitmapBytes = bitmapBytes(variables);
    }

    public TableSchema schema() {
        return schema;
    }

    // ---- Encoding ------------------------------------------------------------------------------

    /**
     * The bytes {@code values} take in row format, a {@link LobRef} counting as the reference
     * (16 bytes): the in-row size the page layer compares with its limit.
     *
     * @throws ColumbaException WRONG_TYPE, STRING_TOO_LONG, VALUE_OUT_OF_RANGE, NULL_NOT_ALLOWED or
     *     INVALID_ARGUMENT (a string that is not Unicode) naming the column and the value;
     *     ROW_TOO_LARGE beyond 2^31 - 9 bytes
     */
    public int encodedSize(Object[] values) {
        return checkedSize(measureVariableBytes(values), hasLobRef(values));
    }

    /**
     * True when no row of this schema can fail {@link #encodedSize} for its size: the largest row
     * it can have in row form — every string at four UTF-8 bytes per character of its limit (a
     * CHAR's blank padding included), no value out of row — is at most the format's limit. A bulk
     * path whose values are already checked against their columns may then skip measuring rows.
     */
    public boolean everyRowFits() {
        long variableBytes = 0;
        for (int columnIndex = 0; columnIndex < columnCount; columnIndex++) {
            if (variableIndexes[columnIndex] >= 0) {
                variableBytes += 4L * characterLimits[columnIndex];
            }
        }
        return rowSize(variableBytes, false) <= RowFormat.MAX_ROW_BYTES;
    }

    /**
     * Writes {@code values} at {@code offset} of {@code target}. Every value is checked before the
     * first byte is written, so a rejected row leaves {@code target} untouched.
     *
     * @return the bytes written, {@link #encodedSize}
     * @throws ColumbaException as {@link #encodedSize}
     * @throws IllegalArgumentException when the row does not fit in {@code target} at {@code offset}
     */
    public int encode(Object[] values, MemorySegment target, long offset) {
        boolean outOfRow = hasLobRef(values);
        int size = checkedSize(measureVariableBytes(values), outOfRow);
        if (offset < 0 || offset > target.byteSize() - size) {
            throw new IllegalArgumentException("a row of " + size + " bytes does not fit at offset " + offset
                    + " of a segment of " + target.byteSize() + " bytes");
        }
        write(values, target, offset, size, outOfRow);
        return size;
    }

    /** {@link #encode(Object[], MemorySegment, long)} into a new array of the row's exact size. */
    public byte[] encode(Object[] values) {
        boolean outOfRow = hasLobRef(values);
        int size = checkedSize(measureVariableBytes(values), outOfRow);
        byte[] row = new byte[size];
        write(values, MemorySegment.ofArray(row), 0, size, outOfRow);
        return row;
    }

    /**
     * Row {@code row} of {@code columns} in row format: the bytes {@link #encode(Object[])} makes of
     * the same values, checked the same way (NOT NULL, string lengths, decimal precision, with the
     * same errors), but read from the columns' primitive forms with no Java object per value. Null
     * when the row needs more than {@code maxRowBytes}: values must then move out of row, which the
     * caller does through {@link #columnsToMoveOutOfRow} and the Java values.
     *
     * @throws ColumbaException as {@link #encodedSize}
     */
    public byte[] encode(RowColumns columns, int row, int maxRowBytes) {
        long size = encodedSize(columns, row);
        if (size > maxRowBytes) {
            return null;
        }
        byte[] target = new byte[(int) size];
        write(columns, row, target, (int) size);
        return target;
    }

    /**
     * The bytes row {@code row} of {@code columns} takes in row format, after checking its values
     * as {@link #encode(RowColumns, int, int)} does; more than the format's limit (2^31 - 9) when it
     * cannot be stored in row at all.
     *
     * @throws ColumbaException as {@link #encodedSize}, but never ROW_TOO_LARGE
     */
    public long encodedSize(RowColumns columns, int row) {
        long variableBytes = 0;
        for (int columnIndex = 0; columnIndex < columnCount; columnIndex++) {
            if (columns.isNull(columnIndex, row)) {
                if (!nullable[columnIndex]) {
                    throw ColumnValues.nullNotAllowed(labels[columnIndex]);
                }
                continue;
            }
            switch (physicalTypes[columnIndex]) {
                case DECIMAL64 -> ColumnValues.checkUnscaled(columns.longValue(columnIndex, row), decimalType(columnIndex),
                        labels[columnIndex]);
                case DECIMAL128 -> ColumnValues.decimal(columns.value(columnIndex, row), decimalType(columnIndex),
                        labels[columnIndex]);
                case VARCHAR, CHAR -> variableBytes += storedLength(columns, columnIndex, row);
                case VARBINARY, BINARY -> variableBytes += storedLength(columnIndex,
                        ColumnValues.binary(columns.value(columnIndex, row), characterLimits[columnIndex], labels[columnIndex]));
                case UUID -> ColumnValues.uuid(columns.value(columnIndex, row), labels[columnIndex]);
                case BOOLEAN, INT, DATE, BIGINT, TIMESTAMP, DOUBLE -> {
                }
            }
        }
        return rowSize(variableBytes, false);
    }

    /**
     * Writes row {@code row} of {@code columns}, of {@code size} bytes as {@link #encodedSize(RowColumns, int)}
     * measured it (within the format's limit), at the start of {@code target}: a bulk
     * load reuses one array for every row, so every byte of the row is written, zeros included.
     */
    public void write(RowColumns columns, int row, byte[] target, int size) {
        boolean wide = size > RowFormat.MAX_NARROW_ROW_BYTES;
        int offsetBytes = wide ? RowFormat.WIDE_OFFSET_BYTES : RowFormat.NARROW_OFFSET_BYTES;
        target[0] = (byte) (RowFormat.VERSION | (wide ? FLAG_WIDE_OFFSETS : 0));
        ARRAY_SHORT.set(target, RowFormat.COLUMN_COUNT_OFFSET, (short) columnCount);
        Arrays.fill(target, HEADER_BYTES, HEADER_BYTES + bitmapBytes(columnCount), (byte) 0);
        int dataPosition = offsetTableStart + variableCount * offsetBytes;
        for (int columnIndex = 0; columnIndex < columnCount; columnIndex++) {
            boolean isNull = columns.isNull(columnIndex, row);
            if (isNull) {
                target[HEADER_BYTES + (columnIndex >>> 3)] |= (byte) (1 << (columnIndex & 7));
            }
            int position = fixedOffsets[columnIndex];
            switch (physicalTypes[columnIndex]) {
                case BOOLEAN -> target[position] = (byte) (!isNull && columns.longValue(columnIndex, row) != 0 ? 1 : 0);
                case INT, DATE -> ARRAY_INT.set(target, position, isNull ? 0 : (int) columns.longValue(columnIndex, row));
                case BIGINT, TIMESTAMP, DECIMAL64 -> ARRAY_LONG.set(target, position,
                        isNull ? 0 : columns.longValue(columnIndex, row));
                case DOUBLE -> ARRAY_LONG.set(target, position,
                        isNull ? 0 : Double.doubleToRawLongBits(columns.doubleValue(columnIndex, row)));
                case DECIMAL128 -> {
                    long low = 0;
                    long high = 0;
                    if (!isNull) {
                        BigDecimal decimal = ColumnValues.decimal(columns.value(columnIndex, row), decimalType(columnIndex),
                                labels[columnIndex]);
                        low = ColumnValues.unscaledLow(decimal);
                        high = ColumnValues.unscaledHigh(decimal);
                    }
                    ARRAY_LONG.set(target, position, low);
                    ARRAY_LONG.set(target, position + Long.BYTES, high);
                }
                case VARCHAR, CHAR -> {
                    if (!isNull) {
                        int start = columns.valueStart(columnIndex, row);
                        int end = columns.valueEnd(columnIndex, row);
                        System.arraycopy(columns.bytes(columnIndex), start, target, dataPosition, end - start);
                        dataPosition += end - start;
                        if (physicalTypes[columnIndex] == PhysicalType.CHAR) {
                            int padding = characterLimits[columnIndex]
                                    - Utf8.characters(columns.bytes(columnIndex), start, end);
                            Arrays.fill(target, dataPosition, dataPosition + padding, (byte) ' ');
                            dataPosition += padding;
                        }
                    }
                    setEndOffset(target, columnIndex, offsetBytes, wide, dataPosition);
                }
                case VARBINARY, BINARY -> {
                    if (!isNull) {
                        dataPosition += (int) writeBinary(columnIndex, (byte[]) columns.value(columnIndex, row),
                                MemorySegment.ofArray(target), dataPosition);
                    }
                    setEndOffset(target, columnIndex, offsetBytes, wide, dataPosition);
                }
                case UUID -> {
                    if (isNull) {
                        Arrays.fill(target, position, position + PhysicalType.UUID.width(), (byte) 0);
                    } else {
                        writeUuid((java.util.UUID) columns.value(columnIndex, row), MemorySegment.ofArray(target), position);
                    }
                }
            }
        }
    }

    private void setEndOffset(byte[] target, int columnIndex, int offsetBytes, boolean wide, int dataPosition) {
        int slot = offsetTableStart + variableIndexes[columnIndex] * offsetBytes;
        if (wide) {
            ARRAY_INT.set(target, slot, dataPosition);
        } else {
            ARRAY_SHORT.set(target, slot, (short) dataPosition);
        }
    }

    /** Bytes of a VARCHAR or CHAR value of {@code columns}, checked as {@link #storedLength(int, String)} checks its string. */
    private long storedLength(RowColumns columns, int columnIndex, int row) {
        int start = columns.valueStart(columnIndex, row);
        int end = columns.valueEnd(columnIndex, row);
        boolean isChar = physicalTypes[columnIndex] == PhysicalType.CHAR;
        int characters = ColumnValues.utf8Characters(columns.bytes(columnIndex), start, end, characterLimits[columnIndex],
                isChar, labels[columnIndex]);
        return isChar ? end - start + (characterLimits[columnIndex] - characters) : end - start;
    }

    /**
     * The variable-length columns to move out of row so that {@code values} encode in at most
     * {@code maxRowBytes}: largest in-row value first (ties by column order), as few as that greedy
     * order allows. Values not longer than a {@link LobRef} are never chosen, as moving them saves
     * nothing. Empty when the row already fits.
     *
     * <p>The caller stores {@link #lobBytes} of each chosen value on overflow pages and replaces the
     * value with its {@link LobRef} before encoding.
     *
     * @throws ColumbaException as {@link #encodedSize}; ROW_TOO_LARGE when the row exceeds
     *     {@code maxRowBytes} even with every candidate moved
     */
    public int[] columnsToMoveOutOfRow(Object[] values, int maxRowBytes) {
        long variableBytes = measureVariableBytes(values);
        boolean outOfRow = hasLobRef(values);
        if (rowSize(variableBytes, outOfRow) <= maxRowBytes) {
            return new int[0];
        }
        // Candidates packed as (size << 16 | (0xFFFF - variable index)): an ascending sort read
        // backwards is size descending, then column order. Sizes stay below 2^40 and indexes below 2^16.
        long[] candidates = new long[variableCount];
        int candidateCount = 0;
        for (int columnIndex = 0; columnIndex < columnCount; columnIndex++) {
            if (variableIndexes[columnIndex] >= 0 && (values[columnIndex] instanceof String
                    || values[columnIndex] instanceof byte[])) {
                long size = values[columnIndex] instanceof String text ? storedLength(columnIndex, text)
                        : storedLength(columnIndex, (byte[]) values[columnIndex]);
                if (size > LOB_REF_BYTES) {
                    candidates[candidateCount++] = size << 16 | (0xFFFF - variableIndexes[columnIndex]);
                }
            }
        }
        Arrays.sort(candidates, 0, candidateCount);
        int[] chosen = new int[candidateCount];
        for (int rank = 0; rank < candidateCount; rank++) {
            long candidate = candidates[candidateCount - 1 - rank];
            chosen[rank] = variableColumns[0xFFFF - (int) (candidate & 0xFFFF)];
            variableBytes += LOB_REF_BYTES - (candidate >>> 16);
            if (rowSize(variableBytes, true) <= maxRowBytes) {
                return Arrays.copyOf(chosen, rank + 1);
            }
        }
        throw new ColumbaException(ErrorCode.ROW_TOO_LARGE, "row of table with columns " + columnNames() + " needs "
                + rowSize(variableBytes, outOfRow || candidateCount > 0) + " bytes in row with " + candidateCount
                + " values out of row, more than the limit of " + maxRowBytes + " bytes");
    }

    /**
     * The bytes an out-of-row value is stored as: its UTF-8 form, CHAR padded. {@link LobRef}'s
     * {@code byteLength} is their length, and {@link #valueFromLobBytes} turns them back.
     *
     * @throws ColumbaException as {@link #encodedSize} for the value
     * @throws IllegalArgumentException when the column is not VARCHAR or CHAR
     */
    public byte[] lobBytes(int columnIndex, Object value) {
        checkVariable(columnIndex, "lobBytes");
        if (value == null) {
            throw new IllegalArgumentException(labels[columnIndex] + ": NULL is never stored out of row");
        }
        if (isBinary(columnIndex)) {
            byte[] binary = ColumnValues.binary(value, characterLimits[columnIndex], labels[columnIndex]);
            byte[] bytes = new byte[(int) storedLength(columnIndex, binary)];
            writeBinary(columnIndex, binary, MemorySegment.ofArray(bytes), 0);
            return bytes;
        }
        String text = ColumnValues.string(value, characterLimits[columnIndex], labels[columnIndex]);
        long length = storedLength(columnIndex, text);
        if (length > RowFormat.MAX_ROW_BYTES) {
            throw new ColumbaException(ErrorCode.ROW_TOO_LARGE, labels[columnIndex] + " cannot hold a value of "
                    + length + " bytes: " + ColumnValues.show(text));
        }
        byte[] bytes = new byte[(int) length];
        writeString(columnIndex, text, MemorySegment.ofArray(bytes), 0);
        return bytes;
    }

    /**
     * The value of an out-of-row column from the bytes {@link #lobBytes} made of it.
     *
     * @throws IllegalArgumentException when the column is not VARCHAR or CHAR
     */
    public Object valueFromLobBytes(int columnIndex, byte[] bytes) {
        checkVariable(columnIndex, "valueFromLobBytes");
        return isBinary(columnIndex) ? bytes : new String(bytes, StandardCharsets.UTF_8);
    }

    // ---- Decoding ------------------------------------------------------------------------------

    /**
     * The length of the row at {@code rowOffset}, after checking its whole structure: header, that
     * the offsets ascend within {@code source}, that NULL values are empty and that out-of-row values
     * are references. A page verifier's check; the decoders check only what they read.
     */
    public int rowLength(MemorySegment source, long rowOffset) {
        int flags = checkHeader(source, rowOffset);
        if (variableCount == 0) {
            return offsetTableStart;
        }
        long previousEnd = variableDataStart(source, rowOffset, flags);
        long available = bytesForRow(source, rowOffset);
        for (int columnIndex = 0; columnIndex < columnCount; columnIndex++) {
            int variableIndex = variableIndexes[columnIndex];
            if (variableIndex < 0) {
                continue;
            }
            long end = readEndOffset(source, rowOffset, flags, variableIndex);
            if (end < previousEnd || end > available) {
                throw corrupt(rowOffset, labels[columnIndex] + " ends at " + end + ", outside [" + previousEnd + ", "
                        + available + "]");
            }
            boolean isNull = nullBit(source, rowOffset, columnIndex);
            if (isNull && end != previousEnd) {
                throw corrupt(rowOffset, labels[columnIndex] + " is NULL but has " + (end - previousEnd) + " bytes");
            }
            if (outOfRowBit(source, rowOffset, flags, variableIndex)) {
                if (isNull || end - previousEnd != LOB_REF_BYTES) {
                    throw corrupt(rowOffset, labels[columnIndex] + " is marked out of row but holds "
                            + (isNull ? "NULL" : (end - previousEnd) + " bytes instead of a " + LOB_REF_BYTES + "-byte reference"));
                }
            }
            previousEnd = end;
        }
        return (int) previousEnd;
    }

    public boolean isNull(MemorySegment source, long rowOffset, int columnIndex) {
        Objects.checkIndex(columnIndex, columnCount);
        checkHeader(source, rowOffset);
        return nullBit(source, rowOffset, columnIndex);
    }

    /** Whether the column holds a {@link LobRef}; false for NULL and for fixed-width columns. */
    public boolean isOutOfRow(MemorySegment source, long rowOffset, int columnIndex) {
        Objects.checkIndex(columnIndex, columnCount);
        int flags = checkHeader(source, rowOffset);
        int variableIndex = variableIndexes[columnIndex];
        return variableIndex >= 0 && outOfRowBit(source, rowOffset, flags, variableIndex);
    }

    /**
     * One column's value: its Java object, {@code null} for NULL, or the {@link LobRef} of an
     * out-of-row value.
     */
    public Object decodeColumn(MemorySegment source, long rowOffset, int columnIndex) {
        Objects.checkIndex(columnIndex, columnCount);
        int flags = checkHeader(source, rowOffset);
        return decodeValue(source, rowOffset, flags, columnIndex);
    }

    /**
     * Decodes the columns {@code projectedColumns} into {@code out}: {@code out[k]} receives column
     * {@code projectedColumns[k]} as {@link #decodeColumn} returns it. Allocates nothing but the
     * values themselves.
     */
    public void decode(MemorySegment source, long rowOffset, int[] projectedColumns, Object[] out) {
        if (out.length < projectedColumns.length) {
            throw new IllegalArgumentException("out has " + out.length + " slots for " + projectedColumns.length + " columns");
        }
        for (int columnIndex : projectedColumns) {
            Objects.checkIndex(columnIndex, columnCount);
        }
        int flags = checkHeader(source, rowOffset);
        for (int slot = 0; slot < projectedColumns.length; slot++) {
            out[slot] = decodeValue(source, rowOffset, flags, projectedColumns[slot]);
        }
    }

    /** Reads the bytes of an out-of-row value: what a table's overflow pages hold for a {@link LobRef}. */
    @FunctionalInterface
    public interface LobReader {
        byte[] read(LobRef reference);
    }

    /**
     * Decodes the columns {@code projectedColumns} of one row into Arrow vectors:
     * {@code vectors[k]} receives column {@code projectedColumns[k]} at {@code position}, growing as
     * needed. Values keep their stored form — integers, days, microseconds, unscaled decimals and
     * UTF-8 bytes are copied, never boxed or turned into strings — so a scan decodes a page's rows
     * straight into a batch. Out-of-row values are read through {@code lobs}. Checks the row as
     * {@link #decode(MemorySegment, long, int[], Object[])} does.
     *
     * <p>The vector of a column is the one core's {@code VectorValues.newVector} makes for its type;
     * a DECIMAL of precision at most 18 may also be a {@link BigIntVector} of unscaled values.
     */
    public void decodeInto(MemorySegment source, long rowOffset, int[] projectedColumns, FieldVector[] vectors, int position,
                           LobReader lobs) {
        int flags = checkHeader(source, rowOffset);
        for (int slot = 0; slot < projectedColumns.length; slot++) {
            int columnIndex = projectedColumns[slot];
            FieldVector vector = vectors[slot];
            if (nullBit(source, rowOffset, columnIndex)) {
                vector.setNull(position);
                continue;
            }
            long at = rowOffset + fixedOffsets[columnIndex];
            switch (physicalTypes[columnIndex]) {
                case BOOLEAN -> ((BitVector) vector).setSafe(position, readBoolean(source, rowOffset, columnIndex) ? 1 : 0);
                case INT -> ((IntVector) vector).setSafe(position, source.get(ROW_INT, at));
                case DATE -> ((DateDayVector) vector).setSafe(position, source.get(ROW_INT, at));
                case BIGINT -> ((BigIntVector) vector).setSafe(position, source.get(ROW_LONG, at));
                case TIMESTAMP -> ((TimeStampMicroVector) vector).setSafe(position, source.get(ROW_LONG, at));
                case DOUBLE -> ((Float8Vector) vector).setSafe(position, Double.longBitsToDouble(source.get(ROW_LONG, at)));
                case DECIMAL64 -> {
                    if (vector instanceof BigIntVector unscaled) {
                        unscaled.setSafe(position, source.get(ROW_LONG, at));
                    } else {
                        ((DecimalVector) vector).setSafe(position, source.get(ROW_LONG, at));
                    }
                }
                case DECIMAL128 -> setDecimal128((DecimalVector) vector, position, source.get(ROW_LONG, at),
                        source.get(ROW_LONG, at + Long.BYTES));
                case UUID -> ((VarBinaryVector) vector).setSafe(position,
                        source.asSlice(at, PhysicalType.UUID.width()).asByteBuffer(), 0, PhysicalType.UUID.width());
                case VARCHAR, CHAR, VARBINARY, BINARY -> {
                    BaseVariableWidthVector strings = (BaseVariableWidthVector) vector;
                    if (outOfRowBit(source, rowOffset, flags, variableIndexes[columnIndex])) {
                        strings.setSafe(position, lobs.read((LobRef) decodeVariable(source, rowOffset, flags, columnIndex)));
                    } else {
                        long span = variableSpan(source, rowOffset, flags, columnIndex);
                        long start = span >>> 32;
                        int length = (int) ((span & 0xFFFF_FFFFL) - start);
                        strings.setSafe(position, source.asSlice(rowOffset + start, length).asByteBuffer(), 0, length);
                    }
                }
            }
        }
    }

    /** An Arrow Decimal128 value from its two little-endian halves, as the row stores them. */
    private static void setDecimal128(DecimalVector vector, int position, long low, long high) {
        while (position >= vector.getValueCapacity()) {
            vector.reAlloc();
        }
        long offset = (long) position * DecimalVector.TYPE_WIDTH;
        vector.getDataBuffer().setLong(offset, low);
        vector.getDataBuffer().setLong(offset + Long.BYTES, high);
        BitVectorHelper.setBit(vector.getValidityBuffer(), position);
    }

    /** Every column of the row, in column order. */
    public Object[] decode(MemorySegment source, long rowOffset) {
        int flags = checkHeader(source, rowOffset);
        Object[] values = new Object[columnCount];
        for (int columnIndex = 0; columnIndex < columnCount; columnIndex++) {
            values[columnIndex] = decodeValue(source, rowOffset, flags, columnIndex);
        }
        return values;
    }

    /** A BOOLEAN column's value; false when NULL (check {@link #isNull} first). */
    public boolean decodeBoolean(MemorySegment source, long rowOffset, int columnIndex) {
        checkPrimitive(columnIndex, PhysicalType.BOOLEAN, PhysicalType.BOOLEAN, "decodeBoolean");
        checkHeader(source, rowOffset);
        return readBoolean(source, rowOffset, columnIndex);
    }

    /** An INT column's value, or a DATE column's days since 1970-01-01; 0 when NULL. */
    public int decodeInt(MemorySegment source, long rowOffset, int columnIndex) {
        checkPrimitive(columnIndex, PhysicalType.INT, PhysicalType.DATE, "decodeInt");
        checkHeader(source, rowOffset);
        return source.get(ROW_INT, rowOffset + fixedOffsets[columnIndex]);
    }

    /**
     * A BIGINT column's value, a TIMESTAMP column's microseconds since 1970-01-01T00:00, or the low
     * 64 bits of a DECIMAL column's unscaled value (all of it when precision is at most 18); 0 when
     * NULL.
     */
    public long decodeLong(MemorySegment source, long rowOffset, int columnIndex) {
        Objects.checkIndex(columnIndex, columnCount);
        PhysicalType physical = physicalTypes[columnIndex];
        if (physical != PhysicalType.BIGINT && physical != PhysicalType.TIMESTAMP && physical != PhysicalType.DECIMAL64
                && physical != PhysicalType.DECIMAL128) {
            throw wrongAccessor(columnIndex, "decodeLong");
        }
        checkHeader(source, rowOffset);
        return source.get(ROW_LONG, rowOffset + fixedOffsets[columnIndex]);
    }

    /**
     * The high 64 bits of a DECIMAL column's unscaled value as a 128-bit two's complement integer
     * (the sign extension of {@link #decodeLong} when precision is at most 18): with
     * {@link #decodeLong}, the 16 bytes of an Arrow Decimal128 value. 0 when NULL.
     */
    public long decodeDecimalHigh(MemorySegment source, long rowOffset, int columnIndex) {
        checkPrimitive(columnIndex, PhysicalType.DECIMAL64, PhysicalType.DECIMAL128, "decodeDecimalHigh");
        checkHeader(source, rowOffset);
        long position = rowOffset + fixedOffsets[columnIndex];
        return physicalTypes[columnIndex] == PhysicalType.DECIMAL64
                ? source.get(ROW_LONG, position) >> (Long.SIZE - 1)
                : source.get(ROW_LONG, position + Long.BYTES);
    }

    /** A DOUBLE column's value, bit for bit as written; 0.0 when NULL. */
    public double decodeDouble(MemorySegment source, long rowOffset, int columnIndex) {
        checkPrimitive(columnIndex, PhysicalType.DOUBLE, PhysicalType.DOUBLE, "decodeDouble");
        checkHeader(source, rowOffset);
        return Double.longBitsToDouble(source.get(ROW_LONG, rowOffset + fixedOffsets[columnIndex]));
    }

    /**
     * The UTF-8 bytes of an in-row VARCHAR or CHAR value (CHAR padded), as a slice of
     * {@code source} valid as long as {@code source} is; empty when NULL.
     *
     * @throws IllegalArgumentException when the value is out of row ({@link #isOutOfRow}): decode its
     *     {@link LobRef} instead
     */
    public MemorySegment decodeUtf8(MemorySegment source, long rowOffset, int columnIndex) {
        checkVariable(columnIndex, "decodeUtf8");
        int flags = checkHeader(source, rowOffset);
        int variableIndex = variableIndexes[columnIndex];
        if (outOfRowBit(source, rowOffset, flags, variableIndex)) {
            throw new IllegalArgumentException(labels[columnIndex] + " of the row at offset " + rowOffset
                    + " is out of row: decode its LobRef");
        }
        long span = variableSpan(source, rowOffset, flags, columnIndex);
        long start = span >>> 32;
        return source.asSlice(rowOffset + start, (span & 0xFFFF_FFFFL) - start);
    }

    // ---- Encoding internals --------------------------------------------------------------------

    /**
     * Checks every value against its column and returns the bytes of the variable-length values
     * (LobRefs counting as references).
     */
    private long measureVariableBytes(Object[] values) {
        if (values.length != columnCount) {
            throw new IllegalArgumentException("row has " + values.length + " values, table has " + columnCount + " columns "
                    + columnNames());
        }
        long variableBytes = 0;
        for (int columnIndex = 0; columnIndex < columnCount; columnIndex++) {
            Object value = values[columnIndex];
            String label = labels[columnIndex];
            if (value == null) {
                if (!nullable[columnIndex]) {
                    throw ColumnValues.nullNotAllowed(label);
                }
                continue;
            }
            switch (physicalTypes[columnIndex]) {
                case BOOLEAN -> ColumnValues.booleanValue(value, label);
                case INT -> ColumnValues.intValue(value, label);
                case DATE -> ColumnValues.days(value, label);
                case BIGINT -> ColumnValues.bigintValue(value, label);
                case TIMESTAMP -> ColumnValues.micros(value, label);
                case DOUBLE -> ColumnValues.doubleValue(value, label);
                case DECIMAL64, DECIMAL128 -> ColumnValues.decimal(value, decimalType(columnIndex), label);
                case UUID -> ColumnValues.uuid(value, label);
                case VARCHAR, CHAR, VARBINARY, BINARY -> {
                    if (value instanceof LobRef reference) {
                        checkLobRef(columnIndex, reference);
                        variableBytes += LOB_REF_BYTES;
                    } else if (isBinary(columnIndex)) {
                        variableBytes += storedLength(columnIndex, ColumnValues.binary(value, characterLimits[columnIndex], label));
                    } else {
                        String text = ColumnValues.string(value, characterLimits[columnIndex], label);
                        variableBytes += storedLength(columnIndex, text);
                    }
                }
            }
        }
        return variableBytes;
    }

    private void checkLobRef(int columnIndex, LobRef reference) {
        // Four UTF-8 bytes per character at most; a binary string's limit is in bytes.
        long maxBytes = (isBinary(columnIndex) ? 1L : 4L) * characterLimits[columnIndex];
        if (reference.byteLength() > maxBytes) {
            throw new ColumbaException(ErrorCode.STRING_TOO_LONG, labels[columnIndex] + " cannot hold an out-of-row value of "
                    + reference.byteLength() + " bytes, more than " + maxBytes + ": " + reference);
        }
    }

    private static boolean hasLobRef(Object[] values) {
        for (Object value : values) {
            if (value instanceof LobRef) {
                return true;
            }
        }
        return false;
    }

    /** The row's size given its variable-length bytes; u16 end offsets when the row allows them. */
    private long rowSize(long variableBytes, boolean outOfRow) {
        long narrow = offsetTableStart + (long) variableCount * RowFormat.NARROW_OFFSET_BYTES
                + (outOfRow ? outOfRowBitmapBytes : 0) + variableBytes;
        return narrow <= RowFormat.MAX_NARROW_ROW_BYTES
                ? narrow
                : narrow + (long) variableCount * (RowFormat.WIDE_OFFSET_BYTES - RowFormat.NARROW_OFFSET_BYTES);
    }

    private int checkedSize(long variableBytes, boolean outOfRow) {
        long size = rowSize(variableBytes, outOfRow);
        if (size > RowFormat.MAX_ROW_BYTES) {
            throw new ColumbaException(ErrorCode.ROW_TOO_LARGE, "row of table with columns " + columnNames() + " needs "
                    + size + " bytes, more than the format's " + RowFormat.MAX_ROW_BYTES);
        }
        return (int) size;
    }

    /** Bytes of a checked string in the row or on overflow pages: UTF-8, CHAR padded with blanks. */
    private long storedLength(int columnIndex, String text) {
        long length = Utf8.length(text, false, labels[columnIndex]);
        return physicalTypes[columnIndex] == PhysicalType.CHAR
                ? length + ColumnValues.padding(text, characterLimits[columnIndex])
                : length;
    }

    /** Bytes of a checked binary string in the row or on overflow pages: BINARY padded with zero bytes. */
    private long storedLength(int columnIndex, byte[] bytes) {
        return physicalTypes[columnIndex] == PhysicalType.BINARY ? characterLimits[columnIndex] : bytes.length;
    }

    private boolean isBinary(int columnIndex) {
        return physicalTypes[columnIndex] == PhysicalType.VARBINARY || physicalTypes[columnIndex] == PhysicalType.BINARY;
    }

    /** Writes a checked row of {@code size} bytes; {@link #measureVariableBytes} has run. */
    private void write(Object[] values, MemorySegment target, long rowOffset, int size, boolean outOfRow) {
        boolean wide = size > RowFormat.MAX_NARROW_ROW_BYTES;
        int offsetBytes = wide ? RowFormat.WIDE_OFFSET_BYTES : RowFormat.NARROW_OFFSET_BYTES;
        int flags = RowFormat.VERSION | (wide ? FLAG_WIDE_OFFSETS : 0) | (outOfRow ? FLAG_OUT_OF_ROW : 0);
        target.set(ValueLayout.JAVA_BYTE, rowOffset, (byte) flags);
        target.set(ROW_SHORT, rowOffset + RowFormat.COLUMN_COUNT_OFFSET, (short) columnCount);
        fillZero(target, rowOffset + HEADER_BYTES, bitmapBytes(columnCount));
        long outOfRowBitmap = rowOffset + offsetTableStart + (long) variableCount * offsetBytes;
        long dataPosition = outOfRowBitmap;
        if (outOfRow) {
            fillZero(target, outOfRowBitmap, outOfRowBitmapBytes);
            dataPosition += outOfRowBitmapBytes;
        }
        for (int columnIndex = 0; columnIndex < columnCount; columnIndex++) {
            Object value = values[columnIndex];
            int variableIndex = variableIndexes[columnIndex];
            if (value == null) {
                setBit(target, rowOffset + HEADER_BYTES, columnIndex);
            }
            if (variableIndex < 0) {
                long position = rowOffset + fixedOffsets[columnIndex];
                if (value == null) {
                    fillZero(target, position, physicalTypes[columnIndex].width());
                } else {
                    writeFixed(columnIndex, value, target, position);
                }
                continue;
            }
            if (value instanceof LobRef reference) {
                setBit(target, outOfRowBitmap, variableIndex);
                target.set(ROW_LONG, dataPosition, reference.firstPageId());
                target.set(ROW_LONG, dataPosition + Long.BYTES, reference.byteLength());
                dataPosition += LOB_REF_BYTES;
            } else if (value instanceof byte[] bytes) {
                dataPosition += writeBinary(columnIndex, bytes, target, dataPosition);
            } else if (value != null) {
                dataPosition += writeString(columnIndex, (String) value, target, dataPosition);
            }
            long endOffset = dataPosition - rowOffset;
            long slot = rowOffset + offsetTableStart + (long) variableIndex * offsetBytes;
            if (wide) {
                target.set(ROW_INT, slot, (int) endOffset);
            } else {
                target.set(ROW_SHORT, slot, (short) endOffset);
            }
        }
    }

    private void writeFixed(int columnIndex, Object value, MemorySegment target, long position) {
        String label = labels[columnIndex];
        switch (physicalTypes[columnIndex]) {
            case BOOLEAN -> target.set(ValueLayout.JAVA_BYTE, position, (byte) (ColumnValues.booleanValue(value, label) ? 1 : 0));
            case INT -> target.set(ROW_INT, position, ColumnValues.intValue(value, label));
            case DATE -> target.set(ROW_INT, position, ColumnValues.days(value, label));
            case BIGINT -> target.set(ROW_LONG, position, ColumnValues.bigintValue(value, label));
            case TIMESTAMP -> target.set(ROW_LONG, position, ColumnValues.micros(value, label));
            case DOUBLE -> target.set(ROW_LONG, position, Double.doubleToRawLongBits(ColumnValues.doubleValue(value, label)));
            case DECIMAL64 -> target.set(ROW_LONG, position,
                    ColumnValues.unscaledLow(ColumnValues.decimal(value, decimalType(columnIndex), label)));
            case DECIMAL128 -> {
                BigDecimal decimal = ColumnValues.decimal(value, decimalType(columnIndex), label);
                target.set(ROW_LONG, position, ColumnValues.unscaledLow(decimal));
                target.set(ROW_LONG, position + Long.BYTES, ColumnValues.unscaledHigh(decimal));
            }
            case UUID -> writeUuid(ColumnValues.uuid(value, label), target, position);
            case VARCHAR, CHAR, VARBINARY, BINARY -> throw new IllegalStateException(label + " is not fixed-width");
        }
    }

    private static void writeUuid(java.util.UUID uuid, MemorySegment target, long position) {
        target.set(UUID_HALF, position, uuid.getMostSignificantBits());
        target.set(UUID_HALF, position + Long.BYTES, uuid.getLeastSignificantBits());
    }

    /** Writes a checked binary string as stored (BINARY padded with zero bytes) and returns its length in bytes. */
    private long writeBinary(int columnIndex, byte[] bytes, MemorySegment target, long position) {
        MemorySegment.copy(bytes, 0, target, ValueLayout.JAVA_BYTE, position, bytes.length);
        long stored = storedLength(columnIndex, bytes);
        fillZero(target, position + bytes.length, (int) (stored - bytes.length));
        return stored;
    }

    /** Writes a checked string as stored (CHAR padded) and returns its length in bytes. */
    private long writeString(int columnIndex, String text, MemorySegment target, long position) {
        long written = Utf8.write(text, target, position, false, (byte) 0);
        if (physicalTypes[columnIndex] == PhysicalType.CHAR) {
            int padding = ColumnValues.padding(text, characterLimits[columnIndex]);
            Utf8.writeBlanks(target, position + written, padding);
            written += padding;
        }
        return written;
    }

    // ---- Decoding internals --------------------------------------------------------------------

    /**
     * Checks the header of the row at {@code rowOffset} and that its fixed part (header, null
     * bitmap, fixed-width values) lies within {@code source}; returns the header byte.
     */
    private int checkHeader(MemorySegment source, long rowOffset) {
        long available = source.byteSize() - rowOffset;
        if (rowOffset < 0 || available < HEADER_BYTES) {
            throw corrupt(rowOffset, "the " + HEADER_BYTES + "-byte header does not fit in a segment of "
                    + source.byteSize() + " bytes");
        }
        int header = Byte.toUnsignedInt(source.get(ValueLayout.JAVA_BYTE, rowOffset));
        int version = header & RowFormat.VERSION_MASK;
        if (version > RowFormat.VERSION) {
            throw new ColumbaException(ErrorCode.FORMAT_TOO_NEW, "row at offset " + rowOffset + " has format version "
                    + version + ", this build reads version " + RowFormat.VERSION);
        }
        if (version < RowFormat.VERSION) {
            // No version before 1 was ever written: a zero here is damage, not an old row.
            throw corrupt(rowOffset, "format version " + version + " does not exist (header byte 0x"
                    + Integer.toHexString(header) + ")");
        }
        if ((header & RowFormat.RESERVED_FLAGS) != 0) {
            throw corrupt(rowOffset, "reserved header bits set (header byte 0x" + Integer.toHexString(header) + ")");
        }
        if (variableCount == 0 && (header & (FLAG_WIDE_OFFSETS | FLAG_OUT_OF_ROW)) != 0) {
            throw corrupt(rowOffset, "header byte 0x" + Integer.toHexString(header)
                    + " flags variable-length values in a table that has none");
        }
        int rowColumns = Short.toUnsignedInt(source.get(ROW_SHORT, rowOffset + RowFormat.COLUMN_COUNT_OFFSET));
        if (rowColumns != columnCount) {
            throw corrupt(rowOffset, "row has " + rowColumns + " columns, table has " + columnCount);
        }
        if (available < offsetTableStart) {
            throw corrupt(rowOffset, "fixed-width section ends at " + offsetTableStart + ", past the " + available
                    + " bytes available");
        }
        return header;
    }

    /** Where the variable-length bytes start, checked to lie within {@code source}. */
    private long variableDataStart(MemorySegment source, long rowOffset, int flags) {
        int offsetBytes = (flags & FLAG_WIDE_OFFSETS) != 0 ? RowFormat.WIDE_OFFSET_BYTES : RowFormat.NARROW_OFFSET_BYTES;
        long dataStart = offsetTableStart + (long) variableCount * offsetBytes
                + ((flags & FLAG_OUT_OF_ROW) != 0 ? outOfRowBitmapBytes : 0);
        long available = source.byteSize() - rowOffset;
        if (dataStart > available) {
            throw corrupt(rowOffset, "offset table ends at " + dataStart + ", past the " + available + " bytes available");
        }
        return dataStart;
    }

    /** The end offset of a variable-length value, from the row start; the table is known to fit. */
    private long readEndOffset(MemorySegment source, long rowOffset, int flags, int variableIndex) {
        if ((flags & FLAG_WIDE_OFFSETS) != 0) {
            return Integer.toUnsignedLong(source.get(ROW_INT,
                    rowOffset + offsetTableStart + (long) variableIndex * RowFormat.WIDE_OFFSET_BYTES));
        }
        return Short.toUnsignedInt(source.get(ROW_SHORT,
                rowOffset + offsetTableStart + (long) variableIndex * RowFormat.NARROW_OFFSET_BYTES));
    }

    /**
     * The bounds of a variable-length value as {@code start << 32 | end}, offsets from the row
     * start, checked to lie within the variable data and within {@code source}. Both fit 32 bits:
     * an end offset is at most a u32.
     */
    private long variableSpan(MemorySegment source, long rowOffset, int flags, int columnIndex) {
        int variableIndex = variableIndexes[columnIndex];
        long dataStart = variableDataStart(source, rowOffset, flags);
        long rowEnd = readEndOffset(source, rowOffset, flags, variableCount - 1);
        long available = bytesForRow(source, rowOffset);
        if (rowEnd < dataStart || rowEnd > available) {
            throw corrupt(rowOffset, "row ends at " + rowEnd + ", outside [" + dataStart + ", " + available + "]");
        }
        long start = variableIndex == 0 ? dataStart : readEndOffset(source, rowOffset, flags, variableIndex - 1);
        long end = readEndOffset(source, rowOffset, flags, variableIndex);
        if (start < dataStart || start > end || end > rowEnd) {
            throw corrupt(rowOffset, labels[columnIndex] + " spans [" + start + ", " + end + "), outside the variable data ["
                    + dataStart + ", " + rowEnd + ")");
        }
        return start << 32 | end;
    }

    /** The bytes a row at {@code rowOffset} may span: the rest of {@code source}, at most a row's limit. */
    private static long bytesForRow(MemorySegment source, long rowOffset) {
        return Math.min(source.byteSize() - rowOffset, RowFormat.MAX_ROW_BYTES);
    }

    /** Decodes one column of a row whose header {@link #checkHeader} accepted. */
    private Object decodeValue(MemorySegment source, long rowOffset, int flags, int columnIndex) {
        if (nullBit(source, rowOffset, columnIndex)) {
            return null;
        }
        long position = rowOffset + fixedOffsets[columnIndex];
        return switch (physicalTypes[columnIndex]) {
            case BOOLEAN -> readBoolean(source, rowOffset, columnIndex);
            case INT -> source.get(ROW_INT, position);
            case DATE -> Values.daysToDate(source.get(ROW_INT, position));
            case BIGINT -> source.get(ROW_LONG, position);
            case TIMESTAMP -> Values.microsToTimestamp(source.get(ROW_LONG, position));
            case DOUBLE -> Double.longBitsToDouble(source.get(ROW_LONG, position));
            case DECIMAL64 -> BigDecimal.valueOf(source.get(ROW_LONG, position), scales[columnIndex]);
            case DECIMAL128 -> ColumnValues.decimalOf(
                    source.get(ROW_LONG, position + Long.BYTES), source.get(ROW_LONG, position), scales[columnIndex]);
            case UUID -> new java.util.UUID(source.get(UUID_HALF, position), source.get(UUID_HALF, position + Long.BYTES));
            case VARCHAR, CHAR, VARBINARY, BINARY -> decodeVariable(source, rowOffset, flags, columnIndex);
        };
    }

    private Object decodeVariable(MemorySegment source, long rowOffset, int flags, int columnIndex) {
        long span = variableSpan(source, rowOffset, flags, columnIndex);
        long start = span >>> 32;
        long length = (span & 0xFFFF_FFFFL) - start;
        if (!outOfRowBit(source, rowOffset, flags, variableIndexes[columnIndex])) {
            return isBinary(columnIndex) ? source.asSlice(rowOffset + start, length).toArray(ValueLayout.JAVA_BYTE)
                    : Utf8.decode(source, rowOffset + start, (int) length);
        }
        if (length != LOB_REF_BYTES) {
            throw corrupt(rowOffset, labels[columnIndex] + " is out of row but holds " + length + " bytes instead of a "
                    + LOB_REF_BYTES + "-byte reference");
        }
        long firstPageId = source.get(ROW_LONG, rowOffset + start);
        long byteLength = source.get(ROW_LONG, rowOffset + start + Long.BYTES);
        if (firstPageId < 0 || byteLength < 0) {
            throw corrupt(rowOffset, labels[columnIndex] + " refers to page " + firstPageId + " for " + byteLength + " bytes");
        }
        return new LobRef(firstPageId, byteLength);
    }

    private boolean readBoolean(MemorySegment source, long rowOffset, int columnIndex) {
        byte value = source.get(ValueLayout.JAVA_BYTE, rowOffset + fixedOffsets[columnIndex]);
        if (value != 0 && value != 1) {
            throw corrupt(rowOffset, labels[columnIndex] + " holds byte " + value + ", not 0 or 1");
        }
        return value == 1;
    }

    private static boolean nullBit(MemorySegment source, long rowOffset, int columnIndex) {
        byte bits = source.get(ValueLayout.JAVA_BYTE, rowOffset + HEADER_BYTES + (columnIndex >>> 3));
        return (bits & 1 << (columnIndex & 7)) != 0;
    }

    private boolean outOfRowBit(MemorySegment source, long rowOffset, int flags, int variableIndex) {
        if ((flags & FLAG_OUT_OF_ROW) == 0) {
            return false;
        }
        long bitmap = variableDataStart(source, rowOffset, flags) - outOfRowBitmapBytes;
        byte bits = source.get(ValueLayout.JAVA_BYTE, rowOffset + bitmap + (variableIndex >>> 3));
        return (bits & 1 << (variableIndex & 7)) != 0;
    }

    // ---- The layout, for CompressedRowCodec, which transcodes rows of this format ----------------

    int columnCount() {
        return columnCount;
    }

    PhysicalType physicalType(int columnIndex) {
        return physicalTypes[columnIndex];
    }

    int fixedOffset(int columnIndex) {
        return fixedOffsets[columnIndex];
    }

    int variableIndex(int columnIndex) {
        return variableIndexes[columnIndex];
    }

    int variableCount() {
        return variableCount;
    }

    int offsetTableStart() {
        return offsetTableStart;
    }

    int outOfRowBitmapBytes() {
        return outOfRowBitmapBytes;
    }

    int characterLimit(int columnIndex) {
        return characterLimits[columnIndex];
    }

    /** The checked header byte of the row at {@code rowOffset} (version, flags, column count, fixed part in bounds). */
    int checkedHeader(MemorySegment source, long rowOffset) {
        return checkHeader(source, rowOffset);
    }

    /** A variable-length value's checked span, {@code start << 32 | end} from the row start. */
    long checkedSpan(MemorySegment source, long rowOffset, int flags, int columnIndex) {
        return variableSpan(source, rowOffset, flags, columnIndex);
    }

    boolean nullAt(MemorySegment source, long rowOffset, int columnIndex) {
        return nullBit(source, rowOffset, columnIndex);
    }

    boolean outOfRowAt(MemorySegment source, long rowOffset, int flags, int columnIndex) {
        return outOfRowBit(source, rowOffset, flags, variableIndexes[columnIndex]);
    }

    // ---- Shared --------------------------------------------------------------------------------

    private SqlType.DecimalType decimalType(int columnIndex) {
        return (SqlType.DecimalType) schema.column(columnIndex).type();
    }

    private void checkPrimitive(int columnIndex, PhysicalType first, PhysicalType second, String accessor) {
        Objects.checkIndex(columnIndex, columnCount);
        if (physicalTypes[columnIndex] != first && physicalTypes[columnIndex] != second) {
            throw wrongAccessor(columnIndex, accessor);
        }
    }

    private void checkVariable(int columnIndex, String accessor) {
        Objects.checkIndex(columnIndex, columnCount);
        if (variableIndexes[columnIndex] < 0) {
            throw wrongAccessor(columnIndex, accessor);
        }
    }

    private IllegalArgumentException wrongAccessor(int columnIndex, String accessor) {
        return new IllegalArgumentException(accessor + " does not apply to " + labels[columnIndex]);
    }

    private String columnNames() {
        StringBuilder names = new StringBuilder("(");
        for (int columnIndex = 0; columnIndex < columnCount; columnIndex++) {
            names.append(columnIndex == 0 ? "" : ", ").append(schema.column(columnIndex).name());
        }
        return names.append(')').toString();
    }

    private static ColumbaException corrupt(long rowOffset, String detail) {
        return new ColumbaException(ErrorCode.INDEX_CORRUPT, "corrupt row at offset " + rowOffset + ": " + detail);
    }

    private static int bitmapBytes(int bits) {
        return (bits + 7) >>> 3;
    }

    private static void setBit(MemorySegment target, long bitmap, int bit) {
        long position = bitmap + (bit >>> 3);
        target.set(ValueLayout.JAVA_BYTE, position, (byte) (target.get(ValueLayout.JAVA_BYTE, position) | 1 << (bit & 7)));
    }

    private static void fillZero(MemorySegment target, long position, int count) {
        for (int index = 0; index < count; index++) {
            target.set(ValueLayout.JAVA_BYTE, position + index, (byte) 0);
        }
    }
}
