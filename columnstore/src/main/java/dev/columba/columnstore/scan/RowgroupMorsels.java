package dev.columba.columnstore.scan;

import dev.columba.columnstore.build.PrimaryDictionaries;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.columnstore.table.RowgroupState;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The rows of one scan divided into morsels that its scans claim one at a time.
 *
 * <p><b>Serial scans</b> ({@link #RowgroupMorsels()}): a morsel is a whole rowgroup, and the scan
 * claims as far ahead as its read-ahead window wants ({@link UpcomingRowgroups}).
 *
 * <p><b>Workers of a parallel plan</b> ({@link #shared}): a morsel is a {@link Slice} — a range of at
 * most {@link #SLICE_ROWS} rows of one compressed rowgroup, or a whole delta rowgroup — claimed in
 * table order, so a worker that finishes early takes more and the imbalance at the end is one slice,
 * not one rowgroup (TPC-H at SF 1: lineitem's six rowgroups of a million rows left a sixth of a scan
 * to one worker; orders' two rowgroups, 1,048,576 and 451,424 rows, divided 70/30 whatever the
 * claiming). The slices of one rowgroup share one opening of it ({@link SharedRowgroup}): the worker
 * that claims its first slice maps the file, applies elimination, reads it ahead, touches and counts
 * every needed segment and verifies its checksum, reads its secondary dictionaries and its deleted
 * rows — once, through that worker's {@code SegmentIo}, so the statement's counters see each segment
 * once and nothing is decoded unverified — and then {@linkplain #published publishes} it: only then
 * can its other slices be claimed, and the workers decode them through segment readers of their own
 * over the shared mapping. Workers do not prepare rowgroups ahead: a rowgroup's I/O is counted by the
 * scan that requested it, so it must be the scan that touches it.
 *
 * <p>Claiming never waits for an opening while there is other work: a worker takes the next slice of
 * the rowgroup it reads, else the first slice of the next rowgroup, which it opens itself (two
 * workers open two rowgroups at once, and read them ahead at once), else — once every rowgroup is
 * opened — a slice of the earliest published rowgroup with slices left. So each rowgroup is mostly
 * read by the worker that opened it, as whole-rowgroup morsels were (a worker's segment readers and
 * filters are made once per rowgroup it reads, and a filter copies its segment's packed words), and
 * the workers share rowgroups only at the end of the scan, where the slices even out their shares.
 * Only when every slice left belongs to rowgroups being opened does a worker wait, for the next
 * publication. (Claiming in table order made a worker that reached a
 * rowgroup while another was opening it wait for the whole checksum pass: TPC-H Q18's workers waited
 * on the opening 27 times over 100 ms and up, in 11 executions at load 15–22.)
 *
 * <p>The tail of every compressed rowgroup — its last {@link #TAIL_ROWS} rows — is cut finer, in
 * slices of {@link #TAIL_SLICE_ROWS}: the slices claimed last are then small, so the workers finish
 * a scan within a small slice of each other instead of a whole one (TPC-H Q13 at MAXDOP 2: a slice
 * of orders is a twelfth of the query's work, and one worker was left probing it while the other
 * waited at the aggregation's hand-in). Claiming a slice of a rowgroup a worker already reads costs
 * one lock; its readers are kept.
 *
 * <p>The list of rowgroups is read once, by the first scan to open, so that all divide the same
 * snapshot.
 */
public final class RowgroupMorsels {
    /** Rows of a parallel scan's morsel (the last slice of a rowgroup takes what is left). */
    public static final int SLICE_ROWS = 1 << 17;
    /** The last rows of a compressed rowgroup, cut into slices of {@link #TAIL_SLICE_ROWS}. */
    static final int TAIL_ROWS = 2 * SLICE_ROWS;
    /** Rows of a slice in a rowgroup's tail. */
    static final int TAIL_SLICE_ROWS = SLICE_ROWS / 8;

    /** A part of the table one worker reads: rows {@code [fromRow, toRow)} of a rowgroup. */
    record Slice(RowgroupEntry entry, int fromRow, int toRow, SharedRowgroup rowgroup) {
        Slice {
            if (fromRow < 0 || toRow < fromRow) {
                throw new IllegalArgumentException("slice [" + fromRow + ", " + toRow + ") of rowgroup " + entry.rowgroupId());
            }
        }
    }

    private final AtomicInteger next = new AtomicInteger();
    /** Rows per slice, or 0: whole rowgroups, claimed ahead as far as the scan wants (serial). */
    private final int sliceRows;
    /** Rows per slice of a rowgroup's tail, the last {@code tailRows} rows (a multiple of these). */
    private final int tailSliceRows;
    private final int tailRows;
    private volatile List<RowgroupEntry> entries;
    /** Per rowgroup in table order, its slices (parallel scans), made with {@link #entries}. */
    private volatile List<List<Slice>> slices;
    /** The next rowgroup of {@link #slices} nobody has claimed a slice of; guarded by this. */
    private int nextRowgroup;
    /** Rowgroups published with slices left to claim, earliest published first; guarded by this. */
    private final ArrayDeque<SharedRowgroup> published = new ArrayDeque<>();
    /** Rowgroups whose first slice was claimed and that are not published yet; guarded by this. */
    private int opening;
    /**
     * The primary dictionaries of the table, loaded (read, counted) once for every scan that claims
     * from these morsels: each worker loading its own would count the dictionary once per worker.
     * Guarded by this.
     */
    private PrimaryDictionaries primaries;

    /** Morsels of a serial scan: whole rowgroups, claimed as far ahead as its read-ahead wants. */
    public RowgroupMorsels() {
        this(0, 0, 0);
    }

    private RowgroupMorsels(int sliceRows, int tailSliceRows, int tailRows) {
        this.sliceRows = sliceRows;
        this.tailSliceRows = tailSliceRows;
        this.tailRows = tailRows;
    }

    /**
     * Morsels of a serial scan of {@code entries} only, in their order, instead of the whole table:
     * the rowgroups of one split of an engine that divides the table itself (the Trino connector
     * hands each worker one rowgroup). The entries must be the table's, read from its directory.
     */
    public static RowgroupMorsels of(List<RowgroupEntry> entries) {
        RowgroupMorsels morsels = new RowgroupMorsels();
        morsels.entries(() -> entries);
        return morsels;
    }

    /**
     * Morsels that the {@code workers} workers of a parallel scan share: slices of {@link
     * #SLICE_ROWS} rows, and of {@link #TAIL_SLICE_ROWS} in each rowgroup's last {@link #TAIL_ROWS}.
     */
    public static RowgroupMorsels shared(int workers) {
        return shared(workers, SLICE_ROWS, TAIL_SLICE_ROWS, TAIL_ROWS);
    }

    /** Morsels that the {@code workers} workers of a parallel scan share, slices of {@code sliceRows} rows. */
    public static RowgroupMorsels shared(int workers, int sliceRows) {
        return shared(workers, sliceRows, sliceRows, 0);
    }

    /**
     * Morsels that the {@code workers} workers of a parallel scan share: slices of {@code sliceRows}
     * rows, and of {@code tailSliceRows} (which divides {@code sliceRows}) in the last {@code
     * tailRows} rows of each rowgroup.
     */
    public static RowgroupMorsels shared(int workers, int sliceRows, int tailSliceRows, int tailRows) {
        if (workers < 1) {
            throw new IllegalArgumentException("a parallel scan has at least one worker, not " + workers);
        }
        if (sliceRows < 1 || tailSliceRows < 1) {
            throw new IllegalArgumentException("a slice has at least one row, not " + Math.min(sliceRows, tailSliceRows));
        }
        if (sliceRows % tailSliceRows != 0 || tailRows < 0) {
            throw new IllegalArgumentException("slices of " + tailSliceRows + " rows in a tail of " + tailRows
                    + " do not divide slices of " + sliceRows);
        }
        return new RowgroupMorsels(sliceRows, tailSliceRows, tailRows);
    }

    /** Whether the scans claim {@link Slice}s ({@link #claimSlice}) rather than whole rowgroups. */
    boolean sliced() {
        return sliceRows > 0;
    }

    /** How many rowgroups a scan may hold claimed beyond the one it reads: none when sliced. */
    int claimsAhead() {
        return sliced() ? 0 : Integer.MAX_VALUE;
    }

    /** The rowgroups, read by {@code reader} the first time any scan asks. */
    synchronized List<RowgroupEntry> entries(Supplier<List<RowgroupEntry>> reader) {
        if (entries == null) {
            List<RowgroupEntry> read = List.copyOf(reader.get());
            if (sliced()) {
                slices = slice(read);
            }
            entries = read;
        }
        return entries;
    }

    /** The table's primary dictionaries, made by {@code maker} for the first scan that asks. */
    synchronized PrimaryDictionaries primaries(Supplier<PrimaryDictionaries> maker) {
        if (primaries == null) {
            primaries = maker.get();
        }
        return primaries;
    }

    private List<List<Slice>> slice(List<RowgroupEntry> entries) {
        List<List<Slice>> slices = new ArrayList<>();
        for (RowgroupEntry entry : entries) {
            long rows = entry.totalRows();
            if (entry.state() != RowgroupState.COMPRESSED) {
                // A delta rowgroup is a B+tree read by key order: one morsel, read by one worker.
                slices.add(List.of(new Slice(entry, 0, 0, null)));
                continue;
            }
            SharedRowgroup rowgroup = new SharedRowgroup(entry);
            List<Slice> own = new ArrayList<>();
            // The tail starts on a multiple of its slices' rows, so slices of either size start on one.
            long tail = Math.max(0, rows - tailRows) / tailSliceRows * tailSliceRows;
            for (long from = 0; from < tail; from += sliceRows) {
                own.add(new Slice(entry, (int) from, (int) Math.min(tail, from + sliceRows), rowgroup));
            }
            for (long from = tail; from < rows || from == 0; from += tailSliceRows) {
                own.add(new Slice(entry, (int) from, (int) Math.min(rows, from + tailSliceRows), rowgroup));
            }
            rowgroup.slices = List.copyOf(own);
            slices.add(rowgroup.slices);
        }
        return List.copyOf(slices);
    }

    /** The next unclaimed rowgroup (serial scans), or null when all are claimed. */
    RowgroupEntry claim() {
        List<RowgroupEntry> all = entries;
        if (next.get() >= all.size()) {
            return null;
        }
        int index = next.getAndIncrement();
        return index < all.size() ? all.get(index) : null;
    }

    /** The next unclaimed rowgroup for a serial scan to prepare ahead of the one it reads, or null. */
    RowgroupEntry claimAhead() {
        return sliced() ? null : claim();
    }

    /** The rowgroup the next claim would return, or null; others may claim it first (for advice only). */
    RowgroupEntry peek() {
        List<RowgroupEntry> all = entries;
        int index = next.get();
        return index < all.size() ? all.get(index) : null;
    }

    /**
     * The next slice for a scan that read {@code previous} last (null at first), or null when all are
     * claimed. In this order: the next slice of {@code previous}'s rowgroup; the first slice of the
     * next rowgroup — its caller opens that rowgroup and then must call {@link #published}; a slice of
     * the earliest published rowgroup with slices left (the end of the scan, when every rowgroup is
     * opened); else, while rowgroups are being opened, it waits for one to be published. A slice of another compressed rowgroup than {@code previous}'s is
     * {@linkplain SharedRowgroup#hold() held} for the caller before it is handed out, under the same
     * lock as the claim; since a holder takes its own rowgroup's slices first, a rowgroup's holders
     * drop to none only once every slice of it is claimed, unless every worker let go of it early. The
     * caller releases {@code previous}'s rowgroup after this call when the new slice belongs to another.
     *
     * @throws ColumbaException QUERY_CANCELLED when the thread is interrupted while it waits
     */
    synchronized Slice claimSlice(Slice previous) {
        List<List<Slice>> all = slices;
        while (true) {
            SharedRowgroup own = previous == null ? null : previous.rowgroup();
            if (own != null && own.published && own.nextSlice < own.slices.size()) {
                return own.slices.get(own.nextSlice++);
            }
            if (nextRowgroup < all.size()) {
                Slice first = all.get(nextRowgroup++).getFirst();
                if (first.rowgroup() != null) {
                    first.rowgroup().hold();
                    first.rowgroup().nextSlice = 1;
                    opening++;
                }
                return first;
            }
            while (!published.isEmpty()) {
                SharedRowgroup next = published.peekFirst();
                if (next.nextSlice >= next.slices.size()) {
                    published.removeFirst();
                    continue;
                }
                next.hold();
                return next.slices.get(next.nextSlice++);
            }
            if (opening == 0) {
                return null;
            }
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ColumbaException(ErrorCode.QUERY_CANCELLED, "interrupted while waiting for a rowgroup to be opened");
            }
        }
    }

    /**
     * The opening of {@code rowgroup}, whose first slice the caller claimed, is done (opened,
     * skipped whole, or failed): its other slices may be claimed, none of them if {@code skipped}.
     */
    synchronized void published(SharedRowgroup rowgroup, boolean skipped) {
        if (rowgroup.published) {
            return;
        }
        rowgroup.published = true;
        opening--;
        if (skipped) {
            rowgroup.nextSlice = rowgroup.slices.size();
        } else if (rowgroup.nextSlice < rowgroup.slices.size()) {
            published.addLast(rowgroup);
        }
        notifyAll();
    }
}
