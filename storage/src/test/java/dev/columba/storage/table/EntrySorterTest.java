package dev.columba.storage.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link EntrySorter} against a plain sort of the same entries: keys of 0 to 40 bytes that share
 * long prefixes, end in zero bytes (which the eight-byte prefix pads with), or have high bytes
 * (unsigned order), values of 0 to 3,000 bytes (larger than a run's write buffer is not needed:
 * an entry always fits a page), in memory and in many runs; no run file is left in the directory.
 */
class EntrySorterTest {
    @TempDir
    Path directory;

    private static byte[] key(Random random) {
        int shape = random.nextInt(4);
        byte[] key = new byte[random.nextInt(shape == 0 ? 9 : 41)];
        for (int index = 0; index < key.length; index++) {
            key[index] = switch (shape) {
                case 0 -> (byte) random.nextInt(3);                       // short, many zero bytes
                case 1 -> index < 12 ? (byte) 7 : (byte) random.nextInt(256); // a long shared prefix
                case 2 -> (byte) (0x80 | random.nextInt(2));              // high bytes
                default -> (byte) random.nextInt(256);
            };
        }
        return key;
    }

    @Test
    void entriesComeOutInUnsignedKeyOrderFromMemoryAndFromRuns() throws Exception {
        // Memory for every entry, for a few runs (an odd number of merged sources), for many and for very many.
        for (long memory : new long[] {1 << 30, 3 << 20, 64 << 10, 4 << 10}) {
            Random random = new Random(memory);
            List<byte[][]> expected = new ArrayList<>();
            try (EntrySorter sorter = new EntrySorter(directory.resolve("temp"), memory)) {
                for (int entry = 0; entry < 20_000; entry++) {
                    byte[] key = key(random);
                    byte[] value = new byte[random.nextInt(10) == 0 ? random.nextInt(3_000) : random.nextInt(20)];
                    random.nextBytes(value);
                    sorter.add(key, value);
                    expected.add(new byte[][] {key, value});
                }
                assertEquals(20_000, sorter.entries());
                if (memory == 1 << 30) {
                    assertEquals(0, sorter.runs(), "everything fits in memory");
                } else {
                    assertTrue(sorter.runs() >= (memory == 3 << 20 ? 1 : 5), "runs: " + sorter.runs());
                }
                expected.sort((left, right) -> Arrays.compareUnsigned(left[0], right[0]));
                EntrySorter.Entries sorted = sorter.sorted();
                byte[] previous = null;
                List<String> got = new ArrayList<>();
                List<String> want = new ArrayList<>();
                while (sorted.next()) {
                    if (previous != null) {
                        assertTrue(Arrays.compareUnsigned(previous, sorted.key()) <= 0, "ascending");
                    }
                    assertEquals(EntrySorter.prefix(sorted.key()), sorted.prefix());
                    previous = sorted.key();
                    got.add(HexFormat.of().formatHex(sorted.key()) + ":" + HexFormat.of().formatHex(sorted.value()));
                }
                assertFalse(sorted.next(), "stays at the end");
                for (byte[][] entry : expected) {
                    want.add(HexFormat.of().formatHex(entry[0]) + ":" + HexFormat.of().formatHex(entry[1]));
                }
                // Equal keys come out in no fixed order: compare as sorted multisets, order checked above.
                got.sort(null);
                want.sort(null);
                assertEquals(want, got);
            }
            try (var files = Files.list(directory.resolve("temp"))) {
                assertEquals(List.of(), files.toList(), "the run file is unlinked");
            } catch (java.nio.file.NoSuchFileException e) {
                assertEquals(1 << 30, memory, "only a sort that wrote no run creates no directory");
            }
        }
    }

    @Test
    void thePrefixOrdersAsTheKeyBytesDo() {
        assertEquals(0x0102000000000000L, EntrySorter.prefix(new byte[] {1, 2}));
        assertEquals(0xFF00000000000000L, EntrySorter.prefix(new byte[] {(byte) 0xFF}));
        assertEquals(0L, EntrySorter.prefix(new byte[0]));
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8},
                java.nio.ByteBuffer.allocate(8).putLong(EntrySorter.prefix(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9})).array());
    }
}
