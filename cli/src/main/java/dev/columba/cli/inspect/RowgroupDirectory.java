package dev.columba.cli.inspect;

import dev.columba.columnstore.build.TrimReason;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.columnstore.table.RowgroupState;
import dev.columba.storage.catalog.CatalogEntry;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A columnstore table's rowgroup directory and delete bitmap (docs/format/columnstore-metadata.md)
 * as far as they can be read from the data file: the B+trees the catalog entry and the table's own
 * record name, walked with {@link BTreeWalk}, each value decoded from the spec (the columnstore's
 * {@code MetadataFormat} is package-private) and checked, and the deleted rows the bitmap holds
 * checked against each rowgroup's count. An entry that does not decode is reported and left out.
 *
 * @param rowgroups             every rowgroup entry that decoded, tombstones included, in key order
 * @param record                the table's own record, or null when it is missing or does not decode
 * @param complete              whether every page and entry of the directory could be read
 * @param leafPages             the directory's leaves
 * @param deleteBitmapLeafPages the delete bitmap's leaves; the table's other leaves are its delta rowgroups'
 */
record RowgroupDirectory(CatalogEntry.Table table, List<RowgroupEntry> rowgroups, TableRecord record, boolean complete,
                         Set<Long> leafPages, Set<Long> deleteBitmapLeafPages) {

    /** The table's own record: where its delete bitmap is, and the next rowgroup id. */
    record TableRecord(long deleteBitmapRoot, long deleteBitmapOam, int nextRowgroupId) {
    }

    /** One directory entry as decoded from its key and value. */
    sealed interface Entry {
        record Rowgroup(RowgroupEntry entry) implements Entry {
        }

        record Table(TableRecord record) implements Entry {
        }

        record Undecodable(String problem) implements Entry {
        }
    }

    /** u8 version, i32 id, u8 state, i64 total, i64 deleted, i64 size, u8 trim, i64 created, i64 root, i64 map. */
    private static final int ROWGROUP_VALUE_LENGTH = 55;
    /** u8 version, i64 delete bitmap root, i64 its allocation map, i32 next rowgroup id. */
    private static final int TABLE_VALUE_LENGTH = 21;
    /** A delete bitmap key: rowgroup id and row position, four big-endian bytes each. */
    private static final int DELETED_ROW_KEY_LENGTH = 8;

    RowgroupDirectory {
        rowgroups = List.copyOf(rowgroups);
        leafPages = Set.copyOf(leafPages);
        deleteBitmapLeafPages = Set.copyOf(deleteBitmapLeafPages);
    }

    /** {@code "table 100 sales"}. */
    static String label(CatalogEntry.Table table) {
        return "table " + table.objectId() + " " + table.name();
    }

    /** Reads the directory and delete bitmap of {@code table}, a COLUMNSTORE table, reporting every problem met. */
    static RowgroupDirectory read(DataFileReader reader, CatalogEntry.Table table, Findings findings, String indent) {
        List<RowgroupEntry> rowgroups = new ArrayList<>();
        TableRecord[] record = new TableRecord[1];
        String label = label(table);
        BTreeWalk.Tree tree = new BTreeWalk.Tree(table.rootPage(), table.objectId(), "the rowgroup directory of " + label,
                "rowgroup directory leaf", label);
        BTreeWalk.Walk walk = BTreeWalk.walk(reader, tree, findings, indent, (page, leaf, where) -> {
            byte[] key = DataFileDump.bytes(page, leaf.keyOffset(), leaf.keyLength());
            byte[] value = page.asSlice(leaf.valueOffset(), leaf.valueLength()).toArray(ValueLayout.JAVA_BYTE);
            return switch (decode(key, value)) {
                case Entry.Rowgroup rowgroup -> rowgroups.add(rowgroup.entry());
                case Entry.Table own -> {
                    record[0] = own.record();
                    yield true;
                }
                case Entry.Undecodable undecodable -> {
                    findings.report(indent, where + ": " + undecodable.problem());
                    yield false;
                }
            };
        });
        if (record[0] == null) {
            if (walk.complete()) {
                findings.report(indent, "the rowgroup directory of " + label + " has no table record (key FF FF FF FF FF)");
            }
            return new RowgroupDirectory(table, rowgroups, null, walk.complete(), walk.leafPages(), Set.of());
        }
        for (RowgroupEntry entry : rowgroups) {
            if (entry.rowgroupId() >= record[0].nextRowgroupId()) {
                findings.report(indent, "the rowgroup directory of " + label + " holds rowgroup " + entry.rowgroupId()
                        + " but its table record gives " + record[0].nextRowgroupId() + " as the next rowgroup id");
            }
        }
        Set<Long> bitmapLeaves = readDeleteBitmap(reader, table, record[0], rowgroups, walk.complete(), findings, indent);
        return new RowgroupDirectory(table, rowgroups, record[0], walk.complete(), walk.leafPages(), bitmapLeaves);
    }

    /**
     * Walks the delete bitmap and checks it against the directory: each key names a row of a
     * compressed rowgroup, and each compressed rowgroup's deleted count is its number of keys.
     */
    private static Set<Long> readDeleteBitmap(DataFileReader reader, CatalogEntry.Table table, TableRecord record,
                                              List<RowgroupEntry> rowgroups, boolean directoryComplete, Findings findings,
                                              String indent) {
        String label = label(table);
        Map<Integer, Long> deleted = new TreeMap<>();
        BTreeWalk.Tree tree = new BTreeWalk.Tree(record.deleteBitmapRoot(), table.objectId(), "the delete bitmap of " + label,
                "delete bitmap leaf", label);
        BTreeWalk.Walk walk = BTreeWalk.walk(reader, tree, findings, indent, (page, leaf, where) -> {
            if (leaf.keyLength() != DELETED_ROW_KEY_LENGTH || leaf.valueLength() != 0) {
                findings.report(indent, where + ": a " + leaf.keyLength() + "-byte key with a " + leaf.valueLength()
                        + "-byte value, expected an 8-byte key (rowgroup, row) and no value");
                return false;
            }
            ByteBuffer key = ByteBuffer.wrap(DataFileDump.bytes(page, leaf.keyOffset(), leaf.keyLength()));
            deleted.merge(key.getInt(), 1L, Long::sum);
            return true;
        });
        if (!walk.complete() || !directoryComplete) {
            return walk.leafPages();
        }
        for (RowgroupEntry entry : rowgroups) {
            long marked = deleted.getOrDefault(entry.rowgroupId(), 0L);
            if (entry.state() == RowgroupState.COMPRESSED && marked != entry.deletedRows()) {
                findings.report(indent, label + ": rowgroup " + entry.rowgroupId() + " has " + entry.deletedRows()
                        + " deleted rows in the rowgroup directory, " + marked + " in the delete bitmap");
            }
            if (entry.state() != RowgroupState.COMPRESSED && marked > 0) {
                findings.report(indent, label + ": the delete bitmap marks " + marked + " rows of rowgroup "
                        + entry.rowgroupId() + ", which is " + entry.state() + ", not COMPRESSED");
            }
        }
        for (int rowgroupId : deleted.keySet()) {
            if (rowgroups.stream().noneMatch(entry -> entry.rowgroupId() == rowgroupId)) {
                findings.report(indent, label + ": the delete bitmap marks " + deleted.get(rowgroupId) + " rows of rowgroup "
                        + rowgroupId + ", which the rowgroup directory does not hold");
            }
        }
        return walk.leafPages();
    }

    /** Decodes one directory entry from its key and value, checking every field the spec bounds. */
    static Entry decode(byte[] key, byte[] value) {
        if (key.length == ColumnstoreLayout.ROWGROUP_KEY_LENGTH) {
            return rowgroup(ByteBuffer.wrap(key).getInt(), ByteBuffer.wrap(value));
        }
        if (isTableKey(key)) {
            return tableRecord(ByteBuffer.wrap(value));
        }
        return new Entry.Undecodable("key " + ValueText.hex(key) + " is neither a 4-byte rowgroup id nor the table "
                + "record's FF FF FF FF FF");
    }

    private static boolean isTableKey(byte[] key) {
        if (key.length != ColumnstoreLayout.TABLE_KEY_LENGTH) {
            return false;
        }
        for (byte part : key) {
            if (part != (byte) 0xFF) {
                return false;
            }
        }
        return true;
    }

    private static Entry rowgroup(int keyId, ByteBuffer value) {
        if (value.remaining() != ROWGROUP_VALUE_LENGTH) {
            return new Entry.Undecodable("rowgroup " + keyId + "'s entry is " + value.remaining() + " bytes, expected "
                    + ROWGROUP_VALUE_LENGTH);
        }
        int version = Byte.toUnsignedInt(value.get());
        if (version != ColumnstoreLayout.METADATA_VERSION) {
            return new Entry.Undecodable("rowgroup " + keyId + "'s entry has format version " + version
                    + " at offset 0, this build reads " + ColumnstoreLayout.METADATA_VERSION);
        }
        int rowgroupId = value.getInt();
        int state = Byte.toUnsignedInt(value.get());
        long totalRows = value.getLong();
        long deletedRows = value.getLong();
        long sizeBytes = value.getLong();
        int trim = Byte.toUnsignedInt(value.get());
        long created = value.getLong();
        long deltaRoot = value.getLong();
        long deltaOam = value.getLong();
        if (rowgroupId != keyId) {
            return new Entry.Undecodable("key says rowgroup " + keyId + " but the entry is rowgroup " + rowgroupId);
        }
        if (state >= RowgroupState.values().length) {
            return new Entry.Undecodable("rowgroup " + keyId + " has state " + state + " at offset 5, expected 0 to "
                    + (RowgroupState.values().length - 1));
        }
        if (trim >= TrimReason.values().length) {
            return new Entry.Undecodable("rowgroup " + keyId + " has trim reason " + trim + " at offset 30, expected 0 to "
                    + (TrimReason.values().length - 1));
        }
        try {
            return new Entry.Rowgroup(new RowgroupEntry(rowgroupId, RowgroupState.values()[state], totalRows, deletedRows,
                    sizeBytes, TrimReason.values()[trim], created, deltaRoot, deltaOam));
        } catch (IllegalArgumentException invalid) {
            return new Entry.Undecodable(invalid.getMessage());
        }
    }

    private static Entry tableRecord(ByteBuffer value) {
        if (value.remaining() != TABLE_VALUE_LENGTH) {
            return new Entry.Undecodable("the table record is " + value.remaining() + " bytes, expected " + TABLE_VALUE_LENGTH);
        }
        int version = Byte.toUnsignedInt(value.get());
        if (version != ColumnstoreLayout.METADATA_VERSION) {
            return new Entry.Undecodable("the table record has format version " + version + " at offset 0, this build reads "
                    + ColumnstoreLayout.METADATA_VERSION);
        }
        return new Entry.Table(new TableRecord(value.getLong(), value.getLong(), value.getInt()));
    }

    /** A delete bitmap key as text, {@code "rowgroup 0, row 4"}, or null when it is not 8 bytes. */
    static String deletedRowText(byte[] key) {
        if (key.length != DELETED_ROW_KEY_LENGTH) {
            return null;
        }
        ByteBuffer buffer = ByteBuffer.wrap(key);
        return "rowgroup " + buffer.getInt() + ", row " + buffer.getInt();
    }

    Optional<RowgroupEntry> rowgroup(int rowgroupId) {
        for (RowgroupEntry entry : rowgroups) {
            if (entry.rowgroupId() == rowgroupId) {
                return Optional.of(entry);
            }
        }
        return Optional.empty();
    }

    /**
     * The table's B+trees besides the directory, whose pages its allocation maps list: the delete
     * bitmap and each delta rowgroup (OPEN or CLOSED).
     */
    List<AllocationView.Chain> chains() {
        List<AllocationView.Chain> chains = new ArrayList<>();
        if (record != null) {
            chains.add(new AllocationView.Chain(table.objectId(), table.name() + " (delete bitmap)", record.deleteBitmapOam()));
        }
        for (RowgroupEntry entry : rowgroups) {
            if (entry.isDelta()) {
                chains.add(new AllocationView.Chain(table.objectId(), table.name() + " (delta rowgroup "
                        + entry.rowgroupId() + ")", entry.deltaOam()));
            }
        }
        return chains;
    }
}
