package dev.columba.columnstore.scan;

import dev.columba.columnstore.build.PrimaryDictionaries;
import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.columnstore.encoding.ColumnPredicate;
import dev.columba.columnstore.encoding.DecodeScratch;
import dev.columba.columnstore.encoding.EncodingKind;
import dev.columba.columnstore.encoding.ExactTotal;
import dev.columba.columnstore.encoding.SegmentFilter;
import dev.columba.columnstore.encoding.SegmentMetadata;
import dev.columba.columnstore.encoding.SegmentReader;
import dev.columba.columnstore.file.CheckedObjects;
import dev.columba.columnstore.file.RowgroupFile;
import dev.columba.columnstore.file.SegmentIo;
import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.columnstore.table.RowgroupState;
import dev.columba.core.batch.Batch;
import dev.columba.core.batch.CodedStrings;
import dev.columba.core.batch.NativeLongs;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.exec.RuntimeFilterProbe;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounter;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.btree.Cursor;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.row.RowCodec;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;

/**
 * The batch-mode scan of a columnstore table: its compressed rowgroups, then its delta rowgroups,
 * producing {@link Batch}es of Arrow vectors of the projected columns.
 *
 * <p>Per compressed rowgroup: the footer's min/max eliminate it when a filter cannot match (its
 * segments count as skipped); otherwise read-ahead is issued over the segments it needs (projected
 * and filtered columns only, see {@link SegmentIo}), each segment is checked (its checksum) as the
 * scan first touches it, filters run on the encoded segments (dictionary ids, bit-packed integers)
 * to select rows, together with comparisons between two of the table's columns (on their stored
 * longs, {@link ColumnComparison}) and the joins' bitmap filters, in an order adapted to what they
 * cost ({@link FilterOrder}), deleted rows leave the selection, and the projected columns are decoded a batch at
 * a time, only at the selected rows when the filters kept few of them (late materialization,
 * {@link #SPARSE_FRACTION}). Delta rowgroups are rowstore B+trees read through the buffer pool, filtered row by row.
 *
 * <p>Read-ahead runs in a window ({@link ScanOptions#readAheadDepthBytes()}) that crosses rowgroup
 * boundaries: after each segment it touches, the scan tops the window up by preparing the following
 * rowgroups early ({@link UpcomingRowgroups}: files mapped, footers decoded, elimination applied)
 * and requesting their segments, so the disk reads rowgroup N+1 while rowgroup N is checked and
 * decoded. Requests still never cross a rowgroup file's end.
 *
 * <p>The caller holds the table's shared object lock for the scan's lifetime (or is the writer).
 * Each returned batch is valid until the next call to {@link #next()}; the scan owns it. Owned by
 * one thread.
 */
public final class ColumnstoreScan implements AutoCloseable {
    /**
     * Late materialization: when the filters keep at most 1/SPARSE_FRACTION of a batch's rows, the
     * projected fixed-width columns are decoded only at the selected rows (random access into the
     * packed stream per row) instead of as a whole range (sequential unpacking).
     */
    static final int SPARSE_FRACTION = 4;
    /**
     * The fewest filters ANDed as bitmaps ({@link #wordParallel}). One filter selects its rows in one
     * pass either way; with more, every filter after the first refines a selection by random access,
     * which TPC-H Q6's profile showed costing per tested row several times the sequential test.
     */
    static final int WORD_PARALLEL_FILTERS = 2;
    private final ColumnstoreTable table;
    private final PageReader reader;
    private final ScanOptions options;
    private final IoCounters counters;
    private final TableSchema schema;
    private final SegmentIo io;
    private final PrimaryDictionaries primaries;
    private final UpcomingRowgroups rowgroups;
    /** What this scan claims its rows from; shared with the other workers of a parallel plan. */
    private final RowgroupMorsels morsels;
    private final Batch batch;
    private final int[] selection;
    /** The rows of a batch that pass the filters so far, one bit a row, when they are ANDed as bitmaps ({@link #wordParallel}). */
    private final long[] matchBits;
    private final int[] needed;
    /** Comparisons between two columns ({@link ScanOptions#comparisons}), run as steps among the filters (see {@link #compareColumns}). */
    private final ColumnComparison[] comparisons;
    /** The stored longs of a comparison's two columns at the batch's selected rows, by row of the batch. */
    private final long[] comparedLeft;
    private final long[] comparedRight;
    /** Bitmap filters of joins above, tested in the scan (see {@link #testAgainst}). */
    private RuntimeFilterProbe[] probes = new RuntimeFilterProbe[0];
    /** Per projected column: decoded for the current batch already. */
    private boolean[] decoded;
    /** Whether {@link #selection} lists the current batch's live rows; until a filter writes it, every row is live. */
    private boolean selectionListed;
    /** Whether the batch's vectors were emptied for the current batch ({@link #prepareBatch}). */
    private boolean batchReset;
    /**
     * The order the predicates and bitmap filters run in, adapted to their measured cost: made at
     * the first compressed batch, when the bitmap filters are known, and kept across rowgroups.
     */
    private FilterOrder filterOrder;
    /** Per projected column, whether its strings are decoded only when a consumer asks (see {@link #deferStrings}). */
    private final boolean[] deferredStrings;
    /** Per projected column, whether it is handed on as stored longs, its vector written only when a consumer asks (see {@link #deferToLongs}). */
    private final boolean[] deferredToLongs;

    /** Aggregates computed over whole rowgroups instead of returning their rows (see {@link #aggregate}); empty when none. */
    private ScanAggregate[] aggregates = new ScanAggregate[0];
    /** The columns the aggregates' sums read, each once. */
    private int[] summedColumns = new int[0];
    /** Per aggregate: rows or values counted (SUM's count of values too), the extreme so far (null: none), SUM's total. */
    private long[] aggregateCounts;
    private Object[] aggregateExtremes;
    private ExactTotal[] aggregateTotals;
    private int rowgroupsAggregated;

