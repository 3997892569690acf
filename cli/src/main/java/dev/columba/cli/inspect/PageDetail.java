package dev.columba.cli.inspect;

import static dev.columba.cli.inspect.DataFileDump.INDENT;
import static dev.columba.storage.page.PageFormat.HEADER_SIZE;
import static dev.columba.storage.page.PageFormat.PAGES_PER_EXTENT;
import static dev.columba.storage.page.PageFormat.PAGE_SIZE;

import dev.columba.columnstore.table.MetadataFormat;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.core.error.ColumbaException;
import dev.columba.storage.catalog.Catalog;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.catalog.CatalogFormat;
import dev.columba.storage.file.DataFileFormat;
import dev.columba.storage.heap.Heap;
import dev.columba.storage.lob.OverflowStore;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.page.PageType;
import dev.columba.storage.page.SlottedPage;
import dev.columba.storage.row.RowCodec;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * One data-file page in detail: every header field, then its body as its type lays it out
 * (docs/format/data-file.md), keys and rows decoded when the catalog gives their types. Damage met
 * on the way (a cell outside the page, keys out of order, an undecodable key or row) is reported
 * and the rest of the page still shown.
 */
final class PageDetail {
    private final String fileName;
    private final long pageId;
    private final MemorySegment page;
    private final CatalogView catalog;
    private final AllocationView allocation;
    private final PrintStream out;
    private final Findings findings;
    private final PageInfo info;
    private final Map<Integer, RowgroupDirectory> rowgroupDirectories;

    /** @param rowgroupDirectories the columnstore tables' directories, by object id, to tell their trees apart */
    PageDetail(String fileName, long pageId, MemorySegment page, CatalogView catalog, AllocationView allocation,
               Map<Integer, RowgroupDirectory> rowgroupDirectories, PrintStream out, Findings findings) {
        this.fileName = fileName;
        this.pageId = pageId;
        this.page = page;
        this.catalog = catalog;
        this.allocation = allocation;
        this.rowgroupDirectories = rowgroupDirectories;
        this.out = out;
        this.findings = findings;
        this.info = PageInfo.of(pageId, page);
    }

    void print() {
        out.println();
        out.println("page " + pageId + " of " + fileName + " (offset " + PageFormat.offsetOf(pageId) + ")");
        String finding = info.finding(fileName);
        if (finding != null) {
            findings.report(INDENT, finding);
        }
        if (info.allZero()) {
            field("allocation", allocationText());
            out.println(INDENT + "never written: all " + PAGE_SIZE + " bytes are zero");
            return;
        }
        field("checksum", info.checksumOk() ? ValueText.hex32(info.storedChecksum()) + " OK"
                : "BAD: stored " + ValueText.hex32(info.storedChecksum()) + ", computed " + ValueText.hex32(info.computedChecksum()));
        field("type", info.typeName() + " (" + info.typeCode() + ")");
        field("format version", info.formatVersion());
        field("flags", info.flags());
        field("page id", info.headerPageId());
        field("lsn", info.lsn());
        field("object", catalog.label(info.objectId()));
        field("level", info.level());
        field("slots", info.slotCount());
        field("free start", info.freeStart());
        field("free end", info.freeEnd());
        field("garbage", info.garbage());
        field("previous", info.previous());
        field("next", info.next());
        field("special", info.special());
        field("allocation", allocationText());
        PageType type = info.type();
        if (type == null) {
            out.println(INDENT + "(unknown page type: the body is not decoded; --hex shows it)");
            return;
        }
        switch (type) {
            case FREE -> out.println(INDENT + "type FREE, yet not all zeros (--hex shows the bytes)");
            case FILE_HEADER -> fileHeader();
            case GLOBAL_ALLOCATION_MAP -> globalAllocationMap();
            case BOOT -> boot();
            case OBJECT_ALLOCATION_MAP -> objectAllocationMap();
            case BTREE_LEAF -> leaf();
            case BTREE_INTERNAL -> internal();
            case HEAP -> heap();
            case OVERFLOW -> overflow();
        }
    }

    private void field(String name, Object value) {
        out.println(INDENT + String.format("%-15s %s", name, value));
    }

    private String where() {
        return fileName + " page " + pageId;
    }

