package dev.columba.columnstore.file;

import dev.columba.columnstore.encoding.SegmentMetadata;
import dev.columba.core.type.SqlType;
import java.time.LocalDate;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Distinct-value estimates of a columnstore column from what its rowgroups' footers record, never from
 * segment data: the planner's cost model and the Trino connector's table statistics use the same rules.
 * <ul>
 *   <li>a segment of a column with dictionaries (VARCHAR, CHAR): the larger of the dictionary entries the
 *       caller knows (the table's primary dictionary) and those the rowgroup's own dictionary builder held,
 *       at most the non-NULL rows; unknown without either;</li>
 *   <li>a segment of whole numbers (INT, BIGINT, DATE): at most the non-NULL rows, the values between min
 *       and max, and the runs of equal values the encoder counted (footer version 3 and later): a column in
 *       order has as many values as runs;</li>
 *   <li>a column over its segments: for strings the largest segment's figure (rowgroups share the primary
 *       dictionary's values), for whole numbers the sum of the segments' figures, at most the values between
 *       the smallest min and the largest max;</li>
 *   <li>anything else: unknown.</li>
 * </ul>
 */
public final class SegmentDistinct {
    private SegmentDistinct() {
    }

    /** What a column's estimate needs of one segment. */
    public record Segment(long nonNullRows, long distinct, Object min, Object max) {
    }

    /**
     * The estimated distinct non-NULL values of one segment, or -1 when nothing says.
     *
     * @param dictionaryEntries the entries of the table's primary dictionary for the column, 0 if unknown
     */
    public static long ofSegment(SqlType type, FooterMetadata.Entry footer, long dictionaryEntries) {
        SegmentMetadata segment = footer.segment();
        long nonNull = segment.rowCount() - segment.nullCount();
        if (nonNull == 0) {
            return 0;
        }
        if (type instanceof SqlType.VarcharType || type instanceof SqlType.CharType) {
            long entries = Math.max(dictionaryEntries, footer.builderDictionaryEntries());
            return entries == 0 ? -1 : Math.min(nonNull, entries);
        }
        long span = wholeNumberSpan(segment.min(), segment.max());
        long distinct = span < 0 ? -1 : Math.min(nonNull, span);
        if (distinct > 0 && footer.valueRuns() > 0) {
            distinct = Math.min(distinct, footer.valueRuns());
        }
        return distinct;
    }

    /** The estimated distinct non-NULL values of a column over its segments, or empty when nothing says. */
    public static OptionalDouble ofColumn(SqlType type, List<Segment> segments) {
        boolean wholeNumber = type instanceof SqlType.IntegerType || type instanceof SqlType.BigintType
                || type instanceof SqlType.DateType;
        boolean text = type instanceof SqlType.VarcharType || type instanceof SqlType.CharType;
        if (!wholeNumber && !text) {
            return OptionalDouble.empty();
        }
        double sum = 0;
        double largest = 0;
        Object min = null;
        Object max = null;
        for (Segment segment : segments) {
            if (segment.nonNullRows() == 0) {
                continue;
            }
            if (segment.distinct() < 0) {
                return OptionalDouble.empty();
            }
            sum += segment.distinct();
            largest = Math.max(largest, segment.distinct());
            if (wholeNumber) {
                if (wholeNumberSpan(segment.min(), segment.max()) < 0) {
                    return OptionalDouble.empty();
                }
                min = min == null || position(segment.min()) < position(min) ? segment.min() : min;
                max = max == null || position(segment.max()) > position(max) ? segment.max() : max;
            }
        }
        if (text) {
            return OptionalDouble.of(largest);
        }
        return OptionalDouble.of(min == null ? 0 : Math.min(sum, wholeNumberSpan(min, max)));
    }

    /** How many whole numbers lie in [min, max] (capped at Long.MAX_VALUE), or -1 for other types. */
    public static long wholeNumberSpan(Object min, Object max) {
        if (!(min instanceof Integer || min instanceof Long || min instanceof LocalDate)
                || max == null || min.getClass() != max.getClass()) {
            return -1;
        }
        long low = position(min);
        long high = position(max);
        long width = high - low;
        return width < 0 || width == Long.MAX_VALUE ? Long.MAX_VALUE : width + 1;
    }

    private static long position(Object value) {
        return switch (value) {
            case Integer number -> number;
            case Long number -> number;
            case LocalDate date -> date.toEpochDay();
            default -> throw new IllegalArgumentException("not a whole number: " + value.getClass().getSimpleName());
        };
    }
}
