package dev.columba.columnstore.encoding;

import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunLengthEncodingTest extends AbstractEncodingTest {

    @Override
    EncodingKind kind() {
        return EncodingKind.RUN_LENGTH;
    }

    @Override
    boolean appliesTo(SqlType type) {
        return ValueKind.of(type).fitsLong();
    }

    /** Runs of 10 rows of BIGINT, no NULLs: the layout the tests below damage. */
    private Encoded tenRuns(java.util.Random random) {
        List<Object> values = new ArrayList<>();
        for (int run = 0; run < 10; run++) {
            for (int row = 0; row < 10; row++) {
                values.add((long) run * 3);
            }
        }
        return encode(SqlType.BIGINT, values, random);
    }

    /**
     * Selecting by value a run at a time keeps exactly the rows whose decoded value passes, for
     * runs of 1 to 9 rows, ranges starting and ending inside runs, every whole-number type; a
     * segment with NULLs or runs averaging under two rows declines (-1) and writes nothing.
     */
    @Test
    void selectingByValueARunAtATimeKeepsTheRowsWhoseValuesPass() throws Exception {
        Seeds.run("RunLengthEncodingTest.selectingByValueARunAtATimeKeepsTheRowsWhoseValuesPass", random -> {
            for (SqlType type : List.of(SqlType.INT, SqlType.BIGINT, SqlType.DATE)) {
                List<Object> values = new ArrayList<>();
                long key = -50;
                while (values.size() < 3000) {
                    key += 1 + random.nextInt(3);
                    int length = 2 + random.nextInt(8);
                    for (int row = 0; row < length && values.size() < 3000; row++) {
                        values.add(type == SqlType.INT ? (Object) (int) key : type == SqlType.DATE
                                ? (Object) java.time.LocalDate.ofEpochDay(key) : (Object) key);
                    }
                }
                SegmentReader reader = open(encode(type, values, random));
                java.util.function.LongPredicate keep = value -> Math.floorMod(value * 7, 5) == 1;
                for (int round = 0; round < 40; round++) {
                    int from = random.nextInt(values.size());
                    int count = random.nextInt(values.size() - from + 1);
                    int[] selection = new int[count];
                    int selected = reader.selectByValue(from, count, selection, keep);
                    List<Integer> expected = new ArrayList<>();
                    for (int row = from; row < from + count; row++) {
                        Object value = values.get(row);
                        long stored = value instanceof java.time.LocalDate date ? date.toEpochDay() : ((Number) value).longValue();
                        if (keep.test(stored)) {
                            expected.add(row - from);
                        }
                    }
                    org.junit.jupiter.api.Assertions.assertEquals(expected,
                            java.util.Arrays.stream(selection, 0, selected).boxed().toList(), type + " rows " + from + "+" + count);
                }
            }
            List<Object> distinct = new ArrayList<>();
            List<Object> withNull = new ArrayList<>();
            for (long row = 0; row < 100; row++) {
                distinct.add(row);
                withNull.add(row == 40 ? null : row / 10);
            }
            int[] untouched = new int[100];
            for (List<Object> declined : List.of(distinct, withNull)) {
                Encoded encoded = encode(SqlType.BIGINT, declined, random);
                org.junit.jupiter.api.Assertions.assertEquals(-1, open(encoded).selectByValue(0, 100, untouched, value -> true));
                org.junit.jupiter.api.Assertions.assertTrue(java.util.Arrays.stream(untouched).allMatch(row -> row == 0));
            }
        });
    }

    @Test
    void runLengthsThatDoNotCoverTheRowsAreCorrupt() throws Exception {
        Seeds.run("RunLengthEncodingTest.runLengthsThatDoNotCoverTheRowsAreCorrupt", random -> {
            Encoded encoded = tenRuns(random);
            byte[] bytes = encoded.bytes().clone();
            int body = bodyOffset(encoded);
            // Header 16 bytes, 10 values of 5 bits (one word), then the lengths: 10 x 4 bits of 9.
            int lengthsOffset = body + 16 + 8;
            bytes[lengthsOffset] = (byte) 0x98;
            assertCorrupt(encoded, bytes, "[INDEX_CORRUPT] test segment: runs at offset " + lengthsOffset
                    + " cover 99 of 100 rows");
            bytes[lengthsOffset] = (byte) 0x9A;
            assertCorrupt(encoded, bytes, "[INDEX_CORRUPT] test segment: runs at offset " + lengthsOffset
                    + " cover more than the 100 rows by run 9");
        });
    }

    @Test
    void aRunIndexThatDisagreesWithTheLengthsIsCorrupt() throws Exception {
        Seeds.run("RunLengthEncodingTest.aRunIndexThatDisagreesWithTheLengthsIsCorrupt", random -> {
            Encoded encoded = tenRuns(random);
            byte[] bytes = encoded.bytes().clone();
            int indexOffset = bodyOffset(encoded) + 16 + 8 + 8;
            MemorySegment.ofArray(bytes).set(SegmentFormat.LE_INT, indexOffset, 3);
            assertCorrupt(encoded, bytes, "[INDEX_CORRUPT] test segment: run index entry 0 at offset " + indexOffset
                    + " says run 0 starts at row 3, the lengths say 0");
        });
    }

    @Test
    void aRunCountBeyondTheRowsIsCorrupt() throws Exception {
        Seeds.run("RunLengthEncodingTest.aRunCountBeyondTheRowsIsCorrupt", random -> {
            Encoded encoded = tenRuns(random);
            byte[] bytes = encoded.bytes().clone();
            int body = bodyOffset(encoded);
            MemorySegment.ofArray(bytes).set(SegmentFormat.LE_INT, body, 101);
            assertCorrupt(encoded, bytes, "[INDEX_CORRUPT] test segment: run count 101 at offset " + body + " for 100 rows");
        });
    }

    @Test
    void aLengthWidthAbove32IsCorrupt() throws Exception {
        Seeds.run("RunLengthEncodingTest.aLengthWidthAbove32IsCorrupt", random -> {
            Encoded encoded = tenRuns(random);
            byte[] bytes = encoded.bytes().clone();
            int widthOffset = bodyOffset(encoded) + 13;
            bytes[widthOffset] = 33;
            assertCorrupt(encoded, bytes, "[INDEX_CORRUPT] test segment: bit width 33 at offset " + widthOffset);
        });
    }
}
