package dev.columba.columnstore.encoding;

import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.core.batch.CodedStrings;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;

/**
 * Reads one encoded segment in place: decodes row ranges into Arrow vectors, fetches single rows,
 * and filters rows on the encoded data. Opening checks the whole structure (header, dictionary
 * references, null bitmap against the null count, every length and width, run lengths against the
 * row count), and reads check what opening cannot afford to (each dictionary id, each string
 * offset) as they go: corrupt bytes raise {@link ColumbaException} INDEX_CORRUPT (FORMAT_TOO_NEW for
 * a newer version) naming the offset and value, never an out-of-bounds access. Content damage that
 * keeps the structure valid (a flipped bit in a value) decodes as a wrong value: the rowgroup
 * file's checksum guards content.
 *
 * <p>Random access: every call names its rows, so skipping rows costs nothing ({@link EncodingKind}
 * says what finding a row costs). {@link SegmentScanner} adds a sequential position on top.
 *
 * <p>Lifetime: the reader reads {@code bytes} (and the dictionaries) in place, so they must stay
 * valid — a mapping's arena open — while it is used; an archived segment is decompressed to the
 * heap once, at open. Immutable and thread-safe; each decode or filter call allocates a little
 * state of its own, none per row.
 */
public final class SegmentReader {
    private final SqlType type;
    private final ValueKind kind;
    private final SegmentHeader header;
    private final MemorySegment payload;
    /** Where the null bitmap starts in {@link #payload}; meaningful when the header has NULLs. */
    private final long bitmapOffset;
    private final SegmentBody body;
    private final String origin;
    /** Decoding's arrays, reused by every call (a reader is used by one thread, as its scan is). */
    private final DecodeScratch scratch;

    private SegmentReader(SqlType type, SegmentHeader header, MemorySegment payload, long bitmapOffset,
                          SegmentBody body, String origin, DecodeScratch scratch) {
        this.scratch = scratch;
        this.type = type;
        this.kind = header.kind();
        this.header = header;
        this.payload = payload;
        this.bitmapOffset = bitmapOffset;
        this.body = body;
        this.origin = origin;
    }

    /** Opens a segment that refers to no dictionary. */
    public static SegmentReader open(MemorySegment bytes, SqlType type, String origin) {
        return open(bytes, type, null, null, origin);
    }

    /**
     * Checks and opens the segment that is exactly {@code bytes}, holding values of {@code type}.
     *
     * @param primary the primary dictionary the segment refers to, or null (ignored when the
     *     segment refers to none; see {@link SegmentHeader#primaryDictionaryId()})
     * @param secondary the secondary dictionary the segment refers to, or null
     * @param origin where the bytes come from (file, rowgroup, column), named in error messages
     * @throws ColumbaException FORMAT_TOO_NEW for a newer format; INDEX_CORRUPT for malformed bytes,
     *     a segment of another kind than {@code type}'s, or missing or different dictionaries
     */
    public static SegmentReader open(MemorySegment bytes, SqlType type, Dictionary primary, Dictionary secondary,
                                     String origin) {
        return open(bytes, type, primary, secondary, origin, false);
    }

    /**
     * Opens the segment as {@link #open(MemorySegment, SqlType, Dictionary, Dictionary, String)}
     * does; with {@code checked} the caller vouches that these very bytes passed that method's
     * checks before (their checksum verified now, equal to the one of bytes checked earlier:
     * {@code file.CheckedObjects}), and the checks that read every run or null bit are skipped.
     * The header's are not: they cost nothing.
     */
    public static SegmentReader open(MemorySegment bytes, SqlType type, Dictionary primary, Dictionary secondary,
                                     String origin, boolean checked) {
        return open(bytes, type, primary, secondary, origin, checked, new DecodeScratch());
    }

