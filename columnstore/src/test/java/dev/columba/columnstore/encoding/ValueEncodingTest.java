package dev.columba.columnstore.encoding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.core.type.SqlType;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.Test;

class ValueEncodingTest extends AbstractEncodingTest {

    @Override
    EncodingKind kind() {
        return EncodingKind.VALUE;
    }

    @Override
    boolean appliesTo(SqlType type) {
        return ValueKind.of(type).integral();
    }

    @Test
    void aBitWidthAbove64IsCorrupt() throws Exception {
        Seeds.run("ValueEncodingTest.aBitWidthAbove64IsCorrupt", random -> {
            Encoded encoded = sample(SqlType.BIGINT, random);
            byte[] bytes = encoded.bytes().clone();
            int widthOffset = bodyOffset(encoded) + 8;
            bytes[widthOffset] = 65;
            assertCorrupt(encoded, bytes, "[INDEX_CORRUPT] test segment: bit width 65 at offset " + widthOffset);
        });
    }

    @Test
    void aWiderBitWidthOverrunsTheSegment() throws Exception {
        Seeds.run("ValueEncodingTest.aWiderBitWidthOverrunsTheSegment", random -> {
            Encoded encoded = sample(SqlType.INT, random);
            byte[] bytes = encoded.bytes().clone();
            int widthOffset = bodyOffset(encoded) + 8;
            // INT deltas need at most 32 bits, so 64-bit words for every row cannot fit.
            bytes[widthOffset] = 64;
            int rows = encoded.values().size();
            long have = bytes.length - widthOffset - 1;
            assertCorrupt(encoded, bytes, "[INDEX_CORRUPT] test segment: " + rows + " values of 64 bits at offset "
                    + (widthOffset + 1) + " need " + rows * 8L + " bytes, " + have + " remain");
        });
    }

    /**
     * Two bounds on one packed column fold into one range ({@link SegmentFilter#and}) that selects
     * exactly the rows both select, word-parallel as each was; bounds that leave nothing select
     * nothing; an IS NULL filter does not fold.
     */
    @Test
    void boundsOnOnePackedColumnFoldIntoOneRange() throws Exception {
        Seeds.run("ValueEncodingTest.boundsOnOnePackedColumnFoldIntoOneRange", random -> {
            int rows = 5000;
            List<Object> values = new ArrayList<>(rows);
            for (int row = 0; row < rows; row++) {
                values.add(row % 31 == 7 ? null : 1000 + random.nextInt(2000));
            }
            Encoded encoded = encode(SqlType.INT, values, random);
            SegmentReader reader = open(encoded);
            int[][] bounds = {{1500, 2500}, {2500, 1500}, {900, 4000}, {2999, 2999}};
            for (int[] bound : bounds) {
                ColumnPredicate low = ColumnPredicate.compare(ColumnPredicate.Operator.GREATER_OR_EQUAL, bound[0]);
                ColumnPredicate high = ColumnPredicate.compare(ColumnPredicate.Operator.LESS, bound[1]);
                SegmentFilter both = reader.filter(low).and(reader.filter(high));
                assertTrue(both != null, "ranges of one packed stream fold");
                int[] selection = new int[rows];
                int selected = both.select(0, rows, selection);
                List<Integer> expected = new ArrayList<>();
                for (int row = 0; row < rows; row++) {
                    Integer value = (Integer) values.get(row);
                    if (value != null && value >= bound[0] && value < bound[1]) {
                        expected.add(row);
                    }
                }
                assertEquals(expected, java.util.Arrays.stream(selection, 0, selected).boxed().toList(),
                        bound[0] + " <= value < " + bound[1]);
            }
            assertEquals(null, reader.filter(ColumnPredicate.isNull()).and(reader.filter(
                    ColumnPredicate.compare(ColumnPredicate.Operator.LESS, 1500))));
        });
    }

    /** A whole rowgroup: 1,048,576 INT rows with NULLs round-trip and filter. */
    @Test
    void aFullRowgroupOfIntsRoundTrips() throws Exception {
        Seeds.run("ValueEncodingTest.aFullRowgroupOfIntsRoundTrips", random -> {
            int rows = 1 << 20;
            List<Object> values = new ArrayList<>(rows);
            for (int row = 0; row < rows; row++) {
                values.add(row % 97 == 5 ? null : 1_000_000 + random.nextInt(1 << 17));
            }
            Encoded encoded = encode(SqlType.INT, values, random);
            SegmentMetadata metadata = encoded.segment().metadata();
            assertEquals(rows, metadata.rowCount());
            assertTrue(metadata.encodedBytes() < rows * 3L, "17 bits a row plus the null bitmap: " + metadata);
            SegmentReader reader = open(encoded);
            try (IntVector decoded = (IntVector) TestColumns.newVector(allocator, SqlType.INT)) {
                reader.decode(0, rows, decoded, 0);
                for (int row = 0; row < rows; row++) {
                    Object expected = values.get(row);
                    if (expected == null ? !decoded.isNull(row) : decoded.isNull(row) || decoded.get(row) != (Integer) expected) {
                        throw new AssertionError("row " + row + " expected " + expected + " was " + TestColumns.get(decoded, row));
                    }
                }
            }
            int[] selection = new int[rows];
            int selected = reader.filter(ColumnPredicate.compare(ColumnPredicate.Operator.LESS, 1_000_000 + (1 << 16)))
                    .select(0, rows, selection);
            long expected = values.stream().filter(value -> value != null && (Integer) value < 1_000_000 + (1 << 16)).count();
            assertEquals(expected, selected);
        });
    }

    @Test
    void decodingReusesACallersVector() throws Exception {
        Seeds.run("ValueEncodingTest.decodingReusesACallersVector", random -> {
            List<Object> values = TestColumns.values(SqlType.INT, TestColumns.Shape.SMALL_RANGE, 5000, 0.1, random);
            SegmentReader reader = open(encode(SqlType.INT, values, random));
            try (FieldVector batch = TestColumns.newVector(allocator, SqlType.INT)) {
                batch.setInitialCapacity(1024);
                batch.allocateNew();
                for (int from = 0; from < values.size(); from += 1024) {
                    int count = Math.min(1024, values.size() - from);
                    batch.setValueCount(0);
                    reader.decode(from, count, batch, 0);
                    assertValues(values.subList(from, from + count), TestColumns.read(batch).subList(0, count), "batch " + from);
                }
            }
        });
    }
}
