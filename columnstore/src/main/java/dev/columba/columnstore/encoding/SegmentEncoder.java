package dev.columba.columnstore.encoding;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import org.apache.arrow.vector.FieldVector;

/**
 * Encodes one segment — one column of one rowgroup, given as an Arrow vector of up to 1,048,576
 * values of the column's type — choosing the encoding that stores the fewest bytes. One pass
 * analyzes the values; each applicable {@link EncodingKind} estimates its exact size (a
 * dictionary encoding counts the secondary dictionary it would need, not the shared primary); the
 * smallest wins, ties going to the earlier kind in {@link EncodingKind} order; with
 * {@link EncodingOptions#archive()} the result is then zstd-compressed when that makes it smaller.
 *
 * <p>For the rowgroup builder: build the column's secondary dictionary while adding rows
 * ({@code DictionaryBuilder}), freeze it when the rowgroup is complete, and pass both dictionaries
 * here ({@link DictionarySource.Dictionaries}); if the dictionary overflowed under
 * {@code dictionary_overflow = fallback}, pass {@link DictionarySource.Fallback} and the segment
 * records why. Store the secondary with the segment only if {@link SegmentMetadata#secondaryDictionaryId()}
 * names it. Stateless and thread-safe; the vector must not change during a call.
 */
public final class SegmentEncoder {
    private SegmentEncoder() {
    }

    /**
     * Encodes {@code values} with the smallest applicable encoding.
     *
     * @throws ColumbaException WRONG_TYPE for a vector or dictionary of another type;
     *     INVALID_ARGUMENT for more than 1,048,576 rows, a value in neither given dictionary, or a
     *     segment beyond 2 GB; VALUE_OUT_OF_RANGE for a DECIMAL(p <= 18) value beyond 18 digits
     */
    public static EncodedSegment encode(FieldVector values, SqlType type, DictionarySource dictionaries,
                                        EncodingOptions options) {
        SegmentAnalysis analysis = analyze(values, type, dictionaries);
        Encoding best = null;
        long bestBytes = Long.MAX_VALUE;
        for (EncodingKind kind : EncodingKind.values()) {
            Encoding encoding = Encoding.of(kind);
            long stored = encoding.storedBytes(analysis);
            if (stored != Encoding.NOT_APPLICABLE && stored < bestBytes) {
                best = encoding;
                bestBytes = stored;
            }
        }
        // PLAIN applies to everything, so there always is a best.
        return write(analysis, Objects.requireNonNull(best), options);
    }

    /**
     * Encodes {@code values} with {@code kind}, for tests, benchmarks and tables that pin an encoding.
     *
     * @throws ColumbaException INVALID_ARGUMENT when {@code kind} cannot hold the values (VALUE for
     *     strings, a dictionary kind without dictionaries), and as {@link #encode}
     */
    public static EncodedSegment encode(EncodingKind kind, FieldVector values, SqlType type,
                                        DictionarySource dictionaries, EncodingOptions options) {
        SegmentAnalysis analysis = analyze(values, type, dictionaries);
        Encoding encoding = Encoding.of(kind);
        if (encoding.estimate(analysis) == Encoding.NOT_APPLICABLE) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, kind + " cannot encode this " + type.sqlName()
                    + " segment" + (kind.usesDictionary() ? " without dictionaries holding its values" : ""));
        }
        return write(analysis, encoding, options);
    }

    /**
     * What each applicable encoding would store for {@code values} (segment bytes, plus the
     * secondary dictionary for dictionary encodings), before archival compression: the chooser's
     * view, for diagnostics.
     */
    public static Map<EncodingKind, Long> estimates(FieldVector values, SqlType type, DictionarySource dictionaries) {
        SegmentAnalysis analysis = analyze(values, type, dictionaries);
        Map<EncodingKind, Long> estimates = new EnumMap<>(EncodingKind.class);
        for (EncodingKind kind : EncodingKind.values()) {
            long stored = Encoding.of(kind).storedBytes(analysis);
            if (stored != Encoding.NOT_APPLICABLE) {
                estimates.put(kind, stored);
            }
        }
        return Collections.unmodifiableMap(estimates);
    }

    private static SegmentAnalysis analyze(FieldVector values, SqlType type, DictionarySource dictionaries) {
        Objects.requireNonNull(values, "values");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(dictionaries, "dictionaries");
        return new SegmentAnalysis(values, type, dictionaries);
    }

    private static EncodedSegment write(SegmentAnalysis analysis, Encoding encoding, EncodingOptions options) {
        EncodingKind kind = encoding.kind();
        ByteWriter out = new ByteWriter(encoding.estimate(analysis));
        out.putInt(SegmentFormat.MAGIC);
        out.putByte(SegmentFormat.VERSION);
        out.putByte(kind.code());
        out.putByte(analysis.kind.code());
        out.putByte(analysis.nullCount > 0 ? SegmentFormat.FLAG_NULLS : 0);
        out.putInt(analysis.rowCount);
        out.putInt(analysis.nullCount);
        int primaryId = SegmentMetadata.NO_DICTIONARY;
        int secondaryId = SegmentMetadata.NO_DICTIONARY;
        if (kind.usesDictionary()) {
            // The primary is referenced whenever given: it fixes where secondary ids start.
            if (analysis.primary != null) {
                primaryId = analysis.primary.id();
            }
            if (analysis.usesSecondary) {
                secondaryId = analysis.secondary.id();
            }
            out.putInt(primaryId);
            out.putInt(analysis.primary == null ? 0 : analysis.primary.entryCount());
            out.putInt(secondaryId);
            out.putInt(analysis.usesSecondary ? analysis.secondary.entryCount() : 0);
        }
        analysis.writeNullBitmap(out);
        encoding.writeBody(analysis, out);
        byte[] bytes = out.finish();
        if (options.archive()) {
            bytes = Archive.archive(bytes, (int) encoding.headerBytes(), options.archiveLevel());
        }
        boolean archived = (MemorySegment.ofArray(bytes).get(ValueLayout.JAVA_BYTE, SegmentFormat.FLAGS_OFFSET)
                & SegmentFormat.FLAG_ARCHIVED) != 0;
        SegmentMetadata metadata = new SegmentMetadata(kind, archived, analysis.rowCount, analysis.nullCount,
                analysis.min(), analysis.max(), bytes.length, primaryId, secondaryId, analysis.fallbackReason);
        return new EncodedSegment(bytes, metadata, analysis.kind.fitsLong() ? analysis.runCount : 0);
    }
}