    private String allocationText() {
        long extent = pageId / PAGES_PER_EXTENT;
        return switch (allocation.state(pageId)) {
            case SYSTEM -> "system page (extent " + extent + ")";
            case IN_USE -> "in use by object " + catalog.label(allocation.owner(pageId)) + " (extent " + extent + ")";
            case FREE -> "free (extent " + extent + "): no allocation map claims it" + (info.allZero() ? ""
                    : "; what it holds is left from before it was freed");
            case UNKNOWN -> "not claimed by any readable allocation map (some could not be read)";
        };
    }

    // ---- system pages --------------------------------------------------------------------------

    private void fileHeader() {
        DataFileReader.FileHeader header = DataFileReader.fileHeader(page);
        out.println("file header");
        field("magic", String.format("0x%016x%s", header.magic(), header.magic() == DataFileFormat.MAGIC ? " (CLMBDATA)"
                : " (expected CLMBDATA)"));
        field("file version", header.version());
        field("page size", header.pageSize());
        field("database id", header.databaseId());
        field("created", ValueText.micros(header.createdMicros()) + " (" + header.createdMicros() + " µs)");
    }

    private void globalAllocationMap() {
        long interval = pageId == DataFileFormat.FIRST_GAM_PAGE ? 0
                : pageId / ((long) DataFileFormat.EXTENTS_PER_GAM * PAGES_PER_EXTENT);
        long firstExtent = interval * DataFileFormat.EXTENTS_PER_GAM;
        BitSet inUse = new BitSet();
        for (int bit = 0; bit < DataFileFormat.EXTENTS_PER_GAM; bit++) {
            if ((page.get(ValueLayout.JAVA_BYTE, HEADER_SIZE + bit / 8) & (1 << (bit % 8))) != 0) {
                inUse.set(bit);
            }
        }
        out.println("global allocation map of interval " + interval + ": extents " + firstExtent + " to "
                + (firstExtent + DataFileFormat.EXTENTS_PER_GAM - 1));
        field("in use", inUse.cardinality() + " extents");
        field("ranges", interval == 0 ? AllocationView.ranges(inUse)
                : AllocationView.ranges(inUse) + " (relative to extent " + firstExtent + ")");
    }

    private void boot() {
        DataFileReader.Boot boot = DataFileReader.boot(page);
        out.println("boot page");
        field("catalog root", boot.catalogRoot());
        field("catalog map", boot.catalogFirstOamPage());
        field("next object id", boot.nextObjectId());
    }

    private void objectAllocationMap() {
        int entries = info.slotCount();
        out.println("object allocation map of object " + catalog.label(info.objectId()) + ": " + entries + " entries"
                + " (chain: previous " + info.previous() + ", next " + info.next() + ")");
        if (entries > DataFileFormat.OAM_ENTRIES_PER_PAGE) {
            findings.report(INDENT, where() + ": allocation map with " + entries + " entries, more than a page holds ("
                    + DataFileFormat.OAM_ENTRIES_PER_PAGE + ")");
            entries = DataFileFormat.OAM_ENTRIES_PER_PAGE;
        }
        TextTable table = new TextTable(INDENT, "entry", "extent", "pages", "in use", "bitmap");
        for (int entry = 0; entry < entries; entry++) {
            long extent = AllocationView.extentAt(page, entry);
            int bitmap = AllocationView.bitmapAt(page, entry);
            StringBuilder bits = new StringBuilder();
            for (int pageInExtent = 0; pageInExtent < PAGES_PER_EXTENT; pageInExtent++) {
                bits.append((bitmap & (1 << pageInExtent)) != 0 ? 'X' : '.');
            }
            long first = PageFormat.firstPageOf(extent);
            table.row(entry, extent, first + "-" + (first + PAGES_PER_EXTENT - 1), Integer.bitCount(bitmap), bits.toString());
        }
        table.print(out);
        out.println(INDENT + "(bitmap: one character per page of the extent, first page first; X = in use)");
    }

    // ---- slotted pages -------------------------------------------------------------------------

    private List<Cell> cells(PageType type, String what) {
        String problem = Cell.slotArrayProblem(page);
        if (problem != null) {
            findings.report(INDENT, where() + " (" + what + "): " + problem);
        }
        out.println(what + ": " + info.slotCount() + " slots, " + SlottedPage.totalFree(page) + " bytes free ("
                + (info.freeEnd() - info.freeStart()) + " contiguous, " + info.garbage() + " garbage)");
        return Cell.read(page, type);
    }

