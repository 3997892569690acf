package dev.columba.columnstore.build;

import dev.columba.core.batch.VectorValues;
import dev.columba.core.type.SqlType;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * Copies a run of a {@link ColumnBatch} column into the Arrow vector a rowgroup accumulates it
 * in, at rows {@code firstRow} on: fixed-width values by a loop over the primitive array straight
 * into the data buffer, text as one copy of its bytes plus its offsets, validity bits a byte at a
 * time where the run has no NULL. What {@link VectorValues#set} does for one boxed value, for
 * many unboxed ones. A NULL's data slot is written as zero, as {@link VectorValues#setNull}
 * leaves it. BOOLEAN and wide DECIMAL go value by value through {@link VectorValues#set}.
 */
final class ColumnFill {
    private ColumnFill() {
    }

    /** Rows {@code [from, from + count)} of {@code batch}'s column {@code column} into {@code vector}. */
    static void fill(FieldVector vector, SqlType type, ColumnBatch batch, int column, int from, int count, int firstRow) {
        if (count == 0) {
            return;
        }
        switch (type) {
            case SqlType.IntegerType ignored -> fillInts(vector, batch, column, from, count, firstRow);
            case SqlType.DateType ignored -> fillInts(vector, batch, column, from, count, firstRow);
            case SqlType.BigintType ignored -> fillLongs(vector, batch, column, from, count, firstRow);
            case SqlType.TimestampType ignored -> fillLongs(vector, batch, column, from, count, firstRow);
            case SqlType.DoubleType ignored -> fillDoubles(vector, batch, column, from, count, firstRow);
            case SqlType.DecimalType decimal when decimal.precision() <= 18 ->
                    fillDecimals((DecimalVector) vector, batch, column, from, count, firstRow);
            case SqlType.VarcharType ignored -> fillText((VarCharVector) vector, batch, column, from, count, firstRow);
            case SqlType.CharType ignored -> fillText((VarCharVector) vector, batch, column, from, count, firstRow);
            default -> {
                for (int row = from; row < from + count; row++) {
                    VectorValues.set(vector, firstRow + row - from, type, batch.value(column, row));
                }
            }
        }
    }

    private static void ensureFixedCapacity(FieldVector vector, int rows) {
        while (vector.getValueCapacity() < rows) {
            vector.reAlloc();
        }
    }

    private static void fillInts(FieldVector vector, ColumnBatch batch, int column, int from, int count, int firstRow) {
        ensureFixedCapacity(vector, firstRow + count);
        ArrowBuf data = ((BaseFixedWidthVector) vector).getDataBuffer();
        long[] values = batch.longs(column);
        boolean[] nulls = batch.nulls(column);
        boolean mayHaveNulls = batch.mayHaveNulls(column);
        for (int index = 0; index < count; index++) {
            long value = values[from + index];
            if (mayHaveNulls && nulls[from + index]) {
                value = 0;
            }
            data.setInt((long) (firstRow + index) * Integer.BYTES, (int) value);
        }
        setValidity(vector.getValidityBuffer(), batch, column, from, count, firstRow);
    }

    private static void fillLongs(FieldVector vector, ColumnBatch batch, int column, int from, int count, int firstRow) {
        ensureFixedCapacity(vector, firstRow + count);
        ArrowBuf data = ((BaseFixedWidthVector) vector).getDataBuffer();
        long[] values = batch.longs(column);
        boolean[] nulls = batch.nulls(column);
        boolean mayHaveNulls = batch.mayHaveNulls(column);
        for (int index = 0; index < count; index++) {
            long value = values[from + index];
            if (mayHaveNulls && nulls[from + index]) {
                value = 0;
            }
            data.setLong((long) (firstRow + index) * Long.BYTES, value);
        }
        setValidity(vector.getValidityBuffer(), batch, column, from, count, firstRow);
    }

    private static void fillDoubles(FieldVector vector, ColumnBatch batch, int column, int from, int count,
                                    int firstRow) {
        ensureFixedCapacity(vector, firstRow + count);
        ArrowBuf data = ((BaseFixedWidthVector) vector).getDataBuffer();
        double[] values = batch.doubles(column);
        boolean[] nulls = batch.nulls(column);
        boolean mayHaveNulls = batch.mayHaveNulls(column);
        for (int index = 0; index < count; index++) {
            double value = values[from + index];
            if (mayHaveNulls && nulls[from + index]) {
                value = 0;
            }
            data.setDouble((long) (firstRow + index) * Double.BYTES, value);
        }
        setValidity(vector.getValidityBuffer(), batch, column, from, count, firstRow);
    }

    /** 128-bit little-endian unscaled values: the low half the value, the high half its sign. */
    private static void fillDecimals(DecimalVector vector, ColumnBatch batch, int column, int from, int count,
                                     int firstRow) {
        ensureFixedCapacity(vector, firstRow + count);
        ArrowBuf data = vector.getDataBuffer();
        long[] values = batch.longs(column);
        boolean[] nulls = batch.nulls(column);
        boolean mayHaveNulls = batch.mayHaveNulls(column);
        for (int index = 0; index < count; index++) {
            long value = values[from + index];
            if (mayHaveNulls && nulls[from + index]) {
                value = 0;
            }
            long offset = (long) (firstRow + index) * DecimalVector.TYPE_WIDTH;
            data.setLong(offset, value);
            data.setLong(offset + Long.BYTES, value >> 63);
        }
        setValidity(vector.getValidityBuffer(), batch, column, from, count, firstRow);
    }

    /**
     * The run's UTF-8 bytes in one copy after the vector's last value, and its end offsets shifted
     * to the vector's data; the vector's last set row is advanced, so that
     * {@code setValueCount} finds no holes to fill.
     */
    private static void fillText(VarCharVector vector, ColumnBatch batch, int column, int from, int count,
                                 int firstRow) {
        while (vector.getValueCapacity() < firstRow + count) {
            vector.reallocValidityAndOffsetBuffers();
        }
        ArrowBuf offsets = vector.getOffsetBuffer();
        int[] ends = batch.ends(column);
        int runStart = batch.valueStart(column, from);
        int runBytes = ends[from + count - 1] - runStart;
        int base = offsets.getInt((long) firstRow * VarCharVector.OFFSET_WIDTH);
        long needed = (long) base + runBytes;
        if (vector.getDataBuffer().capacity() < needed) {
            vector.reallocDataBuffer(needed);
        }
        vector.getDataBuffer().setBytes(base, batch.bytes(column), runStart, runBytes);
        int shift = base - runStart;
        for (int index = 0; index < count; index++) {
            offsets.setInt((long) (firstRow + index + 1) * VarCharVector.OFFSET_WIDTH, ends[from + index] + shift);
        }
        setValidity(vector.getValidityBuffer(), batch, column, from, count, firstRow);
        vector.setLastSet(firstRow + count - 1);
    }

    /** Validity bits of rows {@code [firstRow, firstRow + count)}: set for each non-NULL value (they start clear). */
    private static void setValidity(ArrowBuf validity, ColumnBatch batch, int column, int from, int count,
                                    int firstRow) {
        if (batch.mayHaveNulls(column)) {
            boolean[] nulls = batch.nulls(column);
            for (int index = 0; index < count; index++) {
                if (!nulls[from + index]) {
                    BitVectorHelper.setBit(validity, firstRow + index);
                }
            }
            return;
        }
        int row = firstRow;
        int end = firstRow + count;
        while (row < end && (row & 7) != 0) {
            BitVectorHelper.setBit(validity, row++);
        }
        int wholeBytes = (end - row) >>> 3;
        if (wholeBytes > 0) {
            validity.setOne((long) (row >>> 3), wholeBytes);
            row += wholeBytes << 3;
        }
        while (row < end) {
            BitVectorHelper.setBit(validity, row++);
        }
    }
}