    private RowgroupFile file;
    /** Decoding arrays by column, handed from each rowgroup's segment reader to the next. */
    private final DecodeScratch[] scratch;
    /** What earlier statements checked of the same bytes (checks not redone; reads and checksums are). */
    private final CheckedObjects checked;
    private SegmentReader[] readers;
    private SegmentFilter[] filters;
    /** Per filter of {@link #filters}: folded into an earlier one on the same column, not run (see {@link #openFilters}). */
    private boolean[] skipped;
    /**
     * Whether {@link #filters} are at least {@link #WORD_PARALLEL_FILTERS} and all test several rows
     * a word ({@link SegmentFilter#wordParallel}): then they are ANDed as bitmaps, each over all
     * rows, instead of the first selecting and the others refining its selection row by row.
     */
    private boolean wordParallel;
    private BitSet deleted;
    private RowgroupEntry current;
    private int nextRow;
    /** The end (exclusive) of the rows of {@link #current} this scan reads: all of them, or its slice's. */
    private int endRow;
    /** The slice being read or last read (parallel scans); its rowgroup is held while this scan reads it. */
    private RowgroupMorsels.Slice slice;
    /**
     * The shared opening of {@link #slice}'s rowgroup that {@link #file}, {@link #readers},
     * {@link #filters} and {@link #deleted} belong to, or null: kept from one slice to the next of the
     * same rowgroup, and never closed by this scan (the rowgroup's last holder does).
     */
    private SharedRowgroup.Open shared;
    private Cursor delta;
    private RowCodec rows;
    private boolean finished;

    public ColumnstoreScan(ColumnstoreTable table, PageReader reader, ScanOptions options, IoCounters counters,
                           BufferAllocator allocator) {
        this(table, reader, options, counters, allocator, new RowgroupMorsels());
    }

    /**
     * A scan of the rowgroups it claims from {@code morsels}, which other scans of the same table
     * (the workers of a parallel plan, each with its own reader and allocator) claim from too.
     */
    public ColumnstoreScan(ColumnstoreTable table, PageReader reader, ScanOptions options, IoCounters counters,
                           BufferAllocator allocator, RowgroupMorsels morsels) {
        this.table = table;
        this.reader = reader;
        this.options = options;
        this.counters = counters;
        this.schema = table.schema();
        this.io = new SegmentIo(counters, table.database().mappedReadCounters(), options.readAhead(),
                options.readAheadMaxBytes(), options.readAheadDepthBytes());
        this.primaries = morsels.primaries(table::primaryDictionaries);
        this.checked = CheckedObjects.of(table.database());
        // Checked before any buffer is allocated: a scan that cannot open leaves nothing to release.
        for (ColumnComparison comparison : options.comparisons()) {
            for (int column : new int[] {comparison.left(), comparison.right()}) {
                if (column >= schema.size()) {
                    throw new IllegalArgumentException("column " + column + " of " + comparison + " is not one of the "
                            + schema.size() + " of " + table.name());
                }
            }
            if (!schema.column(comparison.left()).type().equals(schema.column(comparison.right()).type())) {
                throw new IllegalArgumentException(comparison + " compares columns of types "
                        + schema.column(comparison.left()).type() + " and " + schema.column(comparison.right()).type());
            }
        }
        this.comparisons = options.comparisons().toArray(ColumnComparison[]::new);
        // Only a scan with comparisons uses them; the others (one per statement and worker) allocate nothing here.
        int compared = comparisons.length == 0 ? 0 : options.batchSize();
        this.comparedLeft = new long[compared];
        this.comparedRight = new long[compared];
        this.scratch = new DecodeScratch[table.schema().size()];
        this.rows = table.rowCodec();
        counters.increment(IoCounter.SCAN_COUNT);
        List<Column> columns = new ArrayList<>();
        for (int column : options.projection()) {
            columns.add(Column.nullable(schema.column(column).name(), schema.column(column).type()));
        }
        if (options.withRowLocator()) {
            columns.add(Column.notNull("$locator", SqlType.BIGINT));
        }
        this.batch = Batch.create(new TableSchema(columns), allocator);
        for (int index = 0; index < columns.size(); index++) {
            SqlType type = columns.get(index).type();
            if (type instanceof SqlType.VarcharType || type instanceof SqlType.CharType) {
                // The dictionary ids of decoded strings go on with the batch (see CodedStrings).
                batch.attachCodes(index, new CodedStrings());
            }
        }
        for (int index = 0; index < batch.columnCount(); index++) {
            FieldVector vector = batch.column(index);
            vector.setInitialCapacity(options.batchSize());
            vector.allocateNew();
        }
        this.selection = new int[options.batchSize()];
        this.matchBits = new long[options.batchSize() / 64 + 2];
        this.decoded = new boolean[columns.size()];
        this.deferredStrings = new boolean[columns.size()];
        this.deferredToLongs = new boolean[columns.size()];
        Set<Integer> neededColumns = new LinkedHashSet<>();
        for (int column : options.projection()) {
            neededColumns.add(column);
        }
        for (ColumnFilter filter : options.filters()) {
            neededColumns.add(filter.column());
        }
        for (ColumnComparison comparison : comparisons) {
            neededColumns.add(comparison.left());
            neededColumns.add(comparison.right());
        }
        this.needed = neededColumns.stream().mapToInt(Integer::intValue).toArray();
        this.morsels = morsels;
        morsels.entries(() -> table.rowgroups(reader, counters));
        this.rowgroups = new UpcomingRowgroups(table, morsels, options.filters(), needed, io);
    }

    /**
     * Lets projected column {@code index} (a string column) hand on only its dictionary codes in
     * each batch of a compressed rowgroup, its vector holding empty strings until a consumer asks
     * for them ({@link CodedStrings#materialize}). The caller guarantees that nothing reads the
     * vector's strings without asking: a grouping by the column, which groups by the codes, or a
     * MIN or MAX of it, which compares codes and decodes only the best ones. Rows of
     * delta rowgroups and segments without a dictionary are decoded as always. Call before the
     * first {@link #next()}.
     */
    public void deferStrings(int index) {
        if (batch.codes(index) == null) {
            throw new IllegalArgumentException("column " + index + " of the scan of " + table.name() + " holds no strings");
        }
        deferredStrings[index] = true;
    }