    private void leaf() {
        RowgroupDirectory columnstore = rowgroupDirectories.get(info.objectId());
        if (columnstore != null) {
            columnstoreLeaf(columnstore);
            return;
        }
        KeyDecoder keys = KeyDecoder.forObject(info.objectId(), catalog);
        RowCodec rows = rowCodec();
        List<Cell> cells = cells(PageType.BTREE_LEAF, "B+tree leaf");
        if (keys == null) {
            out.println(INDENT + "(the catalog does not give this object's key types: keys are shown as hex only)");
        }
        TextTable table = new TextTable(INDENT, "slot", "offset", "key", "decoded key", "value", "decoded value");
        byte[] previousKey = null;
        for (Cell cell : cells) {
            switch (cell) {
                case Cell.Leaf leaf -> {
                    byte[] key = DataFileDump.bytes(page, leaf.keyOffset(), leaf.keyLength());
                    checkOrder(previousKey, key, leaf.slot());
                    previousKey = key;
                    table.row(leaf.slot(), leaf.offset(), ValueText.hex(key), decodeKey(keys, key, leaf.slot(), true),
                            leaf.valueLength(), leafValue(rows, leaf));
                }
                case Cell.Damaged damaged -> damaged(table, damaged);
                case Cell.Internal _, Cell.HeapRow _, Cell.Tombstone _ -> throw new IllegalStateException("leaf cells only");
            }
        }
        table.print(out);
    }

    /** The trees of a columnstore table, all tagged with its object id. */
    private enum ColumnstoreTree { DIRECTORY, DELETE_BITMAP, DELTA }

    /** A leaf cell's key and value as text. */
    private record Decoded(String key, String value) {
    }

    /**
     * A leaf of a columnstore table: of its rowgroup directory, its delete bitmap or one of its delta
     * rowgroups (docs/format/columnstore-metadata.md), told apart by the leaves the directory and
     * bitmap walks reached.
     */
    private void columnstoreLeaf(RowgroupDirectory directory) {
        ColumnstoreTree tree = directory.leafPages().contains(pageId) ? ColumnstoreTree.DIRECTORY
                : directory.deleteBitmapLeafPages().contains(pageId) ? ColumnstoreTree.DELETE_BITMAP : ColumnstoreTree.DELTA;
        String label = RowgroupDirectory.label(directory.table());
        List<Cell> cells = cells(PageType.BTREE_LEAF, "B+tree leaf of " + label + "'s " + switch (tree) {
            case DIRECTORY -> "rowgroup directory";
            case DELETE_BITMAP -> "delete bitmap";
            case DELTA -> "delta rowgroups" + (directory.complete() ? "" : " (taken for one: the rowgroup directory was read"
                    + " in part)");
        });
        RowCodec rows = rowCodec();
        TextTable table = new TextTable(INDENT, "slot", "offset", "key", "decoded key", "value", "decoded value");
        byte[] previousKey = null;
        for (Cell cell : cells) {
            switch (cell) {
                case Cell.Leaf leaf -> {
                    byte[] key = DataFileDump.bytes(page, leaf.keyOffset(), leaf.keyLength());
                    checkOrder(previousKey, key, leaf.slot());
                    previousKey = key;
                    Decoded decoded = switch (tree) {
                        case DIRECTORY -> directoryEntry(key, leaf);
                        case DELETE_BITMAP -> deletedRow(key, leaf);
                        case DELTA -> new Decoded(key.length == MetadataFormat.DELTA_KEY_LENGTH
                                ? "position " + Integer.toUnsignedLong(MetadataFormat.deltaPositionOf(key))
                                : undecodable(leaf.slot(), "a delta rowgroup key is a " + MetadataFormat.DELTA_KEY_LENGTH
                                + "-byte position, this one has " + key.length + " bytes"),
                                decodeRow(rows, leaf.valueOffset(), leaf.valueLength(), leaf.slot()));
                    };
                    table.row(leaf.slot(), leaf.offset(), ValueText.hex(key), decoded.key(), leaf.valueLength(),
                            decoded.value());
                }
                case Cell.Damaged damaged -> damaged(table, damaged);
                case Cell.Internal _, Cell.HeapRow _, Cell.Tombstone _ -> throw new IllegalStateException("leaf cells only");
            }
        }
        table.print(out);
    }

