package dev.columba.storage.lob;

import static dev.columba.storage.page.PageFormat.HEADER_SIZE;
import static dev.columba.storage.page.PageFormat.PAGE_SIZE;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.alloc.Allocator;
import dev.columba.storage.buffer.Access;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.buffer.PageRef;
import dev.columba.storage.buffer.WriteSet;
import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.page.PageType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Large values stored out of row: a chain of OVERFLOW pages of the owning table, each holding a
 * piece of the value after a four-byte length, linked through the page header's next field. Reads
 * are charged to the lob counters, as SQL Server's text/image and row-overflow pages are.
 */
public final class OverflowStore {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** Value bytes one overflow page holds. */
    public static final int BYTES_PER_PAGE = PAGE_SIZE - HEADER_SIZE - 4;

    private OverflowStore() {
    }

    /** Writes {@code value} into new overflow pages of the object; returns the first page id. */
    public static long write(WriteSet writes, Allocator allocator, int objectId, long firstOamPage, byte[] value,
                             IoCounters counters) {
        int pageCount = Math.max(1, (value.length + BYTES_PER_PAGE - 1) / BYTES_PER_PAGE);
        long[] pageIds = new long[pageCount];
        for (int index = 0; index < pageCount; index++) {
            pageIds[index] = allocator.allocatePage(writes, objectId, firstOamPage, counters);
        }
        for (int index = 0; index < pageCount; index++) {
            int from = index * BYTES_PER_PAGE;
            int length = Math.min(BYTES_PER_PAGE, value.length - from);
            try (PageRef ref = writes.create(pageIds[index])) {
                MemorySegment page = ref.page();
                Page.format(page, pageIds[index], PageType.OVERFLOW, objectId, 0);
                Page.setNext(page, index + 1 < pageCount ? pageIds[index + 1] : PageFormat.NO_PAGE);
                page.set(INT, HEADER_SIZE, length);
                MemorySegment.copy(value, from, page, ValueLayout.JAVA_BYTE, HEADER_SIZE + 4, length);
            }
        }
        return pageIds[0];
    }

    /** Reads back a value of {@code length} bytes starting at {@code firstPage}. */
    public static byte[] read(PageReader reader, long firstPage, long length, IoCounters counters) {
        if (length > Integer.MAX_VALUE - 8) {
            throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "overflow value of " + length + " bytes at page " + firstPage);
        }
        byte[] value = new byte[(int) length];
        int done = 0;
        long pageId = firstPage;
        while (done < value.length || pageId == firstPage) {
            if (pageId == PageFormat.NO_PAGE) {
                throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "overflow chain from page " + firstPage
                        + " ends after " + done + " of " + length + " bytes");
            }
            try (PageRef ref = reader.read(pageId, Access.LOB, counters)) {
                MemorySegment page = ref.page();
                if (Page.type(page) != PageType.OVERFLOW) {
                    throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "page " + pageId + " in the overflow chain from "
                            + firstPage + " is a " + Page.type(page) + " page");
                }
                int pieceLength = page.get(INT, HEADER_SIZE);
                if (pieceLength < 0 || pieceLength > BYTES_PER_PAGE || done + pieceLength > value.length) {
                    throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "overflow page " + pageId + " holds "
                            + pieceLength + " bytes, more than the value's remaining " + (value.length - done));
                }
                MemorySegment.copy(page, ValueLayout.JAVA_BYTE, HEADER_SIZE + 4, value, done, pieceLength);
                done += pieceLength;
                pageId = Page.next(page);
            }
            if (value.length == 0) {
                break;
            }
        }
        return value;
    }

    /** Frees the chain starting at {@code firstPage}. */
    public static void free(WriteSet writes, Allocator allocator, long firstOamPage, long firstPage, IoCounters counters) {
        long pageId = firstPage;
        while (pageId != PageFormat.NO_PAGE) {
            long next;
            try (PageRef ref = writes.read(pageId, Access.LOB, counters)) {
                next = Page.next(ref.page());
            }
            allocator.freePage(writes, firstOamPage, pageId, counters);
            pageId = next;
        }
    }
}
