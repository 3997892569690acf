package dev.columba.cli.inspect;

import static dev.columba.storage.page.PageFormat.HEADER_SIZE;
import static dev.columba.storage.page.PageFormat.PAGE_SIZE;

import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageType;
import dev.columba.storage.page.SlottedPage;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * One slot of a slotted page (B+tree leaf or internal, heap) as found on disk, every length checked
 * against the page so that a damaged cell is a {@link Damaged} value, never an out-of-bounds read.
 * The cell layouts are docs/format/data-file.md's; storage keeps them in package-private classes
 * ({@code btree.Node}, {@code heap.Heap}), so they are read here from the spec.
 */
sealed interface Cell {
    ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    int slot();

    /** {@code u16 key length | u16 value length | key | value}. */
    record Leaf(int slot, int offset, int keyOffset, int keyLength, int valueOffset, int valueLength) implements Cell {
    }

    /** {@code u16 key length | key | u64 child page id}. */
    record Internal(int slot, int offset, int keyOffset, int keyLength, long child) implements Cell {
    }

    /** {@code u16 row length | row}. */
    record HeapRow(int slot, int offset, int rowOffset, int rowLength) implements Cell {
    }

    /** A heap slot whose row was deleted: offset 0, kept so later slots keep their row ids. */
    record Tombstone(int slot) implements Cell {
    }

    /** A slot whose cell does not fit the page. */
    record Damaged(int slot, int offset, String problem) implements Cell {
    }

    /** Slots that fit between the header and the end of the page. */
    static int slotsThatFit() {
        return (PAGE_SIZE - HEADER_SIZE) / SlottedPage.SLOT_SIZE;
    }

    /** What is wrong with the page's slot array as a whole, or null. */
    static String slotArrayProblem(MemorySegment page) {
        int slots = Page.slotCount(page);
        int end = SlottedPage.slotOffset(slots);
        if (slots > slotsThatFit()) {
            return "slot count " + slots + " does not fit in a page (at most " + slotsThatFit() + ")";
        }
        if (Page.freeStart(page) != end) {
            return "free start is " + Page.freeStart(page) + " but " + slots + " slots end at " + end;
        }
        if (Page.freeEnd(page) < end) {
            return "free end " + Page.freeEnd(page) + " lies inside the slot array, which ends at " + end;
        }
        return null;
    }

    /** The cells of a slotted page of {@code type} (BTREE_LEAF, BTREE_INTERNAL or HEAP), in slot order. */
    static List<Cell> read(MemorySegment page, PageType type) {
        int slots = Math.min(Page.slotCount(page), slotsThatFit());
        int cellArea = SlottedPage.slotOffset(slots);
        List<Cell> cells = new ArrayList<>(slots);
        for (int slot = 0; slot < slots; slot++) {
            int offset = SlottedPage.cellOffset(page, slot);
            cells.add(switch (type) {
                case BTREE_LEAF -> leaf(page, slot, offset, cellArea);
                case BTREE_INTERNAL -> internal(page, slot, offset, cellArea);
                case HEAP -> heapRow(page, slot, offset, cellArea);
                case FREE, FILE_HEADER, GLOBAL_ALLOCATION_MAP, BOOT, OBJECT_ALLOCATION_MAP, OVERFLOW ->
                        throw new IllegalArgumentException(type + " pages have no slots");
            });
        }
        return cells;
    }

    private static Cell leaf(MemorySegment page, int slot, int offset, int cellArea) {
        if (offset < cellArea || offset > PAGE_SIZE - 4) {
            return outside(slot, offset, cellArea);
        }
        int keyLength = u16(page, offset);
        int valueLength = u16(page, offset + 2);
        if (offset + 4 + keyLength + valueLength > PAGE_SIZE) {
            return new Damaged(slot, offset, "leaf cell with a " + keyLength + "-byte key and a " + valueLength
                    + "-byte value runs past the end of the page");
        }
        return new Leaf(slot, offset, offset + 4, keyLength, offset + 4 + keyLength, valueLength);
    }

    private static Cell internal(MemorySegment page, int slot, int offset, int cellArea) {
        if (offset < cellArea || offset > PAGE_SIZE - 2) {
            return outside(slot, offset, cellArea);
        }
        int keyLength = u16(page, offset);
        if (offset + 2 + keyLength + 8 > PAGE_SIZE) {
            return new Damaged(slot, offset, "internal cell with a " + keyLength + "-byte key runs past the end of the page");
        }
        return new Internal(slot, offset, offset + 2, keyLength, page.get(LONG, offset + 2 + keyLength));
    }

    private static Cell heapRow(MemorySegment page, int slot, int offset, int cellArea) {
        if (offset == 0) {
            return new Tombstone(slot);
        }
        if (offset < cellArea || offset > PAGE_SIZE - 2) {
            return outside(slot, offset, cellArea);
        }
        int rowLength = u16(page, offset);
        if (offset + 2 + rowLength > PAGE_SIZE) {
            return new Damaged(slot, offset, "heap row of " + rowLength + " bytes runs past the end of the page");
        }
        return new HeapRow(slot, offset, offset + 2, rowLength);
    }

    private static Cell outside(int slot, int offset, int cellArea) {
        return new Damaged(slot, offset, "cell offset " + offset + " lies outside the cell area [" + cellArea + ", "
                + PAGE_SIZE + ")");
    }

    private static int u16(MemorySegment page, long offset) {
        return Short.toUnsignedInt(page.get(SHORT, offset));
    }
}
