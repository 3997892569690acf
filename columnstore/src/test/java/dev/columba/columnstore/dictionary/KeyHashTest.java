package dev.columba.columnstore.dictionary;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The array and the segment form of the key hash agree: a builder's table may hold keys hashed either way. */
class KeyHashTest {
    @Test
    void arrayAndSegmentHashesAreEqualForEveryLengthAndOffset() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        for (int length = 0; length <= 40; length++) {
            for (int offset = 0; offset < 3; offset++) {
                byte[] bytes = new byte[offset + length + 2];
                random.nextBytes(bytes);
                assertEquals(KeyHash.hash(MemorySegment.ofArray(bytes), offset, length), KeyHash.hash(bytes, offset, length),
                        "seed " + seed + ", length " + length + ", offset " + offset);
            }
        }
    }
}
