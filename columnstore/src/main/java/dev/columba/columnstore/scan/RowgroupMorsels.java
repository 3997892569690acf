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
 *
 * <p>Read-ahead prepares rowgroups ahead of the one being read, and preparing one claims it. A
 * serial scan may claim as far ahead as its read-ahead window wants; a worker of a parallel scan
 * claims at most {@link #SHARED_CLAIMS_AHEAD} ahead, or the first worker's window would take most
 * of a table's rowgroups before the others start (measured: TPC-H Q6 at SF 1, six rowgroups, ran
 * no faster on two workers than on one); and it claims ahead only while at least as many rowgroups
 * are left unclaimed as there are workers, so that claiming ahead never leaves another worker
 * without a rowgroup of its own (measured: TPC-H Q3 at SF 1 at MAXDOP 2, where the first worker to
 * reach the two rowgroups of orders claimed both, one ahead, and read all of orders while the
 * other waited for the hash table).
 */
public final class RowgroupMorsels {
    /** Rowgroups a worker of a parallel scan may claim beyond the one it reads. */
    public static final int SHARED_CLAIMS_AHEAD = 1;

    private final AtomicInteger next = new AtomicInteger();
    private final int claimsAhead;
    /** The scans that claim from these morsels: a claim ahead leaves at least one rowgroup for each of the others. */
    private final int workers;
    private volatile List<RowgroupEntry> entries;

    /** Morsels of a serial scan: it claims as far ahead as its read-ahead wants. */
    public RowgroupMorsels() {
        this(Integer.MAX_VALUE, 1);
    }

    private RowgroupMorsels(int claimsAhead, int workers) {
        this.claimsAhead = claimsAhead;
        this.workers = workers;
    }

    /** Morsels that the {@code workers} workers of a parallel scan share. */
    public static RowgroupMorsels shared(int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("a parallel scan has at least one worker, not " + workers);
        }
        return new RowgroupMorsels(SHARED_CLAIMS_AHEAD, workers);
    }

    /** How many rowgroups a scan may hold claimed beyond the one it reads. */
    int claimsAhead() {
        return claimsAhead;
    }

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
        if (next.get() >= all.size()) {
            return null;
        }
        int index = next.getAndIncrement();
        return index < all.size() ? all.get(index) : null;
    }

    /**
     * The next unclaimed rowgroup for a scan to prepare ahead of the one it reads, or null when all
     * are claimed or, for the workers of a parallel scan, when fewer are left than there are
     * workers (the others may still need one each).
     */
    RowgroupEntry claimAhead() {
        List<RowgroupEntry> all = entries;
        if (all.size() - next.get() < workers) {
            return null;
        }
        return claim();
    }

    /** The rowgroup the next claim would return, or null; others may claim it first (for advice only). */
    RowgroupEntry peek() {
        List<RowgroupEntry> all = entries;
        int index = next.get();
        return index < all.size() ? all.get(index) : null;
    }
}
