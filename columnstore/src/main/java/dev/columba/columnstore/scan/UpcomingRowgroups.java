package dev.columba.columnstore.scan;

import dev.columba.columnstore.encoding.ColumnPredicate;
import dev.columba.columnstore.encoding.SegmentMetadata;
import dev.columba.columnstore.file.FooterMetadata;
import dev.columba.columnstore.file.RowgroupFile;
import dev.columba.columnstore.file.RowgroupMappings;
import dev.columba.columnstore.file.SegmentIo;
import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.columnstore.table.RowgroupState;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.schema.TableSchema;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import dev.columba.storage.io.NativeFilesFacade;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.function.Function;

/**
 * The rowgroups a columnstore scan will read, in order, each prepared — its file mapped and its
 * footer metadata decoded, elimination applied — either when the scan reaches it or earlier, when
 * the read-ahead window asks for more ({@link #fill()}): a rowgroup prepared early that survives
 * elimination is planned into the window, so its segments are requested while the rowgroups
 * before it are still being checked and decoded. An eliminated rowgroup is unmapped at once and
 * never read ahead. Preparing early changes neither what a scan returns nor when it fails: a
 * rowgroup that cannot be prepared ahead (a corrupt footer) fails the scan only when it reaches it.
 *
 * <p>Preparing a rowgroup reads its header and footer through the mapping, synchronously; behind a
 * full window those reads would wait for every request queued before them, stalling the scan while
 * the disk works on rowgroups it does not need yet. So when a rowgroup is prepared ahead, the next
 * one's first and last pages are advised ({@code POSIX_FADV_WILLNEED}) before the window's requests
 * into it are issued, and are in memory by the time the window reaches it. Like the footer faults
 * themselves, these metadata reads are outside the lob counters (a few KB a rowgroup).
 *
 * <p>Owns the files of the rowgroups prepared and not yet handed out; {@link #close()} releases
 * their read-ahead (settling it as wasted) and unmaps them. Owned by the scan's thread.
 */
final class UpcomingRowgroups implements AutoCloseable {
    /**
     * Most rowgroup files mapped ahead of the one being read, whatever the window's room: bounds the
     * mappings a table of tiny rowgroups could hold open. 64 covers the default 128 MB window down
     * to rowgroups of 2 MB read.
     */
    static final int MAX_MAPPED_AHEAD = 64;
    /** The bytes advised at a file's start (the header) and end (trailer and a small footer). */
    static final int HEADER_ADVICE_BYTES = 4096;
    static final int FOOTER_ADVICE_BYTES = 8192;

    /** A rowgroup ready for the scan. */
    sealed interface Prepared {
        RowgroupEntry entry();
    }

    /** A rowgroup that could not be prepared ahead: the scan fails with {@code error} when it reaches it. */
    record Failed(RowgroupEntry entry, RuntimeException error) implements Prepared {
    }

    /** A delta rowgroup: a rowstore B+tree, read through the buffer pool, never read ahead here. */
    record Delta(RowgroupEntry entry) implements Prepared {
    }

    /** A compressed rowgroup whose footer shows a filter cannot match: not read at all. */
    record Eliminated(RowgroupEntry entry) implements Prepared {
    }

    /**
     * A compressed rowgroup to read: its mapped file (owned by whoever holds this) and the footer
     * metadata of the needed columns (null elsewhere).
     */
    record Readable(RowgroupEntry entry, RowgroupFile file, SegmentMetadata[] metadata) implements Prepared {
    }

    private final ColumnstoreTable table;
    private final TableSchema schema;
    private final List<ColumnFilter> filters;
    private final int[] needed;
    /** The segments of a prepared rowgroup the window requests ({@link #readOnly}); every needed one unless told. */
    private Function<Readable, int[]> columnsRead;
    private final SegmentIo io;
    /** The database's rowgroup files kept mapped between statements, which the scan opens through. */
    private final RowgroupMappings mappings;
    /** The rowgroups this scan may still claim (shared with other workers in a parallel plan). */
    private final RowgroupMorsels morsels;
    private final ArrayDeque<Prepared> ahead = new ArrayDeque<>();
    private int mappedAhead;

    UpcomingRowgroups(ColumnstoreTable table, RowgroupMorsels morsels, List<ColumnFilter> filters, int[] needed,
                      SegmentIo io) {
        this.table = table;
        this.schema = table.schema();
        this.filters = filters;
        this.needed = needed;
        this.columnsRead = readable -> needed;
        this.io = io;
        this.mappings = RowgroupMappings.of(table.database());
        this.morsels = morsels;
    }

    /**
     * Makes the window request, of each rowgroup it prepares, the segments {@code columns} gives
     * for it (a subset of the needed ones) instead of every needed one: the scan's aggregates read
     * only the summed columns of the rowgroups they answer. Before the first {@link #fill}.
     */
    void readOnly(Function<Readable, int[]> columns) {
        columnsRead = columns;
    }

