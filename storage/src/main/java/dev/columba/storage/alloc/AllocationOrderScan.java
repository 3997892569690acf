package dev.columba.storage.alloc;

import dev.columba.core.stats.IoCounter;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.buffer.Access;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.buffer.PageRef;
import dev.columba.storage.buffer.SequentialReadAhead;
import java.util.HashSet;
import java.util.List;
import java.util.PrimitiveIterator;
import java.util.Set;

/**
 * Visits every page of an object in allocation order (extent by extent, ascending in the file), as
 * a heap scan or an unordered scan of a B+tree does, with read-ahead over the same order: runs of
 * consecutive pages become single large I/Os, and a gap between extents splits them. The object's
 * allocation-map pages are skipped. The caller decides which page types it wants. A scan may be
 * limited to the pages whose ids lie in a range ({@code [firstPage, endPage)}): the pages of disjoint
 * ranges are disjoint, so ranges that together cover every id split one scan into several (a
 * connector's splits), and each still reads ahead over its own pages in allocation order.
 *
 * <p>Not safe against concurrent changes to the object: the reader holds the object's shared lock
 * or is the writer itself. Owned by one thread.
 */
public final class AllocationOrderScan implements AutoCloseable {
    private final PageReader reader;
    private final IoCounters counters;
    private final long[] pages;
    private final SequentialReadAhead readAhead;
    private int position;

    public AllocationOrderScan(PageReader reader, long firstOamPage, ReadAheadOptions options, IoCounters counters) {
        this(reader, firstOamPage, 0, Long.MAX_VALUE, options, counters);
    }

    /** A scan of the object's pages whose ids are at least {@code firstPage} and below {@code endPage}. */
    public AllocationOrderScan(PageReader reader, long firstOamPage, long firstPage, long endPage, ReadAheadOptions options,
                               IoCounters counters) {
        if (firstPage < 0 || endPage < firstPage) {
            throw new IllegalArgumentException("page range [" + firstPage + ", " + endPage + ") is empty or negative");
        }
        this.reader = reader;
        this.counters = counters;
        counters.increment(IoCounter.SCAN_COUNT);
        long[] allocated = allocatedPages(reader, firstOamPage, counters);
        int count = 0;
        for (long pageId : allocated) {
            if (pageId >= firstPage && pageId < endPage) {
                allocated[count++] = pageId;
            }
        }
        this.pages = java.util.Arrays.copyOf(allocated, count);
        if (options.enabled() && count > 0) {
            PrimitiveIterator.OfLong upcoming = java.util.Arrays.stream(pages).iterator();
            readAhead = new SequentialReadAhead(reader.bufferPool(), upcoming, options.depthPages(),
                    options.maxPagesPerIo(), Access.SCAN, counters);
        } else {
            readAhead = null;
        }
    }

    /**
     * The object's allocated pages in allocation order (extent by extent), its allocation-map pages
     * left out: the pages a scan visits. Reads the allocation maps only.
     */
    public static long[] allocatedPages(PageReader reader, long firstOamPage, IoCounters counters) {
        Set<Long> mapPages = new HashSet<>(Allocator.mapPages(reader, firstOamPage, counters));
        List<ExtentEntry> extents = Allocator.extents(reader, firstOamPage, counters);
        long[] collected = new long[extents.size() * 8];
        int count = 0;
        for (ExtentEntry extent : extents) {
            for (int pageInExtent = 0; pageInExtent < 8; pageInExtent++) {
                long pageId = extent.firstPage() + pageInExtent;
                if (extent.isAllocated(pageInExtent) && !mapPages.contains(pageId)) {
                    collected[count++] = pageId;
                }
            }
        }
        return java.util.Arrays.copyOf(collected, count);
    }

    /** The number of pages the scan will visit. */
    public int pageCount() {
        return pages.length;
    }

    /** Pins the next page in allocation order, or returns null at the end. The caller closes it. */
    public PageRef nextPage() {
        if (position >= pages.length) {
            return null;
        }
        long pageId = pages[position++];
        PageRef ref = reader.read(pageId, Access.SCAN, counters);
        if (readAhead != null) {
            readAhead.advance();
        }
        return ref;
    }

    @Override
    public void close() {
        if (readAhead != null) {
            readAhead.close();
        }
    }
}
