package dev.columba.storage.metrics;

import dev.columba.core.stats.IoCounter;
import dev.columba.core.stats.IoStats;
import dev.columba.storage.buffer.BufferPool;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Micrometer meters over a buffer pool: pages read by kind (their rates are the page reads/s and
 * read-ahead pages/s a dashboard shows), read-ahead used and wasted, the size distribution of the
 * read requests sent to the operating system, the hit ratio, the time spent waiting for page I/O,
 * and resident, dirty and private pages. Counters are functions over the pool's cumulative
 * statistics, so they cannot drift from what STATISTICS IO reports.
 */
public final class StorageMetrics {
    private StorageMetrics() {
    }

    /** Registers the meters of {@code pool}, tagged with {@code database}. */
    public static void bind(BufferPool pool, String database, MeterRegistry registry) {
        pageCounter(registry, pool, database, "logical", IoCounter.LOGICAL_READS);
        pageCounter(registry, pool, database, "physical", IoCounter.PHYSICAL_READS);
        pageCounter(registry, pool, database, "read_ahead", IoCounter.READ_AHEAD_READS);
        pageCounter(registry, pool, database, "lob_logical", IoCounter.LOB_LOGICAL_READS);
        pageCounter(registry, pool, database, "lob_physical", IoCounter.LOB_PHYSICAL_READS);
        pageCounter(registry, pool, database, "lob_read_ahead", IoCounter.LOB_READ_AHEAD_READS);
        FunctionCounter.builder("columba.read_ahead.pages", pool, counter(IoCounter.READ_AHEAD_USED))
                .tag("database", database).tag("outcome", "used").baseUnit("pages")
                .description("read-ahead pages later requested").register(registry);
        FunctionCounter.builder("columba.read_ahead.pages", pool, counter(IoCounter.READ_AHEAD_WASTED))
                .tag("database", database).tag("outcome", "wasted").baseUnit("pages")
                .description("read-ahead pages evicted or dropped before anyone requested them").register(registry);
        FunctionCounter.builder("columba.page_io.wait", pool,
                        p -> p.cumulativeStatistics().pageIoWaitNanos() / (double) TimeUnit.SECONDS.toNanos(1))
                .tag("database", database).baseUnit("seconds")
                .description("time statements spent waiting for page reads").register(registry);
        DistributionSummary ioSize = DistributionSummary.builder("columba.io.size").tag("database", database)
                .baseUnit("bytes").description("size of each read request sent to the operating system")
                .serviceLevelObjectives(8192, 65536, 262144, 524288, 1048576).register(registry);
        pool.setIoSizeListener(ioSize::record);
        Gauge.builder("columba.buffer_pool.hit_ratio", pool, StorageMetrics::hitRatio).tag("database", database)
                .description("share of page requests served without waiting for storage").register(registry);
        Gauge.builder("columba.buffer_pool.pages", pool, BufferPool::residentPages).tag("database", database)
                .tag("state", "resident").baseUnit("pages").register(registry);
        Gauge.builder("columba.buffer_pool.pages", pool, BufferPool::dirtyPageCount).tag("database", database)
                .tag("state", "dirty").baseUnit("pages").register(registry);
        Gauge.builder("columba.buffer_pool.pages", pool, BufferPool::privatePages).tag("database", database)
                .tag("state", "private").baseUnit("pages").register(registry);
        Gauge.builder("columba.buffer_pool.capacity", pool, BufferPool::capacity).tag("database", database)
                .baseUnit("pages").register(registry);
    }

    private static void pageCounter(MeterRegistry registry, BufferPool pool, String database, String kind,
                                    IoCounter counter) {
        FunctionCounter.builder("columba.pages.read", pool, counter(counter)).tag("database", database)
                .tag("kind", kind).baseUnit("pages").register(registry);
    }

    private static ToDoubleFunction<BufferPool> counter(IoCounter counter) {
        return pool -> pool.cumulativeStatistics().get(counter);
    }

    /** Requests that found their page resident or arriving by read-ahead, over all requests. */
    static double hitRatio(BufferPool pool) {
        IoStats stats = pool.cumulativeStatistics();
        long requests = stats.logicalReads() + stats.lobLogicalReads();
        long waited = stats.physicalReads() + stats.lobPhysicalReads();
        return requests == 0 ? 1.0 : 1.0 - (double) waited / requests;
    }
}
