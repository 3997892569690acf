package dev.columba.planner.schema;

import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.encoding.SegmentMetadata;
import dev.columba.columnstore.file.FooterMetadata;
import dev.columba.columnstore.file.RowgroupFile;
import dev.columba.columnstore.file.SegmentDistinct;
import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.columnstore.table.RowgroupState;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.btree.BTree;
import dev.columba.storage.btree.Cursor;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.btree.ScanRange;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.row.KeyCodec;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.io.NativeFilesFacade;
import java.lang.foreign.MemorySegment;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.OptionalDouble;

/**
 * Statistics for the cost model, by table object id, kept for the life of an open database: the
 * bounds of a rowstore table's leading clustered-key column, and a columnstore table's per-rowgroup
 * segment figures ({@link ColumnstoreStatistics}). One instance per database, shared by every
 * session; thread-safe.
 *
 * <p>Why a store and not a look at the B+tree while planning: planning must not read pages. A
 * cold-cache experiment (seed 000: {@code DBCC DROPCLEANBUFFERS}, then a query) measures the
 * query's own physical and read-ahead reads; a plan-time descent would make the root and the first
 * leaf resident before the query runs and move its reads out of its statistics. So, as SQL Server
 * builds statistics with an index, the bounds are gathered when the data is written:
 * <ul>
 *   <li>Columba's INSERT widens them with each key it writes (a statement that inserts into an
 *       empty table establishes them);</li>
 *   <li>{@link #gather} reads them from the B+tree (the first leaf's first key and the last leaf's
 *       last key: two descents), for the session to call after DDL that builds or rebuilds a
 *       clustered index, while its pages are resident anyway;</li>
 *   <li>deletes leave them as they are: bounds may be wider than the data, never narrower.</li>
 * </ul>
 * A table without bounds is estimated with Calcite's default selectivities.
 *
 * <p>Columnstore figures follow the same rule: {@link #gather(ColumnstoreTable, PageReader,
 * IoCounters)} reads the rowgroup directory and the footers of rowgroup files (header, footer and
 * trailer pages of each mapping; segments stay untouched), and the session calls it when the
 * database opens and after each statement that wrote the table, when those pages are resident
 * anyway. A footer is read once per rowgroup: rowgroup files are immutable, so a later gather takes
 * the figures of rowgroups it already knows from the previous one.
 *
 * <p>A {@link #version()} tells cached plans whether the figures they were planned with still
 * hold. It moves on whenever gathered figures differ from the known ones, when a table's figures
 * are forgotten, and when an INSERT first establishes a table's key bounds; widening them does not
 * move it at every statement (a plan cache would then keep nothing across a stream of inserts with
 * ascending keys), only once a numeric leading key's span has grown by more than
 * {@value #SPAN_GROWTH_THRESHOLD} of its value at the last move, plus {@value #SPAN_GROWTH_MINIMUM}
 * — SQL Server's rule for recompiling after modifications, in the terms of these bounds. A
 * columnstore table's figures move it by the same rule on its live rows, or when its set of
 * rowgroups changes ({@link #changesPlans}).
 */
public final class StatisticsStore {
    private final ConcurrentMap<Integer, KeyBounds> bounds = new ConcurrentHashMap<>();
    private final ConcurrentMap<Integer, ColumnstoreStatistics> columnstores = new ConcurrentHashMap<>();
    /** Fraction of growth of a key's span, on top of {@link #SPAN_GROWTH_MINIMUM}, that moves the version. */
    static final double SPAN_GROWTH_THRESHOLD = 0.2;
    static final double SPAN_GROWTH_MINIMUM = 500;
    /** The span of each table's numeric leading key when the version last moved for it. */
    private final ConcurrentMap<Integer, Double> spanAtVersion = new ConcurrentHashMap<>();
    private final AtomicLong version = new AtomicLong();
    /** Each columnstore table's figures when the version last moved for it (see {@link #changesPlans}). */
    private final ConcurrentMap<Integer, ColumnstoreStatistics> columnstoreAtVersion = new ConcurrentHashMap<>();

