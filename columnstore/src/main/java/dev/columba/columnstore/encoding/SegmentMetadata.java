package dev.columba.columnstore.encoding;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.util.Objects;

/**
 * What the encoder learned about one segment, for the rowgroup file's footer, rowgroup elimination
 * ({@link ColumnPredicate#mayMatch}) and {@code sys.column_store_segments}.
 *
 * @param encoding the segment's encoding
 * @param archived whether zstd compresses the segment (asked for by the table and worth it)
 * @param rowCount rows, NULLs included
 * @param nullCount NULL rows
 * @param min the smallest non-NULL value as a Java value of the column type (see
 *     {@code SqlType}), or null when every row is NULL; DOUBLE in IEEE total order, so
 *     {@code -0.0} is below {@code 0.0}
 * @param max the largest non-NULL value, or null when every row is NULL; DOUBLE NaN when any
 * @param encodedBytes the length of the segment's bytes, what {@code on_disk_size} reports
 * @param primaryDictionaryId the primary dictionary the segment's ids refer to, or -1
 * @param secondaryDictionaryId the secondary dictionary the segment's ids refer to, or -1; the
 *     rowgroup file must store it with the segment
 * @param fallbackReason why the segment has no dictionary although its column uses them, or NONE
 */
public record SegmentMetadata(EncodingKind encoding, boolean archived, int rowCount, int nullCount,
                              Object min, Object max, long encodedBytes,
                              int primaryDictionaryId, int secondaryDictionaryId, FallbackReason fallbackReason) {
    /** The dictionary id that means "none". */
    public static final int NO_DICTIONARY = -1;

    public SegmentMetadata {
        Objects.requireNonNull(encoding, "encoding");
        Objects.requireNonNull(fallbackReason, "fallbackReason");
        if (rowCount < 0 || nullCount < 0 || nullCount > rowCount) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "segment of " + rowCount + " rows cannot have "
                    + nullCount + " NULLs");
        }
        if ((min == null) != (nullCount == rowCount) || (max == null) != (nullCount == rowCount)) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "min " + min + " and max " + max
                    + " must be null exactly when all " + rowCount + " rows are NULL (" + nullCount + ")");
        }
        if (!encoding.usesDictionary() && (primaryDictionaryId != NO_DICTIONARY || secondaryDictionaryId != NO_DICTIONARY)) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, encoding + " segment cannot refer to dictionaries "
                    + primaryDictionaryId + " and " + secondaryDictionaryId);
        }
    }

    public boolean hasNulls() {
        return nullCount > 0;
    }
}
