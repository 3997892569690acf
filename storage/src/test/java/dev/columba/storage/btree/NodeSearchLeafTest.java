package dev.columba.storage.btree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.page.PageType;
import dev.columba.storage.page.SlottedPage;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link Node#searchLeaf} answers as a binary search over the sorted keys would — the slot of a
 * key present, {@code -(insertion point) - 1} for one absent, below the first and above the last
 * key included — for leaves whose keys are dense, sparse, clustered at one end (where the
 * interpolation guess is far off), of one length (the interpolated case) or of mixed lengths, and
 * for leaves too small to interpolate.
 */
class NodeSearchLeafTest {
    private enum Shape { DENSE, SPARSE, CLUSTERED, MIXED_LENGTHS, FEW }

    @Test
    void answersAsBinarySearch() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment page = arena.allocate(PageFormat.PAGE_SIZE);
            for (int round = 0; round < 400; round++) {
                Shape shape = Shape.values()[round % Shape.values().length];
                List<byte[]> keys = keys(shape, random);
                fill(page, keys);
                for (int probe = 0; probe < 200; probe++) {
                    byte[] sought = probe < keys.size() && random.nextBoolean() ? keys.get(probe)
                            : candidate(shape, keys, random);
                    int expected = expected(keys, sought);
                    assertEquals(expected, Node.searchLeaf(page, MemorySegment.ofArray(sought)),
                            "seed " + seed + ", " + shape + " leaf of " + keys.size() + " keys, key " + Arrays.toString(sought));
                }
            }
        }
    }

    /**
     * With the parent's separators as interpolation bounds ({@link Node#boundLeaf}): the same
     * answers, whether the separators are the leaf's true bounds (its first key and one past its
     * last, as a dense leaf has them), loose, or even wrong (the bounds only choose the guess).
     */
    @Test
    void answersAsBinarySearchWithTheParentsSeparatorsAsBounds() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment page = arena.allocate(PageFormat.PAGE_SIZE);
            MemorySegment parent = arena.allocate(PageFormat.PAGE_SIZE);
            Node.LeafBounds bounds = new Node.LeafBounds();
            int bounded = 0;
            for (int round = 0; round < 400; round++) {
                Shape shape = Shape.values()[round % Shape.values().length];
                List<byte[]> keys = keys(shape, random);
                fill(page, keys);
                long first = ByteBuffer.wrap(keys.getFirst(), 1, 8).getLong() ^ Long.MIN_VALUE;
                long last = ByteBuffer.wrap(keys.getLast(), 1, 8).getLong() ^ Long.MIN_VALUE;
                long low = switch (round % 3) {
                    case 0 -> first;
                    case 1 -> first - random.nextInt(1000);
                    default -> first + random.nextInt(1000) - 500;
                };
                long high = switch (round % 3) {
                    case 0 -> last + 1;
                    case 1 -> last + 1 + random.nextInt(1000);
                    default -> low + 1 + random.nextInt(5000);
                };
                separators(parent, bigint(low - 10), bigint(low), bigint(high));
                for (int probe = 0; probe < 200; probe++) {
                    byte[] sought = probe < keys.size() && random.nextBoolean() ? keys.get(probe)
                            : candidate(shape, keys, random);
                    Node.boundLeaf(parent, 1, MemorySegment.ofArray(sought), bounds);
                    bounded += bounds.known ? 1 : 0;
                    assertEquals(expected(keys, sought), Node.searchLeaf(page, MemorySegment.ofArray(sought), bounds),
                            "seed " + seed + ", " + shape + " leaf of " + keys.size() + " keys between " + low + " and "
                                    + high + ", key " + Arrays.toString(sought));
                }
            }
            assertTrue(bounded > 10_000, "seed " + seed + ": bounds known " + bounded + " times");
        }
    }

    /** The leftmost and rightmost children have a separator on one side only: no bounds. */
    @Test
    void theOuterChildrenHaveNoBounds() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment parent = arena.allocate(PageFormat.PAGE_SIZE);
            separators(parent, bigint(10), bigint(20), bigint(30));
            Node.LeafBounds bounds = new Node.LeafBounds();
            MemorySegment key = MemorySegment.ofArray(bigint(25));
            Node.boundLeaf(parent, 1, key, bounds);
            assertTrue(bounds.known);
            Node.boundLeaf(parent, -1, MemorySegment.ofArray(bigint(5)), bounds);
            assertFalse(bounds.known);
            Node.boundLeaf(parent, 2, MemorySegment.ofArray(bigint(35)), bounds);
            assertFalse(bounds.known);
            Node.boundLeaf(parent, 1, MemorySegment.ofArray(withSuffix(bigint(25), new Random(1))), bounds);
            assertFalse(bounds.known, "a key of another length than the separators");
        }
    }

    /** An internal page whose separators are {@code keys}, children numbered from 100. */
    private static void separators(MemorySegment parent, byte[]... keys) {
        parent.fill((byte) 0);
        Page.format(parent, 2, PageType.BTREE_INTERNAL, 7, 1);
        long child = 100;
        for (byte[] key : keys) {
            int cell = SlottedPage.append(parent, Node.INTERNAL_CELL_OVERHEAD + key.length, Node.INTERNAL_LENGTH);
            Node.writeInternalCell(parent, cell, key, child++);
        }
    }

    /** Sorted distinct keys of a leaf of {@code shape}. */
    private static List<byte[]> keys(Shape shape, Random random) {
        int count = shape == Shape.FEW ? 1 + random.nextInt(7) : 8 + random.nextInt(150);
        TreeSet<Long> values = new TreeSet<>();
        long start = random.nextLong(1L << 40) - (1L << 39);
        while (values.size() < count) {
            long value = switch (shape) {
                case DENSE -> start + values.size();
                case SPARSE, FEW, MIXED_LENGTHS -> start + random.nextLong(count * 1000L);
                // Most keys near the start, a few far away: the guess lands far from the key.
                case CLUSTERED -> start + (random.nextInt(10) == 0 ? random.nextLong(1L << 50) : random.nextInt(count * 2));
            };
            values.add(value);
        }
        List<byte[]> keys = new ArrayList<>();
        for (long value : values) {
            keys.add(shape == Shape.MIXED_LENGTHS && random.nextInt(4) == 0 ? withSuffix(bigint(value), random) : bigint(value));
        }
        keys.sort(Arrays::compareUnsigned);
        return keys;
    }

    /** A key to look for: near the keys (often between two of them), or beyond either end. */
    private static byte[] candidate(Shape shape, List<byte[]> keys, Random random) {
        byte[] near = keys.get(random.nextInt(keys.size()));
        long value = ByteBuffer.wrap(near, 1, 8).getLong() ^ Long.MIN_VALUE;
        return switch (random.nextInt(4)) {
            case 0 -> bigint(value + 1);
            case 1 -> bigint(value - 1);
            case 2 -> bigint(random.nextBoolean() ? Long.MIN_VALUE + random.nextInt(3) : Long.MAX_VALUE - random.nextInt(3));
            default -> shape == Shape.MIXED_LENGTHS ? withSuffix(near, random) : bigint(value + random.nextInt(2000) - 1000);
        };
    }

    /** A BIGINT key as {@code KeyCodec} encodes it: a value marker, then big-endian with the sign flipped. */
    private static byte[] bigint(long value) {
        return ByteBuffer.allocate(9).put((byte) 1).putLong(value ^ Long.MIN_VALUE).array();
    }

    private static byte[] withSuffix(byte[] key, Random random) {
        byte[] longer = Arrays.copyOf(key, key.length + 1 + random.nextInt(3));
        longer[key.length] = (byte) random.nextInt(256);
        return longer;
    }

    private static void fill(MemorySegment page, List<byte[]> keys) {
        page.fill((byte) 0);
        Page.format(page, 1, PageType.BTREE_LEAF, 7, 0);
        byte[] value = {42};
        for (byte[] key : keys) {
            int cell = SlottedPage.append(page, Node.leafCellSize(key, value), Node.LEAF_LENGTH);
            Node.writeLeafCell(page, cell, key, value);
        }
    }

    private static int expected(List<byte[]> keys, byte[] sought) {
        int low = 0;
        int high = keys.size() - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            int comparison = Arrays.compareUnsigned(keys.get(middle), sought);
            if (comparison < 0) {
                low = middle + 1;
            } else if (comparison > 0) {
                high = middle - 1;
            } else {
                return middle;
            }
        }
        return -(low + 1);
    }
}
