package dev.columba.storage.btree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Node#compare}: the order of a cell's key against a search key is the unsigned order of
 * their bytes, a prefix first, for keys shorter and longer than the eight bytes it reads at once
 * and than the length from which it calls {@link MemorySegment#mismatch}, equal in their first
 * eight bytes or not, with bytes above 0x7F.
 */
class NodeCompareTest {
    @Test
    void comparesAsUnsignedBytes() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        byte[] page = new byte[256];
        for (int round = 0; round < 20_000; round++) {
            int longest = random.nextBoolean() ? 17 : 90;
            int length = random.nextInt(longest);
            int keyLength = random.nextInt(longest);
            byte[] cell = bytes(random, length);
            byte[] key = bytes(random, keyLength);
            if (random.nextBoolean()) {
                // Share a prefix, often all of the first eight bytes.
                System.arraycopy(cell, 0, key, 0, Math.min(length, keyLength) - random.nextInt(Math.min(length, keyLength) + 1) / 4);
            }
            int offset = random.nextInt(page.length - 90);
            System.arraycopy(cell, 0, page, offset, length);
            int expected = Integer.signum(Arrays.compareUnsigned(cell, key));
            int actual = Integer.signum(Node.compare(MemorySegment.ofArray(page), offset, length, MemorySegment.ofArray(key)));
            assertEquals(expected, actual, "seed " + seed + ": " + Arrays.toString(cell) + " vs " + Arrays.toString(key));
        }
    }

    /** Bytes drawn from a few values, so that equal prefixes and bytes above 0x7F are common. */
    private static byte[] bytes(Random random, int length) {
        byte[] values = {0, 1, 0x7F, (byte) 0x80, (byte) 0xFF};
        byte[] bytes = new byte[length];
        for (int index = 0; index < length; index++) {
            bytes[index] = values[random.nextInt(values.length)];
        }
        return bytes;
    }
}