    /** Moves on whenever the figures change in a way that may change plans (see the class comment). */
    public long version() {
        return version.get();
    }

    /** The bounds of table {@code objectId}'s leading key column, if known. */
    public Optional<KeyBounds> bounds(int objectId) {
        return Optional.ofNullable(bounds.get(objectId));
    }

    /** Records bounds (replacing what was known). */
    public void record(int objectId, KeyBounds keyBounds) {
        if (!keyBounds.equals(bounds.put(objectId, keyBounds))) {
            changed(objectId, keyBounds);
        }
    }

    private void changed(int objectId, KeyBounds now) {
        OptionalDouble span = span(now);
        if (span.isPresent()) {
            spanAtVersion.put(objectId, span.getAsDouble());
        } else {
            spanAtVersion.remove(objectId);
        }
        version.incrementAndGet();
    }

    /** max - min of numeric bounds. */
    private static OptionalDouble span(KeyBounds keyBounds) {
        return keyBounds != null && keyBounds.min() instanceof Number low && keyBounds.max() instanceof Number high
                ? OptionalDouble.of(high.doubleValue() - low.doubleValue()) : OptionalDouble.empty();
    }

    /** The figures of columnstore table {@code objectId}'s compressed rowgroups, if gathered. */
    public Optional<ColumnstoreStatistics> columnstore(int objectId) {
        return Optional.ofNullable(columnstores.get(objectId));
    }

    /** Forgets a table's statistics (dropped, or rewritten without them). */
    public void forget(int objectId) {
        boolean known = bounds.remove(objectId) != null;
        known |= columnstores.remove(objectId) != null;
        spanAtVersion.remove(objectId);
        columnstoreAtVersion.remove(objectId);
        if (known) {
            version.incrementAndGet();
        }
    }

    /**
     * Widens known bounds by {@code low} and {@code high} (values just written), or establishes
     * them when the table held no rows before ({@code tableWasEmpty}); otherwise, without bounds to
     * widen, nothing is learned.
     */
    public void widen(int objectId, Object low, Object high, boolean tableWasEmpty) {
        if (low == null || high == null) {
            return;
        }
        KeyBounds[] before = new KeyBounds[1];
        KeyBounds after = bounds.compute(objectId, (id, known) -> {
            before[0] = known;
            if (known == null) {
                return tableWasEmpty ? new KeyBounds(low, high) : null;
            }
            return known.including(low).including(high);
        });
        if (after == null || after.equals(before[0])) {
            return;
        }
        if (before[0] == null) {
            changed(objectId, after);
            return;
        }
        OptionalDouble span = span(after);
        if (span.isEmpty()) {
            return; // a non-numeric key: widening does not move the version
        }
        Double reference = spanAtVersion.get(objectId);
        if (reference == null || span.getAsDouble() - reference > SPAN_GROWTH_MINIMUM + SPAN_GROWTH_THRESHOLD * reference) {
            changed(objectId, after);
        }
    }

    /**
     * Reads the bounds of {@code table}'s leading key from its clustered B+tree through
     * {@code reader}, charging {@code counters}, and records them. Empty for a heap or an empty
     * table.
     */
    public Optional<KeyBounds> gather(TableStore table, PageReader reader, IoCounters counters) {
        BTree tree = table.tree();
        if (tree == null) {
            return Optional.empty();
        }
        SqlType leading = table.schema().column(table.definition().keyColumns().getFirst()).type();
        KeyCodec codec = KeyCodec.of(leading);
        byte[] first;
        try (Cursor cursor = tree.scan(reader, ScanRange.ALL, ReadAheadOptions.OFF, counters)) {
            first = cursor.next() ? cursor.key() : null;
        }
        byte[] last = tree.lastKey(reader, counters);
        if (first == null || last == null) {
            forget(table.definition().objectId());
            return Optional.empty();
        }
        KeyBounds found = new KeyBounds(leadingValue(codec, first), leadingValue(codec, last));
        record(table.definition().objectId(), found);
        return Optional.of(found);
    }

