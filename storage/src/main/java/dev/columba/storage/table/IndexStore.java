package dev.columba.storage.table;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.alloc.Allocator;
import dev.columba.storage.btree.BTree;
import dev.columba.storage.btree.Cursor;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.btree.ScanRange;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.buffer.WriteSet;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.row.KeyCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A secondary (nonclustered) index: a B+tree whose keys are the index key columns followed by the
 * row's locator — its clustered key, or the eight-byte row id of a heap row — and whose values are
 * empty. Every entry is therefore unique, and all entries for one index key are adjacent. A unique
 * index refuses a second row with the same non-NULL key (NULLs never collide, as in the SQL
 * standard).
 */
public final class IndexStore {
    private final CatalogEntry.Index definition;
    private final KeyCodec keys;
    private final BTree tree;

    IndexStore(CatalogEntry.Index definition, TableSchema schema) {
        this.definition = definition;
        this.keys = new KeyCodec(TableStore.types(schema, definition.keyColumns()), definition.descending());
        this.tree = new BTree(definition.objectId(), definition.rootPage(), definition.firstOamPage());
    }

    public CatalogEntry.Index definition() {
        return definition;
    }

    public BTree tree() {
        return tree;
    }

    static byte[] rowIdLocator(long rowId) {
        byte[] locator = new byte[8];
        for (int index = 0; index < 8; index++) {
            locator[index] = (byte) (rowId >>> (56 - 8 * index));
        }
        return locator;
    }

    static long rowIdOf(byte[] locator) {
        long rowId = 0;
        for (byte b : locator) {
            rowId = (rowId << 8) | (b & 0xFF);
        }
        return rowId;
    }

    Object[] indexValues(Object[] row) {
        List<Integer> columns = definition.keyColumns();
        Object[] values = new Object[columns.size()];
        for (int index = 0; index < values.length; index++) {
            values[index] = row[columns.get(index)];
        }
        return values;
    }

    byte[] entryKey(Object[] row, byte[] locator) {
        byte[] key = keys.encode(indexValues(row));
        byte[] entry = Arrays.copyOf(key, key.length + locator.length);
        System.arraycopy(locator, 0, entry, key.length, locator.length);
        return entry;
    }

    void checkUnique(PageReader reader, Object[] row, IoCounters counters) {
        if (!definition.unique()) {
            return;
        }
        Object[] values = indexValues(row);
        for (Object value : values) {
            if (value == null) {
                return;
            }
        }
        ScanRange sameKey = new ScanRange(keys.prefixLowerBound(values), true, keys.prefixUpperBound(values), false);
        try (Cursor cursor = tree.scan(reader, sameKey, ReadAheadOptions.OFF, counters)) {
            if (cursor.next()) {
                throw new ColumbaException(ErrorCode.DUPLICATE_KEY, "duplicate key " + Arrays.toString(values)
                        + " in unique index " + definition.name());
            }
        }
    }

    void insert(WriteSet writes, Allocator allocator, Object[] row, byte[] locator, IoCounters counters) {
        tree.insert(writes, allocator, entryKey(row, locator), new byte[0], counters);
    }

    /**
     * What a bulk load's sort keeps beside an entry ({@link #entryKey}) for {@link #build}: one byte, 1 if the index key has a NULL (which
     * never collides), else 0.
     */
    private static byte[] sortMark(Object[] values) {
        return new byte[] {(byte) (hasNull(values) ? 1 : 0)};
    }

    /** Adds {@code row}'s entry ({@link #entryKey}, with its {@link #sortMark}) to a sort that will {@link #build} this index. */
    void sortEntry(EntrySorter sorter, Object[] row, byte[] locator) {
        sorter.add(entryKey(row, locator), sortMark(indexValues(row)));
    }

    /**
     * Fills this index, which must be empty, from entries ({@link #entryKey}, with {@link
     * #sortMark}) in ascending order, as an {@link EntrySorter} gives them (a bulk load's, or
     * CREATE INDEX's over the table's rows): the B+tree is built bottom up.
     *
     * @throws ColumbaException DUPLICATE_KEY if the index is unique and two entries have the same
     *         non-NULL key
     */
    void build(WriteSet writes, Allocator allocator, EntrySorter.Entries entries, IoCounters counters) {
        try (BTree.Builder builder = tree.builder(writes, 100, counters)) {
            build(builder, writes, allocator, entries, counters);
        }
    }

    private void build(BTree.Builder builder, WriteSet writes, Allocator allocator, EntrySorter.Entries entries,
                       IoCounters counters) {
        byte[] empty = new byte[0];
        byte[] previous = null;
        int previousKeyLength = 0;
        while (entries.next()) {
            byte[] entry = entries.key();
            int keyLength = keys.encodedLength(java.lang.foreign.MemorySegment.ofArray(entry), 0);
            if (definition.unique() && previous != null && entries.value()[0] == 0 && keyLength == previousKeyLength
                    && Arrays.equals(entry, 0, keyLength, previous, 0, previousKeyLength)) {
                throw new ColumbaException(ErrorCode.DUPLICATE_KEY, "duplicate key "
                        + Arrays.toString(keys.decode(java.lang.foreign.MemorySegment.ofArray(entry), 0, keyLength))
                        + " in unique index " + definition.name());
            }
            if (!builder.add(writes, allocator, entry, empty, counters)) {
                throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "index " + definition.name()
                        + " met two rows with the same locator");
            }
            previous = entry;
            previousKeyLength = keyLength;
        }
        builder.finish(writes, allocator, counters);
    }

    private static boolean hasNull(Object[] values) {
        for (Object value : values) {
            if (value == null) {
                return true;
            }
        }
        return false;
    }

    void delete(WriteSet writes, Allocator allocator, Object[] row, byte[] locator, IoCounters counters) {
        if (!tree.delete(writes, allocator, entryKey(row, locator), counters)) {
            throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "index " + definition.name() + " has no entry for a row"
                    + " of its table with key " + Arrays.toString(indexValues(row)));
        }
    }

    /** The locators of the rows whose index key starts with {@code values}, in index order. */
    public List<byte[]> lookup(PageReader reader, Object[] values, IoCounters counters) {
        ScanRange range = new ScanRange(keys.prefixLowerBound(values), true, keys.prefixUpperBound(values), false);
        List<byte[]> locators = new ArrayList<>();
        try (Cursor cursor = tree.scan(reader, range, ReadAheadOptions.OFF, counters)) {
            while (cursor.next()) {
                byte[] entry = cursor.key();
                int keyLength = keys.encodedLength(java.lang.foreign.MemorySegment.ofArray(entry), 0);
                locators.add(Arrays.copyOfRange(entry, keyLength, entry.length));
            }
        }
        return locators;
    }
}
