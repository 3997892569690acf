package dev.columba.columnstore.encoding;

import static dev.columba.columnstore.encoding.SegmentFormat.LE_INT;
import static dev.columba.columnstore.encoding.SegmentFormat.LE_LONG;
import static dev.columba.columnstore.encoding.SegmentFormat.STRING_OFFSET_BYTES;

import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;

/**
 * A {@link EncodingKind#PLAIN} body: fixed-width stored values back to back, or for strings
 * {@code rowCount} u32 end offsets followed by the UTF-8 bytes. Fixed-width kinds whose stored form
 * is Arrow's layout decode with one copy; strings copy their bytes in one piece and rebase the
 * offsets, checking each against its neighbours and the data length.
 *
 * @param valuesOffset where the values (fixed width) or the offset table (strings) start
 * @param dataOffset strings: where the UTF-8 bytes start; others: equal to valuesOffset
 * @param dataLength strings: the length of the UTF-8 bytes
 */
record PlainBody(SqlType type, ValueKind kind, MemorySegment bytes, long valuesOffset, long dataOffset,
                 long dataLength, int rowCount, String origin) implements SegmentBody {

    /** Checks and opens the body at {@code offset}, which must end exactly at {@code limit}. */
    static PlainBody read(SqlType type, MemorySegment bytes, long offset, long limit, int rowCount, String origin) {
        ValueKind kind = ValueKind.of(type);
        if (kind == ValueKind.STRING) {
            long dataOffset = offset + (long) STRING_OFFSET_BYTES * rowCount;
            if (dataOffset > limit) {
                throw SegmentFormat.corrupt(origin, rowCount + " string offsets at offset " + offset + " need "
                        + (dataOffset - offset) + " bytes, " + (limit - offset) + " remain");
            }
            long dataLength = limit - dataOffset;
            long lastEnd = rowCount == 0 ? 0 : Integer.toUnsignedLong(bytes.get(LE_INT, dataOffset - STRING_OFFSET_BYTES));
            if (lastEnd != dataLength) {
                throw SegmentFormat.corrupt(origin, "the last string ends at " + lastEnd + " (offset "
                        + (dataOffset - STRING_OFFSET_BYTES) + ") but " + dataLength + " string bytes follow");
            }
            return new PlainBody(type, kind, bytes, offset, dataOffset, dataLength, rowCount, origin);
        }
        long needed = (long) kind.width() * rowCount;
        if (needed != limit - offset) {
            throw SegmentFormat.corrupt(origin, rowCount + " plain " + kind + " values at offset " + offset + " need "
                    + needed + " bytes, the segment has " + (limit - offset));
        }
        return new PlainBody(type, kind, bytes, offset, offset, needed, rowCount, origin);
    }

    @Override
    public void decode(int fromRow, int count, VectorWriter target, int targetIndex) {
        if (count == 0) {
            return;
        }
        switch (kind) {
            case INT, DATE, BIGINT, DOUBLE, TIMESTAMP, DECIMAL128 ->
                    target.copyFixed(targetIndex, bytes, valuesOffset + (long) fromRow * kind.width(), count);
            case BOOLEAN, DECIMAL64 -> {
                long[] scratch = new long[Math.min(count, CHUNK)];
                for (int done = 0; done < count; done += scratch.length) {
                    int length = Math.min(scratch.length, count - done);
                    for (int position = 0; position < length; position++) {
                        scratch[position] = kind.readLong(bytes, valuesOffset + (long) (fromRow + done + position) * kind.width());
                    }
                    target.putLongs(targetIndex + done, scratch, length);
                }
            }
            case STRING -> {
                long first = start(fromRow);
                long last = end(fromRow + count - 1);
                if (first > last || last > dataLength) {
                    throw SegmentFormat.corrupt(origin, "strings of rows " + fromRow + ".." + (fromRow + count - 1)
                            + " span " + first + ".." + last + " of " + dataLength + " bytes");
                }
                long base = target.reserveStringBytes(last - first);
                MemorySegment.copy(bytes, dataOffset + first, target.data(), base, last - first);
                long previous = first;
                for (int position = 0; position < count; position++) {
                    long end = end(fromRow + position);
                    if (end < previous || end > last) {
                        throw SegmentFormat.corrupt(origin, "string of row " + (fromRow + position) + " ends at " + end
                                + " (offset " + (valuesOffset + (long) (fromRow + position) * STRING_OFFSET_BYTES)
                                + "), outside " + previous + ".." + last);
                    }
                    target.setStringEnd(targetIndex + position, base + end - first);
                    previous = end;
                }
            }
        }
    }

    private long end(int row) {
        return Integer.toUnsignedLong(bytes.get(LE_INT, valuesOffset + (long) row * STRING_OFFSET_BYTES));
    }

    private long start(int row) {
        return row == 0 ? 0 : end(row - 1);
    }

    /** The checked start of row {@code row}'s string; its length is {@link #checkedLength}. */
    private long checkedStart(int row) {
        long start = start(row);
        long end = end(row);
        if (start > end || end > dataLength) {
            throw SegmentFormat.corrupt(origin, "string of row " + row + " spans " + start + ".." + end + " (offset "
                    + (valuesOffset + (long) row * STRING_OFFSET_BYTES) + ") of " + dataLength + " bytes");
        }
        return start;
    }

    private int checkedLength(int row, long start) {
        return (int) (end(row) - start);
    }

    @Override
    public Object value(int row) {
        return switch (kind) {
            case BOOLEAN, INT, BIGINT, DOUBLE, DECIMAL64, DATE, TIMESTAMP ->
                    ValueKind.fromLong(type, kind.readLong(bytes, valuesOffset + (long) row * kind.width()));
            case DECIMAL128 -> ValueKind.wideDecimal(type, bytes.get(LE_LONG, valuesOffset + row * 16L + 8),
                    bytes.get(LE_LONG, valuesOffset + row * 16L));
            case STRING -> {
                long start = checkedStart(row);
                yield ValueKind.fromBytes(type, bytes, dataOffset + start, checkedLength(row, start));
            }
        };
    }

    @Override
    public RowFilter filter(ColumnPredicate predicate) {
        return switch (kind) {
            case BOOLEAN, INT, BIGINT, DOUBLE, DECIMAL64, DATE, TIMESTAMP -> {
                LongCondition condition = LongCondition.bind(type, predicate);
                yield switch (condition.shape) {
                    case NONE -> RowFilter.NONE;
                    case ALL -> RowFilter.ALL;
                    case RANGE, NOT_EQUAL, ONE_OF -> new PerRow() {
                        @Override
                        public boolean matches(int row) {
                            return condition.test(kind.sqlKey(kind.readLong(bytes, valuesOffset + (long) row * kind.width())));
                        }
                    };
                };
            }
            case DECIMAL128 -> {
                WideCondition condition = WideCondition.bind(type, predicate);
                yield switch (condition.shape) {
                    case NONE -> RowFilter.NONE;
                    case ALL -> RowFilter.ALL;
                    case RANGE, NOT_EQUAL, ONE_OF -> new PerRow() {
                        @Override
                        public boolean matches(int row) {
                            return condition.test(bytes.get(LE_LONG, valuesOffset + row * 16L + 8),
                                    bytes.get(LE_LONG, valuesOffset + row * 16L));
                        }
                    };
                };
            }
            case STRING -> {
                StringCondition condition = StringCondition.bind(type, predicate);
                yield new PerRow() {
                    @Override
                    public boolean matches(int row) {
                        long start = checkedStart(row);
                        return condition.test(bytes, dataOffset + start, checkedLength(row, start));
                    }
                };
            }
        };
    }

    /** A filter that tests every row. */
    private abstract static class PerRow implements RowFilter {
        @Override
        public int select(int fromRow, int count, int[] selection) {
            int selected = 0;
            for (int rowInRange = 0; rowInRange < count; rowInRange++) {
                selection[selected] = rowInRange;
                selected += matches(fromRow + rowInRange) ? 1 : 0;
            }
            return selected;
        }
    }
}