    /**
     * Opens the segment as {@link #open(MemorySegment, SqlType, Dictionary, Dictionary, String, boolean)}
     * does, decoding through {@code scratch}: arrays the caller hands from one segment's reader to
     * the next (the same thread's, one reader at a time).
     */
    public static SegmentReader open(MemorySegment bytes, SqlType type, Dictionary primary, Dictionary secondary,
                                     String origin, boolean checked, DecodeScratch scratch) {
        Objects.requireNonNull(type, "type");
        SegmentHeader header = SegmentHeader.read(bytes, origin);
        ValueKind kind = ValueKind.of(type);
        if (header.kind() != kind) {
            throw SegmentFormat.corrupt(origin, "segment holds " + header.kind() + " values (offset "
                    + SegmentFormat.KIND_OFFSET + "), the column is " + type.sqlName());
        }
        MemorySegment payload;
        long payloadOffset;
        if (header.archived()) {
            payload = Archive.decompress(bytes, header.headerBytes(), origin);
            payloadOffset = 0;
        } else {
            payload = bytes;
            payloadOffset = header.headerBytes();
        }
        long limit = payload.byteSize();
        long bodyOffset = payloadOffset;
        if (header.hasNulls()) {
            long bitmapBytes = SegmentFormat.nullBitmapBytes(header.rowCount());
            if (limit - payloadOffset < bitmapBytes) {
                throw SegmentFormat.corrupt(origin, "null bitmap of " + bitmapBytes + " bytes at offset " + payloadOffset
                        + " does not fit the " + (limit - payloadOffset) + " bytes left");
            }
            if (!checked) {
                checkNullBitmap(payload, payloadOffset, header, origin);
            }
            bodyOffset += bitmapBytes;
        }
        SegmentBody body = Encoding.of(header.encoding()).openBody(
                new Encoding.BodyContext(type, header, payload, bodyOffset, limit, primary, secondary, origin, checked));
        return new SegmentReader(type, header, payload, payloadOffset, body, origin, scratch);
    }

    private static void checkNullBitmap(MemorySegment payload, long offset, SegmentHeader header, String origin) {
        int rowCount = header.rowCount();
        long nulls = 0;
        long wholeBytes = rowCount >>> 3;
        for (long byteIndex = 0; byteIndex < wholeBytes; byteIndex++) {
            nulls += Integer.bitCount(Byte.toUnsignedInt(payload.get(ValueLayout.JAVA_BYTE, offset + byteIndex)));
        }
        if ((rowCount & 7) != 0) {
            int last = Byte.toUnsignedInt(payload.get(ValueLayout.JAVA_BYTE, offset + wholeBytes));
            if ((last >>> (rowCount & 7)) != 0) {
                throw SegmentFormat.corrupt(origin, "null bitmap byte 0x" + Integer.toHexString(last) + " at offset "
                        + (offset + wholeBytes) + " marks rows beyond the " + rowCount + " of the segment");
            }
            nulls += Integer.bitCount(last);
        }
        if (nulls != header.nullCount()) {
            throw SegmentFormat.corrupt(origin, "null bitmap at offset " + offset + " marks " + nulls
                    + " NULLs, the header says " + header.nullCount());
        }
    }

    public SqlType type() {
        return type;
    }

    public SegmentHeader header() {
        return header;
    }

    public int rowCount() {
        return header.rowCount();
    }

    public int nullCount() {
        return header.nullCount();
    }

    /**
     * Decodes rows {@code [fromRow, fromRow + count)} into rows
     * {@code [targetOffset, targetOffset + count)} of {@code target}, a vector of the segment's type
     * allocated by the caller (capacity grows as needed). VARCHAR targets are filled in order:
     * earlier rows are kept, the value count becomes {@code targetOffset + count}. Other targets
     * keep rows outside the range, and their value count becomes at least
     * {@code targetOffset + count}. No allocation per row, except growing a string data buffer.
     *
     * @throws ColumbaException INVALID_ARGUMENT for rows outside the segment, WRONG_TYPE for a
     *     vector of another type, INDEX_CORRUPT for corrupt bytes met on the way
     */
    public void decode(int fromRow, int count, FieldVector target, int targetOffset) {
        decode(fromRow, count, target, targetOffset, null);
    }

    /**
     * Like {@link #decode(int, int, FieldVector, int)}; a dictionary-encoded string segment also
     * writes each row's id to {@code codes} (when not null) and marks the rows coded, any other
     * segment leaves them as they are.
     */
    public void decode(int fromRow, int count, FieldVector target, int targetOffset, CodedStrings codes) {
        checkRange(fromRow, count);
        VectorWriter writer = new VectorWriter(target, type, targetOffset, count, codes, scratch);
        body.decode(fromRow, count, writer, targetOffset);
        writer.finish(header.hasNulls() ? payload : null, bitmapOffset, fromRow);
    }

    /**
     * Adds the values of rows {@code [fromRow, fromRow + count)} to {@code total} as stored longs
     * (a DECIMAL's unscaled value at the column's scale, a DATE's days) without decoding them into
     * a vector: for aggregates computed from encoded segments. False, adding nothing, when the
     * segment has NULLs or its encoding keeps no integral values in a packed or run stream
     * (dictionaries, plain values, DOUBLE, DECIMAL past 18 digits, strings).
     *
     * @throws ColumbaException INVALID_ARGUMENT for rows outside the segment
     */
    public boolean sumValues(int fromRow, int count, ExactTotal total) {
        checkRange(fromRow, count);
        return !header.hasNulls() && body.sumValues(fromRow, count, total);
    }

