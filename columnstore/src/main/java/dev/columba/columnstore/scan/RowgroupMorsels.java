package dev.columba.columnstore.scan;

import dev.columba.columnstore.table.RowgroupEntry;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The rowgroups of one scan shared among the workers of a parallel plan: each worker's
 * {@link ColumnstoreScan} claims the next unclaimed rowgroup (a morsel) when it needs one, so
 * every rowgroup is read by exactly one worker, whole — its read-ahead stays sequential within
 * its files and its reads are counted once — and a worker that finishes early takes more.
 *
 * <p>The list of rowgroups is read once, by the first worker to open, so that all workers divide
 * the same snapshot. A serial scan uses a private instance.
 */
public final class RowgroupMorsels {
    private final AtomicInteger next = new AtomicInteger();
    private volatile List<RowgroupEntry> entries;

    /** The rowgroups, read by {@code reader} the first time any worker asks. */
    synchronized List<RowgroupEntry> entries(Supplier<List<RowgroupEntry>> reader) {
        if (entries == null) {
            entries = List.copyOf(reader.get());
        }
        return entries;
    }

    /** The next unclaimed rowgroup, or null when all are claimed. */
    RowgroupEntry claim() {
        List<RowgroupEntry> all = entries;
        int index = next.getAndIncrement();
        return index < all.size() ? all.get(index) : null;
    }

    /** The rowgroup the next claim would return, or null; others may claim it first (for advice only). */
    RowgroupEntry peek() {
        List<RowgroupEntry> all = entries;
        int index = next.get();
        return index < all.size() ? all.get(index) : null;
    }

    /** Whether every rowgroup is claimed. */
    boolean exhausted() {
        return next.get() >= entries.size();
    }
}