    /**
     * Lets projected column {@code index} (INT, BIGINT or DECIMAL of precision at most 18) hand on
     * its values as stored longs ({@link NativeLongs}) in each batch of a compressed rowgroup whose
     * segment has no NULLs and keeps its values in a packed stream, runs or a dictionary's packed
     * ids, its vector written only when a consumer asks ({@link NativeLongs#materialize}). The
     * caller guarantees that nothing reads the vector without asking: an aggregation that only
     * sums the column, through projections that pass it on or ask. Other batches decode the
     * vector as always. Call before the first {@link #next()}.
     */
    public void deferToLongs(int index) {
        if (index < 0 || index >= options.projection().length || !summable(schema.column(options.projection()[index]).type())) {
            throw new IllegalArgumentException("column " + index + " of the scan of " + table.name()
                    + " holds no whole numbers or narrow decimals");
        }
        deferredToLongs[index] = true;
        batch.attachLongs(index, new NativeLongs());
    }

    /**
     * Tests the probe's column (a projected whole number) against its hash join's bitmap filter
     * while scanning: a compressed rowgroup's batch decodes that column first, drops the rows the
     * probe rejects, and decodes the other columns only at the rows left (so a selective join
     * above saves their decoding, not only its own probing). Call before the first {@link #next()}.
     */
    public void testAgainst(RuntimeFilterProbe probe) {
        if (probe.column() < 0 || probe.column() >= options.projection().length) {
            throw new IllegalArgumentException("column " + probe.column() + " is not one of the scan's "
                    + options.projection().length);
        }
        probes = Arrays.copyOf(probes, probes.length + 1);
        probes[probes.length - 1] = probe;
    }

    /**
     * Lets the scan compute {@code requested} itself over every compressed rowgroup it can answer
     * exactly without its rows, and return no rows for those rowgroups; the caller (an aggregation
     * without GROUP BY over this scan's output, with no other input) adds {@link #aggregated} to
     * what it computes over the rows the scan does return. A rowgroup qualifies when the scan has
     * no filters, bitmap filters or row locator, none of its rows is deleted, and every aggregate
     * can be answered: COUNT from the footer's row and NULL counts; MIN and MAX from the footer's
     * exact min/max of a whole-number, DATE, TIMESTAMP, DECIMAL, VARCHAR or CHAR column (see
     * {@link #exactExtremes}: no string is decoded or compared per row); SUM of an INT, BIGINT or
     * DECIMAL(p &lt;= 18) column without NULLs in a packed or run-length segment, from the stored
     * longs without decoding them into vectors (the segment's checksum is verified as for a
     * decoded segment). Delta rowgroups, rowgroups with deleted rows and the rest are scanned as
     * always. Call before the first {@link #next()}.
     */
    public void aggregate(List<ScanAggregate> requested) {
        for (ScanAggregate aggregate : requested) {
            if (aggregate.function() != ScanAggregate.Function.COUNT_ROWS
                    && (aggregate.column() < 0 || aggregate.column() >= options.projection().length)) {
                throw new IllegalArgumentException("column " + aggregate.column() + " is not one of the scan's "
                        + options.projection().length);
            }
        }
        aggregates = requested.toArray(ScanAggregate[]::new);
        Set<Integer> summed = new LinkedHashSet<>();
        for (ScanAggregate aggregate : aggregates) {
            if (aggregate.function() == ScanAggregate.Function.SUM) {
                summed.add(options.projection()[aggregate.column()]);
            }
        }
        summedColumns = summed.stream().mapToInt(Integer::intValue).toArray();
        rowgroups.readOnly(this::columnsRead);
        aggregateCounts = new long[aggregates.length];
        aggregateExtremes = new Object[aggregates.length];
        aggregateTotals = new ExactTotal[aggregates.length];
        for (int index = 0; index < aggregates.length; index++) {
            aggregateTotals[index] = new ExactTotal();
        }
    }

    /**
     * What the scan computed itself for aggregate {@code index} of {@link #aggregate} over the
     * rowgroups it did not return: COUNT_ROWS and COUNT_VALUES the count, MIN and MAX the Java
     * value of the column's type or null when none, SUM the unscaled total at the column's scale
     * (a {@link java.math.BigInteger}; its count of values is {@link #aggregatedCount}).
     */
    public Object aggregated(int index) {
        return switch (aggregates[index].function()) {
            case COUNT_ROWS, COUNT_VALUES -> aggregateCounts[index];
            case MIN, MAX -> aggregateExtremes[index];
            case SUM -> aggregateTotals[index].value();
        };
    }

    /** The rows or values aggregate {@code index} counted in the rowgroups the scan aggregated itself. */
    public long aggregatedCount(int index) {
        return aggregateCounts[index];
    }

    /** The rowgroups the scan aggregated itself instead of returning their rows (for tests and EXPLAIN ANALYZE). */
    public int rowgroupsAggregated() {
        return rowgroupsAggregated;
    }

    /** The next batch of live rows, or null at the end. Valid until the next call. */
    public Batch next() {
        while (!finished) {
            if (current == null) {
                if (morsels.sliced()) {
                    if (!claimSlice()) {
                        finished = true;
                        break;
                    }
                    continue;
                }
                UpcomingRowgroups.Prepared next = rowgroups.next();
                if (next == null) {
                    finished = true;
                    break;
                }
                open(next);
                continue;
            }
            int produced = current.state() == RowgroupState.COMPRESSED ? nextCompressed() : nextDelta();
            if (produced < 0) {
                closeRowgroup();
                continue;
            }
            if (produced > 0) {
                return batch;
            }
        }
        return null;
    }

    /** Read-ahead requests issued so far (for benchmarks and the diagnostics). */
    public long readAheadRequests() {
        return io.requests();
    }

    /**
     * Of {@link #readAheadRequests()}, those issued into rowgroups after the one being read: the
     * window crossing rowgroup boundaries.
     */
    public long readAheadRequestsAhead() {
        return io.requestsAhead();
    }

    /** Rowgroups prepared ahead of the one being read (files mapped, elimination applied) and not reached yet. */
    public int rowgroupsPreparedAhead() {
        return rowgroups.preparedAhead();
    }

