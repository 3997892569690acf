package dev.columba.trino;

import dev.columba.core.stats.IoCounters;
import dev.columba.storage.alloc.AllocationOrderScan;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.table.TableStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The allocated pages of a rowstore table, read from its allocation maps (the map pages only, no
 * data page), cut into the page ranges of its splits. The caller holds the table's shared object lock.
 */
final class RowstorePages {
    private final long[] pages;

    private RowstorePages(long[] pages) {
        this.pages = pages;
    }

    /** The table's allocated pages (heap pages or B+tree pages, the allocation maps left out), ascending. */
    static RowstorePages of(TableStore table, PageReader reader, IoCounters counters) {
        long firstOamPage = table.heap() != null ? table.heap().firstOamPage() : table.tree().firstOamPage();
        long[] sorted = AllocationOrderScan.allocatedPages(reader, firstOamPage, counters);
        Arrays.sort(sorted);
        return new RowstorePages(sorted);
    }

    int count() {
        return pages.length;
    }

    /**
     * The splits: ranges of about {@code pagesPerSplit} allocated pages each, cut at allocated pages,
     * the first starting at page 0 and the last ending at {@code Long.MAX_VALUE}, so that together they
     * cover every page id (an empty table gets one split over everything).
     */
    List<RowstoreSplit> splits(int objectId, int pagesPerSplit) {
        List<RowstoreSplit> splits = new ArrayList<>();
        int splitCount = Math.max(1, (pages.length + pagesPerSplit - 1) / pagesPerSplit);
        for (int split = 0; split < splitCount; split++) {
            int firstIndex = split * pagesPerSplit;
            int endIndex = Math.min(pages.length, firstIndex + pagesPerSplit);
            long first = split == 0 ? 0 : pages[firstIndex];
            long end = split == splitCount - 1 ? Long.MAX_VALUE : pages[endIndex];
            splits.add(new RowstoreSplit(objectId, first, end, Math.max(0, endIndex - firstIndex), pagesPerSplit));
        }
        return splits;
    }
}
