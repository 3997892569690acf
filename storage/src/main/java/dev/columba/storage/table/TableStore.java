package dev.columba.storage.table;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.alloc.Allocator;
import dev.columba.storage.btree.BTree;
import dev.columba.storage.btree.Cursor;
import dev.columba.storage.btree.EntryCursor;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.btree.ScanRange;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.buffer.WriteSet;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.heap.DataCompression;
import dev.columba.storage.heap.Heap;
import dev.columba.storage.lob.OverflowStore;
import dev.columba.storage.row.CompressedRowCodec;
import dev.columba.storage.row.KeyCodec;
import dev.columba.storage.row.LobRef;
import dev.columba.storage.row.RowCodec;
import dev.columba.storage.row.RowColumns;
import dev.columba.storage.txn.Transaction;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * A rowstore table at run time: its rows encoded with {@link RowCodec} in a clustered
 * {@link BTree} (keyed by the clustered key, memcomparable, plus a uniquifier when the key is not
 * unique) or in a {@link Heap}, values too large for a page moved to overflow pages, and its
 * secondary indexes kept in step. Immutable and thread-safe; reads go through a
 * {@link PageReader}, writes through the writer's {@link Transaction}, which also carries the
 * change to the table's row count into the catalog at commit.
 */
public final class TableStore {
    /** Bytes of the uniquifier appended to a non-unique clustered key. */
    private static final int UNIQUIFIER_BYTES = 4;

    private final CatalogEntry.Table definition;
    private final RowCodec rows;
    private final KeyCodec keys;
    private final BTree tree;
    private final Heap heap;
    private final List<IndexStore> indexes;