    /** The largest read-ahead request issued, in bytes. */
    public long largestReadAheadBytes() {
        return io.largestRequestBytes();
    }

    private void open(UpcomingRowgroups.Prepared prepared) {
        switch (prepared) {
            case UpcomingRowgroups.Delta delta -> openDelta(delta.entry());
            case UpcomingRowgroups.Eliminated _ -> io.skipped(needed.length);
            case UpcomingRowgroups.Readable readable -> {
                if (!aggregateRowgroup(readable)) {
                    openCompressed(readable);
                }
            }
            case UpcomingRowgroups.Failed failed -> throw failed.error();
        }
    }

    /**
     * Claims the next slice and makes it current (a parallel scan's); false when none is left. A
     * slice of a rowgroup this scan already read reuses its segment readers; one of another rowgroup
     * releases the rowgroup before and makes readers over the other's shared opening — opening it
     * and publishing it to the other workers ({@link RowgroupMorsels#published}) when it is the
     * rowgroup's first slice. A slice of a rowgroup that was eliminated or aggregated whole leaves
     * {@link #current} null: the caller claims again.
     */
    private boolean claimSlice() {
        RowgroupMorsels.Slice previous = slice;
        RowgroupMorsels.Slice claimed = morsels.claimSlice(previous);
        // The claimer of a rowgroup's first slice opens it and must publish it whatever happens, or
        // the workers waiting for its other slices would wait for ever.
        boolean opens = claimed != null && claimed.rowgroup() != null && claimed.fromRow() == 0;
        boolean published = !opens;
        try {
            if (claimed == null || previous == null || claimed.rowgroup() != previous.rowgroup()) {
                leaveSlice();
            }
            slice = claimed;
            if (claimed == null) {
                return false;
            }
            if (claimed.rowgroup() == null) {
                openDelta(claimed.entry());
                return true;
            }
            if (shared == null) {
                SharedRowgroup.Opening opening = claimed.rowgroup().open(this::openShared);
                if (opens) {
                    morsels.published(claimed.rowgroup(), opening instanceof SharedRowgroup.Skipped);
                    published = true;
                }
                switch (opening) {
                    case SharedRowgroup.Skipped _ -> {
                        return true;
                    }
                    case SharedRowgroup.Open open -> readShared(open);
                }
            }
            current = claimed.entry();
            nextRow = claimed.fromRow();
            endRow = claimed.toRow();
            return true;
        } finally {
            if (!published) {
                // Failed before or while opening: the other slices become claimable, and a worker that
                // claims one gets the opening's failure, or opens the rowgroup itself if none was tried.
                morsels.published(claimed.rowgroup(), false);
            }
        }
    }

    /** Lets go of the rowgroup of the slice read last: its readers, and this scan's hold on it. */
    private void leaveSlice() {
        shared = null;
        file = null;
        readers = null;
        filters = null;
        deleted = null;
        RowgroupMorsels.Slice left = slice;
        slice = null;
        if (left != null && left.rowgroup() != null) {
            left.rowgroup().release();
        }
    }

    /**
     * Opens a compressed rowgroup for every worker that reads slices of it, on this scan's I/O:
     * elimination, then read-ahead, every needed segment touched (counted once for the statement)
     * and verified, the secondary dictionaries and deleted rows read. Its requests are all touched
     * when this returns, so they are released here and nothing into the file stays in this scan's
     * {@link SegmentIo}, whichever worker unmaps it later. A rowgroup this scan can aggregate whole
     * ({@link #aggregate}) is aggregated here, by the opener alone, and skipped by every slice.
     */
    private SharedRowgroup.Opening openShared(RowgroupEntry entry) {
        return switch (rowgroups.prepare(entry)) {
            case UpcomingRowgroups.Eliminated _ -> {
                io.skipped(needed.length);
                yield SharedRowgroup.skipped();
            }
            case UpcomingRowgroups.Readable readable -> aggregateRowgroup(readable) ? SharedRowgroup.skipped()
                    : openReadable(readable);
            case UpcomingRowgroups.Delta _, UpcomingRowgroups.Failed _ ->
                    throw new IllegalStateException("rowgroup " + entry.rowgroupId() + " is not a compressed rowgroup to open");
        };
    }

    private SharedRowgroup.Open openReadable(UpcomingRowgroups.Readable readable) {
        RowgroupFile opened = readable.file();
        try {
            io.readAhead(opened, needed);
            Dictionary[] secondaries = new Dictionary[schema.size()];
            for (int column : needed) {
                io.touch(opened, opened.segmentOffset(column), opened.segmentLength(column));
                opened.verifySegment(column);
                secondaries[column] = readSecondary(opened, readable.metadata()[column], column);
            }
            RowgroupEntry entry = readable.entry();
            BitSet deletedRows = entry.deletedRows() > 0 ? table.deletedRows(reader, entry.rowgroupId(), counters) : null;
            io.release(opened);
            return new SharedRowgroup.Open(opened, readable.metadata(), secondaries, deletedRows);
        } catch (RuntimeException e) {
            io.release(opened);
            opened.close();
            throw e;
        }
    }

    /** Makes this scan's segment readers over a rowgroup another worker (or this one) opened for all. */
    private void readShared(SharedRowgroup.Open open) {
        shared = open;
        file = open.file();
        deleted = open.deleted();
        readers = new SegmentReader[schema.size()];
        for (int column : needed) {
            Dictionary primary = open.metadata()[column].primaryDictionaryId() == SegmentMetadata.NO_DICTIONARY ? null
                    : primaries.get(column, io);
            readers[column] = openSegment(column, primary, open.secondaries()[column]);
        }
        openFilters();
    }

