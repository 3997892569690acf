package dev.columba.storage.btree;

import dev.columba.core.stats.IoCounters;
import dev.columba.storage.alloc.AllocationOrderScan;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.buffer.PageRef;
import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageType;
import dev.columba.storage.page.SlottedPage;
import java.lang.foreign.MemorySegment;

/**
 * An unordered scan of a B+tree: its pages in allocation order, the leaves' entries as they come.
 * Faster to read than key order when the leaves are out of physical order (a fragmented index),
 * because read-ahead then issues one large I/O per run of consecutive pages. Entries come in key
 * order within a leaf only.
 */
public final class AllocationOrderCursor implements EntryCursor {
    private final AllocationOrderScan pages;
    private PageRef current;
    private int slot;
    private int cell;

    AllocationOrderCursor(BTree tree, PageReader reader, long firstPage, long endPage, ReadAheadOptions options,
                          IoCounters counters) {
        this.pages = new AllocationOrderScan(reader, tree.firstOamPage(), firstPage, endPage, options, counters);
    }

    @Override
    public boolean next() {
        while (true) {
            if (current != null) {
                MemorySegment page = current.page();
                if (slot < Page.slotCount(page)) {
                    cell = SlottedPage.cellOffset(page, slot++);
                    return true;
                }
                current.close();
                current = null;
            }
            PageRef next = pages.nextPage();
            if (next == null) {
                return false;
            }
            if (Page.type(next.page()) != PageType.BTREE_LEAF) {
                next.close();
                continue;
            }
            current = next;
            slot = 0;
        }
    }

    @Override
    public MemorySegment page() {
        return current.page();
    }

    @Override
    public int keyOffset() {
        return cell + 4;
    }

    @Override
    public int keyLength() {
        return Node.keyLength(current.page(), cell);
    }

    @Override
    public int valueOffset() {
        return Node.valueOffset(current.page(), cell);
    }

    @Override
    public int valueLength() {
        return Node.valueLength(current.page(), cell);
    }

    @Override
    public void close() {
        if (current != null) {
            current.close();
            current = null;
        }
        pages.close();
    }
}
