package dev.columba.columnstore.file;

import dev.columba.core.stats.IoCounter;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.io.MemoryAdvice;
import dev.columba.storage.io.MemoryMapping;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The I/O of one columnstore scan over memory-mapped rowgroup files: read-ahead with
 * {@code MADV_WILLNEED} and honest counters, in the vocabulary of ARCHITECTURE.md, counted as SQL
 * Server counts columnstore reads (the lob counters), in 8 KB units.
 *
 * <p>Read-ahead is issued a rowgroup at a time, over the byte ranges of the segments the scan will
 * decode, in requests of at most {@code maxRequestBytes} that never run past the end of the
 * rowgroup's file: a small rowgroup can only ever get small requests (seed 001's point). Before
 * each request {@code mincore} says which pages are already resident; the rest are the request's
 * read-ahead reads. Before the scan decodes a segment, the same check on the pages not covered by
 * read-ahead gives the physical reads: pages the scan will fault in and wait for, one 4 KB page per
 * fault under {@code MADV_RANDOM}. Read-ahead ranges the scan never decodes are wasted.
 *
 * <p>Owned by the scan's thread; the mappings must stay mapped while it uses them.
 */
public final class SegmentIo {
    static final int UNIT = 8192;

    private final IoCounters counters;
    private final boolean readAhead;
    private final long maxRequestBytes;
    private final List<Request> requests = new ArrayList<>();
    private long requestCount;
    private long largestRequest;

    /** A read-ahead request: the range, and the bytes it found not resident. */
    private static final class Request {
        final MemorySegment mapping;
        final long offset;
        final long length;
        final long nonResident;
        boolean used;

        Request(MemorySegment mapping, long offset, long length, long nonResident) {
            this.mapping = mapping;
            this.offset = offset;
            this.length = length;
            this.nonResident = nonResident;
        }

        boolean covers(MemorySegment other, long from, long to) {
            return mapping.address() == other.address() && offset < to && from < offset + length;
        }
    }

    public SegmentIo(IoCounters counters, boolean readAhead, long maxRequestBytes) {
        this.counters = counters;
        this.readAhead = readAhead;
        this.maxRequestBytes = maxRequestBytes;
    }

    /**
     * Reads ahead the segments {@code columns} of {@code file} (a no-op with read-ahead off), in
     * file order, in requests of at most the maximum, none crossing the end of the file.
     */
    public void readAhead(RowgroupFile file, int[] columns) {
        if (!readAhead) {
            return;
        }
        int[] ordered = columns.clone();
        java.util.Arrays.sort(ordered);
        // Adjacent segments (consecutive columns) form one range, as SQL Server reads contiguous LOB pages.
        long rangeStart = -1;
        long rangeEnd = -1;
        for (int column : ordered) {
            long start = file.segmentOffset(column);
            long end = start + file.segmentLength(column);
            if (rangeStart >= 0 && RowgroupFileFormat.align(rangeEnd) >= start) {
                rangeEnd = end;
                continue;
            }
            issue(file, rangeStart, rangeEnd);
            rangeStart = start;
            rangeEnd = end;
        }
        issue(file, rangeStart, rangeEnd);
    }

    /**
     * Reads ahead a whole primary dictionary file before the scan copies it (a no-op with
     * read-ahead off), in requests of at most the maximum.
     */
    public void readAheadDictionary(MemorySegment mapping) {
        if (readAhead) {
            issue(mapping, 0, mapping.byteSize());
        }
    }

    private void issue(RowgroupFile file, long start, long end) {
        issue(file.mapping(), start, Math.min(end, file.size()));
    }

