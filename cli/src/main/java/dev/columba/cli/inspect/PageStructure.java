package dev.columba.cli.inspect;

import static dev.columba.storage.page.PageFormat.HEADER_SIZE;

import dev.columba.storage.file.DataFileFormat;
import dev.columba.storage.lob.OverflowStore;
import dev.columba.storage.page.PageType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks of a page's body that need no catalog, cheap enough to run on every page of a listing or
 * summary: the slot array and every cell inside the page, keys in ascending order, allocation map
 * entries and overflow piece lengths within their page. A page whose checksum is right can still
 * fail them: it was written wrong. {@link PageDetail} shows the same damage slot by slot.
 */
final class PageStructure {
    private PageStructure() {
    }

    /** What is wrong with the body of a page whose header is sound, or null. */
    static String problem(MemorySegment page, PageInfo info) {
        PageType type = info.type();
        if (type == null || info.allZero()) {
            return null;
        }
        List<String> problems = new ArrayList<>();
        switch (type) {
            case BTREE_LEAF, BTREE_INTERNAL, HEAP -> cells(page, type, problems);
            case OBJECT_ALLOCATION_MAP -> {
                if (info.slotCount() > DataFileFormat.OAM_ENTRIES_PER_PAGE) {
                    problems.add("allocation map with " + info.slotCount() + " entries, more than a page holds ("
                            + DataFileFormat.OAM_ENTRIES_PER_PAGE + ")");
                }
            }
            case OVERFLOW -> {
                int piece = page.get(DataFileReader.INT, HEADER_SIZE);
                if (piece < 0 || piece > OverflowStore.BYTES_PER_PAGE) {
                    problems.add("overflow piece length " + piece + " at offset " + HEADER_SIZE
                            + " does not fit in a page (at most " + OverflowStore.BYTES_PER_PAGE + ")");
                }
            }
            case FREE, FILE_HEADER, GLOBAL_ALLOCATION_MAP, BOOT -> {
            }
        }
        return problems.isEmpty() ? null : String.join("; ", problems);
    }

    private static void cells(MemorySegment page, PageType type, List<String> problems) {
        String slotArray = Cell.slotArrayProblem(page);
        if (slotArray != null) {
            problems.add(slotArray);
        }
        int damaged = 0;
        String firstDamage = null;
        int outOfOrder = -1;
        MemorySegment previousKey = null;
        for (Cell cell : Cell.read(page, type)) {
            MemorySegment key = switch (cell) {
                case Cell.Leaf leaf -> page.asSlice(leaf.keyOffset(), leaf.keyLength());
                case Cell.Internal internal -> page.asSlice(internal.keyOffset(), internal.keyLength());
                case Cell.HeapRow ignored -> null;
                case Cell.Tombstone ignored -> null;
                case Cell.Damaged bad -> {
                    if (damaged++ == 0) {
                        firstDamage = "slot " + bad.slot() + ": " + bad.problem();
                    }
                    yield null;
                }
            };
            if (key != null) {
                if (previousKey != null && outOfOrder < 0 && compareUnsigned(previousKey, key) >= 0) {
                    outOfOrder = cell.slot();
                }
                previousKey = key;
            }
        }
        if (damaged > 0) {
            problems.add(damaged + (damaged == 1 ? " damaged cell (" : " damaged cells (first: ") + firstDamage + ")");
        }
        if (outOfOrder >= 0) {
            problems.add("the key of slot " + outOfOrder + " is not above the key of slot " + (outOfOrder - 1));
        }
    }

    private static int compareUnsigned(MemorySegment left, MemorySegment right) {
        long mismatch = left.mismatch(right);
        if (mismatch < 0) {
            return 0;
        }
        if (mismatch == left.byteSize()) {
            return -1;
        }
        if (mismatch == right.byteSize()) {
            return 1;
        }
        return Integer.compare(Byte.toUnsignedInt(left.get(ValueLayout.JAVA_BYTE, mismatch)),
                Byte.toUnsignedInt(right.get(ValueLayout.JAVA_BYTE, mismatch)));
    }
}
