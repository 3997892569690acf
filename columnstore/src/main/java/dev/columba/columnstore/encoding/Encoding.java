package dev.columba.columnstore.encoding;

import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;

/**
 * One segment encoding, a closed family. Every encoding shares one lifecycle (after DuckDB's
 * {@code compression_function.hpp}): the input is analyzed once ({@link SegmentAnalysis}, shared by
 * all encodings), each encoding {@link #estimate}s its exact size from the analysis, the chooser
 * ({@link SegmentEncoder}) takes the smallest, that encoding writes its body
 * ({@link #writeBody}), and a reader opens the body ({@link #openBody}) to decode, fetch and filter
 * rows (skipping is free: every read names its rows).
 */
sealed interface Encoding permits ValueEncoding, RunLengthEncoding, DictionaryEncoding, PlainEncoding {
    /** What {@link #estimate} returns when the encoding cannot hold the analyzed values. */
    long NOT_APPLICABLE = -1;

    static Encoding of(EncodingKind kind) {
        return switch (kind) {
            case VALUE -> new ValueEncoding();
            case RUN_LENGTH -> new RunLengthEncoding();
            case DICTIONARY -> new DictionaryEncoding(false);
            case DICTIONARY_RUN_LENGTH -> new DictionaryEncoding(true);
            case PLAIN -> new PlainEncoding();
        };
    }

    EncodingKind kind();

    /** Whether the encoding can hold values of {@code kind} at all (dictionaries aside). */
    boolean supports(ValueKind kind);

    /**
     * The exact length of the segment (header to end, before archival compression) this encoding
     * would write for the analyzed values, or {@link #NOT_APPLICABLE}.
     */
    long estimate(SegmentAnalysis analysis);

    /**
     * What choosing this encoding stores in all: the segment, plus a secondary dictionary that only
     * this segment needs. The chooser minimizes this.
     */
    default long storedBytes(SegmentAnalysis analysis) {
        return estimate(analysis);
    }

    /** Writes the body (after header, dictionary references and null bitmap). */
    void writeBody(SegmentAnalysis analysis, ByteWriter out);

    /** Checks and opens a body in {@code [offset, limit)} of {@code payload}; the body must end at {@code limit}. */
    SegmentBody openBody(BodyContext context);

    /** Where a body lies and what it may refer to. */
    record BodyContext(SqlType type, SegmentHeader header, MemorySegment payload, long offset, long limit,
                       Dictionary primary, Dictionary secondary, String origin, boolean checked) {
        ValueKind kind() {
            return header.kind();
        }

        int rowCount() {
            return header.rowCount();
        }

        /** Checks that a body parsed from {@link #offset} ended exactly at {@link #limit}. */
        void checkEnd(long end) {
            if (end != limit) {
                throw SegmentFormat.corrupt(origin, header.encoding() + " body ends at " + end + " but the payload ends at "
                        + limit);
            }
        }
    }

    /** The header length of a segment of this encoding. */
    default long headerBytes() {
        return kind().usesDictionary() ? SegmentFormat.DICTIONARY_HEADER_BYTES : SegmentFormat.HEADER_BYTES;
    }

    /** Header, dictionary references and null bitmap: what precedes every body. */
    default long prefixBytes(SegmentAnalysis analysis) {
        return headerBytes() + analysis.nullBitmapBytes();
    }
}
