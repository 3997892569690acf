package dev.columba.columnstore.file;

import dev.columba.core.stats.IoCounter;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.io.MemoryAdvice;
import dev.columba.storage.io.MemoryMapping;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The I/O of one columnstore scan over memory-mapped rowgroup files: read-ahead with
 * {@code MADV_WILLNEED} and honest counters, in the vocabulary of docs/design/architecture.md, counted as SQL
 * Server counts columnstore reads (the lob counters), in 8 KB units.
 *
 * <p><b>Requests.</b> Read-ahead covers the byte ranges of the segments the scan will decode, in
 * requests of at most {@code maxRequestBytes} that never run past the end of a rowgroup's file: a
 * small rowgroup can only ever get small requests (seed 001's point). Before each request
 * {@code mincore} says which pages are already resident; the rest are the request's read-ahead reads.
 * Before the scan decodes a segment, the same check on the pages not covered by read-ahead gives the
 * physical reads: pages the scan will fault in and wait for, one 4 KB page per fault under
 * {@code MADV_RANDOM}. A request is used when the scan touches a range it covers, and wasted when its
 * mapping is released (or the scan closed) before that, so used + wasted = read-ahead reads.
 *
 * <p><b>The window.</b> When the scan starts reading a rowgroup ({@link #readAhead}) every request of
 * that rowgroup not issued yet is issued at once. Beyond it, the scan {@linkplain #planAhead plans}
 * the rowgroups it will read next (mapped early, already past elimination), and
 * {@link #fillWindow()} issues their requests in scan order while the bytes of requests issued and
 * not yet touched stay within {@code windowBytes} (one request may go alone when it is larger than
 * the window). Touching a segment consumes its requests, so the scan tops the window up after each
 * touch: reading the disk overlaps checking and decoding across rowgroup boundaries, which
 * per-rowgroup read-ahead could never do. A window of 0 reads ahead the current rowgroup only.
 *
 * <p>Owned by the scan's thread; the mappings must stay mapped until {@link #release released}.
 */
public final class SegmentIo {
    static final int UNIT = 8192;

    private final IoCounters counters;
    /** The database's cumulative counters of mapped reads, which see every count {@link #counters} sees. */
    private final IoCounters cumulative;
    private final boolean readAhead;
    private final long maxRequestBytes;
    private final long windowBytes;
    /** Issued requests, until their mapping is released. */
    private final List<Request> requests = new ArrayList<>();
    /** Requests planned into upcoming rowgroups and not issued yet, in the order the scan reads them. */
    private final ArrayDeque<Chunk> planned = new ArrayDeque<>();
    private long plannedBytes;
    /** Bytes of issued requests neither touched nor released: what the window holds. */
    private long outstandingBytes;
    private long requestCount;
    private long requestsAhead;
    private long largestRequest;

    /** One request's range, before it is issued. */
    private record Chunk(MemorySegment mapping, long offset, long length) {
    }

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

    /** Read-ahead of the current rowgroup only (a window of 0), counted once, in {@code counters}. */
    public SegmentIo(IoCounters counters, boolean readAhead, long maxRequestBytes) {
        this(counters, new IoCounters(), readAhead, maxRequestBytes, 0);
    }

    /**
     * @param counters        the statement's counters of the scanned table
     * @param cumulative      the database's cumulative counters of mapped reads, counted the same
     * @param readAhead       issue {@code MADV_WILLNEED} at all; off, nothing is requested or planned
     * @param maxRequestBytes largest request
     * @param windowBytes     how many bytes of requests may be outstanding beyond the rowgroup being read
     */
    public SegmentIo(IoCounters counters, IoCounters cumulative, boolean readAhead, long maxRequestBytes,
                     long windowBytes) {
        if (maxRequestBytes < UNIT || windowBytes < 0) {
            throw new IllegalArgumentException("read-ahead request " + maxRequestBytes + ", window " + windowBytes);
        }
        this.counters = counters;
        this.cumulative = cumulative;
        this.readAhead = readAhead;
        this.maxRequestBytes = maxRequestBytes;
        this.windowBytes = windowBytes;
    }

    /**
     * The scan starts reading {@code file}: issues now every request over the segments {@code columns}
     * that is not issued yet (a no-op with read-ahead off), in file order, none crossing the end of the
     * file. Planned requests into the file leave the window's queue.
     */
    public void readAhead(RowgroupFile file, int[] columns) {
        if (!readAhead) {
            return;
        }
        MemorySegment mapping = file.mapping();
        planned.removeIf(chunk -> {
            if (chunk.mapping().address() != mapping.address()) {
                return false;
            }
            plannedBytes -= chunk.length();
            return true;
        });
        for (Chunk chunk : chunks(file, columns)) {
            if (!issued(chunk)) {
                issue(chunk);
            }
        }
    }

    /**
     * Plans the requests over the segments {@code columns} of {@code file}, a rowgroup the scan will
     * read after those already planned, for {@link #fillWindow()} to issue (a no-op with read-ahead
     * off or a window of 0).
     */
    public void planAhead(RowgroupFile file, int[] columns) {
        if (!readAhead || windowBytes == 0) {
            return;
        }
        for (Chunk chunk : chunks(file, columns)) {
            planned.addLast(chunk);
            plannedBytes += chunk.length();
        }
    }

    /** Whether the window has room beyond what is outstanding and planned: the scan should plan another rowgroup. */
    public boolean wantsMore() {
        return readAhead && windowBytes > 0 && outstandingBytes + plannedBytes < windowBytes;
    }

    /** Issues planned requests, in order, while the window has room for them. */
    public void fillWindow() {
        while (!planned.isEmpty()) {
            Chunk next = planned.peekFirst();
            if (outstandingBytes > 0 && outstandingBytes + next.length() > windowBytes) {
                return;
            }
            planned.removeFirst();
            plannedBytes -= next.length();
            if (issue(next)) {
                requestsAhead++;
            }
        }
    }

    /**
     * Reads ahead a whole primary dictionary file before the scan copies it (a no-op with
     * read-ahead off), in requests of at most the maximum.
     */
    public void readAheadDictionary(MemorySegment mapping) {
        if (readAhead) {
            for (Chunk chunk : split(mapping, 0, mapping.byteSize(), new ArrayList<>())) {
                issue(chunk);
            }
        }
    }

    /**
     * The requests over the segments {@code columns} of {@code file}, in file order: adjacent segments
     * (consecutive columns) form one range, as SQL Server reads contiguous LOB pages, split at the
     * maximum request size and cut at the end of the file.
     */
    private List<Chunk> chunks(RowgroupFile file, int[] columns) {
        int[] ordered = columns.clone();
        Arrays.sort(ordered);
        List<Chunk> chunks = new ArrayList<>();
        long rangeStart = -1;
        long rangeEnd = -1;
        for (int column : ordered) {
            long start = file.segmentOffset(column);
            long end = start + file.segmentLength(column);
            if (rangeStart >= 0 && RowgroupFileFormat.align(rangeEnd) >= start) {
                rangeEnd = end;
                continue;
            }
            split(file.mapping(), rangeStart, Math.min(rangeEnd, file.size()), chunks);
            rangeStart = start;
            rangeEnd = end;
        }
        split(file.mapping(), rangeStart, Math.min(rangeEnd, file.size()), chunks);
        return chunks;
    }

    private List<Chunk> split(MemorySegment mapping, long start, long limit, List<Chunk> chunks) {
        if (start < 0 || limit <= start) {
            return chunks;
        }
        for (long offset = start; offset < limit; offset += maxRequestBytes) {
            chunks.add(new Chunk(mapping, offset, Math.min(maxRequestBytes, limit - offset)));
        }
        return chunks;
    }

    private boolean issued(Chunk chunk) {
        for (Request request : requests) {
            if (request.mapping.address() == chunk.mapping().address() && request.offset == chunk.offset()) {
                return true;
            }
        }
        return false;
    }

    /** Issues one request; true when it found pages to read. */
    private boolean issue(Chunk chunk) {
        MemorySegment mapping = chunk.mapping();
        long offset = chunk.offset();
        long length = chunk.length();
        long nonResident = MemoryMapping.nonResidentPageBytes(mapping, offset, length);
        if (nonResident > 0) {
            MemoryMapping.madvise(mapping, offset, length, MemoryAdvice.WILLNEED);
            count(IoCounter.LOB_READ_AHEAD_READS, units(nonResident));
            count(IoCounter.READ_IOS, 1);
            count(IoCounter.READ_BYTES, nonResident);
            requestCount++;
            largestRequest = Math.max(largestRequest, length);
        }
        // Resident requests count in the window too: a warm scan must not map the whole table ahead.
        requests.add(new Request(mapping, offset, length, nonResident));
        outstandingBytes += length;
        return nonResident > 0;
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
        count(IoCounter.LOB_LOGICAL_READS, units(length));
        if (segment) {
            count(IoCounter.SEGMENT_READS, 1);
        }
        long end = offset + length;
        boolean readAheadCovered = false;
        for (Request request : requests) {
            if (request.covers(mapping, offset, end)) {
                readAheadCovered = true;
                if (!request.used) {
                    request.used = true;
                    outstandingBytes -= request.length;
                    count(IoCounter.READ_AHEAD_USED, units(request.nonResident));
                }
            }
        }
        if (readAheadCovered) {
            return;
        }
        long nonResident = MemoryMapping.nonResidentPageBytes(mapping, offset, length);
        if (nonResident > 0) {
            count(IoCounter.LOB_PHYSICAL_READS, units(nonResident));
            count(IoCounter.READ_IOS, nonResident / 4096);
            count(IoCounter.READ_BYTES, nonResident);
        }
    }

    /** A rowgroup skipped by elimination: its segments count as skipped. */
    public void skipped(int segments) {
        count(IoCounter.SEGMENT_SKIPPED, segments);
    }

    /** Read-ahead requests that found pages to read. */
    public long requests() {
        return requestCount;
    }

    /**
     * Of {@link #requests()}, those the window issued into rowgroups after the one being read: what
     * read-ahead across rowgroup boundaries did.
     */
    public long requestsAhead() {
        return requestsAhead;
    }

    /** Bytes of issued requests neither touched nor released yet. */
    public long outstandingBytes() {
        return outstandingBytes;
    }

    /** The largest read-ahead request issued, in bytes. */
    public long largestRequestBytes() {
        return largestRequest;
    }

    /** Forgets the requests into {@code file} (before it is unmapped), settling unused ones as wasted. */
    public void release(RowgroupFile file) {
        release(file.mapping());
    }

    /**
     * Forgets the requests into {@code mapping}, issued or planned (before it is unmapped), settling
     * unused issued ones as wasted.
     */
    public void release(MemorySegment mapping) {
        requests.removeIf(request -> {
            if (request.mapping.address() != mapping.address()) {
                return false;
            }
            settle(request);
            return true;
        });
        planned.removeIf(chunk -> {
            if (chunk.mapping().address() != mapping.address()) {
                return false;
            }
            plannedBytes -= chunk.length();
            return true;
        });
    }

    /** Settles every outstanding request and forgets the planned ones. */
    public void close() {
        for (Request request : requests) {
            settle(request);
        }
        requests.clear();
        planned.clear();
        plannedBytes = 0;
    }

    private void settle(Request request) {
        if (!request.used) {
            outstandingBytes -= request.length;
            count(IoCounter.READ_AHEAD_WASTED, units(request.nonResident));
        }
    }

    static long units(long bytes) {
        return (bytes + UNIT - 1) / UNIT;
    }

    private void count(IoCounter counter, long delta) {
        counters.add(counter, delta);
        cumulative.add(counter, delta);
    }
}
