package dev.columba.columnstore.scan;

import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.encoding.SegmentMetadata;
import dev.columba.columnstore.file.RowgroupFile;
import dev.columba.columnstore.table.RowgroupEntry;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * One compressed rowgroup whose slices the workers of a parallel scan read ({@link RowgroupMorsels}):
 * opened once, by the first worker that needs it, and shared read-only by every worker holding one
 * of its slices.
 *
 * <p>Opening reads and checks what every slice needs, through the opening worker's I/O: the file
 * mapped and its footer checked, elimination applied, the needed segments read ahead, touched
 * (counted) and their checksums verified, the secondary dictionaries read, the deleted rows read.
 * The worker that claimed the first slice opens it and then publishes it ({@link
 * RowgroupMorsels#published}); the other slices are claimed only after that, so the other workers
 * find it open, and the morsels' lock orders the opener's writes, the verified-segment flags of the
 * {@link RowgroupFile} among them, before their reads. (This object's monitor serializes openings
 * still: a rowgroup reopened after every holder let go.) A failure to open is kept and thrown to
 * every worker that claims a slice of the rowgroup, as a serial scan would throw it.
 *
 * <p>Lifetime: each worker that claims a slice of the rowgroup {@linkplain #hold() holds} it (at the
 * claim) and {@linkplain #release() releases} it when it moves to another rowgroup or closes; the
 * last release unmaps the file (hands it back to the database's kept mappings). A worker that claims
 * a slice after every holder let go (all of them stopped early) opens the rowgroup again, and its
 * reads are counted again: they happen again.
 */
final class SharedRowgroup {
    /** What opening found. */
    sealed interface Opening {
    }

    /** Nothing to read in any slice: eliminated by a filter, or aggregated whole by the opener. */
    record Skipped() implements Opening {
    }

    /**
     * The rowgroup opened: its file (touched, counted and verified for the needed columns), the
     * footer metadata and secondary dictionaries by column (null where not needed or none), and the
     * deleted rows (null when none). All read-only from here on.
     */
    record Open(RowgroupFile file, SegmentMetadata[] metadata, Dictionary[] secondaries, BitSet deleted)
            implements Opening {
    }

    private static final Skipped SKIPPED = new Skipped();

    private final RowgroupEntry entry;
    private final AtomicInteger holders = new AtomicInteger();
    /** The rowgroup's slices in row order; set once, before any claim. */
    List<RowgroupMorsels.Slice> slices = List.of();
    /** The next slice of {@link #slices} to claim; guarded by the {@link RowgroupMorsels}' lock. */
    int nextSlice;
    /** Whether the first slice's claimer finished opening (its other slices may be claimed); guarded likewise. */
    boolean published;
    /** Guarded by this. */
    private Opening opening;
    /** Guarded by this: the failure of the last opening, thrown to every worker that needs the rowgroup. */
    private RuntimeException failure;

    SharedRowgroup(RowgroupEntry entry) {
        this.entry = entry;
    }

    static Skipped skipped() {
        return SKIPPED;
    }

    RowgroupEntry entry() {
        return entry;
    }

    /** Counts one more worker holding a slice of this rowgroup. */
    void hold() {
        holders.incrementAndGet();
    }

    /**
     * The rowgroup opened, by {@code opener} (on the calling worker's I/O) if nobody opened it yet.
     * The caller must hold it.
     */
    synchronized Opening open(Function<RowgroupEntry, Opening> opener) {
        if (failure != null) {
            throw failure;
        }
        if (opening == null) {
            try {
                opening = opener.apply(entry);
            } catch (RuntimeException e) {
                failure = e;
                throw e;
            }
        }
        return opening;
    }

    /** One worker less holds the rowgroup; the last unmaps it (or hands the mapping back). */
    void release() {
        if (holders.decrementAndGet() > 0) {
            return;
        }
        synchronized (this) {
            // A claim may have come in between: it holds the rowgroup and keeps it open.
            if (holders.get() == 0 && opening instanceof Open open) {
                opening = null;
                open.file().close();
            }
        }
    }
}
