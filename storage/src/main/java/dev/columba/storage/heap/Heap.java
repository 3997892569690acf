package dev.columba.storage.heap;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.alloc.AllocationOrderScan;
import dev.columba.storage.alloc.Allocator;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.buffer.Access;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.buffer.PageRef;
import dev.columba.storage.buffer.WriteSet;
import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.page.PageType;
import dev.columba.storage.page.SlottedPage;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * A table without a clustered index: rows on HEAP pages in no particular order, addressed by a row
 * id {@code (page << 16) | slot} that never changes while the row lives (deleted slots become
 * tombstones, so later slots keep their numbers). Scans go in allocation order.
 *
 * <p>New rows go to the page rows were last put on, or a fresh page: space freed by deletes is not
 * reused until the table is rebuilt (an append-mostly heap, as analytical loads are).
 *
 * <pre>
 * cell: u16 row length | row bytes
 * </pre>
 */
public final class Heap {
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final SlottedPage.CellLength CELL_LENGTH = (page, cell) -> 2 + Short.toUnsignedInt(page.get(SHORT, cell));
    /** Largest row: as for B+tree leaves, so a row fits wherever the table's rows may move. */
    public static final int MAX_ROW_LENGTH = PageFormat.USABLE_SIZE / 4 - SlottedPage.SLOT_SIZE - 4;

    private final int objectId;
    private final long firstOamPage;

    public Heap(int objectId, long firstOamPage) {
        this.objectId = objectId;
        this.firstOamPage = firstOamPage;
    }

    public static Heap create(WriteSet writes, Allocator allocator, int objectId, IoCounters counters) {
        return create(writes, allocator, objectId, dev.columba.storage.file.FileManifest.PRIMARY_FILEGROUP, counters);
    }

    /** Creates an empty heap whose pages come from filegroup {@code filegroupId}'s files. */
    public static Heap create(WriteSet writes, Allocator allocator, int objectId, int filegroupId, IoCounters counters) {
        return new Heap(objectId, allocator.createObject(writes, objectId, filegroupId, counters));
    }

    public long firstOamPage() {
        return firstOamPage;
    }

    public static long rowId(long pageId, int slot) {
        return (pageId << 16) | slot;
    }

    public static long pageOf(long rowId) {
        return rowId >>> 16;
    }

    public static int slotOf(long rowId) {
        return (int) (rowId & 0xFFFF);
    }

    /** Stores a row; returns its row id. */
    public long insert(WriteSet writes, Allocator allocator, byte[] row, IoCounters counters) {
        if (row.length > MAX_ROW_LENGTH) {
            throw new ColumbaException(ErrorCode.ROW_TOO_LARGE,
                    "row of " + row.length + " bytes exceeds the heap maximum of " + MAX_ROW_LENGTH);
        }
        int cellLength = 2 + row.length;
        long pageId = allocator.insertPageHint(firstOamPage);
        if (pageId != PageFormat.NO_PAGE) {
            try (PageRef ref = writes.read(pageId, Access.RANDOM, counters)) {
                if (!isHeapPage(ref.page()) || !SlottedPage.fits(ref.page(), cellLength)) {
                    pageId = PageFormat.NO_PAGE;
                }
            }
        }
        PageRef ref;
        if (pageId == PageFormat.NO_PAGE) {
            pageId = allocator.allocatePage(writes, objectId, firstOamPage, counters);
            ref = writes.create(pageId);
            Page.format(ref.page(), pageId, PageType.HEAP, objectId, 0);
            allocator.rememberInsertPage(firstOamPage, pageId);
        } else {
            ref = writes.modify(pageId, counters);
        }
        try (ref) {
            MemorySegment page = ref.page();
            int slot = Page.slotCount(page);
            int cell = SlottedPage.append(page, cellLength, CELL_LENGTH);
            page.set(SHORT, cell, (short) row.length);
            MemorySegment.copy(row, 0, page, ValueLayout.JAVA_BYTE, cell + 2, row.length);
            return rowId(pageId, slot);
        }
    }