    /**
     * Writes the stored longs (as {@link #sumValues} adds them) of rows {@code fromRow +
     * selection[i]}, {@code i < selected} (ascending offsets below {@code count}), to {@code
     * out[selection[i]]} without decoding them into a vector: for a consumer that adds them up
     * ({@code NativeLongs}). Other elements of {@code out[0, count)} may be overwritten. False,
     * writing nothing, when the segment has NULLs or its encoding keeps no integral values in a
     * packed stream, runs or a dictionary's packed ids.
     *
     * @throws ColumbaException INVALID_ARGUMENT for rows outside the segment, INDEX_CORRUPT for a
     *     dictionary id outside the dictionaries
     */
    public boolean readLongs(int fromRow, int count, int[] selection, int selected, long[] out) {
        checkSelection(fromRow, count, selection, selected);
        return !header.hasNulls() && body.readLongs(fromRow, count, selection, selected, out, scratch);
    }

    /**
     * Like {@link #readLongs}, also in a segment with NULLs: a NULL row gets some stored value of
     * the segment (what its encoding keeps under a NULL), so the caller drops the NULL rows itself
     * ({@link #dropNulls}). False, writing nothing, when the encoding keeps no integral values in a
     * packed stream, runs or a dictionary's packed ids.
     *
     * @throws ColumbaException as {@link #readLongs}
     */
    public boolean readStoredLongs(int fromRow, int count, int[] selection, int selected, long[] out) {
        checkSelection(fromRow, count, selection, selected);
        return body.readLongs(fromRow, count, selection, selected, out, scratch);
    }