    public TableStore(CatalogEntry.Table definition, List<CatalogEntry.Index> indexes) {
        if (definition.organization() == CatalogEntry.Organization.COLUMNSTORE) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "table " + definition.name()
                    + " is a columnstore table, not a rowstore one");
        }
        this.definition = definition;
        this.rows = new RowCodec(definition.schema());
        if (definition.organization() == CatalogEntry.Organization.CLUSTERED) {
            this.keys = new KeyCodec(types(definition.schema(), definition.keyColumns()));
            this.tree = new BTree(definition.objectId(), definition.rootPage(), definition.firstOamPage());
            this.heap = null;
        } else {
            this.keys = null;
            this.tree = null;
            DataCompression compression = Tables.compression(definition.options());
            this.heap = new Heap(definition.objectId(), definition.firstOamPage(), compression,
                    compression == DataCompression.NONE ? null : new CompressedRowCodec(rows));
        }
        List<IndexStore> stores = new ArrayList<>();
        for (CatalogEntry.Index index : indexes) {
            stores.add(new IndexStore(index, definition.schema()));
        }
        this.indexes = List.copyOf(stores);
    }

    static List<SqlType> types(TableSchema schema, List<Integer> columns) {
        List<SqlType> types = new ArrayList<>(columns.size());
        for (int column : columns) {
            types.add(schema.column(column).type());
        }
        return types;
    }

    public CatalogEntry.Table definition() {
        return definition;
    }

    public String name() {
        return definition.name();
    }

    public TableSchema schema() {
        return definition.schema();
    }

    public List<IndexStore> indexes() {
        return indexes;
    }

    /** The clustered B+tree, or null for a heap. */
    public BTree tree() {
        return tree;
    }

    /** The table's data compression (NONE for a clustered table: only heaps are compressed). */
    public DataCompression compression() {
        return heap != null ? heap.compression() : DataCompression.NONE;
    }

    /** The heap, or null for a clustered table. */
    public Heap heap() {
        return heap;
    }

    public RowCodec rowCodec() {
        return rows;
    }

    // ---- writing ------------------------------------------------------------------------------

    /**
     * Inserts a row (values in column order).
     *
     * @throws ColumbaException DUPLICATE_KEY for a duplicate unique key, or the row codec's
     *         validation errors naming the column
     */
    public void insert(Transaction transaction, Object[] row, IoCounters counters) {
        insert(transaction, row, null, counters);
    }

    /**
     * An inserter for the rows of one statement: as {@link #insert}, but a clustered table's rows
     * go through one {@link BTree.Inserter}, so rows arriving in key order skip the descent from
     * the root. Valid for one statement that only inserts into this table.
     */
    public RowInserter inserter() {
        return new RowInserter(tree == null ? null : tree.inserter());
    }

    /** See {@link #inserter()}. */
    public final class RowInserter {
        private final BTree.Inserter clustered;

        private RowInserter(BTree.Inserter clustered) {
            this.clustered = clustered;
        }

        /** Inserts a row, as {@link TableStore#insert}. */
        public void insert(Transaction transaction, Object[] row, IoCounters counters) {
            TableStore.this.insert(transaction, row, clustered, counters);
        }

        public TableStore table() {
            return TableStore.this;
        }
    }

    /**
     * Makes {@code transaction} minimally logged ({@link Transaction#logNewPagesMinimally}) if this
     * table and every index of it are empty in the transaction (a heap: its committed row count is
     * 0): the pages the statement then creates are written once, to the data file. A table with
     * entries keeps the transaction fully logged (docs/design/storage.md, "Minimally logged bulk loads").
     * The caller checks the {@code minimal_logging} setting.
     *
     * @return whether the transaction is now minimally logged
     */
    public boolean logNewPagesMinimallyIfEmpty(Transaction transaction, IoCounters counters) {
        WriteSet writes = transaction.writes();
        // A heap is taken as empty by its committed row count (CREATE TABLE AS loads the heap it created).
        boolean empty = tree == null ? definition.rowCount() == 0 : tree.rootIsEmptyLeaf(writes, counters);
        if (!empty) {
            return false;
        }
        for (IndexStore index : indexes) {
            if (!index.tree().rootIsEmptyLeaf(writes, counters)) {
                return false;
            }
        }
        transaction.logNewPagesMinimally();
        return true;
    }

    /**
     * How much memory a bulk load's sorts may hold before they write runs to temporary files, by
     * default: 64 MB, or an eighth of the JVM's heap if that is less.
     */
    public static long defaultSortMemory() {
        return Math.min(64L << 20, Runtime.getRuntime().maxMemory() / 8);
    }

    /**
     * An inserter for the rows of one load statement (COPY) into an empty table, which builds its
     * B+trees from the bottom up ({@link BTree.Builder}, leaves filled completely) instead of
     * inserting row by row:
     * <ul>
     * <li>A table clustered on a unique key whose tree is empty in the transaction is built while
     * the rows arrive in ascending key order. The first row below the last one turns the load
     * into a sort: what was built is read back into an {@link EntrySorter} (its pages are reused
     * afterwards), and that row and the rest are encoded and sorted too, in runs of at most
     * {@code sortMemoryBytes} written to a temporary file in {@code temporaryDirectory}; {@link
     * BulkInserter#finish} merges the runs into a new build. A key equal to the last one in order
     * is the duplicate-key error at once; two equal keys met in the sort are the same error at
     * {@link BulkInserter#finish}.</li>
     * <li>A secondary index whose tree is empty (so is the table) gets no entry per row: each row's
     * entry is sorted, and the index is built from the sorted entries at {@link
     * BulkInserter#finish}, as CREATE INDEX builds one; a unique index finds duplicates there.</li>
     * </ul>
     * Everything else (a heap's rows, a non-unique clustered key, a table or index with entries)
     * goes through {@link #inserter()}'s path. Partitioned tables are the caller's concern. {@link
     * BulkInserter#finish} must be called before anything else reads or changes the table, and
     * {@link BulkInserter#close} always (it gives back the sorts' memory and file).
     */
    public BulkInserter bulkInserter(Transaction transaction, java.nio.file.Path temporaryDirectory, long sortMemoryBytes,
                                     IoCounters counters) {
        WriteSet writes = transaction.writes();
        BTree.Builder builder = null;
        if (tree != null && definition.uniqueKey() && tree.rootIsEmptyLeaf(writes, counters)) {
            builder = tree.builder(writes, 100, counters);
        }
        List<IndexStore> sorted = new ArrayList<>();
        List<IndexStore> inserted = new ArrayList<>();
        for (IndexStore index : indexes) {
            (index.tree().rootIsEmptyLeaf(writes, counters) ? sorted : inserted).add(index);
        }
        int sorts = (builder != null ? 1 : 0) + sorted.size();
        long memoryPerSort = sorts == 0 ? sortMemoryBytes : sortMemoryBytes / sorts;
        return new BulkInserter(builder, tree == null ? null : tree.inserter(), sorted, inserted, temporaryDirectory,
                memoryPerSort);
    }

    /** See {@link #bulkInserter}. */
    public final class BulkInserter implements AutoCloseable {
        private BTree.Builder builder;
        private final BTree.Inserter clustered;
        private final java.nio.file.Path temporaryDirectory;
        private final long memoryPerSort;
        /** The clustered rows' sort, once the input was out of order; null while it is in order. */
        private EntrySorter rowSort;
        private final List<IndexStore> sortedIndexes;
        private final List<IndexStore> insertedIndexes;
        private final List<EntrySorter> indexSorts = new ArrayList<>();
        /**
         * Rows are measured against the row format's limit before anything is written; not when
         * no row of the schema can exceed it (encoding measures each row again anyway).
         */
        private final boolean measureRows;
        /** The clustered key's columns, in key order. */
        private final int[] keyColumnIndexes;
        /**
         * Rows this load's own paths added, given to the transaction's row count at {@link #finish}
         * (once, not a map update per row); rows it hands to the table's insert count themselves.
         */
        private long rowsAdded;
        /** Where each row is encoded before the sort or the build copies it: one array for the load. */
        private byte[] rowBuffer = new byte[256];

        private BulkInserter(BTree.Builder builder, BTree.Inserter clustered, List<IndexStore> sortedIndexes,
                             List<IndexStore> insertedIndexes, java.nio.file.Path temporaryDirectory, long memoryPerSort) {
            this.builder = builder;
            this.clustered = clustered;
            this.sortedIndexes = sortedIndexes;
            this.insertedIndexes = insertedIndexes;
            this.temporaryDirectory = temporaryDirectory;
            this.memoryPerSort = memoryPerSort;
            this.measureRows = !rows.everyRowFits();
            this.keyColumnIndexes = definition.keyColumns().stream().mapToInt(Integer::intValue).toArray();
            for (int index = 0; index < sortedIndexes.size(); index++) {
                indexSorts.add(new EntrySorter(temporaryDirectory, memoryPerSort));
            }
        }

        /** Whether the clustered tree is being built bottom up (from rows in order, or sorted). */
        public boolean building() {
            return builder != null;
        }

        /** Whether the clustered rows are being sorted (they were not in key order). */
        public boolean sorting() {
            return rowSort != null;
        }

        /** Sort runs written to temporary files so far, by every sort of this load. */
        public int sortRuns() {
            int runs = rowSort == null ? 0 : rowSort.runs();
            for (EntrySorter sort : indexSorts) {
                runs += sort.runs();
            }
            return runs;
        }

        /** How many secondary indexes are built from sorted entries at {@link #finish}. */
        public int sortedIndexes() {
            return sortedIndexes.size();
        }

        /** Inserts a row, as {@link TableStore#insert}. */
        public void insert(Transaction transaction, Object[] row, IoCounters counters) {
            if (builder == null && sortedIndexes.isEmpty()) {
                TableStore.this.insert(transaction, row, clustered, counters);
                return;
            }
            if (row.length != schema().size()) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "table " + name() + " has " + schema().size()
                        + " columns, the row has " + row.length + " values");
            }
            if (measureRows) {
                rows.encodedSize(row);
            }
            WriteSet writes = transaction.writes();
            Allocator allocator = transaction.allocator();
            for (IndexStore index : insertedIndexes) {
                index.checkUnique(writes, row, counters);
            }
            byte[] locator;
            if (builder != null) {
                byte[] key = keys.encode(keyValues(row));
                if (rowSort == null) {
                    byte[] last = builder.lastKey();
                    int order = last == null ? 1 : Arrays.compareUnsigned(key, last);
                    if (order == 0) {
                        throw new ColumbaException(ErrorCode.DUPLICATE_KEY, "duplicate key " + describeKey(row)
                                + " in table " + name());
                    }
                    if (order < 0) {
                        // Out of order: what was built goes back into a sort with the rest.
                        rowSort = new EntrySorter(temporaryDirectory, memoryPerSort);
                        builder.restart(writes, counters, rowSort::add);
                    }
                }
                byte[] encoded = encodeRow(writes, allocator, row, BTree.maxEntryLength() - key.length, counters);
                if (rowSort != null) {
                    rowSort.add(key, encoded);
                } else if (!builder.add(writes, allocator, key, encoded, counters)) {
                    throw new IllegalStateException("key checked above the last one was refused");
                }
                locator = key;
            } else if (tree != null) {
                byte[] key = clusteredKey(writes, row, counters);
                byte[] encoded = encodeRow(writes, allocator, row, BTree.maxEntryLength() - key.length, counters);
                if (!clustered.insert(writes, allocator, key, encoded, counters)) {
                    throw new ColumbaException(ErrorCode.DUPLICATE_KEY, "duplicate key " + describeKey(row)
                            + " in table " + name());
                }
                locator = key;
            } else {
                byte[] encoded = encodeRow(writes, allocator, row, heap.maxRowLength(), counters);
                locator = IndexStore.rowIdLocator(heap.insert(writes, allocator, encoded, counters));
            }
            for (IndexStore index : insertedIndexes) {
                index.insert(writes, allocator, row, locator, counters);
            }
            for (int index = 0; index < sortedIndexes.size(); index++) {
                sortedIndexes.get(index).sortEntry(indexSorts.get(index), row, locator);
            }
            rowsAdded++;
        }

        /**
         * Inserts row {@code row} of {@code columns}, as {@link #insert(Transaction, Object[], IoCounters)}
         * inserts its Java values, with the same checks and errors. While the clustered tree is built
         * or sorted and no secondary index takes entries, the key and the row are encoded straight
         * from the columns' primitive forms ({@link KeyCodec#encode(RowColumns, int[], int)},
         * {@link RowCodec#write(RowColumns, int, byte[], int)} into one array reused for every row);
         * otherwise, and for a row with values to move out of row, the row's Java values take the
         * ordinary path.
         */
        public void insert(Transaction transaction, RowColumns columns, int row, IoCounters counters) {
            if (builder == null || !insertedIndexes.isEmpty() || !sortedIndexes.isEmpty()) {
                insert(transaction, javaValues(columns, row), counters);
                return;
            }
            long size = 0;
            if (measureRows) {
                // The row's checks before the key's, in the order of the Java-value path.
                size = rows.encodedSize(columns, row);
                if (size > BTree.maxEntryLength()) {
                    insert(transaction, javaValues(columns, row), counters);
                    return;
                }
            }
            byte[] key = keys.encode(columns, keyColumnIndexes, row);
            WriteSet writes = transaction.writes();
            if (rowSort == null) {
                byte[] last = builder.lastKey();
                int order = last == null ? 1 : Arrays.compareUnsigned(key, last);
                if (order == 0) {
                    throw new ColumbaException(ErrorCode.DUPLICATE_KEY, "duplicate key "
                            + describeKey(javaValues(columns, row)) + " in table " + name());
                }
                if (order < 0) {
                    // Out of order: what was built goes back into a sort with the rest.
                    rowSort = new EntrySorter(temporaryDirectory, memoryPerSort);
                    builder.restart(writes, counters, rowSort::add);
                }
            }
            if (!measureRows) {
                size = rows.encodedSize(columns, row);
            }
            if (size > BTree.maxEntryLength() - key.length) {
                insert(transaction, javaValues(columns, row), counters);
                return;
            }
            if (rowBuffer.length < size) {
                rowBuffer = new byte[(int) Math.max(size, 2L * rowBuffer.length)];
            }
            rows.write(columns, row, rowBuffer, (int) size);
            if (rowSort != null) {
                rowSort.add(key, rowBuffer, (int) size);
            } else if (!builder.add(writes, transaction.allocator(), key, rowBuffer, (int) size, counters)) {
                throw new IllegalStateException("key checked above the last one was refused");
            }
            rowsAdded++;
        }

        private Object[] javaValues(RowColumns columns, int row) {
            Object[] values = new Object[schema().size()];
            for (int column = 0; column < values.length; column++) {
                values[column] = columns.value(column, row);
            }
            return values;
        }

        /**
         * Completes the load: the clustered rows sorted so far are merged into the build, the
         * build is finished, and each sorted index is built. Rows inserted after go through the
         * ordinary paths.
         *
         * @throws ColumbaException DUPLICATE_KEY when the sort met two rows with the same key, or a
         *         unique index two with the same non-NULL key
         */
        public void finish(Transaction transaction, IoCounters counters) {
            transaction.adjustRowCount(definition.objectId(), rowsAdded);
            rowsAdded = 0;
            WriteSet writes = transaction.writes();
            Allocator allocator = transaction.allocator();
            try {
                if (rowSort != null) {
                    EntrySorter.Entries sorted = rowSort.sorted();
                    while (sorted.next()) {
                        if (!builder.add(writes, allocator, sorted.key(), sorted.value(), counters)) {
                            throw new ColumbaException(ErrorCode.DUPLICATE_KEY, "duplicate key "
                                    + Arrays.toString(keys.decode(sorted.key())) + " in table " + name());
                        }
                    }
                    rowSort.close();
                    rowSort = null;
                }
                if (builder != null) {
                    BTree.Builder done = builder;
                    builder = null;
                    done.finish(writes, allocator, counters);
                }
                for (int index = 0; index < sortedIndexes.size(); index++) {
                    sortedIndexes.get(index).build(writes, allocator, indexSorts.get(index).sorted(), counters);
                    indexSorts.get(index).close();
                }
                insertedIndexes.addAll(sortedIndexes);
                sortedIndexes.clear();
                indexSorts.clear();
            } finally {
                close();
            }
        }

        /** Gives back the sorts' memory and temporary file; the load is then unusable unless finished. */
        @Override
        public void close() {
            if (builder != null) {
                builder.close();
            }
            if (rowSort != null) {
                rowSort.close();
            }
            for (EntrySorter sort : indexSorts) {
                sort.close();
            }
        }
    }

    private void insert(Transaction transaction, Object[] row, BTree.Inserter clustered, IoCounters counters) {
        WriteSet writes = transaction.writes();
        Allocator allocator = transaction.allocator();
        if (row.length != schema().size()) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "table " + name() + " has " + schema().size()
                    + " columns, the row has " + row.length + " values");
        }
        rows.encodedSize(row);
        byte[] locator;
        if (tree != null) {
            byte[] key = clusteredKey(writes, row, counters);
            byte[] encoded = encodeRow(writes, allocator, row, BTree.maxEntryLength() - key.length, counters);
            for (IndexStore index : indexes) {
                index.checkUnique(writes, row, counters);
            }
            boolean inserted = clustered != null ? clustered.insert(writes, allocator, key, encoded, counters)
                    : tree.insert(writes, allocator, key, encoded, counters);
            if (!inserted) {
                throw new ColumbaException(ErrorCode.DUPLICATE_KEY, "duplicate key " + describeKey(row)
                        + " in table " + name());
            }
            locator = key;
        } else {
            for (IndexStore index : indexes) {
                index.checkUnique(writes, row, counters);
            }
            byte[] encoded = encodeRow(writes, allocator, row, heap.maxRowLength(), counters);
            locator = IndexStore.rowIdLocator(heap.insert(writes, allocator, encoded, counters));
        }
        for (IndexStore index : indexes) {
            index.insert(writes, allocator, row, locator, counters);
        }
        transaction.adjustRowCount(definition.objectId(), 1);
    }

    /**
     * Deletes the row whose clustered key is {@code keyValues} (a unique clustered key).
     *
     * @return false if there was none
     */
    public boolean delete(Transaction transaction, Object[] keyValues, IoCounters counters) {
        requireUniqueClustered("delete by key");
        return deleteAt(transaction, keys.encode(keyValues), counters);
    }

    /**
     * Deletes the row at {@code locator} (from {@link TableCursor#locator()}): any clustered
     * table, unique key or not, or a heap.
     *
     * @return false if there was none
     */
    public boolean deleteAt(Transaction transaction, byte[] locator, IoCounters counters) {
        if (heap != null) {
            return deleteRow(transaction, IndexStore.rowIdOf(locator), counters);
        }
        WriteSet writes = transaction.writes();
        Allocator allocator = transaction.allocator();
        byte[] key = locator;
        byte[] encoded = tree.get(writes, key, counters);
        if (encoded == null) {
            return false;
        }
        Object[] row = rows.decode(MemorySegment.ofArray(encoded), 0);
        for (IndexStore index : indexes) {
            index.delete(writes, allocator, resolve(writes, row.clone(), counters), key, counters);
        }
        freeLobs(writes, allocator, row, counters);
        tree.delete(writes, allocator, key, counters);
        transaction.adjustRowCount(definition.objectId(), -1);
        return true;
    }

    /** Deletes a heap row by row id; false if there was none. */
    public boolean deleteRow(Transaction transaction, long rowId, IoCounters counters) {
        WriteSet writes = transaction.writes();
        Allocator allocator = transaction.allocator();
        if (heap == null) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "table " + name() + " is not a heap");
        }
        byte[] encoded = heap.fetch(writes, rowId, counters);
        if (encoded == null) {
            return false;
        }
        Object[] row = rows.decode(MemorySegment.ofArray(encoded), 0);
        for (IndexStore index : indexes) {
            index.delete(writes, allocator, resolve(writes, row.clone(), counters), IndexStore.rowIdLocator(rowId), counters);
        }
        freeLobs(writes, allocator, row, counters);
        boolean deleted = heap.delete(writes, rowId, counters);
        if (deleted) {
            transaction.adjustRowCount(definition.objectId(), -1);
        }
        return deleted;
    }

    /** Replaces the row with the same unique clustered key; false if there was none. */
    public boolean update(Transaction transaction, Object[] row, IoCounters counters) {
        requireUniqueClustered("update by key");
        Object[] keyValues = keyValues(row);
        if (!delete(transaction, keyValues, counters)) {
            return false;
        }
        insert(transaction, row, counters);
        return true;
    }

    private void requireUniqueClustered(String operation) {
        if (tree == null || !definition.uniqueKey()) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, operation + " needs a unique clustered key; table "
                    + name() + " has none");
        }
    }

    /** The clustered B+tree key: the key columns, plus a uniquifier one above the key's last duplicate. */
    private byte[] clusteredKey(WriteSet writes, Object[] row, IoCounters counters) {
        Object[] keyValues = keyValues(row);
        byte[] key = keys.encode(keyValues);
        if (definition.uniqueKey()) {
            return key;
        }
        int uniquifier = 0;
        ScanRange duplicates = new ScanRange(key, true, keys.prefixUpperBound(keyValues), false);
        try (Cursor cursor = tree.scan(writes, duplicates, ReadAheadOptions.OFF, new IoCounters())) {
            while (cursor.next()) {
                MemorySegment page = cursor.page();
                int end = cursor.keyOffset() + cursor.keyLength();
                int last = 0;
                for (int index = UNIQUIFIER_BYTES; index > 0; index--) {
                    last = (last << 8) | Byte.toUnsignedInt(page.get(java.lang.foreign.ValueLayout.JAVA_BYTE, end - index));
                }
                uniquifier = last + 1;
            }
        }
        byte[] withUniquifier = Arrays.copyOf(key, key.length + UNIQUIFIER_BYTES);
        for (int index = 0; index < UNIQUIFIER_BYTES; index++) {
            withUniquifier[key.length + index] = (byte) (uniquifier >>> (8 * (UNIQUIFIER_BYTES - 1 - index)));
        }
        return withUniquifier;
    }

    Object[] keyValues(Object[] row) {
        List<Integer> keyColumns = definition.keyColumns();
        Object[] values = new Object[keyColumns.size()];
        for (int index = 0; index < values.length; index++) {
            values[index] = row[keyColumns.get(index)];
        }
        return values;
    }

    private String describeKey(Object[] row) {
        return Arrays.toString(keyValues(row));
    }

    /** Encodes the row, first moving its largest values to overflow pages until it fits {@code limit}. */
    private byte[] encodeRow(WriteSet writes, Allocator allocator, Object[] row, int limit, IoCounters counters) {
        int[] outOfRow = rows.columnsToMoveOutOfRow(row, limit);
        if (outOfRow.length == 0) {
            return rows.encode(row);
        }
        Object[] stored = row.clone();
        for (int column : outOfRow) {
            byte[] bytes = rows.lobBytes(column, stored[column]);
            long firstPage = OverflowStore.write(writes, allocator, definition.objectId(), definition.firstOamPage(), bytes,
                    counters);
            stored[column] = new LobRef(firstPage, bytes.length);
        }
        return rows.encode(stored);
    }

    private void freeLobs(WriteSet writes, Allocator allocator, Object[] row, IoCounters counters) {
        for (Object value : row) {
            if (value instanceof LobRef lob) {
                OverflowStore.free(writes, allocator, definition.firstOamPage(), lob.firstPageId(), counters);
            }
        }
    }

    /** Replaces every {@link LobRef} in {@code row} by its value, read from the overflow pages. */
    Object[] resolve(PageReader reader, Object[] row, IoCounters counters) {
        for (int column = 0; column < row.length; column++) {
            if (row[column] instanceof LobRef lob) {
                row[column] = rows.valueFromLobBytes(column, OverflowStore.read(reader, lob.firstPageId(), lob.byteLength(),
                        counters));
            }
        }
        return row;
    }

    // ---- reading ------------------------------------------------------------------------------

    /** The row with the unique clustered key {@code keyValues}, or null. */
    public Object[] get(PageReader reader, Object[] keyValues, IoCounters counters) {
        requireUniqueClustered("get by key");
        byte[] encoded = tree.get(reader, keys.encode(keyValues), counters);
        return encoded == null ? null : resolve(reader, rows.decode(MemorySegment.ofArray(encoded), 0), counters);
    }

    /** The row a secondary index's locator points at, or null if it is gone. */
    public Object[] fetch(PageReader reader, byte[] locator, IoCounters counters) {
        byte[] encoded = tree != null ? tree.get(reader, locator, counters)
                : heap.fetch(reader, IndexStore.rowIdOf(locator), counters);
        return encoded == null ? null : resolve(reader, rows.decode(MemorySegment.ofArray(encoded), 0), counters);
    }

    /** Opens a scan; see {@link TableScan}. */
    public TableCursor scan(PageReader reader, TableScan scan, IoCounters counters) {
        int[] projection = scan.projection() != null ? scan.projection() : allColumns();
        if (heap != null) {
            if (scan.order() != TableScan.Order.ALLOCATION && (scan.low() != null || scan.high() != null)) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "heap " + name() + " has no key to scan a range of");
            }
            Heap.HeapCursor cursor = heap.scan(reader, scan.firstPage(), scan.endPage(), scan.readAhead(), counters);
            return new DecodingCursor(reader, counters, projection) {
                @Override
                boolean advance() {
                    return cursor.next();
                }

                @Override
                MemorySegment page() {
                    return cursor.rowSegment();
                }

                @Override
                int rowOffset() {
                    return cursor.rowSegmentOffset();
                }

                @Override
                int skip(int count) {
                    return cursor.skip(count);
                }

                @Override
                public byte[] locator() {
                    return IndexStore.rowIdLocator(cursor.rowId());
                }

                @Override
                public void close() {
                    cursor.close();
                }
            };
        }
        EntryCursor entries;
        if (scan.order() == TableScan.Order.ALLOCATION) {
            entries = tree.scanAllocationOrder(reader, scan.firstPage(), scan.endPage(), scan.readAhead(), counters);
        } else {
            byte[] low = scan.low() == null ? null : keys.prefixLowerBound(scan.low());
            byte[] high = scan.high() == null ? null : scan.highInclusive()
                    ? keys.prefixUpperBound(scan.high()) : keys.prefixLowerBound(scan.high());
            // Bounds are key prefixes: "> low" starts above every key with that prefix.
            byte[] start = low == null || scan.lowInclusive() ? low : keys.prefixUpperBound(scan.low());
            entries = tree.scan(reader, new ScanRange(start, true, high, false), scan.readAhead(), counters);
        }
        return new DecodingCursor(reader, counters, projection) {
            @Override
            boolean advance() {
                return entries.next();
            }

            @Override
            MemorySegment page() {
                return entries.page();
            }

            @Override
            int rowOffset() {
                return entries.valueOffset();
            }

            @Override
            public byte[] locator() {
                return entries.key();
            }

            @Override
            public void close() {
                entries.close();
            }
        };
    }

    private int[] allColumns() {
        int[] columns = new int[schema().size()];
        for (int column = 0; column < columns.length; column++) {
            columns[column] = column;
        }
        return columns;
    }

    /**
     * Decodes the projected columns of each row, resolving overflow values: into one reused array
     * when asked for a row, or straight into vectors a batch at a time.
     */
    private abstract class DecodingCursor implements TableCursor {
        private final PageReader reader;
        private final IoCounters counters;
        private final int[] projection;
        private final Object[] row;
        private final RowCodec.LobReader lobs;
        private boolean decoded;

        DecodingCursor(PageReader reader, IoCounters counters, int[] projection) {
            this.reader = reader;
            this.counters = counters;
            this.projection = projection;
            this.row = new Object[projection.length];
            this.lobs = lob -> OverflowStore.read(reader, lob.firstPageId(), lob.byteLength(), counters);
        }

        abstract boolean advance();

        abstract MemorySegment page();

        abstract int rowOffset();

        /** Moves over up to {@code count} rows without decoding them; returns how many there were. */
        int skip(int count) {
            int skipped = 0;
            while (skipped < count && advance()) {
                skipped++;
            }
            return skipped;
        }

        @Override
        public boolean next() {
            decoded = false;
            return advance();
        }

        @Override
        public Object[] row() {
            if (!decoded) {
                rows.decode(page(), rowOffset(), projection, row);
                for (int index = 0; index < row.length; index++) {
                    if (row[index] instanceof LobRef lob) {
                        row[index] = rows.valueFromLobBytes(projection[index], lobs.read(lob));
                    }
                }
                decoded = true;
            }
            return row;
        }

        @Override
        public int fill(FieldVector[] vectors, int capacity) {
            return fill(vectors, 0, capacity);
        }

        @Override
        public int fill(FieldVector[] vectors, int from, int capacity) {
            if (projection.length == 0) {
                // COUNT(*): the rows are counted, none decoded.
                decoded = false;
                return from + skip(capacity - from);
            }
            int count = from;
            while (count < capacity && advance()) {
                rows.decodeInto(page(), rowOffset(), projection, vectors, count, lobs);
                count++;
            }
            decoded = false;
            return count;
        }
    }
}
