package dev.columba.storage.btree;

import dev.columba.core.stats.IoCounters;
import dev.columba.storage.buffer.Access;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.buffer.PageRef;
import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageFormat;
import java.lang.foreign.MemorySegment;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;

/**
 * The leaves a range scan will visit after its first one, in key order, learned from the pages
 * one level above the leaves and their sibling links, as SQL Server's index read-ahead does. Stops
 * after the last leaf that can hold a key in range. Each level-one page is read once (a logical
 * read of the scan's table).
 */
final class LeafIterator implements PrimitiveIterator.OfLong {
    private final BTree tree;
    private final PageReader reader;
    private final MemorySegment high;
    private final boolean highInclusive;
    private final IoCounters counters;

    private long[] children = new long[0];
    private int childCount;
    private int nextChild;
    private long nextParent;
    private boolean stopped;

    LeafIterator(BTree tree, PageReader reader, long parent, int firstChildIndex, byte[] high, boolean highInclusive,
                 IoCounters counters) {
        this.tree = tree;
        this.reader = reader;
        this.high = high == null ? null : MemorySegment.ofArray(high);
        this.highInclusive = highInclusive;
        this.counters = counters;
        load(parent);
        // Children are numbered from -1 (leftmost); array index = child index + 1.
        nextChild = firstChildIndex + 2;
    }

    private void load(long parent) {
        try (PageRef ref = reader.read(parent, Access.RANDOM, counters)) {
            MemorySegment page = tree.checkPage(ref.page(), parent);
            int count = Page.slotCount(page);
            if (children.length < count + 1) {
                children = new long[count + 1];
            }
            children[0] = Node.leftmostChild(page);
            childCount = 1;
            for (int slot = 0; slot < count; slot++) {
                if (high != null) {
                    int comparison = Node.compareSlot(page, slot, high);
                    if (comparison > 0 || (comparison == 0 && !highInclusive)) {
                        stopped = true;
                        break;
                    }
                }
                children[childCount++] = Node.childAt(page, slot);
            }
            nextParent = stopped ? PageFormat.NO_PAGE : Page.next(page);
        }
        nextChild = 0;
    }

    @Override
    public boolean hasNext() {
        while (nextChild >= childCount) {
            if (nextParent == PageFormat.NO_PAGE) {
                return false;
            }
            load(nextParent);
        }
        return true;
    }

    @Override
    public long nextLong() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return children[nextChild++];
    }
}
