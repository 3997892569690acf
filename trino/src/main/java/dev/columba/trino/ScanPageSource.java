package dev.columba.trino;

import dev.columba.core.stats.IoCounter;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.page.PageFormat;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.MemoryContext;
import io.trino.spi.connector.SourcePage;
import java.util.OptionalLong;

/**
 * What the connector's page sources (a rowgroup's, a page range's) report to Trino, the same way:
 * completed bytes are the split's own reads in Columba's units, pages read through the buffer pool
 * (logical reads) and segment or overflow pages touched (lob logical reads), times 8 KB, counted on
 * the split's own {@link #counters} so that the splits' bytes add up to the query's; completed
 * positions are the rows handed to Trino; read time is the time spent producing pages. Closing
 * reports the memory given back and then releases the scan. Owned by one driver thread at a time.
 */
abstract class ScanPageSource implements ConnectorPageSource {
    /** The split's reads; the scan counts into them. */
    final IoCounters counters = new IoCounters();
    /** Where the Arrow memory the scan holds is reported, after each batch. */
    final MemoryContext memoryContext;
    private long completedPositions;
    private long readTimeNanos;
    private boolean finished;

    ScanPageSource(MemoryContext memoryContext) {
        this.memoryContext = memoryContext;
    }

    /** The next page, or null at the end of the split (after which the source is finished). */
    abstract SourcePage nextPage();

    /** Releases the scan and what it holds (its allocator, the table's lock). */
    abstract void release();

    /** Counts rows handed to Trino. */
    final void produced(long rows) {
        completedPositions += rows;
    }

    /** Marks the split done: the page being returned, if any, is the last one. */
    final void finish() {
        finished = true;
    }

    @Override
    public final SourcePage getNextSourcePage() {
        if (finished) {
            return null;
        }
        long start = System.nanoTime();
        try {
            SourcePage page = nextPage();
            if (page == null) {
                finished = true;
            }
            return page;
        } finally {
            readTimeNanos += System.nanoTime() - start;
        }
    }

    @Override
    public final long getCompletedBytes() {
        return (counters.get(IoCounter.LOB_LOGICAL_READS) + counters.get(IoCounter.LOGICAL_READS)) * PageFormat.PAGE_SIZE;
    }

    @Override
    public final OptionalLong getCompletedPositions() {
        return OptionalLong.of(completedPositions);
    }

    @Override
    public final long getReadTimeNanos() {
        return readTimeNanos;
    }

    @Override
    public final boolean isFinished() {
        return finished;
    }

    @Override
    public final void close() {
        finished = true;
        memoryContext.setBytes(0);
        release();
    }
}