    /**
     * The filters of the scan over the current rowgroup's segment readers. A filter that combines
     * with an earlier one on the same column ({@link SegmentFilter#and}: Q6's {@code l_shipdate >=
     * date AND l_shipdate < date} as one range) is folded into it and skipped, so the column is
     * tested in one pass; the number of filters stays the same for {@link FilterOrder}.
     */
    private void openFilters() {
        filters = new SegmentFilter[options.filters().size()];
        if (skipped == null || skipped.length != filters.length) {
            skipped = new boolean[filters.length];
        }
        Arrays.fill(skipped, false);
        int running = 0;
        for (int index = 0; index < filters.length; index++) {
            ColumnFilter filter = options.filters().get(index);
            filters[index] = readers[filter.column()].filter(filter.predicate());
            for (int earlier = 0; earlier < index && !skipped[index]; earlier++) {
                if (!skipped[earlier] && options.filters().get(earlier).column() == filter.column()) {
                    SegmentFilter both = filters[earlier].and(filters[index]);
                    if (both != null) {
                        filters[earlier] = both;
                        skipped[index] = true;
                    }
                }
            }
            running += skipped[index] ? 0 : 1;
        }
        wordParallel = running >= WORD_PARALLEL_FILTERS;
        for (int index = 0; index < filters.length; index++) {
            wordParallel &= skipped[index] || filters[index].wordParallel();
        }
    }

    /**
     * Selects the rows of {@code [from, from + count)} that pass every filter into {@link
     * #selection} by ANDing the filters' bitmaps ({@link #wordParallel}); returns how many.
     */
    private int selectByWords(int from, int count) {
        long[] bits = matchBits;
        int wordCount = (count + 63) >>> 6;
        Arrays.fill(bits, 0, wordCount, -1L);
        for (int index = 0; index < filters.length; index++) {
            if (!skipped[index]) {
                filters[index].andMatches(from, count, bits);
            }
        }
        if ((count & 63) != 0) {
            bits[wordCount - 1] &= (1L << count) - 1;
        }
        int[] selection = this.selection;
        int selected = 0;
        for (int word = 0; word < wordCount; word++) {
            long remaining = bits[word];
            int firstRow = word << 6;
            while (remaining != 0) {
                selection[selected++] = firstRow + Long.numberOfTrailingZeros(remaining);
                remaining &= remaining - 1;
            }
        }
        return selected;
    }

    /**
     * The secondary dictionary of {@code column} in {@code of}, touched (counted) and verified, its
     * structure checked unless an earlier statement did; null when the segment refers to none.
     */
    private Dictionary readSecondary(RowgroupFile of, SegmentMetadata metadata, int column) {
        if (metadata.secondaryDictionaryId() == SegmentMetadata.NO_DICTIONARY) {
            return null;
        }
        int blob = of.columnCount() + column;
        io.touchDictionary(of.mapping(), of.segmentOffset(blob), of.segmentLength(blob));
        of.verifySegment(blob);
        SqlType type = schema.column(column).type();
        String origin = of.path() + " dictionary of column " + column;
        return checked.read(of, blob, known -> Dictionary.read(of.segment(blob), type, origin, known));
    }

    private void openDelta(RowgroupEntry entry) {
        current = entry;
        nextRow = 0;
        delta = table.deltaCursor(reader, entry, counters);
    }

    private void openCompressed(UpcomingRowgroups.Readable readable) {
        // The file is the scan's from here: closeRowgroup (or close) unmaps it, whatever fails below.
        file = readable.file();
        current = readable.entry();
        nextRow = 0;
        endRow = (int) current.totalRows();
        RowgroupEntry entry = readable.entry();
        SegmentMetadata[] metadata = readable.metadata();
        io.readAhead(file, needed);
        readers = new SegmentReader[schema.size()];
        for (int column : needed) {
            touchSegment(column);
            Dictionary primary = metadata[column].primaryDictionaryId() == SegmentMetadata.NO_DICTIONARY ? null
                    : primaries.get(column, io);
            readers[column] = openSegment(column, primary, readSecondary(file, metadata[column], column));
        }
        openFilters();
        deleted = entry.deletedRows() > 0 ? table.deletedRows(reader, entry.rowgroupId(), counters) : null;
    }

    /**
     * Adds the compressed rowgroup to the {@linkplain #aggregate aggregates} when every one of them
     * can be computed without its rows; false, having read nothing, otherwise. The rowgroup is
     * closed either way when true.
     */
    private boolean aggregateRowgroup(UpcomingRowgroups.Readable readable) {
        if (!aggregatesAnswer(readable)) {
            return false;
        }
        SegmentMetadata[] metadata = readable.metadata();
        // The file is the scan's from here, as in openCompressed: closeRowgroup unmaps it.
        file = readable.file();
        current = readable.entry();
        try {
            long rows = current.totalRows();
            long[] counts = new long[aggregates.length];
            Object[] extremes = new Object[aggregates.length];
            ExactTotal[] totals = new ExactTotal[aggregates.length];
            int[] read = summedColumns;
            // The segments the sums read are read ahead as openCompressed's are (a cold scan reads them in large requests).
            io.readAhead(file, read);
            for (int index = 0; index < aggregates.length; index++) {
                ScanAggregate aggregate = aggregates[index];
                int column = aggregate.function() == ScanAggregate.Function.COUNT_ROWS ? -1
                        : options.projection()[aggregate.column()];
                switch (aggregate.function()) {
                    case COUNT_ROWS -> counts[index] = rows;
                    case COUNT_VALUES -> counts[index] = metadata[column].rowCount() - metadata[column].nullCount();
                    case MIN -> extremes[index] = metadata[column].min();
                    case MAX -> extremes[index] = metadata[column].max();
                    case SUM -> {
                        SegmentReader reader = openForSum(column);
                        totals[index] = new ExactTotal();
                        if (!reader.sumValues(0, reader.rowCount(), totals[index])) {
                            throw new IllegalStateException("segment of column " + column + " in " + file.path()
                                    + " has no integral values to add, though its footer says " + metadata[column].encoding());
                        }
                        counts[index] = reader.rowCount();
                    }
                }
            }
            for (int index = 0; index < aggregates.length; index++) {
                aggregateCounts[index] += counts[index];
                if (totals[index] != null) {
                    aggregateTotals[index].add(totals[index]);
                }
                Object extreme = extremes[index];
                if (extreme != null) {
                    Object best = aggregateExtremes[index];
                    boolean minimum = aggregates[index].function() == ScanAggregate.Function.MIN;
                    if (best == null || (minimum ? compareExtremes(extreme, best) < 0 : compareExtremes(extreme, best) > 0)) {
                        aggregateExtremes[index] = extreme;
                    }
                }
            }
            // Segments the aggregates did not read count as skipped, as an eliminated rowgroup's do.
            io.skipped(needed.length - read.length);
            rowgroupsAggregated++;
        } finally {
            closeRowgroup();
        }
        return true;
    }