    private Decoded directoryEntry(byte[] key, Cell.Leaf leaf) {
        return switch (RowgroupDirectory.decode(key, DataFileDump.bytes(page, leaf.valueOffset(), leaf.valueLength()))) {
            case RowgroupDirectory.Entry.Rowgroup rowgroup -> {
                RowgroupEntry entry = rowgroup.entry();
                yield new Decoded("rowgroup " + entry.rowgroupId(), entry.state() + ", " + entry.totalRows() + " rows, "
                        + entry.deletedRows() + " deleted, " + entry.sizeBytes() + " bytes, " + entry.trimReason() + ", created "
                        + ValueText.micros(entry.createdMicros()) + (entry.isDelta() ? ", delta root page " + entry.deltaRoot()
                        + ", allocation map page " + entry.deltaOam() : ""));
            }
            case RowgroupDirectory.Entry.Table own -> new Decoded("table record", "delete bitmap root page "
                    + own.record().deleteBitmapRoot() + ", allocation map page " + own.record().deleteBitmapOam()
                    + ", next rowgroup id " + own.record().nextRowgroupId());
            case RowgroupDirectory.Entry.Undecodable undecodable -> new Decoded("",
                    undecodable(leaf.slot(), undecodable.problem()));
        };
    }

    private Decoded deletedRow(byte[] key, Cell.Leaf leaf) {
        String row = RowgroupDirectory.deletedRowText(key);
        if (row == null) {
            return new Decoded(undecodable(leaf.slot(), "a delete bitmap key is " + MetadataFormat.DELETED_ROW_KEY_LENGTH
                    + " bytes (rowgroup, row), this one has " + key.length), "");
        }
        return new Decoded(row, leaf.valueLength() == 0 ? "deleted"
                : undecodable(leaf.slot(), "a delete bitmap entry has no value, this one has " + leaf.valueLength() + " bytes"));
    }

    private String undecodable(int slot, String problem) {
        findings.report(INDENT, where() + " slot " + slot + ": " + problem);
        return "UNDECODABLE";
    }

    private void internal() {
        KeyDecoder keys = KeyDecoder.forObject(info.objectId(), catalog);
        List<Cell> cells = cells(PageType.BTREE_INTERNAL, "B+tree internal page, level " + info.level());
        out.println(INDENT + "leftmost child  " + info.special() + " (keys below the first separator)");
        TextTable table = new TextTable(INDENT, "slot", "offset", "separator", "decoded", "child");
        byte[] previousKey = null;
        for (Cell cell : cells) {
            switch (cell) {
                case Cell.Internal internal -> {
                    byte[] key = DataFileDump.bytes(page, internal.keyOffset(), internal.keyLength());
                    checkOrder(previousKey, key, internal.slot());
                    previousKey = key;
                    table.row(internal.slot(), internal.offset(), ValueText.hex(key),
                            decodeKey(keys, key, internal.slot(), false), internal.child());
                }
                case Cell.Damaged damaged -> damaged(table, damaged);
                case Cell.Leaf _, Cell.HeapRow _, Cell.Tombstone _ -> throw new IllegalStateException("internal cells only");
            }
        }
        table.print(out);
        out.println(INDENT + "(separators may be shortened to the shortest prefix that divides two children)");
    }

    private void heap() {
        RowCodec rows = rowCodec();
        List<Cell> cells = cells(PageType.HEAP, "heap page");
        TextTable table = new TextTable(INDENT, "slot", "offset", "row id", "length", "state", "row");
        for (Cell cell : cells) {
            switch (cell) {
                case Cell.HeapRow row -> table.row(row.slot(), row.offset(), Heap.rowId(pageId, row.slot()), row.rowLength(),
                        "live", decodeRow(rows, row.rowOffset(), row.rowLength(), row.slot()));
                case Cell.Tombstone tombstone -> table.row(tombstone.slot(), 0, Heap.rowId(pageId, tombstone.slot()), 0,
                        "deleted", "");
                case Cell.Damaged damaged -> damaged(table, damaged);
                case Cell.Leaf _, Cell.Internal _ -> throw new IllegalStateException("heap cells only");
            }
        }
        table.print(out);
    }

    private void damaged(TextTable table, Cell.Damaged damaged) {
        findings.report(INDENT, where() + " slot " + damaged.slot() + ": " + damaged.problem());
        Object[] row = new Object[table.columnCount()];
        row[0] = damaged.slot();
        row[1] = damaged.offset();
        row[2] = "DAMAGED: " + damaged.problem();
        table.row(row);
    }

