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
