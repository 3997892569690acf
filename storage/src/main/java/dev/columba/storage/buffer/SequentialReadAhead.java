package dev.columba.storage.buffer;

import dev.columba.core.stats.IoCounters;
import java.util.Arrays;
import java.util.PrimitiveIterator;

/**
 * Sequential read-ahead for one scan, as SQL Server describes it: the scan knows the pages it will
 * read next (leaf ids from the level above the leaves, or an object's allocation order), and this
 * keeps asynchronous reads issued until {@code depth} pages ahead of the reader, coalescing
 * physically consecutive pages into single I/Os of at most {@code maxPagesPerIo}. A page already
 * resident, or a gap in the page numbers, ends an I/O.
 *
 * <p>Closing it waits for its I/Os to finish and counts as wasted the pages it read that the scan
 * never requested (a range scan that stopped early, a scan abandoned by LIMIT). Owned by the scan's
 * thread.
 */
public final class SequentialReadAhead implements AutoCloseable {
    private final BufferPool pool;
    private final PrimitiveIterator.OfLong upcoming;
    private final int depth;
    private final int maxPagesPerIo;
    private final Access access;
    private final IoCounters counters;

    private long lookahead = -1;
    private boolean hasLookahead;
    /** Pages of the scan order walked by read-ahead so far, resident or not. */
    private long scheduled;
    /** Pages the scan has moved to since read-ahead started. */
    private long consumed;
    private long[] issued = new long[64];
    private int issuedCount;
    private long ios;

    public SequentialReadAhead(BufferPool pool, PrimitiveIterator.OfLong upcoming, int depth, int maxPagesPerIo,
                               Access access, IoCounters counters) {
        if (depth < 1 || maxPagesPerIo < 1) {
            throw new IllegalArgumentException("read-ahead depth and I/O size must be positive: " + depth + ", " + maxPagesPerIo);
        }
        this.pool = pool;
        this.upcoming = upcoming;
        this.depth = depth;
        this.maxPagesPerIo = maxPagesPerIo;
        this.access = access;
        this.counters = counters;
        fill();
    }

    /** The scan moved on to its next page: top the read-ahead up again. */
    public void advance() {
        consumed++;
        fill();
    }

    /** Read-ahead I/O requests issued so far (each up to {@code maxPagesPerIo} pages). */
    public long requests() {
        return ios;
    }

    /**
     * Issues I/Os while the window has room for a whole one: topping up a page at a time would turn
     * the steady state into single-page reads (SQL Server also issues a block of reads and tops up
     * with an equal number). The last I/Os of a scan, and runs cut by gaps, are shorter.
     */
    private void fill() {
        int wholeIo = Math.min(maxPagesPerIo, depth);
        while (depth - (scheduled - consumed) >= wholeIo && peek()) {
            long first = take();
            int count = 1;
            while (count < maxPagesPerIo && scheduled + count - consumed < depth && peek() && lookahead == first + count) {
                take();
                count++;
            }
            scheduled += count;
            long[] requested = pool.readAhead(first, count, access, counters);
            if (requested.length > 0) {
                ios++;
                if (issuedCount + requested.length > issued.length) {
                    issued = Arrays.copyOf(issued, Math.max(issued.length * 2, issuedCount + requested.length));
                }
                System.arraycopy(requested, 0, issued, issuedCount, requested.length);
                issuedCount += requested.length;
            }
        }
    }

    private boolean peek() {
        if (!hasLookahead && upcoming.hasNext()) {
            lookahead = upcoming.nextLong();
            hasLookahead = true;
        }
        return hasLookahead;
    }

    private long take() {
        hasLookahead = false;
        return lookahead;
    }

    /** Waits for outstanding reads and settles the pages never requested as wasted. */
    @Override
    public void close() {
        pool.settleReadAhead(Arrays.copyOf(issued, issuedCount), counters);
        issuedCount = 0;
    }
}
