package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.Comparisons;
import dev.columba.core.schema.TableSchema;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.ByteFunctionHelpers;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/**
 * The order of two rows of a {@link RowBuffer} under a list of {@link SortKey}s, reading the
 * vectors' buffers directly (no values are materialized). Values order as SQL orders them (see
 * {@link Comparisons}). Buffers move when a buffer grows, so {@link #bind} again after appending.
 */
final class RowOrder {
    private final List<SortKey> keys;
    private final Layout[] layouts;
    private final ArrowBuf[] validity;
    private final ArrowBuf[] data;
    private final ArrowBuf[] offsets;

    RowOrder(List<SortKey> keys, TableSchema schema) {
        this.keys = List.copyOf(keys);
        this.layouts = new Layout[keys.size()];
        for (int key = 0; key < keys.size(); key++) {
            int column = keys.get(key).column();
            if (column >= schema.size()) {
                throw new ColumbaException(ErrorCode.INTERNAL, "sort key column " + column + " is past the "
                        + schema.size() + " input columns");
            }
            layouts[key] = Layout.of(schema.column(column).type());
        }
        this.validity = new ArrowBuf[keys.size()];
        this.data = new ArrowBuf[keys.size()];
        this.offsets = new ArrowBuf[keys.size()];
    }

    /** Reads the current buffers of {@code buffer}'s key columns. */
    void bind(RowBuffer buffer) {
        for (int key = 0; key < keys.size(); key++) {
            bindKey(key, buffer.column(keys.get(key).column()));
        }
    }

    /** Reads the buffers of {@code batch}'s key columns (rows are then vector positions); valid while the batch is. */
    void bind(Batch batch) {
        for (int key = 0; key < keys.size(); key++) {
            bindKey(key, batch.column(keys.get(key).column()));
        }
    }

    private void bindKey(int key, FieldVector vector) {
        validity[key] = vector.getValidityBuffer();
        data[key] = vector.getDataBuffer();
        offsets[key] = layouts[key] == Layout.UTF8 ? vector.getOffsetBuffer() : null;
    }

    /** Whether row {@code row} is NULL in some key column. */
    boolean anyNull(int row) {
        for (ArrowBuf bits : validity) {
            if (BitVectorHelper.get(bits, row) == 0) {
                return true;
            }
        }
        return false;
    }

    /** Negative, zero or positive as row {@code left} sorts before, with or after row {@code right}. */
    int compare(int left, int right) {
        return compare(left, this, right);
    }

    /**
     * Negative, zero or positive as row {@code left} of this order's buffer sorts before, with or
     * after row {@code right} of {@code other}'s, an order by the same keys over a buffer of the
     * same columns (a parallel sort's merge compares the workers' sorted runs so).
     */
    int compare(int left, RowOrder other, int right) {
        for (int key = 0; key < layouts.length; key++) {
            SortKey sortKey = keys.get(key);
            boolean leftNull = BitVectorHelper.get(validity[key], left) == 0;
            boolean rightNull = BitVectorHelper.get(other.validity[key], right) == 0;
            int comparison;
            if (leftNull || rightNull) {
                if (leftNull && rightNull) {
                    continue;
                }
                return leftNull == sortKey.nullsFirst() ? -1 : 1;
            }
            comparison = compareValues(key, left, other, right);
            if (comparison != 0) {
                return sortKey.descending() ? -comparison : comparison;
            }
        }
        return 0;
    }

    private int compareValues(int key, int left, RowOrder other, int right) {
        ArrowBuf values = data[key];
        ArrowBuf otherValues = other.data[key];
        return switch (layouts[key]) {
            case BIT -> Integer.compare(BitVectorHelper.get(values, left), BitVectorHelper.get(otherValues, right));
            case INT32 -> Integer.compare(values.getInt((long) left * 4), otherValues.getInt((long) right * 4));
            case INT64 -> Long.compare(values.getLong((long) left * 8), otherValues.getLong((long) right * 8));
            case FLOAT64 -> Comparisons.compareDoubles(values.getDouble((long) left * 8), otherValues.getDouble((long) right * 8));
            case DECIMAL128 -> {
                long leftHigh = values.getLong((long) left * 16 + 8);
                long rightHigh = otherValues.getLong((long) right * 16 + 8);
                yield leftHigh != rightHigh
                        ? Long.compare(leftHigh, rightHigh)
                        : Long.compareUnsigned(values.getLong((long) left * 16), otherValues.getLong((long) right * 16));
            }
            case UTF8 -> compareStrings(key, left, other, right);
        };
    }

    private int compareStrings(int key, int left, RowOrder other, int right) {
        ArrowBuf offsetBuffer = offsets[key];
        ArrowBuf otherOffsets = other.offsets[key];
        return ByteFunctionHelpers.compare(data[key], offsetBuffer.getInt((long) left * 4), offsetBuffer.getInt((long) left * 4 + 4),
                other.data[key], otherOffsets.getInt((long) right * 4), otherOffsets.getInt((long) right * 4 + 4));
    }

    /**
     * Sorts {@code rows[0, count)} (row numbers) stably by this order: a merge sort with
     * {@code scratch} (at least {@code count} long) as its second array. Ties keep their order.
     */
    void sort(int[] rows, int[] scratch, int count) {
        int[] from = rows;
        int[] to = scratch;
        for (int width = 1; width < count; width *= 2) {
            for (int start = 0; start < count; start += 2 * width) {
                int middle = Math.min(start + width, count);
                int end = Math.min(start + 2 * width, count);
                int left = start;
                int right = middle;
                int out = start;
                while (left < middle && right < end) {
                    to[out++] = compare(from[right], from[left]) < 0 ? from[right++] : from[left++];
                }
                while (left < middle) {
                    to[out++] = from[left++];
                }
                while (right < end) {
                    to[out++] = from[right++];
                }
            }
            int[] swap = from;
            from = to;
            to = swap;
        }
        if (from != rows) {
            System.arraycopy(from, 0, rows, 0, count);
        }
    }
}