    private void issue(MemorySegment mapping, long start, long limit) {
        if (start < 0 || limit <= start) {
            return;
        }
        for (long offset = start; offset < limit; offset += maxRequestBytes) {
            long length = Math.min(maxRequestBytes, limit - offset);
            long resident = MemoryMapping.residentBytes(mapping, offset, length);
            long nonResident = Math.max(0, roundToPages(offset, length) - resident);
            if (nonResident > 0) {
                MemoryMapping.madvise(mapping, offset, length, MemoryAdvice.WILLNEED);
                counters.add(IoCounter.LOB_READ_AHEAD_READS, units(nonResident));
                counters.increment(IoCounter.READ_IOS);
                counters.add(IoCounter.READ_BYTES, nonResident);
                requestCount++;
                largestRequest = Math.max(largestRequest, length);
            }
            requests.add(new Request(mapping, offset, length, nonResident));
        }
    }

    /** The bytes the kernel works in for a range: whole OS pages (4 KB) around it. */
    private static long roundToPages(long offset, long length) {
        long first = offset / 4096 * 4096;
        long last = (offset + length + 4095) / 4096 * 4096;
        return last - first;
    }

    /**
     * The scan is about to decode {@code [offset, offset + length)} of {@code file}: counts the
     * logical reads, and the physical reads of what is neither resident nor read ahead.
     */
    public void touch(RowgroupFile file, long offset, long length) {
        touch(file.mapping(), offset, length, true);
    }

    /**
     * The scan is about to read a dictionary at {@code [offset, offset + length)} of a mapped table
     * file (a rowgroup file's secondary dictionary, or a whole primary dictionary file): counted as
     * {@link #touch(RowgroupFile, long, long)} counts segments, but not as a segment read.
     */
    public void touchDictionary(MemorySegment mapping, long offset, long length) {
        touch(mapping, offset, length, false);
    }

    private void touch(MemorySegment mapping, long offset, long length, boolean segment) {
        if (length <= 0) {
            return;
        }
        counters.add(IoCounter.LOB_LOGICAL_READS, units(length));
        if (segment) {
            counters.increment(IoCounter.SEGMENT_READS);
        }
        long end = offset + length;
        boolean readAheadCovered = false;
        for (Request request : requests) {
            if (request.covers(mapping, offset, end)) {
                readAheadCovered = true;
                if (!request.used) {
                    request.used = true;
                    counters.add(IoCounter.READ_AHEAD_USED, units(request.nonResident));
                }
            }
        }
        if (readAheadCovered) {
            return;
        }
        long resident = MemoryMapping.residentBytes(mapping, offset, length);
        long nonResident = Math.max(0, roundToPages(offset, length) - resident);
        if (nonResident > 0) {
            counters.add(IoCounter.LOB_PHYSICAL_READS, units(nonResident));
            counters.add(IoCounter.READ_IOS, nonResident / 4096);
            counters.add(IoCounter.READ_BYTES, nonResident);
        }
    }

    /** A rowgroup skipped by elimination: its segments count as skipped. */
    public void skipped(int segments) {
        counters.add(IoCounter.SEGMENT_SKIPPED, segments);
    }

    /** Read-ahead requests that found pages to read. */
    public long requests() {
        return requestCount;
    }

    /** The largest read-ahead request issued, in bytes. */
    public long largestRequestBytes() {
        return largestRequest;
    }

    /** Forgets the requests into {@code file} (before it is unmapped), settling unused ones as wasted. */
    public void release(RowgroupFile file) {
        release(file.mapping());
    }

    /** Forgets the requests into {@code mapping} (before it is unmapped), settling unused ones as wasted. */
    public void release(MemorySegment mapping) {
        requests.removeIf(request -> {
            if (request.mapping.address() != mapping.address()) {
                return false;
            }
            if (!request.used) {
                counters.add(IoCounter.READ_AHEAD_WASTED, units(request.nonResident));
            }
            return true;
        });
    }

    /** Settles every outstanding request. */
    public void close() {
        for (Request request : requests) {
            if (!request.used) {
                counters.add(IoCounter.READ_AHEAD_WASTED, units(request.nonResident));
            }
        }
        requests.clear();
    }

    static long units(long bytes) {
        return (bytes + UNIT - 1) / UNIT;
    }
}