    /**
     * Reads the figures of {@code table}'s compressed rowgroups from its rowgroup directory (through
     * {@code reader}, charging {@code counters}) and from the footers of rowgroup files not seen by
     * the previous gather, and records them. Per segment: rows, NULLs, min and max from the footer,
     * and a distinct-value estimate ({@link SegmentDistinct#ofSegment}):
     * <ul>
     *   <li>a column with dictionaries (VARCHAR, CHAR): the larger of the primary dictionary's
     *       entries and the entries the rowgroup's own dictionary builder held (for the rowgroup that
     *       built the primary, the primary itself; for the others, the values they added in their
     *       secondary dictionary), at most the non-NULL rows;</li>
     *   <li>whole numbers (INT, BIGINT, DATE): at most the non-NULL rows, the values between min
     *       and max, and the runs of equal values the encoder counted (rowgroups written since
     *       footer version 3): a column in order, like lineitem's order key, has as many values as
     *       runs;</li>
     *   <li>anything else: unknown (-1).</li>
     * </ul>
     */
    public ColumnstoreStatistics gather(ColumnstoreTable table, PageReader reader, IoCounters counters) {
        Map<Integer, ColumnstoreStatistics.RowgroupStatistics> known = new HashMap<>();
        columnstore(table.objectId()).ifPresent(previous -> previous.rowgroups()
                .forEach(rowgroup -> known.put(rowgroup.rowgroupId(), rowgroup)));
        List<ColumnstoreStatistics.RowgroupStatistics> rowgroups = new ArrayList<>();
        long[] primaryEntries = null;
        int columnCount = table.schema().size();
        double[] valueBytes = previousValueBytes(table);
        long[] deltaStringBytes = new long[columnCount];
        long[] deltaStrings = new long[columnCount];
        List<RowgroupEntry> entries = table.rowgroups(reader, counters);
        long deltaRows = 0;
        for (RowgroupEntry entry : entries) {
            deltaRows += entry.isDelta() ? entry.totalRows() : 0;
        }
        for (RowgroupEntry entry : entries) {
            if (entry.isDelta()) {
                if (deltaRows <= SMALL_DELTA_ROWS) {
                    rowgroups.add(readDeltaRows(table, entry, reader, counters, deltaStringBytes, deltaStrings));
                }
                continue;
            }
            if (entry.state() != RowgroupState.COMPRESSED) {
                continue;
            }
            ColumnstoreStatistics.RowgroupStatistics previous = known.get(entry.rowgroupId());
            if (previous != null && previous.createdMicros() == entry.createdMicros() && previous.rows() == entry.totalRows()) {
                rowgroups.add(previous.withDeletedRows(entry.deletedRows()));
                continue;
            }
            if (primaryEntries == null) {
                primaryEntries = primaryEntries(table, valueBytes);
            }
            rowgroups.add(readFooters(table, entry, primaryEntries));
        }
        // A primary dictionary exists once a rowgroup is compressed and never changes; without
        // one, the widths are the delta rows' of this gather, never a previous gather's.
        boolean anyCompressed = entries.stream().anyMatch(entry -> entry.state() == RowgroupState.COMPRESSED);
        List<Double> averages = new ArrayList<>(columnCount);
        for (int column = 0; column < columnCount; column++) {
            if (!anyCompressed) {
                valueBytes[column] = -1;
            }
            boolean fromDeltas = valueBytes[column] < 0 && deltaStrings[column] > 0;
            averages.add(fromDeltas ? deltaStringBytes[column] / (double) deltaStrings[column] : valueBytes[column]);
        }
        ColumnstoreStatistics gathered = new ColumnstoreStatistics(rowgroups, averages);
        if (!gathered.equals(columnstores.put(table.objectId(), gathered)) && changesPlans(table.objectId(), gathered)) {
            columnstoreAtVersion.put(table.objectId(), gathered);
            version.incrementAndGet();
        }
        return gathered;
    }