    /** The next rowgroup, prepared now unless it was already; null after the last. The caller owns a Readable's file. */
    Prepared next() {
        Prepared next = ahead.pollFirst();
        if (next == null) {
            RowgroupEntry entry = morsels.claim();
            return entry == null ? null : prepare(entry);
        }
        if (next instanceof Readable) {
            mappedAhead--;
        }
        return next;
    }

    /**
     * Tops the read-ahead window up: prepares and plans rowgroups ahead while the window wants more
     * (never with read-ahead off or a window of 0), then issues what fits.
     */
    void fill() {
        while (io.wantsMore() && mappedAhead < MAX_MAPPED_AHEAD && ahead.size() < morsels.claimsAhead()
                && !(ahead.peekLast() instanceof Failed)) {
            RowgroupEntry entry = morsels.claimAhead();
            if (entry == null) {
                break;
            }
            Prepared prepared;
            try {
                prepared = prepare(entry);
            } catch (RuntimeException e) {
                prepared = new Failed(entry, e);
            }
            ahead.addLast(prepared);
            if (prepared instanceof Readable readable) {
                mappedAhead++;
                io.planAhead(readable.file(), columnsRead.apply(readable));
                adviseMetadataOfNext();
            }
        }
        io.fillWindow();
    }

    /** Starts reading the header and footer of the next compressed rowgroup, ahead of the window's requests. */
    private void adviseMetadataOfNext() {
        RowgroupEntry upcoming = morsels.peek();
        if (upcoming == null || upcoming.state() != RowgroupState.COMPRESSED) {
            return;
        }
        Path path = table.rowgroupFile(upcoming.rowgroupId());
        if (mappings.keeps(path)) {
            // Mapped by an earlier statement: its header and footer are in this process's page tables.
            return;
        }
        try (FileHandle file = NativeFilesFacade.INSTANCE.open(path, FilesFacade.OpenMode.READ, false)) {
            long size = file.size();
            if (size == 0) {
                // An advice of length 0 means "to the end"; an empty file fails when it is prepared.
                return;
            }
            file.advise(0, Math.min(size, HEADER_ADVICE_BYTES), FileHandle.Advice.WILLNEED);
            long tail = Math.max(0, size - FOOTER_ADVICE_BYTES);
            file.advise(tail, size - tail, FileHandle.Advice.WILLNEED);
        } catch (ColumbaException e) {
            // Advice only: whatever is wrong with the file (missing, unreadable) fails the scan, with
            // its own error, when the scan reaches the rowgroup, not while it reads an earlier one.
        }
    }

    /** Rowgroups prepared ahead and not handed out yet. */
    int preparedAhead() {
        return ahead.size();
    }

    /** Prepares {@code entry} now: its file mapped (owned by the caller when Readable), elimination applied. */
    Prepared prepare(RowgroupEntry entry) {
        if (entry.state() != RowgroupState.COMPRESSED) {
            return new Delta(entry);
        }
        RowgroupFile file = mappings.open(NativeFilesFacade.INSTANCE, table.rowgroupFile(entry.rowgroupId()));
        SegmentMetadata[] metadata;
        try {
            metadata = survivingMetadata(file);
        } catch (RuntimeException e) {
            file.close();
            throw e;
        }
        if (metadata == null) {
            file.close();
            return new Eliminated(entry);
        }
        return new Readable(entry, file, metadata);
    }

    /** The footer metadata of the needed columns, or null when a filter eliminates the rowgroup. */
    private SegmentMetadata[] survivingMetadata(RowgroupFile file) {
        String origin = file.path().toString();
        SegmentMetadata[] metadata = new SegmentMetadata[schema.size()];
        // The filter columns first: an eliminated rowgroup needs nothing more decoded.
        for (ColumnFilter filter : filters) {
            int column = filter.column();
            if (metadata[column] == null) {
                metadata[column] = FooterMetadata.decode(file.metadata(column), schema.column(column).type(), origin);
            }
            if (!ColumnPredicate.mayMatch(schema.column(column).type(), metadata[column], filter.predicate())) {
                return null;
            }
        }
        for (int column : needed) {
            if (metadata[column] == null) {
                metadata[column] = FooterMetadata.decode(file.metadata(column), schema.column(column).type(), origin);
            }
        }
        return metadata;
    }

    /** Releases the read-ahead into the files prepared ahead (settled as wasted where unused) and unmaps them. */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (Prepared prepared : ahead) {
            if (prepared instanceof Readable readable) {
                try {
                    io.release(readable.file());
                    readable.file().close();
                } catch (RuntimeException e) {
                    if (failure == null) {
                        failure = e;
                    } else {
                        failure.addSuppressed(e);
                    }
                }
            }
        }
        ahead.clear();
        mappedAhead = 0;
        if (failure != null) {
            throw failure;
        }
    }
}
