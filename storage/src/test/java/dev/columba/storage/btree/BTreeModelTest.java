package dev.columba.storage.btree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.columba.core.stats.IoCounters;
import dev.columba.storage.alloc.Allocator;
import dev.columba.storage.buffer.BufferPool;
import dev.columba.storage.buffer.WriteSet;
import dev.columba.storage.file.DataFile;
import dev.columba.storage.io.NativeFilesFacade;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The B+tree against a {@link TreeMap} model under long random sequences of inserts, replacements,
 * deletes, seeks and range scans, with keys of mixed sizes so that pages split and empty out at
 * every level. Transactions commit every few hundred operations, so later operations read pages
 * back through the pool. Replay a failure with {@code -Dcolumba.seed=<seed>}.
 */
class BTreeModelTest {
    @TempDir
    Path directory;

    private DataFile file;
    private BufferPool pool;
    private Allocator allocator;
    private final IoCounters counters = new IoCounters();
    private long lsn = 1;

    @BeforeEach
    void open() {
        file = DataFile.create(NativeFilesFacade.INSTANCE, directory.resolve("data.col"), UUID.randomUUID(), 0, false);
        pool = new BufferPool(file, 4096, 4);
        allocator = new Allocator(file);
        try (WriteSet writes = new WriteSet(pool, 4096, counters)) {
            Allocator.formatFirstGam(writes);
            commit(writes);
        }
    }

    @AfterEach
    void close() {
        pool.close();
        file.close();
    }

    private void commit(WriteSet writes) {
        long[] lsns = new long[writes.size()];
        Arrays.fill(lsns, lsn++);
        writes.install(lsns);
    }

    private static final Comparator UNSIGNED = new Comparator();

    private static final class Comparator implements java.util.Comparator<byte[]> {
        @Override
        public int compare(byte[] left, byte[] right) {
            return Arrays.compareUnsigned(left, right);
        }
    }

    @Test
    void randomOperationsAgreeWithTreeMap() {
        long seed = Long.getLong("columba.seed", System.nanoTime());
        System.out.println("BTreeModelTest seed " + seed);
        Random random = new Random(seed);
        NavigableMap<byte[], byte[]> model = new TreeMap<>(UNSIGNED);
        BTree tree;
        int tallest = 0;
        WriteSet writes = new WriteSet(pool, 3000, counters);
        tree = BTree.create(writes, allocator, 7, counters);
        try {
            for (int operation = 0; operation < 40_000; operation++) {
                int choice = random.nextInt(100);
                byte[] key = randomKey(random);
                String context = "seed " + seed + ", operation " + operation;
                if (choice < 55) {
                    byte[] value = randomValue(random, key.length);
                    boolean inserted = tree.insert(writes, allocator, key, value, counters);
                    assertEquals(!model.containsKey(key), inserted, context);
                    model.putIfAbsent(key, value);
                } else if (choice < 65) {
                    byte[] value = randomValue(random, key.length);
                    boolean fresh = tree.put(writes, allocator, key, value, counters);
                    assertEquals(model.put(key, value) == null, fresh, context);
                } else if (choice < 85) {
                    byte[] existing = model.isEmpty() || random.nextBoolean() ? key : pick(model, random);
                    boolean deleted = tree.delete(writes, allocator, existing, counters);
                    assertEquals(model.remove(existing) != null, deleted, context);
                } else if (choice < 98) {
                    byte[] probe = model.isEmpty() || random.nextBoolean() ? key : pick(model, random);
                    byte[] expected = model.get(probe);
                    byte[] actual = tree.get(writes, probe, counters);
                    if (expected == null) {
                        assertNull(actual, context);
                    } else {
                        assertArrayEquals(expected, actual, context);
                    }
                } else {
                    byte[] low = randomKey(random);
                    byte[] high = randomKey(random);
                    if (UNSIGNED.compare(low, high) > 0) {
                        byte[] swap = low;
                        low = high;
                        high = swap;
                    }
                    boolean lowInclusive = random.nextBoolean();
                    boolean highInclusive = random.nextBoolean();
                    assertRange(tree, writes, model.subMap(low, lowInclusive, high, highInclusive),
                            new ScanRange(low, lowInclusive, high, highInclusive), context);
                }
                if (random.nextInt(300) == 0) {
                    commit(writes);
                    writes.close();
                    writes = new WriteSet(pool, 3000, counters);
                }
                if (operation % 1000 == 999) {
                    tallest = Math.max(tallest, tree.height(writes, counters));
                    byte[] last = tree.lastKey(writes, counters);
                    if (model.isEmpty()) {
                        assertNull(last, context);
                    } else {
                        assertArrayEquals(model.lastKey(), last, context + " (last key)");
                    }
                }
                if (operation % 5000 == 4999) {
                    assertRange(tree, writes, model, ScanRange.ALL, context + " (full scan)");
                }
            }
            commit(writes);
            assertRange(tree, pool, model, ScanRange.ALL, "seed " + seed + ", final committed scan");
            assertEquals(3, Math.min(3, tallest), "the sequence must grow the tree to at least three levels");
            // Empty the tree entirely: every page but the root is freed and the root is a leaf again.
            writes = new WriteSet(pool, 3000, counters);
            for (byte[] key : model.keySet()) {
                tree.delete(writes, allocator, key, counters);
            }
            commit(writes);
            assertRange(tree, pool, Map.of(), ScanRange.ALL, "seed " + seed + ", emptied");
            assertEquals(2, Allocator.extents(pool, tree.firstOamPage(), counters).stream()
                    .mapToInt(dev.columba.storage.alloc.ExtentEntry::allocatedPages).sum(),
                    "an emptied tree keeps its allocation map page and its root");
        } finally {
            writes.close();
        }
    }

