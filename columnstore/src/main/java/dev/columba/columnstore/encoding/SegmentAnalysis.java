package dev.columba.columnstore.encoding;

import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import org.apache.arrow.vector.FieldVector;

/**
 * What one pass over a segment's input collects for every encoding's estimate and for the
 * segment's metadata: NULLs (and their bitmap), the range and runs of stored longs, string bytes,
 * the extremes, and with dictionaries every row's id with the range and runs of ids. Computed once
 * per segment; the chooser then asks each encoding for its exact size.
 */
final class SegmentAnalysis {
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
            case STRING -> analyzeStrings();
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
                analyzeIds();
            }
        }
    }

    boolean isNull(int row) {
        return nullBitmap != null && (nullBitmap[row >>> 3] & (1 << (row & 7))) != 0;
    }

    private void analyzeLongs() {
        RunCounter runs = new RunCounter();
        boolean any = false;
        long minKey = 0;
        long maxKey = 0;
        for (int row = 0; row < rowCount; row++) {
            if (isNull(row)) {
                runs.addNull();
                continue;
            }
            long stored = source.storedLong(row);
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

    private void analyzeStrings() {
        MemorySegment data = source.stringData();
        for (int row = 0; row < rowCount; row++) {
            if (isNull(row)) {
                continue;
            }
            stringBytes += source.stringLength(row);
            if (minRow < 0) {
                minRow = maxRow = row;
                continue;
            }
            if (compareStrings(data, row, minRow) < 0) {
                minRow = row;
            }
            if (compareStrings(data, row, maxRow) > 0) {
                maxRow = row;
            }
        }
    }

    private int compareStrings(MemorySegment data, int left, int right) {
        return ValueKind.compareUnsigned(data, source.stringStart(left), source.stringLength(left),
                data, source.stringStart(right), source.stringLength(right));
    }

    private void analyzeIds() {
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
        int[] rowIds = new int[rowCount];
        RunCounter runs = new RunCounter();
        minId = Long.MAX_VALUE;
        maxId = Long.MIN_VALUE;
        for (int row = 0; row < rowCount; row++) {
            if (isNull(row)) {
                rowIds[row] = -1;
                runs.addNull();
                continue;
            }
            int id = primaryLookup == null ? Dictionary.NOT_FOUND : primaryLookup.indexOf(source.vector, row);
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