    /** Whether {@link #aggregateRowgroup} answers {@code readable} without its rows. */
    private boolean aggregatesAnswer(UpcomingRowgroups.Readable readable) {
        if (aggregates.length == 0 || !options.filters().isEmpty() || comparisons.length > 0 || probes.length > 0 || options.withRowLocator()
                || readable.entry().deletedRows() > 0) {
            return false;
        }
        SegmentMetadata[] metadata = readable.metadata();
        for (ScanAggregate aggregate : aggregates) {
            if (aggregate.function() == ScanAggregate.Function.COUNT_ROWS) {
                continue;
            }
            int column = options.projection()[aggregate.column()];
            SqlType type = schema.column(column).type();
            boolean answerable = switch (aggregate.function()) {
                case COUNT_ROWS, COUNT_VALUES -> true;
                case MIN, MAX -> exactExtremes(type);
                case SUM -> summable(type) && !metadata[column].hasNulls()
                        && (metadata[column].encoding() == EncodingKind.VALUE
                        || metadata[column].encoding() == EncodingKind.RUN_LENGTH);
            };
            if (!answerable) {
                return false;
            }
        }
        return true;
    }

    /**
     * The segments of {@code readable} the scan will read: the summed columns' when {@link
     * #aggregateRowgroup} answers it, else every needed column's. The read-ahead window requests
     * these ({@link UpcomingRowgroups#readOnly}), so a cold aggregated scan does not read the
     * segments its footers answer for.
     */
    private int[] columnsRead(UpcomingRowgroups.Readable readable) {
        return aggregatesAnswer(readable) ? summedColumns : needed;
    }

    /**
     * Reads segment {@code column} of the current file (counted), verifies its checksum and tops the
     * read-ahead window up: the touch consumed this segment's requests, so the next rowgroups' reads
     * overlap what is left of this one. After the checksum, not before: preparing a rowgroup ahead
     * faults its footer in synchronously, and that read would queue behind this segment's
     * read-ahead instead of overlapping the checksum with it.
     */
    private void touchSegment(int column) {
        io.touch(file, file.segmentOffset(column), file.segmentLength(column));
        file.verifySegment(column);
        rowgroups.fill();
    }

    /** Opens a segment of the current file for {@link SegmentReader#sumValues}, read and verified as for decoding. */
    private SegmentReader openForSum(int column) {
        touchSegment(column);
        return openSegment(column, null, null);
    }

    /**
     * Opens a touched and verified segment of the current file, its structure checked unless an
     * earlier statement did, decoding through the column's scratch arrays of the scan.
     */
    private SegmentReader openSegment(int column, Dictionary primary, Dictionary secondary) {
        if (scratch[column] == null) {
            scratch[column] = new DecodeScratch();
        }
        DecodeScratch arrays = scratch[column];
        return checked.read(file, column, known -> SegmentReader.open(file.segment(column), schema.column(column).type(),
                primary, secondary, file.path() + " column " + column, known, arrays));
    }

    /**
     * Types whose footer min/max are exact values that order as the column does. A string column's
     * are the segment's smallest and largest value in unsigned byte order of their UTF-8 (code
     * point order: segment.md's storage order, whatever the encoding), which is the order MIN and
     * MAX of strings use (the aggregation compares the UTF-8 bytes); a CHAR's carry its padding, as
     * its decoded values do. Not DOUBLE: the footer orders it by IEEE total order ({@code -0.0 < 0.0}).
     */
    private static boolean exactExtremes(SqlType type) {
        return type instanceof SqlType.IntegerType || type instanceof SqlType.BigintType || type instanceof SqlType.DateType
                || type instanceof SqlType.TimestampType || type instanceof SqlType.DecimalType
                || type instanceof SqlType.VarcharType || type instanceof SqlType.CharType;
    }

    /** Types whose stored longs are the exact values SUM adds (a DECIMAL's unscaled value at its scale). */
    private static boolean summable(SqlType type) {
        return type instanceof SqlType.IntegerType || type instanceof SqlType.BigintType
                || (type instanceof SqlType.DecimalType decimal && ValueKind.of(decimal).fitsLong());
    }

    /**
     * Orders two footer extremes of one column as MIN and MAX do: strings in code point order (the
     * unsigned order of their UTF-8 bytes, which {@link String#compareTo} is not: it puts a
     * surrogate pair, U+10000 and above, before U+E000..U+FFFF), other values by their natural order.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static int compareExtremes(Object left, Object right) {
        if (left instanceof String leftString && right instanceof String rightString) {
            return Arrays.compareUnsigned(leftString.getBytes(StandardCharsets.UTF_8), rightString.getBytes(StandardCharsets.UTF_8));
        }
        return ((Comparable) left).compareTo(right);
    }

    /** Fills the batch from the open compressed rowgroup; -1 when it is exhausted. */
    private int nextCompressed() {
        if (nextRow >= endRow) {
            return -1;
        }
        int from = nextRow;
        int count = Math.min(options.batchSize(), endRow - from);
        nextRow += count;
        selectionListed = false;
        batchReset = false;
        Arrays.fill(decoded, false);
        if (filterOrder == null) {
            filterOrder = new FilterOrder(filters.length + comparisons.length + probes.length);
        }
        // The predicates ANDed as bitmaps are one pass over all rows, run first: the comparisons and
        // bitmap filters follow them, in the order adapted as for the other steps.
        boolean timed = filterOrder.adapts() && (!wordParallel || comparisons.length + probes.length >= 2);
        long start = timed ? System.nanoTime() : 0;
        int selected = count;
        if (wordParallel) {
            selected = selectByWords(from, count);
            selectionListed = true;
        }
        selected = runFilters(filterOrder.order(), from, count, selected);
        if (timed) {
            filterOrder.record(System.nanoTime() - start, count);
        }
        if (deleted != null && selected > 0) {
            listSelection(count);
            int kept = 0;
            for (int index = 0; index < selected; index++) {
                if (!deleted.get(from + selection[index])) {
                    selection[kept++] = selection[index];
                }
            }
            selected = kept;
        }
        if (selected == 0) {
            return 0;
        }
        prepareBatch();
        int[] projection = options.projection();
        for (int index = 0; index < projection.length; index++) {
            decode(index, from, count, selected);
        }
        if (options.withRowLocator()) {
            BigIntVector locator = (BigIntVector) batch.column(projection.length);
            long base = ((long) current.rowgroupId()) << 32;
            for (int row = 0; row < count; row++) {
                locator.setSafe(row, base | (from + row));
            }
        }
        batch.setRowCount(count);
        if (selected < count) {
            batch.select(selection, selected);
        }
        return selected;
    }

