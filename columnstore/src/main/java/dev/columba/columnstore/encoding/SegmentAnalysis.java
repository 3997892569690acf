package dev.columba.columnstore.encoding;

import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.apache.arrow.vector.FieldVector;

/**
 * What one pass over a segment's input collects for every encoding's estimate and for the
 * segment's metadata: NULLs (and their bitmap), the range and runs of stored longs, string bytes,
 * the extremes, and with dictionaries every row's id with the range and runs of ids. Computed once
 * per segment; the chooser then asks each encoding for its exact size.
 */
final class SegmentAnalysis {
    private static final ValueLayout.OfLong BIG_ENDIAN_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN);
    final VectorSource source;
    final SqlType type;
    final ValueKind kind;
    final int rowCount;
    final int nullCount;
    /** Bit {@code row % 8} of byte {@code row / 8} set when the row is NULL; null when none is. */
    final byte[] nullBitmap;

    /** Stored longs ({@code fitsLong} kinds): signed extremes, 0 when every row is NULL. */
    long minStored;
    long maxStored;
    int runCount;
    int maxRunLength;

    /** Rows holding the smallest and largest value in storage order, -1 when every row is NULL. */
    int minRow = -1;
    int maxRow = -1;

    /** Strings: total UTF-8 bytes. */
    long stringBytes;

    final FallbackReason fallbackReason;
    /** The dictionaries segment ids may refer to; null without dictionaries. */
    final Dictionary primary;
    final Dictionary secondary;
    /** Every row's id ({@code -1} for NULL rows), or null when dictionary encoding does not apply. */
    int[] ids;
    long minId;
    long maxId;
    int idRunCount;
    int idMaxRunLength;
    /** Whether some id is a secondary one, so the segment needs the secondary dictionary. */
    boolean usesSecondary;

    SegmentAnalysis(FieldVector vector, SqlType type, DictionarySource dictionaries) {
        this.source = new VectorSource(vector, type);
        this.type = type;
        this.kind = source.kind;
        this.rowCount = source.rowCount;
        if (rowCount > SegmentFormat.MAX_ROWS) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "a segment holds at most " + SegmentFormat.MAX_ROWS
                    + " rows, got " + rowCount);
        }
        int nulls = 0;
        byte[] bitmap = null;
        for (int row = 0; row < rowCount; row++) {
            if (source.isNull(row)) {
                if (bitmap == null) {
                    bitmap = new byte[(int) SegmentFormat.nullBitmapBytes(rowCount)];
                }
                bitmap[row >>> 3] |= (byte) (1 << (row & 7));
                nulls++;
            }
        }
        this.nullCount = nulls;
        this.nullBitmap = bitmap;
        switch (kind) {
            case BOOLEAN, INT, BIGINT, DOUBLE, DECIMAL64, DATE, TIMESTAMP -> analyzeLongs();
            case DECIMAL128 -> analyzeWide();
            // With the builder's ids, the extremes come from the ids (analyzeIds), not from comparing strings.
            case STRING -> analyzeStrings(!(dictionaries instanceof DictionarySource.Dictionaries given
                    && given.rowIds() != null));
        }
        switch (dictionaries) {
            case DictionarySource.NoDictionary ignored -> {
                fallbackReason = FallbackReason.NONE;
                primary = null;
                secondary = null;
            }
            case DictionarySource.Fallback fallback -> {
                fallbackReason = fallback.reason();
                primary = null;
                secondary = null;
            }
            case DictionarySource.Dictionaries given -> {
                fallbackReason = FallbackReason.NONE;
                primary = given.primary();
                secondary = given.secondary();
                analyzeIds(given.rowIds());
            }
        }
    }

    boolean isNull(int row) {
        return nullBitmap != null && (nullBitmap[row >>> 3] & (1 << (row & 7))) != 0;
    }

    /** Rows of stored longs {@link #analyzeLongs} reads from the vector at once. */
    private static final int LONGS_CHUNK = 4_096;

    private void analyzeLongs() {
        RunCounter runs = new RunCounter();
        boolean any = false;
        long minKey = 0;
        long maxKey = 0;
        long[] chunk = new long[Math.min(rowCount, LONGS_CHUNK)];
        for (int row = 0; row < rowCount; row++) {
            int inChunk = row % LONGS_CHUNK;
            if (inChunk == 0) {
                source.storedLongs(row, Math.min(LONGS_CHUNK, rowCount - row), chunk);
            }
            if (isNull(row)) {
                runs.addNull();
                continue;
            }
            long stored = chunk[inChunk];
            if (kind == ValueKind.DECIMAL64 && source.decimalHigh(row) != stored >> 63) {
                throw new ColumbaException(ErrorCode.VALUE_OUT_OF_RANGE, type.sqlName() + " row " + row
                        + " holds a value beyond 18 digits");
            }
            runs.add(stored);
            long key = kind.storageKey(kind.canonicalLong(stored));
            if (!any) {
                any = true;
                minStored = maxStored = stored;
                minKey = maxKey = key;
                minRow = maxRow = row;
                continue;
            }
            minStored = Math.min(minStored, stored);
            maxStored = Math.max(maxStored, stored);
            if (key < minKey) {
                minKey = key;
                minRow = row;
            }
            if (key > maxKey) {
                maxKey = key;
                maxRow = row;
            }
        }
        runs.finish();
        runCount = runs.runCount();
        maxRunLength = runs.maxLength();
    }

    private void analyzeWide() {
        for (int row = 0; row < rowCount; row++) {
            if (isNull(row)) {
                continue;
            }
            if (minRow < 0) {
                minRow = maxRow = row;
                continue;
            }
            if (compareWide(row, minRow) < 0) {
                minRow = row;
            }
            if (compareWide(row, maxRow) > 0) {
                maxRow = row;
            }
        }
    }

    private int compareWide(int left, int right) {
        return ValueKind.compareWide(source.decimalHigh(left), source.decimalLow(left),
                source.decimalHigh(right), source.decimalLow(right));
    }

    /**
     * Bytes and extremes of the strings. Each value's first eight bytes, as an unsigned big-endian
     * long padded with zeros, decide most comparisons with the current extremes without reading
     * the strings: where two such prefixes differ, they order the strings as
     * {@link ValueKind#compareUnsigned} does (a string that ends inside the prefix pads with zeros,
     * below any byte the other may have there, or equal to a zero byte, which then is no difference).
     */
    private void analyzeStrings(boolean extremes) {
        if (!extremes) {
            for (int row = 0; row < rowCount; row++) {
                if (!isNull(row)) {
                    stringBytes += source.stringLength(row);
                }
            }
            return;
        }
        MemorySegment data = source.stringData();
        long minPrefix = 0;
        long maxPrefix = 0;
        for (int row = 0; row < rowCount; row++) {
            if (isNull(row)) {
                continue;
            }
            int start = source.stringStart(row);
            int length = source.stringLength(row);
            stringBytes += length;
            long prefix = prefix(data, start, length);
            if (minRow < 0) {
                minRow = maxRow = row;
                minPrefix = maxPrefix = prefix;
                continue;
            }
            int againstMin = Long.compareUnsigned(prefix, minPrefix);
            if (againstMin < 0 || againstMin == 0 && compareStrings(data, row, minRow) < 0) {
                minRow = row;
                minPrefix = prefix;
            }
            int againstMax = Long.compareUnsigned(prefix, maxPrefix);
            if (againstMax > 0 || againstMax == 0 && compareStrings(data, row, maxRow) > 0) {
                maxRow = row;
                maxPrefix = prefix;
            }
        }
    }

    private static long prefix(MemorySegment data, long start, int length) {
        if (length >= Long.BYTES) {
            return data.get(BIG_ENDIAN_LONG, start);
        }
        long prefix = 0;
        for (int index = 0; index < Long.BYTES; index++) {
            prefix = prefix << 8 | (index < length ? Byte.toUnsignedLong(data.get(ValueLayout.JAVA_BYTE, start + index)) : 0);
        }
        return prefix;
    }

    private int compareStrings(MemorySegment data, int left, int right) {
        return ValueKind.compareUnsigned(data, source.stringStart(left), source.stringLength(left),
                data, source.stringStart(right), source.stringLength(right));
    }

    /** Every row's id, its range and runs; {@code knownIds}: the builder's ids, else each value is looked up. */
    private void analyzeIds(int[] knownIds) {
        Dictionary any = primary != null ? primary : secondary;
        if (!any.type().equals(type)) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE, "dictionaries of " + any.type().sqlName()
                    + " cannot encode a " + type.sqlName() + " segment");
        }
        if (nullCount == rowCount) {
            return;
        }
        int primaryCount = primary == null ? 0 : primary.entryCount();
        Dictionary.Lookup primaryLookup = primary == null ? null : primary.lookup();
        Dictionary.Lookup secondaryLookup = secondary == null ? null : secondary.lookup();
        if (knownIds != null && knownIds.length < rowCount) {
            throw new IllegalArgumentException("ids of " + knownIds.length + " rows for a segment of " + rowCount);
        }
        int[] rowIds = new int[rowCount];
        RunCounter runs = new RunCounter();
        minId = Long.MAX_VALUE;
        maxId = Long.MIN_VALUE;
        // The rows of the smallest and largest id, the smallest secondary and the largest primary id.
        int minIdRow = -1;
        int maxIdRow = -1;
        long minSecondaryId = Long.MAX_VALUE;
        int minSecondaryRow = -1;
        long maxPrimaryId = Long.MIN_VALUE;
        int maxPrimaryRow = -1;
        for (int row = 0; row < rowCount; row++) {
            if (isNull(row)) {
                rowIds[row] = -1;
                runs.addNull();
                continue;
            }
            int id;
            if (knownIds != null) {
                id = knownIds[row];
                rowIds[row] = id;
                runs.add(id);
                if (id < minId) {
                    minId = id;
                    minIdRow = row;
                }
                if (id > maxId) {
                    maxId = id;
                    maxIdRow = row;
                }
                if (id >= primaryCount && id < minSecondaryId) {
                    minSecondaryId = id;
                    minSecondaryRow = row;
                }
                if (id < primaryCount && id > maxPrimaryId) {
                    maxPrimaryId = id;
                    maxPrimaryRow = row;
                }
                continue;
            }
            id = primaryLookup == null ? Dictionary.NOT_FOUND : primaryLookup.indexOf(source.vector, row);
            if (id == Dictionary.NOT_FOUND) {
                int secondaryIndex = secondaryLookup == null ? Dictionary.NOT_FOUND : secondaryLookup.indexOf(source.vector, row);
                if (secondaryIndex == Dictionary.NOT_FOUND) {
                    throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "row " + row + " of the " + type.sqlName()
                            + " segment holds a value in neither " + primary + " nor " + secondary);
                }
                id = primaryCount + secondaryIndex;
            }
            rowIds[row] = id;
            runs.add(id);
            minId = Math.min(minId, id);
            maxId = Math.max(maxId, id);
        }
        runs.finish();
        if (knownIds != null && kind == ValueKind.STRING) {
            // Ids follow the values' order within each dictionary, not across the two: the smallest
            // value is the smallest primary one or the smallest secondary one, the largest likewise.
            minRow = minIdRow;
            if (minId < primaryCount && minSecondaryRow >= 0
                    && compareStrings(source.stringData(), minSecondaryRow, minRow) < 0) {
                minRow = minSecondaryRow;
            }
            maxRow = maxIdRow;
            if (maxId >= primaryCount && maxPrimaryRow >= 0
                    && compareStrings(source.stringData(), maxPrimaryRow, maxRow) > 0) {
                maxRow = maxPrimaryRow;
            }
        }
        ids = rowIds;
        idRunCount = runs.runCount();
        idMaxRunLength = runs.maxLength();
        usesSecondary = maxId >= primaryCount;
    }

    /** The Java value of row {@code row} of the input (not NULL). */
    Object value(int row) {
        return switch (kind) {
            case BOOLEAN, INT, BIGINT, DOUBLE, DECIMAL64, DATE, TIMESTAMP -> ValueKind.fromLong(type, source.storedLong(row));
            case DECIMAL128 -> ValueKind.wideDecimal(type, source.decimalHigh(row), source.decimalLow(row));
            case STRING -> ValueKind.fromBytes(type, source.stringData(), source.stringStart(row), source.stringLength(row));
        };
    }

    Object min() {
        return minRow < 0 ? null : value(minRow);
    }

    Object max() {
        return maxRow < 0 ? null : value(maxRow);
    }

    /** Writes the null bitmap, when there is one. */
    void writeNullBitmap(ByteWriter out) {
        if (nullBitmap != null) {
            out.putBytes(MemorySegment.ofArray(nullBitmap), 0, nullBitmap.length);
        }
    }

    long nullBitmapBytes() {
        return nullBitmap == null ? 0 : nullBitmap.length;
    }
}
