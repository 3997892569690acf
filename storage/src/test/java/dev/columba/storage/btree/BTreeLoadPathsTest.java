package dev.columba.storage.btree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.stats.IoCounters;
import dev.columba.storage.alloc.Allocator;
import dev.columba.storage.buffer.Access;
import dev.columba.storage.buffer.BufferPool;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.buffer.PageRef;
import dev.columba.storage.buffer.WriteSet;
import dev.columba.storage.file.DataFile;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.page.SlottedPage;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
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
 * The load paths of the B+tree: {@link BTree.Inserter} (a remembered leaf, append-style splits) on
 * keys in ascending, descending and random order, and {@link BTree.Builder} (bottom-up) against a
 * tree built by inserts of the same entries. After each: the tree's invariants (every page's keys in
 * order and inside the range its parent gives it, all leaves at one depth, sibling links in both
 * directions at every level), every key found by a lookup, a full scan equal to the model, and the
 * leaves' fill.
 */
class BTreeLoadPathsTest {
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
        pool = new BufferPool(file, 8192, 4);
        allocator = new Allocator(file);
        try (WriteSet writes = new WriteSet(pool, 8192, counters)) {
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

    private static byte[] key(long id) {
        byte[] key = new byte[8];
        for (int index = 0; index < 8; index++) {
            key[index] = (byte) (id >>> (56 - 8 * index));
        }
        return key;
    }

    private static byte[] value(long id, int length) {
        byte[] value = new byte[length];
        Arrays.fill(value, (byte) id);
        return value;
    }

    @Test
    void ascendingInsertsFillLeavesAndKeepTheInvariants() {
        Map<String, Object> stats = insertAll(ascending(40_000), 100);
        // Append-style splits leave every leaf but the last full: 8 KB pages of 116-byte cells.
        assertTrue((double) stats.get("fill") > 0.97, "leaf fill " + stats);
    }

    @Test
    void descendingInsertsKeepTheInvariants() {
        insertAll(descending(20_000), 100);
    }

    @Test
    void randomInsertsWithDuplicatesKeepTheInvariants() {
        long seed = Long.getLong("columba.seed", System.nanoTime());
        System.out.println("BTreeLoadPathsTest seed " + seed);
        Random random = new Random(seed);
        List<Long> ids = new ArrayList<>();
        for (int index = 0; index < 30_000; index++) {
            ids.add((long) random.nextInt(20_000));
        }
        insertAll(ids, 100);
    }

    @Test
    void runsOfAscendingKeysInRandomPlacesKeepTheInvariants() {
        Random random = new Random(7);
        List<Long> ids = new ArrayList<>();
        for (int run = 0; run < 300; run++) {
            long start = random.nextInt(1_000_000);
            for (int index = 0; index < 100; index++) {
                ids.add(start + index);
            }
        }
        insertAll(ids, 60);
    }

    /** Inserts through one inserter (several transactions), checking each result against a model. */
    private Map<String, Object> insertAll(List<Long> ids, int valueLength) {
        NavigableMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
        BTree tree;
        try (WriteSet writes = new WriteSet(pool, 8192, counters)) {
            tree = BTree.create(writes, allocator, 9, counters);
            commit(writes);
        }
        int index = 0;
        while (index < ids.size()) {
            try (WriteSet writes = new WriteSet(pool, 8192, counters)) {
                BTree.Inserter inserter = tree.inserter();
                for (int end = Math.min(ids.size(), index + 7_000); index < end; index++) {
                    long id = ids.get(index);
                    byte[] value = value(id * 31 + index, valueLength);
                    boolean inserted = inserter.insert(writes, allocator, key(id), value, counters);
                    assertEquals(!model.containsKey(key(id)), inserted, "insert of " + id + " at " + index);
                    model.putIfAbsent(key(id), value);
                }
                commit(writes);
            }
        }
        return check(tree, pool, model);
    }

    @Test
    void bottomUpBuildEqualsTheTreeAscendingInsertsBuild() {
        for (int rows : new int[] {0, 1, 60, 70, 5_000, 120_000}) {
            List<byte[][]> entries = new ArrayList<>();
            for (long id = 0; id < rows; id++) {
                // Keys of varying length, so separators are of varying length too.
                byte[] key = Arrays.copyOf(key(id * 3), 8 + (int) (id % 5) * 7);
                entries.add(new byte[][] {key, value(id, 40 + (int) (id % 13) * 9)});
            }
            BTree inserted;
            BTree built;
            try (WriteSet writes = new WriteSet(pool, 16_384, counters)) {
                inserted = BTree.create(writes, allocator, 11, counters);
                BTree.Inserter inserter = inserted.inserter();
                for (byte[][] entry : entries) {
                    assertTrue(inserter.insert(writes, allocator, entry[0], entry[1], counters));
                }
                built = BTree.create(writes, allocator, 12, counters);
                BTree.Builder builder = built.builder(writes, 100, counters);
                for (byte[][] entry : entries) {
                    assertTrue(builder.add(writes, allocator, entry[0], entry[1], counters));
                }
                if (rows > 0) {
                    assertFalse(builder.add(writes, allocator, entries.getLast()[0], new byte[1], counters),
                            "a key not above the last is refused");
                }
                builder.finish(writes, allocator, counters);
                commit(writes);
            }
            NavigableMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
            for (byte[][] entry : entries) {
                model.put(entry[0], entry[1]);
            }
            check(inserted, pool, model);
            check(built, pool, model);
            assertEquals(shape(inserted, pool), shape(built, pool), rows + " rows: the same pages, level by level");
        }
    }

    @Test
    void bottomUpBuildAtAFillFactorThenInsertsIntoIt() {
        Random random = new Random(3);
        NavigableMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
        BTree tree;
        try (WriteSet writes = new WriteSet(pool, 16_384, counters)) {
            tree = BTree.create(writes, allocator, 13, counters);
            BTree.Builder builder = tree.builder(writes, 70, counters);
            for (long id = 0; id < 50_000; id += 2) {
                byte[] value = value(id, 30 + random.nextInt(100));
                assertTrue(builder.add(writes, allocator, key(id), value, counters));
                model.put(key(id), value);
            }
            builder.finish(writes, allocator, counters);
            commit(writes);
        }
        Map<String, Object> built = check(tree, pool, model);
        double fill = (double) built.get("fill");
        assertTrue(fill > 0.62 && fill < 0.72, "leaves filled to about 70%: " + built);
        try (WriteSet writes = new WriteSet(pool, 16_384, counters)) {
            BTree.Inserter inserter = tree.inserter();
            for (long id = 1; id < 50_000; id += 2) {
                byte[] value = value(id, 30 + random.nextInt(100));
                assertTrue(inserter.insert(writes, allocator, key(id), value, counters));
                model.put(key(id), value);
            }
            commit(writes);
        }
        check(tree, pool, model);
    }

    @Test
    void builderRefusesATreeWithEntries() {
        try (WriteSet writes = new WriteSet(pool, 1024, counters)) {
            BTree tree = BTree.create(writes, allocator, 14, counters);
            tree.insert(writes, allocator, key(1), value(1, 4), counters);
            var error = org.junit.jupiter.api.Assertions.assertThrows(dev.columba.core.error.ColumbaException.class,
                    () -> tree.builder(writes, 100, counters));
            assertTrue(error.getMessage().contains("empty tree"), error.getMessage());
        }
    }

    private static List<Long> ascending(int count) {
        List<Long> ids = new ArrayList<>();
        for (long id = 0; id < count; id++) {
            ids.add(id);
        }
        return ids;
    }

    private static List<Long> descending(int count) {
        List<Long> ids = ascending(count);
        java.util.Collections.reverse(ids);
        return ids;
    }

    /**
     * Checks the invariants, lookups and a full scan against {@code model}; returns the leaves'
     * count and fill (used bytes over usable bytes, the last leaf excluded).
     */
    private Map<String, Object> check(BTree tree, PageReader reader, NavigableMap<byte[], byte[]> model) {
        List<List<Long>> levels = new ArrayList<>();
        walk(tree, reader, tree.rootPage(), null, null, 0, levels);
        int depth = levels.size();
        for (int level = 0; level < depth; level++) {
            List<Long> pages = levels.get(level);
            for (int index = 0; index < pages.size(); index++) {
                try (PageRef ref = reader.read(pages.get(index), Access.RANDOM, counters)) {
                    long previous = index == 0 ? PageFormat.NO_PAGE : pages.get(index - 1);
                    long next = index == pages.size() - 1 ? PageFormat.NO_PAGE : pages.get(index + 1);
                    assertEquals(previous, Page.previous(ref.page()), "previous link of level " + level + " page " + index);
                    assertEquals(next, Page.next(ref.page()), "next link of level " + level + " page " + index);
                    assertEquals(depth - 1 - level, Page.level(ref.page()), "level of level " + level + " page " + index);
                }
            }
        }
        for (Map.Entry<byte[], byte[]> entry : model.entrySet()) {
            assertArrayEquals(entry.getValue(), tree.get(reader, entry.getKey(), counters), "lookup");
        }
        int count = 0;
        var expected = model.entrySet().iterator();
        try (Cursor cursor = tree.scan(reader, ScanRange.ALL, ReadAheadOptions.OFF, counters)) {
            while (cursor.next()) {
                var entry = expected.next();
                assertArrayEquals(entry.getKey(), cursor.key(), "scan entry " + count);
                assertArrayEquals(entry.getValue(), cursor.value(), "scan entry " + count);
                count++;
            }
        }
        assertEquals(model.size(), count, "entries scanned");
        List<Long> leaves = levels.getLast();
        long used = 0;
        for (int index = 0; index < leaves.size() - 1; index++) {
            try (PageRef ref = reader.read(leaves.get(index), Access.RANDOM, counters)) {
                used += Node.usedBytes(ref.page());
            }
        }
        Map<String, Object> stats = new HashMap<>();
        stats.put("leaves", leaves.size());
        stats.put("fill", leaves.size() < 2 ? 1.0 : (double) used / ((leaves.size() - 1) * (double) PageFormat.USABLE_SIZE));
        return stats;
    }

    /** Visits the subtree at {@code pageId}, whose keys must lie in {@code [low, high)}, collecting pages per depth. */
    private void walk(BTree tree, PageReader reader, long pageId, byte[] low, byte[] high, int depth,
                      List<List<Long>> levels) {
        if (levels.size() == depth) {
            levels.add(new ArrayList<>());
        }
        levels.get(depth).add(pageId);
        List<Long> children = new ArrayList<>();
        List<byte[]> bounds = new ArrayList<>();
        boolean leaf;
        try (PageRef ref = reader.read(pageId, Access.RANDOM, counters)) {
            MemorySegment page = tree.checkPage(ref.page(), pageId);
            leaf = Node.isLeaf(page);
            int slots = Page.slotCount(page);
            byte[] previous = null;
            for (int slot = 0; slot < slots; slot++) {
                byte[] key = Node.key(page, slot);
                if (previous != null) {
                    assertTrue(Arrays.compareUnsigned(previous, key) < 0, "keys in order in page " + pageId);
                }
                if (low != null) {
                    assertTrue(Arrays.compareUnsigned(low, key) <= 0, "key at or above the page's low bound " + pageId);
                }
                if (high != null) {
                    assertTrue(Arrays.compareUnsigned(key, high) < 0, "key below the page's high bound " + pageId);
                }
                previous = key;
                if (!leaf) {
                    bounds.add(key);
                    children.add(Node.child(page, SlottedPage.cellOffset(page, slot)));
                }
            }
            if (!leaf) {
                children.addFirst(Node.leftmostChild(page));
            }
        }
        if (!leaf) {
            for (int index = 0; index < children.size(); index++) {
                byte[] childLow = index == 0 ? low : bounds.get(index - 1);
                byte[] childHigh = index < bounds.size() ? bounds.get(index) : high;
                walk(tree, reader, children.get(index), childLow, childHigh, depth + 1, levels);
            }
        } else {
            assertEquals(levels.size() - 1, depth, "every leaf at the same depth");
        }
    }

    /** Every page's keys (and leaf values' lengths), level by level, children as positions in their level. */
    private List<String> shape(BTree tree, PageReader reader) {
        List<List<Long>> levels = new ArrayList<>();
        walk(tree, reader, tree.rootPage(), null, null, 0, levels);
        List<String> shape = new ArrayList<>();
        for (List<Long> level : levels) {
            for (long pageId : level) {
                try (PageRef ref = reader.read(pageId, Access.RANDOM, counters)) {
                    MemorySegment page = ref.page();
                    StringBuilder text = new StringBuilder("level " + Page.level(page) + ":");
                    for (int slot = 0; slot < Page.slotCount(page); slot++) {
                        text.append(' ').append(java.util.HexFormat.of().formatHex(Node.key(page, slot)));
                        if (Node.isLeaf(page)) {
                            text.append('=').append(Node.value(page, slot).length);
                        }
                    }
                    shape.add(text.toString());
                }
            }
        }
        return shape;
    }
}