    /**
     * Runs the pushed-down predicates (indexes below {@code filters.length}; skipped when {@link
     * #wordParallel} ran them already), the comparisons between columns (the next {@code
     * comparisons.length}) and the bitmap filters (the rest, {@link #probes} in turn) in {@code
     * order} over the {@code selected} rows of {@code [from, from + count)} (all of them while
     * {@link #selection} is not listed), leaving the rows that pass all of them in {@link
     * #selection}; returns how many. The first to run sees every row and selects in one pass; the
     * others refine the selection.
     */
    private int runFilters(int[] order, int from, int count, int selected) {
        for (int position = 0; position < order.length && selected > 0; position++) {
            int step = order[position];
            if (step < filters.length) {
                if (wordParallel || skipped[step]) {
                    continue;
                }
                SegmentFilter filter = filters[step];
                selected = selectionListed ? filter.refine(from, selection, selected) : filter.select(from, count, selection);
                selectionListed = true;
            } else if (step < filters.length + comparisons.length) {
                selected = compareColumns(comparisons[step - filters.length], from, count, selected);
            } else {
                selected = testProbe(probes[step - filters.length - comparisons.length], from, count, selected);
            }
        }
        return selected;
    }

    /**
     * Keeps the {@code selected} rows where {@code comparison} holds, comparing the two columns'
     * stored longs (a DATE's days, a DECIMAL's unscaled value at the scale both columns share),
     * read without decoding either column into a vector; NULL rows then leave. A segment whose
     * encoding keeps no such longs (DOUBLE, plain values, wide decimals) is compared a Java value
     * a row, in SQL order: slow, and not the case of the whole numbers, dates and narrow decimals
     * that the planner pushes down.
     */
    private int compareColumns(ColumnComparison comparison, int from, int count, int selected) {
        listSelection(count);
        SegmentReader left = readers[comparison.left()];
        SegmentReader right = readers[comparison.right()];
        int[] selection = this.selection;
        if (left.readStoredLongs(from, count, selection, selected, comparedLeft)
                && right.readStoredLongs(from, count, selection, selected, comparedRight)) {
            int kept = keepCompared(comparison.operator(), comparedLeft, comparedRight, selection, selected);
            kept = left.dropNulls(from, selection, kept);
            return right.dropNulls(from, selection, kept);
        }
        SqlType type = schema.column(comparison.left()).type();
        int kept = 0;
        for (int index = 0; index < selected; index++) {
            int row = selection[index];
            Object leftValue = left.fetch(from + row);
            Object rightValue = right.fetch(from + row);
            if (leftValue != null && rightValue != null
                    && comparison.operator().accepts(ValueKind.compareValues(type, leftValue, rightValue))) {
                selection[kept++] = row;
            }
        }
        return kept;
    }

    /**
     * Keeps the rows {@code selection[i]}, {@code i < selected}, where {@code left[row] <operator>
     * right[row]}, compacted in order; returns how many. One loop per operator, without branches
     * on the values, so that the JIT compiles each to a tight loop.
     */
    private static int keepCompared(ColumnPredicate.Operator operator, long[] left, long[] right, int[] selection,
                                    int selected) {
        int kept = 0;
        switch (operator) {
            case EQUAL -> {
                for (int index = 0; index < selected; index++) {
                    int row = selection[index];
                    selection[kept] = row;
                    kept += left[row] == right[row] ? 1 : 0;
                }
            }
            case NOT_EQUAL -> {
                for (int index = 0; index < selected; index++) {
                    int row = selection[index];
                    selection[kept] = row;
                    kept += left[row] != right[row] ? 1 : 0;
                }
            }
            case LESS -> {
                for (int index = 0; index < selected; index++) {
                    int row = selection[index];
                    selection[kept] = row;
                    kept += left[row] < right[row] ? 1 : 0;
                }
            }
            case LESS_OR_EQUAL -> {
                for (int index = 0; index < selected; index++) {
                    int row = selection[index];
                    selection[kept] = row;
                    kept += left[row] <= right[row] ? 1 : 0;
                }
            }
            case GREATER -> {
                for (int index = 0; index < selected; index++) {
                    int row = selection[index];
                    selection[kept] = row;
                    kept += left[row] > right[row] ? 1 : 0;
                }
            }
            case GREATER_OR_EQUAL -> {
                for (int index = 0; index < selected; index++) {
                    int row = selection[index];
                    selection[kept] = row;
                    kept += left[row] >= right[row] ? 1 : 0;
                }
            }
        }
        return kept;
    }

    /**
     * Keeps the {@code selected} rows that {@code probe}'s bitmap filter may find a partner for.
     * Over all rows of the batch and an undecoded column, a run at a time where the segment allows
     * ({@link SegmentReader#selectByValue}): the column is then decoded later at the kept rows only.
     */
    private int testProbe(RuntimeFilterProbe probe, int from, int count, int selected) {
        if (!probe.wants(selected)) {
            return selected;
        }
        int column = probe.column();
        int kept = selected == count && !decoded[column]
                ? readers[options.projection()[column]].selectByValue(from, count, selection, probe.filter()) : -1;
        if (kept >= 0) {
            probe.tested(count, kept);
            selectionListed = true;
            return kept;
        }
        listSelection(count);
        prepareBatch();
        decode(column, from, count, selected);
        NativeLongs longs = batch.longs(column);
        if (longs != null) {
            // The probe reads the column's vector, which a column handed on as stored longs has not written yet.
            longs.materialize();
        }
        return probe.keep(batch, selection, selected, selection);
    }

