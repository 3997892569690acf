package dev.columba.storage.btree;

import dev.columba.core.stats.IoCounters;
import dev.columba.storage.buffer.Access;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.buffer.PageRef;
import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageFormat;
import java.lang.foreign.MemorySegment;

/**
 * Physical statistics of a B+tree, the questions {@code sys.dm_db_index_physical_stats} answers:
 * how many pages, how full, and how far the leaves' key order is from their order in the file —
 * which decides how large the I/Os of an index-order scan's read-ahead can be.
 *
 * @param leafPages                    leaves
 * @param internalPages                pages above the leaves
 * @param height                       levels, 1 for a single leaf
 * @param entries                      entries in the leaves
 * @param fragments                    runs of leaves that are consecutive both in key order and
 *                                     in the file (page n followed by page n + 1)
 * @param averageFragmentPages         leaves per fragment
 * @param logicalFragmentationPercent  share of leaves whose key-order successor lies earlier in
 *                                     the file (out-of-order pages)
 * @param averagePageDensityPercent    bytes used by cells and slots over usable bytes, averaged over leaves
 */
public record IndexPhysicalStats(long leafPages, long internalPages, int height, long entries, long fragments,
                                 double averageFragmentPages, double logicalFragmentationPercent,
                                 double averagePageDensityPercent) {

    public long pageCount() {
        return leafPages + internalPages;
    }

    /** Walks the tree: every internal page once by level, every leaf once along the leaf chain. */
    public static IndexPhysicalStats of(BTree tree, PageReader reader, IoCounters counters) {
        long internal = 0;
        int height = 1;
        long firstLeaf = tree.rootPage();
        // Down the leftmost edge, counting each level's pages along its sibling chain.
        while (true) {
            long levelStart = firstLeaf;
            boolean leafLevel;
            try (PageRef ref = reader.read(levelStart, Access.RANDOM, counters)) {
                MemorySegment page = tree.checkPage(ref.page(), levelStart);
                leafLevel = Node.isLeaf(page);
                if (!leafLevel) {
                    firstLeaf = Node.leftmostChild(page);
                }
            }
            if (leafLevel) {
                break;
            }
            height++;
            for (long pageId = levelStart; pageId != PageFormat.NO_PAGE; ) {
                internal++;
                try (PageRef ref = reader.read(pageId, Access.RANDOM, counters)) {
                    pageId = Page.next(ref.page());
                }
            }
        }
        long leaves = 0;
        long entries = 0;
        long fragments = 0;
        long outOfOrder = 0;
        double density = 0;
        long previous = -1;
        for (long pageId = firstLeaf; pageId != PageFormat.NO_PAGE; ) {
            try (PageRef ref = reader.read(pageId, Access.SCAN, counters)) {
                MemorySegment page = tree.checkPage(ref.page(), pageId);
                leaves++;
                entries += Page.slotCount(page);
                density += (double) Node.usedBytes(page) / PageFormat.USABLE_SIZE;
                if (previous < 0 || pageId != previous + 1) {
                    fragments++;
                }
                if (previous >= 0 && pageId < previous) {
                    outOfOrder++;
                }
                previous = pageId;
                pageId = Page.next(page);
            }
        }
        return new IndexPhysicalStats(leaves, internal, height, entries, fragments,
                fragments == 0 ? 0 : (double) leaves / fragments,
                leaves == 0 ? 0 : 100.0 * outOfOrder / leaves,
                leaves == 0 ? 0 : 100.0 * density / leaves);
    }
}
