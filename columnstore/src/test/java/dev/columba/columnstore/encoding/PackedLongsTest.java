package dev.columba.columnstore.encoding;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Bulk reads of packed streams at every bit width, 0 to 64: values and deltas read a range at a
 * time (from offsets inside and across words, up to the stream's last value) equal those read
 * one at a time, and so do values widened to a DECIMAL vector's two words (up to 57 bits).
 */
class PackedLongsTest {
    private static final int COUNT = 300;

    private static PackedLongs stream(int width, long reference, long[] deltas) {
        ByteWriter out = new ByteWriter(SegmentFormat.PACKED_HEADER_BYTES + SegmentFormat.packedBytes(COUNT, width));
        out.putLong(reference);
        out.putByte(width);
        BitPacker packer = new BitPacker(out, width);
        for (long delta : deltas) {
            packer.add(delta);
        }
        packer.finish();
        byte[] bytes = out.finish();
        return PackedLongs.read(MemorySegment.ofArray(bytes), 0, bytes.length, COUNT, "test stream");
    }

    @Test
    void rangesAtEveryWidthMatchSingleReads() {
        long seed = 20261126L;
        Random random = new Random(seed);
        for (int width = 0; width <= 64; width++) {
            long mask = width == 64 ? -1L : (1L << width) - 1;
            long[] deltas = new long[COUNT];
            for (int index = 0; index < COUNT; index++) {
                // Extremes of the width as well as random deltas.
                deltas[index] = switch (index % 5) {
                    case 0 -> mask;
                    case 1 -> 0;
                    default -> random.nextLong() & mask;
                };
            }
            long reference = random.nextLong() >> 8;
            PackedLongs packed = stream(width, reference, deltas);
            for (int from : new int[] {0, 1, 7, 63, 64, 65, 130, COUNT - 1}) {
                for (int length : new int[] {1, 3, 64, 100, COUNT - from}) {
                    if (from + length > COUNT) {
                        continue;
                    }
                    long[] values = new long[length];
                    long[] read = new long[length];
                    byte[] scratch = new byte[PackedLongs.scratchFor(length)];
                    packed.read(from, length, values, scratch);
                    packed.deltas(from, length, read, scratch);
                    // Widened reads, into a scratch array left dirty by the reads above (as a reused one is).
                    long[] wide = new long[2 * length];
                    java.util.Arrays.fill(wide, 0x5555_5555_5555_5555L);
                    if (width <= 57) {
                        packed.readWide(from, length, wide, scratch);
                    }
                    for (int index = 0; index < length; index++) {
                        String where = "seed " + seed + ", width " + width + ", value " + (from + index);
                        assertEquals(deltas[from + index], read[index], where);
                        assertEquals(reference + deltas[from + index], values[index], where);
                        assertEquals(packed.get(from + index), values[index], where);
                        if (width <= 57) {
                            assertEquals(values[index], wide[2 * index], where + " widened");
                            assertEquals(values[index] >> 63, wide[2 * index + 1], where + " widened, high word");
                        }
                    }
                }
            }
        }
    }

    /**
     * The word-parallel range test ({@link PackedLongs#andDeltaRangeBits}) at every width it takes
     * clears exactly the rows a scalar test rejects: ranges at the width's ends, empty and single
     * values, from offsets inside and across words, into bitmaps preset with ones and random bits.
     */
    @Test
    void wordParallelRangesMatchTheScalarTest() {
        long seed = 20261127L;
        Random random = new Random(seed);
        for (int width = 1; width <= PackedLongs.MAX_WORD_PARALLEL_WIDTH; width++) {
            long mask = (1L << width) - 1;
            long[] deltas = new long[COUNT];
            for (int index = 0; index < COUNT; index++) {
                deltas[index] = switch (index % 7) {
                    case 0 -> mask;
                    case 1 -> 0;
                    default -> random.nextLong() & mask;
                };
            }
            PackedLongs packed = stream(width, random.nextLong() >> 8, deltas);
            byte[] words = packed.heapWords();
            long[][] ranges = {{0, mask}, {0, 0}, {mask, mask}, {1, mask - 1},
                    {random.nextLong() & mask, random.nextLong() & mask}, {deltas[5], deltas[5]}};
            for (long[] range : ranges) {
                long low = range[0];
                long high = range[1];
                for (int from : new int[] {0, 1, 13, 64, 99, COUNT - 1}) {
                    for (int count : new int[] {0, 1, 9, 63, 64, 65, 128, 200, COUNT - from}) {
                        if (from + count > COUNT) {
                            continue;
                        }
                        long[] preset = new long[count / 64 + 2];
                        for (int word = 0; word < preset.length; word++) {
                            preset[word] = random.nextBoolean() ? -1L : random.nextLong();
                        }
                        long[] bits = preset.clone();
                        packed.andDeltaRangeBits(words, from, count, low, high, bits);
                        for (int row = 0; row < count; row++) {
                            long delta = deltas[from + row];
                            boolean expected = (preset[row >>> 6] & (1L << row)) != 0 && delta >= low && delta <= high;
                            assertEquals(expected, (bits[row >>> 6] & (1L << row)) != 0, "seed " + seed + ", width " + width
                                    + ", range [" + low + ", " + high + "], rows " + from + "+" + count + ", row " + row);
                        }
                    }
                }
            }
        }
    }
}