    /** Writes the batch's rows into {@link #selection} when no filter has yet (every row is live). */
    private void listSelection(int count) {
        if (!selectionListed) {
            for (int row = 0; row < count; row++) {
                selection[row] = row;
            }
            selectionListed = true;
        }
    }

    /** Empties the batch's vectors once per batch, before the first column is decoded into them. */
    private void prepareBatch() {
        if (!batchReset) {
            resetBatch();
            batchReset = true;
        }
    }

    /**
     * Decodes projected column {@code index} of rows {@code [from, from + count)} unless it is
     * decoded already: only at the {@code selected} rows of {@link #selection} when they are few
     * (late materialization), else the whole range.
     */
    private void decode(int index, int from, int count, int selected) {
        if (decoded[index]) {
            return;
        }
        decoded[index] = true;
        SegmentReader reader = readers[options.projection()[index]];
        if (deferredStrings[index] && reader.decodeCodes(from, count, batch.column(index), batch.codes(index))) {
            CodedStrings codes = batch.codes(index);
            FieldVector vector = batch.column(index);
            codes.defer(() -> reader.decode(from, count, vector, 0, codes));
            return;
        }
        if (deferredToLongs[index]) {
            NativeLongs longs = batch.longs(index);
            // The list of rows must be this batch's: unlisted (every row selected), the array still
            // held the last batch that had one, a rowgroup with deleted rows before this one.
            listSelection(count);
            if (reader.readLongs(from, count, selection, selected, longs.valuesFor(count))) {
                longs.markDefined(reader.lowestStored(), reader.highestStored());
                FieldVector vector = batch.column(index);
                longs.defer(() -> decodeVector(reader, from, count, selected, vector, null));
                return;
            }
        }
        decodeVector(reader, from, count, selected, batch.column(index), batch.codes(index));
    }

    /** Decodes a column's vector at the {@code selected} rows of {@link #selection} when they are few (late materialization), else the whole range. */
    private void decodeVector(SegmentReader reader, int from, int count, int selected, FieldVector vector, CodedStrings codes) {
        if (selected <= count / SPARSE_FRACTION) {
            reader.decodeSelected(from, count, selection, selected, vector, codes);
        } else {
            reader.decode(from, count, vector, 0, codes);
        }
    }

    /** Fills the batch from the open delta rowgroup; -1 when it is exhausted. */
    private int nextDelta() {
        resetBatch();
        int[] projection = options.projection();
        int count = 0;
        Object[] row = null;
        while (count < options.batchSize() && delta.next()) {
            MemorySegment page = delta.page();
            row = rows.decode(page, delta.valueOffset());
            if (!matchesFilters(row)) {
                continue;
            }
            for (int index = 0; index < projection.length; index++) {
                VectorValues.set(batch.column(index), count, schema.column(projection[index]).type(), row[projection[index]]);
            }
            if (options.withRowLocator()) {
                int position = page.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN), delta.keyOffset());
                ((BigIntVector) batch.column(projection.length)).setSafe(count,
                        (((long) current.rowgroupId()) << 32) | position);
            }
            count++;
        }
        if (count == 0) {
            return -1;
        }
        batch.setRowCount(count);
        int live = count;
        for (int position = 0; position < count; position++) {
            selection[position] = position;
        }
        for (RuntimeFilterProbe probe : probes) {
            if (live > 0 && probe.wants(live)) {
                live = probe.keep(batch, selection, live, selection);
            }
        }
        if (live < count) {
            batch.select(selection, live);
        }
        return live;
    }

    private boolean matchesFilters(Object[] row) {
        for (ColumnFilter filter : options.filters()) {
            if (!filter.predicate().matches(schema.column(filter.column()).type(), row[filter.column()])) {
                return false;
            }
        }
        for (ColumnComparison comparison : comparisons) {
            Object left = row[comparison.left()];
            Object right = row[comparison.right()];
            if (left == null || right == null || !comparison.operator().accepts(
                    ValueKind.compareValues(schema.column(comparison.left()).type(), left, right))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Empties the batch's vectors for the next rows. A fixed-width vector's data (BOOLEAN's bits
     * aside) is not zeroed
     * (decoding overwrites every row it fills, and the value under a NULL is never read), only its
     * validity: zeroing the data of every column for every batch cost as much as decoding a column.
     */
    private void resetBatch() {
        for (int index = 0; index < batch.columnCount(); index++) {
            FieldVector vector = batch.column(index);
            CodedStrings codes = batch.codes(index);
            if (codes != null) {
                codes.forget();
            }
            NativeLongs longs = batch.longs(index);
            if (longs != null) {
                longs.forget();
            }
            if (vector instanceof BaseFixedWidthVector fixedWidth && !(vector instanceof BitVector)) {
                ArrowBuf validity = fixedWidth.getValidityBuffer();
                validity.setZero(0, validity.capacity());
                fixedWidth.setValueCount(0);
            } else {
                vector.reset();
            }
        }
    }

    /**
     * Ends the current rowgroup (or slice). A rowgroup shared with other workers stays open, with this
     * scan's readers over it, until this scan moves to another rowgroup ({@link #leaveSlice}).
     */
    private void closeRowgroup() {
        if (delta != null) {
            delta.close();
            delta = null;
        }
        current = null;
        if (shared != null) {
            return;
        }
        if (file != null) {
            io.release(file);
            file.close();
            file = null;
        }
        readers = null;
        filters = null;
        deleted = null;
    }

    /**
     * Unmaps every file the scan holds, the rowgroups prepared ahead included, and settles their
     * unused read-ahead as wasted.
     */
    @Override
    public void close() {
        try {
            closeRowgroup();
        } finally {
            try {
                leaveSlice();
                rowgroups.close();
            } finally {
                io.close();
                batch.close();
            }
        }
    }
}
