package dev.columba.storage.catalog;

import static dev.columba.storage.file.DataFileFormat.BOOT_CATALOG_ALLOCATION_OFFSET;
import static dev.columba.storage.file.DataFileFormat.BOOT_CATALOG_ROOT_OFFSET;
import static dev.columba.storage.file.DataFileFormat.BOOT_NEXT_OBJECT_ID_OFFSET;
import static dev.columba.storage.file.DataFileFormat.BOOT_PAGE;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.alloc.Allocator;
import dev.columba.storage.btree.BTree;
import dev.columba.storage.btree.Cursor;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.btree.ScanRange;
import dev.columba.storage.buffer.Access;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.buffer.PageRef;
import dev.columba.storage.buffer.WriteSet;
import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageType;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The system table of tables and indexes: a B+tree (object {@value #CATALOG_OBJECT_ID}) keyed by
 * object id whose values are serialized {@link CatalogEntry}s. The boot page (page 2) says where it
 * is and holds the next object id. Changes go through the writer's transaction like any other, so
 * DDL commits and rolls back with it. Small enough to scan for name lookups.
 */
public final class Catalog {
    public static final int CATALOG_OBJECT_ID = 1;
    /** Object ids below this are reserved for the system. */
    public static final int FIRST_USER_OBJECT_ID = 100;

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final BTree tree;

    private Catalog(BTree tree) {
        this.tree = tree;
    }

    /** Creates the catalog of a new database and writes the boot page. */
    public static Catalog bootstrap(WriteSet writes, Allocator allocator, IoCounters counters) {
        BTree tree = BTree.create(writes, allocator, CATALOG_OBJECT_ID, counters);
        try (PageRef ref = writes.create(BOOT_PAGE)) {
            Page.format(ref.page(), BOOT_PAGE, PageType.BOOT, 0, 0);
            ref.page().set(LONG, BOOT_CATALOG_ROOT_OFFSET, tree.rootPage());
            ref.page().set(LONG, BOOT_CATALOG_ALLOCATION_OFFSET, tree.firstOamPage());
            ref.page().set(INT, BOOT_NEXT_OBJECT_ID_OFFSET, FIRST_USER_OBJECT_ID);
        }
        return new Catalog(tree);
    }

    /** Opens the catalog named by the boot page. */
    public static Catalog open(PageReader reader, IoCounters counters) {
        try (PageRef ref = reader.read(BOOT_PAGE, Access.RANDOM, counters)) {
            if (Page.type(ref.page()) != PageType.BOOT) {
                throw new ColumbaException(ErrorCode.PAGE_HEADER_INVALID, "page " + BOOT_PAGE
                        + " should be the boot page but is a " + Page.type(ref.page()) + " page");
            }
            return new Catalog(new BTree(CATALOG_OBJECT_ID, ref.page().get(LONG, BOOT_CATALOG_ROOT_OFFSET),
                    ref.page().get(LONG, BOOT_CATALOG_ALLOCATION_OFFSET)));
        }
    }

    public BTree tree() {
        return tree;
    }

    /** Reserves a new object id in the transaction. */
    public int allocateObjectId(WriteSet writes, IoCounters counters) {
        try (PageRef ref = writes.modify(BOOT_PAGE, counters)) {
            int objectId = ref.page().get(INT, BOOT_NEXT_OBJECT_ID_OFFSET);
            ref.page().set(INT, BOOT_NEXT_OBJECT_ID_OFFSET, objectId + 1);
            return objectId;
        }
    }

    /**
     * The object id the next {@link #allocateObjectId} will return, as {@code reader} sees the boot
     * page: every id below it was handed out by a transaction that committed (or the system).
     */
    public int nextObjectId(PageReader reader, IoCounters counters) {
        try (PageRef ref = reader.read(BOOT_PAGE, Access.RANDOM, counters)) {
            return ref.page().get(INT, BOOT_NEXT_OBJECT_ID_OFFSET);
        }
    }

    /** Adds or replaces an entry. */
    public void put(WriteSet writes, Allocator allocator, CatalogEntry entry, IoCounters counters) {
        tree.put(writes, allocator, CatalogFormat.key(entry.objectId()), CatalogFormat.encode(entry), counters);
    }

    /** Adds {@code changes} (table object id to row delta) to the tables' row counts. */
    public void adjustRowCounts(WriteSet writes, Allocator allocator, java.util.Map<Integer, Long> changes,
                                IoCounters counters) {
        for (java.util.Map.Entry<Integer, Long> change : changes.entrySet()) {
            if (change.getValue() == 0) {
                continue; // an UPDATE's delete and insert: nothing to read or write at its commit
            }
            CatalogEntry entry = byId(writes, change.getKey(), counters).orElse(null);
            if (entry instanceof CatalogEntry.Table table) {
                put(writes, allocator, CatalogEntry.withRowCount(table, Math.max(0, table.rowCount() + change.getValue())),
                        counters);
            }
        }
    }

    public void remove(WriteSet writes, Allocator allocator, int objectId, IoCounters counters) {
        tree.delete(writes, allocator, CatalogFormat.key(objectId), counters);
    }

    /** Every entry, by object id. */
    public List<CatalogEntry> entries(PageReader reader, IoCounters counters) {
        List<CatalogEntry> entries = new ArrayList<>();
        try (Cursor cursor = tree.scan(reader, ScanRange.ALL, ReadAheadOptions.OFF, counters)) {
            while (cursor.next()) {
                entries.add(CatalogFormat.decode(cursor.value()));
            }
        }
        return entries;
    }

    public Optional<CatalogEntry> byId(PageReader reader, int objectId, IoCounters counters) {
        byte[] value = tree.get(reader, CatalogFormat.key(objectId), counters);
        return value == null ? Optional.empty() : Optional.of(CatalogFormat.decode(value));
    }

    /**
     * The table, index, view or partition object named {@code name}, ignoring case. Logins are not
     * searched: they are server principals, a namespace of their own ({@link #login}).
     */
    public Optional<CatalogEntry> byName(PageReader reader, String name, IoCounters counters) {
        for (CatalogEntry entry : entries(reader, counters)) {
            if (!(entry instanceof CatalogEntry.Login) && entry.name().equalsIgnoreCase(name)) {
                return Optional.of(entry);
            }
        }
        return Optional.empty();
    }

    /** The login named {@code name}, ignoring case (as every catalog name is matched). */
    public Optional<CatalogEntry.Login> login(PageReader reader, String name, IoCounters counters) {
        for (CatalogEntry entry : entries(reader, counters)) {
            if (entry instanceof CatalogEntry.Login login && login.name().equalsIgnoreCase(name)) {
                return Optional.of(login);
            }
        }
        return Optional.empty();
    }

    /** The indexes of a table. */
    public List<CatalogEntry.Index> indexesOf(PageReader reader, int tableId, IoCounters counters) {
        List<CatalogEntry.Index> indexes = new ArrayList<>();
        for (CatalogEntry entry : entries(reader, counters)) {
            if (entry instanceof CatalogEntry.Index index && index.tableId() == tableId) {
                indexes.add(index);
            }
        }
        return indexes;
    }
}