    /** Rows {@code [fromRow, fromRow + count)} inside the segment, and the selection's offsets inside them. */
    private void checkSelection(int fromRow, int count, int[] selection, int selected) {
        checkRange(fromRow, count);
        if (selected > 0 && (selection[0] < 0 || selection[selected - 1] >= count)) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "selection " + selection[0] + ".." + selection[selected - 1]
                    + " is outside the " + count + " rows read from row " + fromRow + " of " + origin);
        }
    }

    /**
     * Keeps, of the rows {@code fromRow + selection[i]} for {@code i < selected}, those that are not
     * NULL, compacted in order at the start of {@code selection}; returns how many.
     *
     * @throws ColumbaException INVALID_ARGUMENT for rows outside the segment
     */
    public int dropNulls(int fromRow, int[] selection, int selected) {
        if (selected == 0 || !header.hasNulls()) {
            return selected;
        }
        checkRange(fromRow + selection[0], selection[selected - 1] - selection[0] + 1);
        int kept = 0;
        for (int index = 0; index < selected; index++) {
            int rowInRange = selection[index];
            selection[kept] = rowInRange;
            kept += nullAt(fromRow + rowInRange) ? 0 : 1;
        }
        return kept;
    }

    /**
     * Bounds of the stored longs {@link #readLongs} reads, from the encoding (a packed stream's
     * reference and width); {@code Long.MIN_VALUE} and {@code Long.MAX_VALUE} when it keeps none.
     */
    public long lowestStored() {
        return body.lowestStored();
    }

    /** See {@link #lowestStored}. */
    public long highestStored() {
        return body.highestStored();
    }

    /**
     * Selects the rows of {@code [fromRow, fromRow + count)} whose stored value (a whole number, a
     * DATE's days) {@code keep} accepts, testing each value of a run-length segment once rather
     * than once per row: writes the rows' offsets from {@code fromRow} to {@code selection} and
     * returns how many. -1, writing nothing, when the segment has NULLs or cannot test fewer values
     * than rows (other encodings, runs averaging under two rows); the caller then decodes and tests
     * the rows.
     *
     * @throws ColumbaException INVALID_ARGUMENT for rows outside the segment
     */
    public int selectByValue(int fromRow, int count, int[] selection, java.util.function.LongPredicate keep) {
        checkRange(fromRow, count);
        return header.hasNulls() ? -1 : body.selectByValue(fromRow, count, selection, keep);
    }

    /**
     * Writes only the dictionary ids of a string segment's rows {@code [fromRow, fromRow + count)}
     * to {@code codes} (and marks them coded), giving the target's rows {@code [0, count)} empty
     * strings and their validity; the strings are for a later {@link #decode} to write, when a
     * consumer needs them ({@link CodedStrings#defer}). False, with nothing decoded, for a segment
     * without a dictionary of strings.
     *
     * @throws ColumbaException as {@link #decode}
     */
    public boolean decodeCodes(int fromRow, int count, FieldVector target, CodedStrings codes) {
        checkRange(fromRow, count);
        if (codes == null || !(target instanceof BaseVariableWidthVector)) {
            return false;
        }
        VectorWriter writer = new VectorWriter(target, type, 0, count, codes, scratch);
        if (!body.decodeCodes(fromRow, count, writer)) {
            return false;
        }
        writer.finish(header.hasNulls() ? payload : null, bitmapOffset, fromRow);
        return true;
    }

    /**
     * Late materialization: like {@link #decode decode(fromRow, count, target, 0)}, but only the
     * rows {@code selection[0, selected)} (ascending offsets from {@code fromRow}) get their values;
     * the other target rows hold anything (a VARCHAR target: empty strings, code 0). Validity is
     * set for the whole range.
     *
     * @throws ColumbaException as {@link #decode}
     */
    public void decodeSelected(int fromRow, int count, int[] selection, int selected, FieldVector target) {
        decodeSelected(fromRow, count, selection, selected, target, null);
    }

    /** Like {@link #decodeSelected(int, int, int[], int, FieldVector)}, with a string target's codes as {@link #decode} has them. */
    public void decodeSelected(int fromRow, int count, int[] selection, int selected, FieldVector target,
                               CodedStrings codes) {
        checkRange(fromRow, count);
        if (selected > 0 && (selection[0] < 0 || selection[selected - 1] >= count)) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "selection " + selection[0] + ".." + selection[selected - 1]
                    + " is outside the " + count + " rows decoded from row " + fromRow + " of " + origin);
        }
        if (target instanceof BaseVariableWidthVector) {
            VectorWriter writer = new VectorWriter(target, type, 0, count, codes, scratch);
            body.decodeSelectedStrings(fromRow, count, selection, selected, writer);
            writer.finish(header.hasNulls() ? payload : null, bitmapOffset, fromRow);
            return;
        }
        VectorWriter writer = new VectorWriter(target, type, 0, count, null, scratch);
        body.decodeSelected(fromRow, selection, selected, writer);
        writer.finish(header.hasNulls() ? payload : null, bitmapOffset, fromRow);
    }

    /** Whether row {@code row} is NULL. */
    public boolean isNull(int row) {
        checkRange(row, 1);
        return nullAt(row);
    }

    boolean nullAt(int row) {
        return header.hasNulls()
                && (payload.get(ValueLayout.JAVA_BYTE, bitmapOffset + (row >>> 3)) & (1 << (row & 7))) != 0;
    }

    /** The Java value of row {@code row} (see {@code SqlType}), or null when it is NULL. */
    public Object fetch(int row) {
        checkRange(row, 1);
        return nullAt(row) ? null : body.value(row);
    }

    /**
     * Compiles {@code predicate} against this segment. Comparisons and IN lists are evaluated on the
     * encoded data: once per dictionary entry (dictionary encodings), on deltas from the reference
     * (VALUE), once per run (run encodings), in place per row (PLAIN).
     *
     * @throws ColumbaException WRONG_TYPE when a constant is not of the column's Java class
     */
    public SegmentFilter filter(ColumnPredicate predicate) {
        return switch (predicate) {
            case ColumnPredicate.IsNull ignored -> new SegmentFilter(this, SegmentFilter.Mode.NULLS, null);
            case ColumnPredicate.IsNotNull ignored -> new SegmentFilter(this, SegmentFilter.Mode.NOT_NULLS, null);
            case ColumnPredicate.Comparison ignored -> new SegmentFilter(this, SegmentFilter.Mode.VALUES, body.filter(predicate));
            case ColumnPredicate.In ignored -> new SegmentFilter(this, SegmentFilter.Mode.VALUES, body.filter(predicate));
        };
    }

    /** A sequential cursor over this segment, at row 0. */
    public SegmentScanner scanner() {
        return new SegmentScanner(this);
    }

    void checkRange(int fromRow, int count) {
        if (fromRow < 0 || count < 0 || fromRow > rowCount() - count) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "rows " + fromRow + " + " + count
                    + " are outside the " + rowCount() + " rows of " + origin);
        }
    }

    @Override
    public String toString() {
        return "segment of " + origin + ": " + header;
    }
}