    /**
     * Whether a columnstore table's new figures move the version: the first figures, the first
     * rows in a table that had none, another set of rowgroups (one compressed, merged, truncated),
     * or live rows more than {@value #SPAN_GROWTH_THRESHOLD} of those at the last move away from
     * them, plus {@value #SPAN_GROWTH_MINIMUM} — the rule of key bounds above. Not every write:
     * each one-row insert into a delta rowgroup changes the figures, and moving the version then
     * made every cached plan of the engine, of any table, stale at every such insert.
     */
    private boolean changesPlans(int objectId, ColumnstoreStatistics now) {
        ColumnstoreStatistics atVersion = columnstoreAtVersion.get(objectId);
        if (atVersion == null || !rowgroupIdentities(atVersion).equals(rowgroupIdentities(now))) {
            return true;
        }
        long before = atVersion.liveRows();
        long rows = now.liveRows();
        return (before == 0) != (rows == 0)
                || Math.abs(rows - before) > SPAN_GROWTH_THRESHOLD * before + SPAN_GROWTH_MINIMUM;
    }

    /** Each rowgroup's id and creation time, in order. */
    private static List<List<Long>> rowgroupIdentities(ColumnstoreStatistics statistics) {
        List<List<Long>> identities = new ArrayList<>(statistics.rowgroups().size());
        for (ColumnstoreStatistics.RowgroupStatistics rowgroup : statistics.rowgroups()) {
            identities.add(List.of((long) rowgroup.rowgroupId(), rowgroup.createdMicros()));
        }
        return identities;
    }

    /**
     * A table whose delta rowgroups hold at most this many rows in all has their figures gathered
     * from the rows themselves. Small dimension tables (TPC-H's nation and region, 25 and 5 rows)
     * never fill a rowgroup, so they stay in a delta rowgroup; without figures, an equality on
     * one of their columns was estimated with Calcite's 0.15 (Q21's one nation as 3.8 of 25,
     * which made the 400 suppliers of that nation look like 5,625, and the join order build
     * 730 thousand orders instead of the lineitems of those suppliers). Reading a few thousand
     * rows costs little next to a statement that wrote the table; larger deltas keep the guesses.
     */
    static final long SMALL_DELTA_ROWS = 4096;

    /**
     * The figures of a delta rowgroup from its rows: per column, rows, NULLs, exact distinct count,
     * and min and max for the types whose footers carry them as the row decodes them (INT, BIGINT,
     * DATE, VARCHAR, CHAR; others unknown, as if the footer had none). Always read again: a delta
     * rowgroup changes with every insert. Out-of-row values count as distinct, without bounds.
     */
    private static ColumnstoreStatistics.RowgroupStatistics readDeltaRows(ColumnstoreTable table, RowgroupEntry entry,
                                                                          PageReader reader, IoCounters counters,
                                                                          long[] stringBytes, long[] strings) {
        int columnCount = table.schema().size();
        long[] nulls = new long[columnCount];
        Object[] min = new Object[columnCount];
        Object[] max = new Object[columnCount];
        List<java.util.Set<Object>> values = new ArrayList<>();
        for (int column = 0; column < columnCount; column++) {
            values.add(new java.util.HashSet<>());
        }
        long[] rows = new long[1];
        table.forEachDeltaRow(reader, entry, counters, (position, page, rowOffset) -> {
            rows[0]++;
            for (int column = 0; column < columnCount; column++) {
                Object value = table.rowCodec().decodeColumn(page, rowOffset, column);
                if (value == null) {
                    nulls[column]++;
                    continue;
                }
                values.get(column).add(value);
                if (value instanceof String text) {
                    stringBytes[column] += utf8Length(text);
                    strings[column]++;
                }
                if (hasFooterBounds(table.schema().column(column).type())) {
                    min[column] = min[column] == null || compare(value, min[column]) < 0 ? value : min[column];
                    max[column] = max[column] == null || compare(value, max[column]) > 0 ? value : max[column];
                }
            }
        });
        List<ColumnstoreStatistics.SegmentStatistics> columns = new ArrayList<>();
        for (int column = 0; column < columnCount; column++) {
            columns.add(new ColumnstoreStatistics.SegmentStatistics(rows[0], nulls[column], min[column], max[column],
                    values.get(column).size()));
        }
        return new ColumnstoreStatistics.RowgroupStatistics(entry.rowgroupId(), entry.createdMicros(), rows[0],
                0, columns);
    }

