package dev.columba.columnstore.file;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.columba.columnstore.encoding.EncodingKind;
import dev.columba.columnstore.encoding.FallbackReason;
import dev.columba.columnstore.encoding.SegmentMetadata;
import dev.columba.core.type.SqlType;
import java.time.LocalDate;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** The distinct-value rules the planner and the Trino connector share. */
class SegmentDistinctTest {
    private static FooterMetadata.Entry footer(int rows, int nulls, Object min, Object max, int builderEntries, int runs) {
        SegmentMetadata segment = new SegmentMetadata(EncodingKind.PLAIN, false, rows, nulls, min, max, 40, -1, -1,
                FallbackReason.NONE);
        return new FooterMetadata.Entry(segment, 0, builderEntries, runs);
    }

    @Test
    void aWholeNumberSegmentHasAtMostItsRowsItsSpanAndItsRuns() {
        assertEquals(11, SegmentDistinct.ofSegment(SqlType.BIGINT, footer(100, 0, 10L, 20L, 0, 0), 0), "the span");
        assertEquals(7, SegmentDistinct.ofSegment(SqlType.INT, footer(100, 0, 1, 1000, 0, 7), 0), "the runs");
        assertEquals(90, SegmentDistinct.ofSegment(SqlType.INT, footer(100, 10, 1, 1000, 0, 0), 0), "the non-NULL rows");
        assertEquals(31, SegmentDistinct.ofSegment(SqlType.DATE,
                footer(100, 0, LocalDate.of(2026, 1, 1), LocalDate.of(2026, 1, 31), 0, 0), 0));
        assertEquals(0, SegmentDistinct.ofSegment(SqlType.INT, footer(5, 5, null, null, 0, 0), 0), "all NULL");
        assertEquals(-1, SegmentDistinct.ofSegment(SqlType.DOUBLE, footer(5, 0, 1.0, 2.0, 0, 0), 0), "not whole numbers");
        assertEquals(Long.MAX_VALUE, SegmentDistinct.wholeNumberSpan(Long.MIN_VALUE, Long.MAX_VALUE), "capped, not overflowed");
    }

    @Test
    void aStringSegmentHasTheLargerOfItsDictionaries() {
        assertEquals(40, SegmentDistinct.ofSegment(SqlType.varchar(10), footer(100, 0, "a", "z", 40, 0), 12));
        assertEquals(55, SegmentDistinct.ofSegment(SqlType.varchar(10), footer(100, 0, "a", "z", 40, 0), 55));
        assertEquals(100, SegmentDistinct.ofSegment(SqlType.varchar(10), footer(100, 0, "a", "z", 400, 0), 0));
        assertEquals(-1, SegmentDistinct.ofSegment(SqlType.varchar(10), footer(100, 0, "a", "z", 0, 0), 0), "no dictionary");
    }

    @Test
    void aColumnAddsWholeNumbersUpToTheirSpanAndTakesTheLargestStringFigure() {
        List<SegmentDistinct.Segment> keys = List.of(new SegmentDistinct.Segment(100, 50, 1L, 100L),
                new SegmentDistinct.Segment(100, 50, 101L, 200L), new SegmentDistinct.Segment(0, 0, null, null));
        assertEquals(OptionalDouble.of(100), SegmentDistinct.ofColumn(SqlType.BIGINT, keys));
        List<SegmentDistinct.Segment> overlapping = List.of(new SegmentDistinct.Segment(100, 60, 1L, 80L),
                new SegmentDistinct.Segment(100, 60, 1L, 80L));
        assertEquals(OptionalDouble.of(80), SegmentDistinct.ofColumn(SqlType.BIGINT, overlapping), "at most the span");
        List<SegmentDistinct.Segment> names = List.of(new SegmentDistinct.Segment(100, 30, "a", "m"),
                new SegmentDistinct.Segment(100, 45, "b", "z"));
        assertEquals(OptionalDouble.of(45), SegmentDistinct.ofColumn(SqlType.varchar(5), names));
        assertEquals(OptionalDouble.empty(), SegmentDistinct.ofColumn(SqlType.BIGINT,
                List.of(new SegmentDistinct.Segment(10, -1, 1L, 5L))), "a segment nothing says of");
        assertEquals(OptionalDouble.empty(), SegmentDistinct.ofColumn(SqlType.DOUBLE, List.of()));
        assertEquals(OptionalDouble.of(0), SegmentDistinct.ofColumn(SqlType.INT, List.of()), "no rows, no values");
    }
}
