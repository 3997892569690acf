package dev.columba.storage.table;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.btree.BTree;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.catalog.Catalog;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.db.Database;
import dev.columba.storage.db.DatabaseLayout;
import dev.columba.storage.file.FileManifest;
import dev.columba.storage.heap.DataCompression;
import dev.columba.storage.heap.Heap;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.txn.ObjectLocks;
import dev.columba.storage.txn.Transaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Data definition and lookup of rowstore tables and indexes in a database's catalog. DDL runs in
 * the caller's write transaction, so it commits or rolls back with the rest of it.
 */
public final class Tables {
    /**
     * The table option naming the filegroup a table's pages are placed on ({@code ON fg});
     * absent means PRIMARY (docs/format/catalog.md).
     */
    public static final String FILEGROUP_OPTION = "filegroup";
    /** Table option: NONE, ROW or PAGE ({@link DataCompression}); absent is NONE. */
    public static final String COMPRESSION_OPTION = "data_compression";

    /** A table's data compression, from its options. */
    public static DataCompression compression(Map<String, String> options) {
        return DataCompression.parse(options.get(COMPRESSION_OPTION));
    }

    private final Database database;

    public Tables(Database database) {
        this.database = database;
    }

    /**
     * Creates a table. With key columns it is clustered on them (unique or not); without, a heap.
     *
     * @throws ColumbaException OBJECT_ALREADY_EXISTS if the name is taken
     */
    public TableStore createTable(Transaction transaction, String name, TableSchema schema, List<Integer> keyColumns,
                                  boolean uniqueKey, Map<String, String> options) {
        IoCounters counters = transaction.systemCounters();
        Catalog catalog = database.catalog();
        if (catalog.byName(transaction.writes(), name, counters).isPresent()) {
            throw new ColumbaException(ErrorCode.OBJECT_ALREADY_EXISTS, "table or index " + name + " already exists");
        }
        int filegroupId = filegroupId(options);
        if (compression(options) != DataCompression.NONE && !keyColumns.isEmpty()) {
            throw new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "DATA_COMPRESSION = "
                    + compression(options) + " is built for heaps only; table " + name + " has a clustered key");
        }
        int objectId = catalog.allocateObjectId(transaction.writes(), counters);
        CatalogEntry.Table entry;
        if (keyColumns.isEmpty()) {
            Heap heap = Heap.create(transaction.writes(), database.allocator(), objectId, filegroupId, counters);
            entry = new CatalogEntry.Table(objectId, name, schema, CatalogEntry.Organization.HEAP, List.of(), false,
                    PageFormat.NO_PAGE, heap.firstOamPage(), options, 0);
        } else {
            BTree tree = BTree.create(transaction.writes(), database.allocator(), objectId, filegroupId, counters);
            entry = new CatalogEntry.Table(objectId, name, schema, CatalogEntry.Organization.CLUSTERED, keyColumns,
                    uniqueKey, tree.rootPage(), tree.firstOamPage(), options, 0);
        }
        catalog.put(transaction.writes(), database.allocator(), entry, counters);
        return new TableStore(entry, List.of());
    }

    /**
     * The filegroup a table's pages come from: its {@link #FILEGROUP_OPTION} option, PRIMARY without one.
     *
     * @throws ColumbaException OBJECT_NOT_FOUND for a filegroup the database does not have
     */
    private int filegroupId(Map<String, String> options) {
        String name = options.get(FILEGROUP_OPTION);
        if (name == null) {
            return FileManifest.PRIMARY_FILEGROUP;
        }
        return database.files().filegroup(name).orElseThrow(() ->
                new ColumbaException(ErrorCode.OBJECT_NOT_FOUND, "filegroup " + name + " does not exist")).id();
    }

    /**
     * Creates a secondary index on {@code table} and fills it from the table's rows.
     *
     * @throws ColumbaException OBJECT_ALREADY_EXISTS, or DUPLICATE_KEY if a unique index meets duplicates
     */
    public TableStore createIndex(Transaction transaction, String tableName, String indexName, List<Integer> keyColumns,
                                  boolean unique) {
        return createIndex(transaction, tableName, indexName, keyColumns, CatalogEntry.Index.ascending(keyColumns.size()),
                unique);
    }

    /** As above, key column {@code k} kept in descending order when {@code descending.get(k)}. */
    public TableStore createIndex(Transaction transaction, String tableName, String indexName, List<Integer> keyColumns,
                                  List<Boolean> descending, boolean unique) {
        IoCounters counters = transaction.systemCounters();
        Catalog catalog = database.catalog();
        TableStore table = table(transaction.writes(), tableName, counters);
        if (catalog.byName(transaction.writes(), indexName, counters).isPresent()) {
            throw new ColumbaException(ErrorCode.OBJECT_ALREADY_EXISTS, "table or index " + indexName + " already exists");
        }
        int objectId = catalog.allocateObjectId(transaction.writes(), counters);
        BTree tree = BTree.create(transaction.writes(), database.allocator(), objectId, counters);
        CatalogEntry.Index entry = new CatalogEntry.Index(objectId, indexName, table.definition().objectId(), keyColumns,
                descending, unique, tree.rootPage(), tree.firstOamPage());
        catalog.put(transaction.writes(), database.allocator(), entry, counters);
        List<CatalogEntry.Index> indexes = new ArrayList<>();
        for (IndexStore index : table.indexes()) {
            indexes.add(index.definition());
        }
        IndexStore index = new IndexStore(entry, table.schema());
        // The entries are sorted as a load's are (EntrySorter, spilling runs to the database's
        // temporary directory), so a table larger than memory can be indexed, then built bottom up.
        try (EntrySorter sorter = new EntrySorter(database.directory().resolve(DatabaseLayout.TEMP_DIRECTORY),
                TableStore.defaultSortMemory())) {
            if (table.heap() != null) {
                try (Heap.HeapCursor cursor = table.heap().scan(transaction.writes(), ReadAheadOptions.OFF, counters)) {
                    while (cursor.next()) {
                        Object[] row = table.resolve(transaction.writes(),
                                table.rowCodec().decode(cursor.rowSegment(), cursor.rowSegmentOffset()), counters);
                        index.sortEntry(sorter, row, IndexStore.rowIdLocator(cursor.rowId()));
                    }
                }
            } else {
                try (var cursor = table.tree().scan(transaction.writes(), dev.columba.storage.btree.ScanRange.ALL,
                        ReadAheadOptions.OFF, counters)) {
                    while (cursor.next()) {
                        Object[] row = table.resolve(transaction.writes(),
                                table.rowCodec().decode(cursor.page(), cursor.valueOffset()), counters);
                        index.sortEntry(sorter, row, cursor.key());
                    }
                }
            }
            index.build(transaction.writes(), database.allocator(), sorter.sorted(), counters);
        }
        indexes.add(entry);
        return new TableStore(table.definition(), indexes);
    }

    /**
     * Drops a secondary index and its pages.
     *
     * @throws ColumbaException OBJECT_NOT_FOUND if there is no index of that name
     */
    public void dropIndex(Transaction transaction, String indexName) {
        IoCounters counters = transaction.systemCounters();
        CatalogEntry entry = database.catalog().byName(transaction.writes(), indexName, counters)
                .filter(found -> found instanceof CatalogEntry.Index)
                .orElseThrow(() -> new ColumbaException(ErrorCode.OBJECT_NOT_FOUND, "index " + indexName + " does not exist"));
        database.allocator().dropObject(transaction.writes(), entry.firstOamPage(), counters);
        database.catalog().remove(transaction.writes(), database.allocator(), entry.objectId(), counters);
    }

    /** Renames a table or index in the catalog. */
    public void rename(Transaction transaction, CatalogEntry entry, String newName) {
        CatalogEntry renamed = switch (entry) {
            case CatalogEntry.Table table -> new CatalogEntry.Table(table.objectId(), newName, table.schema(),
                    table.organization(), table.keyColumns(), table.uniqueKey(), table.rootPage(), table.firstOamPage(),
                    table.options(), table.rowCount());
            case CatalogEntry.Index index -> new CatalogEntry.Index(index.objectId(), newName, index.tableId(),
                    index.keyColumns(), index.descending(), index.unique(), index.rootPage(), index.firstOamPage());
            case CatalogEntry.View view -> new CatalogEntry.View(view.objectId(), newName, view.definition(), view.schema());
            case CatalogEntry.PartitionObject object -> new CatalogEntry.PartitionObject(object.objectId(), newName,
                    object.kind(), object.definition());
            case CatalogEntry.Login login -> new CatalogEntry.Login(login.objectId(), newName, login.verifier(), login.sysadmin());
        };
        database.catalog().put(transaction.writes(), database.allocator(), renamed, transaction.systemCounters());
    }

    /** Replaces a table's options in the catalog. */
    public void setOptions(Transaction transaction, CatalogEntry.Table table, Map<String, String> options) {
        database.catalog().put(transaction.writes(), database.allocator(), new CatalogEntry.Table(table.objectId(),
                table.name(), table.schema(), table.organization(), table.keyColumns(), table.uniqueKey(), table.rootPage(),
                table.firstOamPage(), options, table.rowCount()), transaction.systemCounters());
    }

    /** Drops a table, its indexes and all their pages. */
    public void dropTable(Transaction transaction, String name) {
        IoCounters counters = transaction.systemCounters();
        TableStore table = table(transaction.writes(), name, counters);
        for (IndexStore index : table.indexes()) {
            database.allocator().dropObject(transaction.writes(), index.definition().firstOamPage(), counters);
            database.catalog().remove(transaction.writes(), database.allocator(), index.definition().objectId(), counters);
        }
        database.allocator().dropObject(transaction.writes(), table.definition().firstOamPage(), counters);
        database.catalog().remove(transaction.writes(), database.allocator(), table.definition().objectId(), counters);
    }

    /**
     * The rowstore table named {@code name} as {@code reader} sees the catalog.
     *
     * @throws ColumbaException OBJECT_NOT_FOUND (also for a columnstore table of that name)
     */
    public TableStore table(PageReader reader, String name, IoCounters counters) {
        return find(reader, name, counters).orElseThrow(() ->
                new ColumbaException(ErrorCode.OBJECT_NOT_FOUND, "table " + name + " does not exist"));
    }

    public Optional<TableStore> find(PageReader reader, String name, IoCounters counters) {
        Catalog catalog = database.catalog();
        try (ObjectLocks.Lease ignored = reader instanceof dev.columba.storage.buffer.BufferPool
                ? database.locks().shared(Catalog.CATALOG_OBJECT_ID) : null) {
            Optional<CatalogEntry> entry = catalog.byName(reader, name, counters);
            if (entry.isEmpty() || !(entry.get() instanceof CatalogEntry.Table table)
                    || table.organization() == CatalogEntry.Organization.COLUMNSTORE) {
                return Optional.empty();
            }
            return Optional.of(new TableStore(table, catalog.indexesOf(reader, table.objectId(), counters)));
        }
    }

    /** Every table, by object id. */
    public List<CatalogEntry.Table> list(PageReader reader, IoCounters counters) {
        List<CatalogEntry.Table> tables = new ArrayList<>();
        for (CatalogEntry entry : database.catalog().entries(reader, counters)) {
            if (entry instanceof CatalogEntry.Table table) {
                tables.add(table);
            }
        }
        return tables;
    }
}