    /** Whether segment footers give this type's min and max as the row codec decodes its values. */
    private static boolean hasFooterBounds(SqlType type) {
        return type instanceof SqlType.IntegerType || type instanceof SqlType.BigintType
                || type instanceof SqlType.DateType || usesDictionary(type);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(Object left, Object right) {
        return ((Comparable) left).compareTo(right);
    }

    /**
     * Entries of each column's primary dictionary (0 for none): the dictionary files are read whole.
     * Sets {@code valueBytes[column]} to the average bytes of a primary dictionary's entries: the
     * width the cost model gives the column's strings (an average over distinct values, not rows:
     * a few long values repeated often are undercounted, which for the comments, names and
     * addresses that make rows wide, mostly distinct, matters little).
     */
    private static long[] primaryEntries(ColumnstoreTable table, double[] valueBytes) {
        long[] entries = new long[table.schema().size()];
        var primaries = table.primaryDictionaries();
        for (int column = 0; column < entries.length; column++) {
            if (usesDictionary(table.schema().column(column).type())) {
                Dictionary primary = primaries.get(column);
                entries[column] = primary == null ? 0 : primary.entryCount();
                if (entries[column] > 0) {
                    int last = primary.entryCount() - 1;
                    valueBytes[column] = (primary.entryEnd(last) - primary.entryOffset(0)) / (double) primary.entryCount();
                }
            }
        }
        return entries;
    }

    /** The string widths of the previous gather, or -1 (unknown) for every column if none or the columns changed. */
    private double[] previousValueBytes(ColumnstoreTable table) {
        double[] valueBytes = new double[table.schema().size()];
        java.util.Arrays.fill(valueBytes, -1);
        columnstore(table.objectId()).ifPresent(previous -> {
            if (previous.valueBytes().size() == valueBytes.length) {
                for (int column = 0; column < valueBytes.length; column++) {
                    valueBytes[column] = previous.valueBytes().get(column);
                }
            }
        });
        return valueBytes;
    }

    private static long utf8Length(String text) {
        long bytes = 0;
        for (int index = 0; index < text.length(); index++) {
            char character = text.charAt(index);
            if (character < 0x80) {
                bytes += 1;
            } else if (character < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(character)) {
                bytes += 4;
                index++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    private static boolean usesDictionary(SqlType type) {
        return type instanceof SqlType.VarcharType || type instanceof SqlType.CharType;
    }

    private static ColumnstoreStatistics.RowgroupStatistics readFooters(ColumnstoreTable table, RowgroupEntry entry,
                                                                        long[] primaryEntries) {
        List<ColumnstoreStatistics.SegmentStatistics> columns = new ArrayList<>();
        try (RowgroupFile file = RowgroupFile.open(NativeFilesFacade.INSTANCE, table.rowgroupFile(entry.rowgroupId()))) {
            for (int column = 0; column < table.schema().size(); column++) {
                SqlType type = table.schema().column(column).type();
                FooterMetadata.Entry footer = FooterMetadata.decodeEntry(file.metadata(column), type, file.path().toString());
                SegmentMetadata segment = footer.segment();
                long distinct = SegmentDistinct.ofSegment(type, footer, primaryEntries[column]);
                columns.add(new ColumnstoreStatistics.SegmentStatistics(segment.rowCount(), segment.nullCount(),
                        segment.min(), segment.max(), distinct));
            }
        }
        return new ColumnstoreStatistics.RowgroupStatistics(entry.rowgroupId(), entry.createdMicros(), entry.totalRows(),
                entry.deletedRows(), columns);
    }

    private static Object leadingValue(KeyCodec codec, byte[] key) {
        MemorySegment segment = MemorySegment.ofArray(key);
        int length = codec.encodedLength(segment, 0);
        return codec.decode(segment, 0, length)[0];
    }
}