    private void assertRange(BTree tree, dev.columba.storage.buffer.PageReader reader, Map<byte[], byte[]> expected,
                             ScanRange range, String context) {
        var iterator = expected.entrySet().iterator();
        int count = 0;
        try (Cursor cursor = tree.scan(reader, range, ReadAheadOptions.OFF, counters)) {
            while (cursor.next()) {
                var entry = iterator.next();
                assertArrayEquals(entry.getKey(), cursor.key(), context + ", entry " + count);
                assertArrayEquals(entry.getValue(), cursor.value(), context + ", entry " + count);
                count++;
            }
        }
        assertEquals(expected.size(), count, context + ": entries in range");
    }

    private static byte[] pick(NavigableMap<byte[], byte[]> model, Random random) {
        byte[] probe = randomKey(random);
        byte[] key = model.ceilingKey(probe);
        return key != null ? key : model.firstKey();
    }

    /**
     * Keys of 1 to 700 bytes over a small alphabet, so that prefixes and near-duplicates are common;
     * a third share a long common prefix, which makes separators long and internal pages split.
     */
    private static byte[] randomKey(Random random) {
        int shared = random.nextInt(3) == 0 ? 300 + random.nextInt(300) : 0;
        int length = shared + 1 + random.nextInt(random.nextInt(10) == 0 ? 100 : 12);
        byte[] key = new byte[length];
        Arrays.fill(key, 0, shared, (byte) 'b');
        for (int index = shared; index < length; index++) {
            key[index] = (byte) (random.nextInt(4) == 0 ? random.nextInt(256) : 'a' + random.nextInt(4));
        }
        return key;
    }

    private static byte[] randomValue(Random random, int keyLength) {
        int length = random.nextInt(20) == 0 ? 500 + random.nextInt(1500) : random.nextInt(60);
        length = Math.min(length, BTree.maxEntryLength() - keyLength);
        byte[] value = new byte[length];
        random.nextBytes(value);
        return value;
    }
}
