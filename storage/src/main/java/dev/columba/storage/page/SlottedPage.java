package dev.columba.storage.page;

import static dev.columba.storage.page.PageFormat.HEADER_SIZE;
import static dev.columba.storage.page.PageFormat.PAGE_SIZE;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The slotted layout inside a page: an array of 2-byte slots after the header, growing up, each
 * pointing at a cell in the cell area, which grows down from the end of the page. Cells carry
 * their own length in a format the page's owner defines; this class only needs it passed in.
 * Slot order is the owner's order (key order for B+trees); a slot value of 0 marks a deleted
 * cell in heaps, which keep slot numbers stable.
 *
 * <p>Static methods over the page segment, so hot paths allocate nothing.
 */
public final class SlottedPage {
    private SlottedPage() {
    }

    public static final int SLOT_SIZE = 2;

    public static int slotOffset(int slot) {
        return HEADER_SIZE + slot * SLOT_SIZE;
    }

    /** Offset of the cell in {@code slot}, or 0 for a deleted slot. */
    public static int cellOffset(MemorySegment page, int slot) {
        return Short.toUnsignedInt(page.get(Page.SHORT, slotOffset(slot)));
    }

    public static void setCellOffset(MemorySegment page, int slot, int offset) {
        page.set(Page.SHORT, slotOffset(slot), (short) offset);
    }

    /** Free bytes after compaction: what an insert of one more cell (plus its slot) can use. */
    public static int totalFree(MemorySegment page) {
        return Page.contiguousFree(page) + Page.garbageBytes(page);
    }

    /** Whether a cell of {@code cellLength} bytes plus a new slot fits, possibly after compaction. */
    public static boolean fits(MemorySegment page, int cellLength) {
        return totalFree(page) >= cellLength + SLOT_SIZE;
    }

    /**
     * Inserts a cell at slot position {@code slot} (shifting later slots up) and returns the offset
     * where its bytes must be written. The caller checked {@link #fits}.
     *
     * @param cellLength the bytes the cell takes
     * @param lengthOf   reads any existing cell's length, for compaction
     */
    public static int insert(MemorySegment page, int slot, int cellLength, CellLength lengthOf) {
        int count = Page.slotCount(page);
        if (Page.contiguousFree(page) < cellLength + SLOT_SIZE) {
            compact(page, lengthOf);
        }
        int freeEnd = Page.freeEnd(page) - cellLength;
        MemorySegment.copy(page, slotOffset(slot), page, slotOffset(slot + 1), (long) (count - slot) * SLOT_SIZE);
        setCellOffset(page, slot, freeEnd);
        Page.setSlotCount(page, count + 1);
        Page.setFreeStart(page, slotOffset(count + 1));
        Page.setFreeEnd(page, freeEnd);
        return freeEnd;
    }

    /**
     * Appends a slot at the end for a cell of {@code cellLength} bytes; returns the cell offset.
     */
    public static int append(MemorySegment page, int cellLength, CellLength lengthOf) {
        return insert(page, Page.slotCount(page), cellLength, lengthOf);
    }

    /** Removes the slot and its cell, shifting later slots down; the cell's bytes become garbage. */
    public static void remove(MemorySegment page, int slot, int cellLength) {
        int count = Page.slotCount(page);
        MemorySegment.copy(page, slotOffset(slot + 1), page, slotOffset(slot), (long) (count - slot - 1) * SLOT_SIZE);
        Page.setSlotCount(page, count - 1);
        Page.setFreeStart(page, slotOffset(count - 1));
        Page.setGarbageBytes(page, Page.garbageBytes(page) + cellLength);
    }

    /** Marks a slot deleted without moving other slots (heaps keep row ids stable). */
    public static void tombstone(MemorySegment page, int slot, int cellLength) {
        setCellOffset(page, slot, 0);
        Page.setGarbageBytes(page, Page.garbageBytes(page) + cellLength);
    }

    /**
     * Rewrites the cell area so that all free space is contiguous. Cells keep their slots; their
     * offsets change.
     */
    public static void compact(MemorySegment page, CellLength lengthOf) {
        int count = Page.slotCount(page);
        byte[] copy = page.asSlice(0, PAGE_SIZE).toArray(ValueLayout.JAVA_BYTE);
        MemorySegment original = MemorySegment.ofArray(copy);
        int freeEnd = PAGE_SIZE;
        for (int slot = 0; slot < count; slot++) {
            int offset = cellOffset(original, slot);
            if (offset == 0) {
                continue;
            }
            int length = lengthOf.at(original, offset);
            freeEnd -= length;
            MemorySegment.copy(original, offset, page, freeEnd, length);
            setCellOffset(page, slot, freeEnd);
        }
        page.asSlice(Page.freeStart(page), freeEnd - Page.freeStart(page)).fill((byte) 0);
        Page.setFreeEnd(page, freeEnd);
        Page.setGarbageBytes(page, 0);
    }

    /** How a page's owner reads the length of the cell at an offset. */
    @FunctionalInterface
    public interface CellLength {
        int at(MemorySegment page, int cellOffset);
    }
}