    private void checkOrder(byte[] previous, byte[] key, int slot) {
        if (previous != null && Arrays.compareUnsigned(previous, key) >= 0) {
            findings.report(INDENT, where() + " slot " + slot + ": key is not above the key of slot " + (slot - 1)
                    + " (keys must ascend)");
        }
    }

    /** A whole key (leaf) that does not decode is damage; a separator may be a shortened prefix. */
    private String decodeKey(KeyDecoder keys, byte[] key, int slot, boolean wholeKey) {
        if (keys == null) {
            return "";
        }
        try {
            return keys.decode(key);
        } catch (ColumbaException | IllegalArgumentException undecodable) {
            if (!wholeKey) {
                return "(prefix)";
            }
            findings.report(INDENT, where() + " slot " + slot + ": key does not decode as object "
                    + catalog.label(info.objectId()) + "'s key: " + DataFileDump.reason(undecodable));
            return "UNDECODABLE";
        }
    }

    private String leafValue(RowCodec rows, Cell.Leaf leaf) {
        if (info.objectId() == Catalog.CATALOG_OBJECT_ID) {
            try {
                CatalogEntry entry = CatalogFormat.decode(DataFileDump.bytes(page, leaf.valueOffset(), leaf.valueLength()));
                return (entry instanceof CatalogEntry.Table ? "table " : "index ") + entry.name();
            } catch (ColumbaException | IllegalArgumentException undecodable) {
                findings.report(INDENT, where() + " slot " + leaf.slot() + ": catalog entry does not decode: "
                        + DataFileDump.reason(undecodable));
                return "UNDECODABLE";
            }
        }
        return decodeRow(rows, leaf.valueOffset(), leaf.valueLength(), leaf.slot());
    }

    private String decodeRow(RowCodec rows, int offset, int length, int slot) {
        if (rows == null) {
            return "";
        }
        try {
            if (dev.columba.storage.page.Page.formatVersion(page) == PageFormat.COMPRESSED_HEAP_FORMAT_VERSION) {
                // A compressed record (docs/format/compressed-row.md), shown as the row it stands for.
                var codec = new dev.columba.storage.row.CompressedRowCodec(rows);
                long infoOffset = dev.columba.storage.page.Page.special(page);
                var info = (dev.columba.storage.page.Page.flags(page) & PageFormat.FLAG_PAGE_COMPRESSED) != 0 && infoOffset != 0
                        ? codec.readInfo(page, infoOffset) : null;
                var values = codec.newColumns();
                codec.decode(page, offset, length, info, values);
                var buffer = new dev.columba.storage.row.CompressedRowCodec.RowBuffer();
                int rowLength = codec.toRow(values, buffer);
                return ValueText.tuple(rows.decode(buffer.segment().asSlice(0, rowLength), 0));
            }
            return ValueText.tuple(rows.decode(page.asSlice(offset, length), 0));
        } catch (ColumbaException | IllegalArgumentException | IndexOutOfBoundsException undecodable) {
            findings.report(INDENT, where() + " slot " + slot + ": row does not decode with table "
                    + catalog.label(info.objectId()) + "'s schema: " + DataFileDump.reason(undecodable));
            return "UNDECODABLE";
        }
    }

    /** The row codec of the table owning this page, or null (an index, the catalog, an unknown object). */
    private RowCodec rowCodec() {
        return catalog.entry(info.objectId()).orElse(null) instanceof CatalogEntry.Table table
                ? new RowCodec(table.schema()) : null;
    }

    // ---- overflow ------------------------------------------------------------------------------

    private void overflow() {
        int piece = page.get(DataFileReader.INT, HEADER_SIZE);
        out.println("overflow page of object " + catalog.label(info.objectId()));
        field("piece length", piece + " bytes (at most " + OverflowStore.BYTES_PER_PAGE + ")");
        field("next page", info.next() == PageFormat.NO_PAGE ? "none (last piece)" : info.next());
        if (piece < 0 || piece > OverflowStore.BYTES_PER_PAGE) {
            findings.report(INDENT, where() + ": overflow piece length " + piece + " at offset " + HEADER_SIZE
                    + " does not fit in a page (at most " + OverflowStore.BYTES_PER_PAGE + ")");
            return;
        }
        int shown = Math.min(piece, ValueText.MAX_INLINE_HEX);
        field("first bytes", ValueText.hex(DataFileDump.bytes(page, HEADER_SIZE + 4, shown)) + (shown < piece ? " ..." : ""));
    }
}