    /** A copy of the row, or null if it was deleted or never existed. */
    public byte[] fetch(PageReader reader, long rowId, IoCounters counters) {
        long pageId = pageOf(rowId);
        int slot = slotOf(rowId);
        try (PageRef ref = reader.read(pageId, Access.RANDOM, counters)) {
            MemorySegment page = ref.page();
            checkPage(page, pageId);
            if (slot >= Page.slotCount(page)) {
                return null;
            }
            int cell = SlottedPage.cellOffset(page, slot);
            if (cell == 0) {
                return null;
            }
            return page.asSlice(cell + 2, Short.toUnsignedInt(page.get(SHORT, cell))).toArray(ValueLayout.JAVA_BYTE);
        }
    }

    /** Deletes a row; false if there was none. */
    public boolean delete(WriteSet writes, long rowId, IoCounters counters) {
        long pageId = pageOf(rowId);
        int slot = slotOf(rowId);
        try (PageRef ref = writes.modify(pageId, counters)) {
            MemorySegment page = ref.page();
            checkPage(page, pageId);
            if (slot >= Page.slotCount(page) || SlottedPage.cellOffset(page, slot) == 0) {
                return false;
            }
            int cell = SlottedPage.cellOffset(page, slot);
            SlottedPage.tombstone(page, slot, CELL_LENGTH.at(page, cell));
            return true;
        }
    }

    /** Opens an allocation-order scan over the live rows. */
    public HeapCursor scan(PageReader reader, ReadAheadOptions readAhead, IoCounters counters) {
        return new HeapCursor(new AllocationOrderScan(reader, firstOamPage, readAhead, counters));
    }

    private boolean isHeapPage(MemorySegment page) {
        return Page.type(page) == PageType.HEAP && Page.objectId(page) == objectId;
    }

    private void checkPage(MemorySegment page, long pageId) {
        if (!isHeapPage(page)) {
            throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "page " + pageId + " should be a heap page of object "
                    + objectId + " but is a " + Page.type(page) + " page of object " + Page.objectId(page));
        }
    }

    /** The rows of a heap in allocation order; the current row is valid until the next move. */
    public static final class HeapCursor implements AutoCloseable {
        private final AllocationOrderScan pages;
        private PageRef current;
        private int slot;
        private int cell;

        HeapCursor(AllocationOrderScan pages) {
            this.pages = pages;
        }

        public boolean next() {
            while (true) {
                if (current != null) {
                    MemorySegment page = current.page();
                    while (slot < Page.slotCount(page)) {
                        cell = SlottedPage.cellOffset(page, slot++);
                        if (cell != 0) {
                            return true;
                        }
                    }
                    current.close();
                    current = null;
                }
                PageRef next = pages.nextPage();
                if (next == null) {
                    return false;
                }
                if (Page.type(next.page()) != PageType.HEAP) {
                    next.close();
                    continue;
                }
                current = next;
                slot = 0;
            }
        }

        /**
         * Moves over up to {@code count} live rows, a page's slot array at a time, and returns how
         * many it passed; afterwards the cursor stands on the last of them, as after as many
         * {@link #next()} calls.
         */
        public int skip(int count) {
            int skipped = 0;
            while (skipped < count) {
                if (current != null) {
                    MemorySegment page = current.page();
                    int slots = Page.slotCount(page);
                    while (slot < slots && skipped < count) {
                        int offset = SlottedPage.cellOffset(page, slot++);
                        if (offset != 0) {
                            cell = offset;
                            skipped++;
                        }
                    }
                    if (skipped == count) {
                        return skipped;
                    }
                }
                if (!next()) {
                    return skipped;
                }
                skipped++;
            }
            return skipped;
        }

        public MemorySegment page() {
            return current.page();
        }

        public long rowId() {
            return Heap.rowId(current.pageId(), slot - 1);
        }

        public int rowOffset() {
            return cell + 2;
        }

        public int rowLength() {
            return Short.toUnsignedInt(current.page().get(SHORT, cell));
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
}
