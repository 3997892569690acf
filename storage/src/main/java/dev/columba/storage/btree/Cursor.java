package dev.columba.storage.btree;

import dev.columba.core.stats.IoCounter;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.buffer.Access;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.buffer.PageRef;
import dev.columba.storage.buffer.SequentialReadAhead;
import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.page.SlottedPage;
import java.lang.foreign.MemorySegment;

/**
 * An index-order scan of a {@link BTree} range: seeks to the first key, then follows the leaf chain.
 * With read-ahead, the leaves ahead are learned from the level above them and read asynchronously
 * in large I/Os (see {@link SequentialReadAhead}).
 *
 * <p>The current entry's bytes are valid until the next {@link #next()} or {@link #close()}. Owned
 * by one thread; always close it (it holds a pin).
 */
public final class Cursor implements EntryCursor {
    private final BTree tree;
    private final PageReader reader;
    private final IoCounters counters;
    private final MemorySegment high;
    private final boolean highInclusive;
    private final SequentialReadAhead readAhead;

    private PageRef current;
    private int position;
    private int entryCell;
    private boolean done;

    Cursor(BTree tree, PageReader reader, ScanRange range, ReadAheadOptions options, IoCounters counters) {
        this.tree = tree;
        this.reader = reader;
        this.counters = counters;
        this.high = range.high() == null ? null : MemorySegment.ofArray(range.high());
        this.highInclusive = range.highInclusive();
        counters.increment(IoCounter.SCAN_COUNT);
        BTree.Path path = tree.descend(reader, range.low(), counters);
        current = path.takeLeaf(reader, Access.SCAN, counters);
        tree.checkPage(current.page(), path.leaf);
        position = 0;
        if (range.low() != null) {
            int slot = Node.searchLeaf(current.page(), MemorySegment.ofArray(range.low()), path.bounds);
            position = slot >= 0 ? (range.lowInclusive() ? slot : slot + 1) : -slot - 1;
        }
        if (options.enabled() && path.depth > 0) {
            LeafIterator leaves = new LeafIterator(tree, reader, path.pages[path.depth - 1],
                    path.childIndexes[path.depth - 1], range.high(), range.highInclusive(), counters);
            readAhead = new SequentialReadAhead(reader.bufferPool(), leaves, options.depthPages(),
                    options.maxPagesPerIo(), Access.SCAN, counters);
        } else {
            readAhead = null;
        }
    }

    /** Moves to the next entry in range; false at the end. */
    @Override
    public boolean next() {
        while (!done) {
            MemorySegment page = current.page();
            if (position < Page.slotCount(page)) {
                if (high != null) {
                    int comparison = Node.compareSlot(page, position, high);
                    if (comparison > 0 || (comparison == 0 && !highInclusive)) {
                        finish();
                        return false;
                    }
                }
                entryCell = SlottedPage.cellOffset(page, position);
                position++;
                return true;
            }
            long next = Page.next(page);
            current.close();
            current = null;
            if (next == PageFormat.NO_PAGE) {
                finish();
                return false;
            }
            current = reader.read(next, Access.SCAN, counters);
            tree.checkPage(current.page(), next);
            if (readAhead != null) {
                readAhead.advance();
            }
            position = 0;
        }
        return false;
    }

    /** The page holding the current entry; valid until the next move. */
    @Override
    public MemorySegment page() {
        return current.page();
    }

    @Override
    public int keyOffset() {
        return entryCell + 4;
    }

    @Override
    public int keyLength() {
        return Node.keyLength(current.page(), entryCell);
    }

    @Override
    public int valueOffset() {
        return Node.valueOffset(current.page(), entryCell);
    }

    @Override
    public int valueLength() {
        return Node.valueLength(current.page(), entryCell);
    }

    /** Read-ahead requests this scan issued. */
    public long readAheadRequests() {
        return readAhead == null ? 0 : readAhead.requests();
    }

    private void finish() {
        done = true;
        if (current != null) {
            current.close();
            current = null;
        }
        if (readAhead != null) {
            readAhead.close();
        }
    }

    @Override
    public void close() {
        if (!done) {
            finish();
        }
    }
}
