package dev.columba.storage.io;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.BitSet;

/**
 * Asks {@code mincore(2)} which pages of a mapped address range are in the page cache. For a file
 * mapping the kernel answers from the page cache itself, whether or not this process has touched
 * the page, and answering reads nothing from storage and changes no page's residency.
 *
 * <p>Linux tells the truth only for files the caller owns or could open for writing; for any other
 * file it reports every page resident (a guard against page-cache side channels since Linux 5.0).
 */
final class ResidencyProbe {
    /** The operating system's page size: the unit of {@code mmap} offsets and of residency. */
    static final int PAGE_SIZE = pageSize();

    /** Most pages one {@code mincore} call answers for: bounds the per-thread vector to 16 KB. */
    private static final long PAGES_PER_CALL = 16_384;

    /** One byte per page for {@code mincore} to fill; reused by each call on the thread. */
    private static final ThreadLocal<MemorySegment> VECTOR =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(PAGES_PER_CALL));

    private ResidencyProbe() {
    }

    private static int pageSize() {
        long size = LibC.sysconf(LibC.SC_PAGESIZE);
        if (size <= 0 || Long.bitCount(size) != 1 || size > Integer.MAX_VALUE) {
            throw new ColumbaException(ErrorCode.INTERNAL, "sysconf(_SC_PAGESIZE) returned " + size);
        }
        return (int) size;
    }

    static long alignDown(long value) {
        return value & -PAGE_SIZE;
    }

    static long alignUp(long value) {
        return (value + PAGE_SIZE - 1) & -PAGE_SIZE;
    }

    /**
     * The bytes of {@code [start, end)} (addresses in one mapping) that lie in resident pages.
     *
     * @param subject what the range belongs to, named in an error (a file, a segment)
     * @param offset  the offset in {@code subject} that {@code start} corresponds to, named in an error
     */
    static long residentBytes(long start, long end, Object subject, long offset) {
        return walk(start, end, subject, offset, true);
    }

    /**
     * Asks for the pages of {@code [start, end)}: with {@code residentOverlap}, the range's bytes in
     * resident pages; without, the bytes of the whole pages it touches that are not resident (what
     * the kernel reads, a page at a time, when the range is touched or advised).
     */
    static long walk(long start, long end, Object subject, long offset, boolean residentOverlap) {
        MemorySegment vector = VECTOR.get();
        long bytes = 0;
        for (long pageStart = alignDown(start); pageStart < end; ) {
            long pages = Math.min(PAGES_PER_CALL, (alignUp(end) - pageStart) / PAGE_SIZE);
            ask(pageStart, pages, vector, subject, offset + (Math.max(pageStart, start) - start));
            for (long page = 0; page < pages; page++, pageStart += PAGE_SIZE) {
                boolean resident = (vector.get(ValueLayout.JAVA_BYTE, page) & 1) != 0;
                if (residentOverlap && resident) {
                    bytes += Math.min(end, pageStart + PAGE_SIZE) - Math.max(start, pageStart);
                } else if (!residentOverlap && !resident) {
                    bytes += PAGE_SIZE;
                }
            }
        }
        return bytes;
    }

    /**
     * Residency of the {@code pageCount} pages from {@code pageStart} (a page-aligned address): bit
     * {@code i} set when page {@code i} is resident.
     */
    static BitSet residentPages(long pageStart, int pageCount, Object subject, long offset) {
        MemorySegment vector = VECTOR.get();
        BitSet resident = new BitSet(pageCount);
        for (int first = 0; first < pageCount; ) {
            int pages = (int) Math.min(PAGES_PER_CALL, pageCount - first);
            ask(pageStart + (long) first * PAGE_SIZE, pages, vector, subject, offset + (long) first * PAGE_SIZE);
            for (int page = 0; page < pages; page++) {
                if ((vector.get(ValueLayout.JAVA_BYTE, page) & 1) != 0) {
                    resident.set(first + page);
                }
            }
            first += pages;
        }
        return resident;
    }

    private static void ask(long pageStart, long pages, MemorySegment vector, Object subject, long offset) {
        while (LibC.mincore(pageStart, pages * PAGE_SIZE, vector) != 0) {
            int errno = LibC.errno();
            if (errno != LibC.EAGAIN && errno != LibC.EINTR) {
                throw new ColumbaException(ErrorCode.IO_ERROR, "mincore failed on " + subject + " at offset " + offset
                        + " for " + pages + " pages: " + LibC.strerror(errno) + " (errno " + errno + ")");
            }
        }
    }
}
