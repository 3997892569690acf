package dev.columba.planner.schema;

import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.btree.BTree;
import dev.columba.storage.btree.Cursor;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.btree.ScanRange;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.row.KeyCodec;
import dev.columba.storage.table.TableStore;
import java.lang.foreign.MemorySegment;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Key statistics of rowstore tables (the bounds of the leading clustered-key column), by table
 * object id, kept for the life of an open database. One instance per database, shared by every
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
 */
public final class StatisticsStore {
    private final ConcurrentMap<Integer, KeyBounds> bounds = new ConcurrentHashMap<>();

    /** The bounds of table {@code objectId}'s leading key column, if known. */
    public Optional<KeyBounds> bounds(int objectId) {
        return Optional.ofNullable(bounds.get(objectId));
    }

    /** Records bounds (replacing what was known). */
    public void record(int objectId, KeyBounds keyBounds) {
        bounds.put(objectId, keyBounds);
    }

    /** Forgets a table's statistics (dropped, or rewritten without them). */
    public void forget(int objectId) {
        bounds.remove(objectId);
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
        bounds.compute(objectId, (id, known) -> {
            if (known == null) {
                return tableWasEmpty ? new KeyBounds(low, high) : null;
            }
            return known.including(low).including(high);
        });
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

    private static Object leadingValue(KeyCodec codec, byte[] key) {
        MemorySegment segment = MemorySegment.ofArray(key);
        int length = codec.encodedLength(segment, 0);
        return codec.decode(segment, 0, length)[0];
    }
}
