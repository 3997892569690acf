package dev.columba.cli.inspect;

import dev.columba.columnstore.build.TrimReason;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.columnstore.table.RowgroupState;
import dev.columba.storage.catalog.CatalogEntry;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A columnstore table's rowgroup directory (docs/format/columnstore-metadata.md) as far as it can be
 * read from the data file: the B+tree the catalog entry's root names, walked with
 * {@link BTreeWalk}, each value decoded from the spec (the columnstore's {@code MetadataFormat} is
 * package-private) and checked. An entry that does not decode is reported and left out.
 *
 * @param rowgroups every rowgroup entry that decoded, tombstones included, in key order
 * @param record    the table's own record, or null when it is missing or does not decode
 * @param complete  whether every page and entry could be read
 */
record RowgroupDirectory(CatalogEntry.Table table, List<RowgroupEntry> rowgroups, TableRecord record, boolean complete) {

    /** The table's own record: where its delete bitmap is, and the next rowgroup id. */
    record TableRecord(long deleteBitmapRoot, long deleteBitmapOam, int nextRowgroupId) {
    }

    /** u8 version, i32 id, u8 state, i64 total, i64 deleted, i64 size, u8 trim, i64 created, i64 root, i64 map. */
    private static final int ROWGROUP_VALUE_LENGTH = 55;
    /** u8 version, i64 delete bitmap root, i64 its allocation map, i32 next rowgroup id. */
    private static final int TABLE_VALUE_LENGTH = 21;

    RowgroupDirectory {
        rowgroups = List.copyOf(rowgroups);
    }

    /** {@code "table 100 sales"}. */
    static String label(CatalogEntry.Table table) {
        return "table " + table.objectId() + " " + table.name();
    }

    /** Reads the directory of {@code table}, a COLUMNSTORE table, reporting every problem met. */
    static RowgroupDirectory read(DataFileReader reader, CatalogEntry.Table table, Findings findings, String indent) {
        List<RowgroupEntry> rowgroups = new ArrayList<>();
        TableRecord[] record = new TableRecord[1];
        String label = label(table);
        BTreeWalk.Tree tree = new BTreeWalk.Tree(table.rootPage(), table.objectId(), "the rowgroup directory of " + label,
                "rowgroup directory leaf", label);
        boolean complete = BTreeWalk.walk(reader, tree, findings, indent, (page, leaf, where) -> {
            byte[] key = DataFileDump.bytes(page, leaf.keyOffset(), leaf.keyLength());
            ByteBuffer value = ByteBuffer.wrap(page.asSlice(leaf.valueOffset(), leaf.valueLength()).toArray(ValueLayout.JAVA_BYTE));
            String problem;
            if (key.length == ColumnstoreLayout.ROWGROUP_KEY_LENGTH) {
                int rowgroupId = ByteBuffer.wrap(key).getInt();
                problem = rowgroup(rowgroupId, value, rowgroups);
            } else if (isTableKey(key)) {
                problem = tableRecord(value, record);
            } else {
                problem = "key " + ValueText.hex(key) + " is neither a 4-byte rowgroup id nor the table record's "
                        + "FF FF FF FF FF";
            }
            if (problem != null) {
                findings.report(indent, where + ": " + problem);
            }
            return problem == null;
        });
        if (record[0] == null && complete) {
            findings.report(indent, "the rowgroup directory of " + label + " has no table record (key FF FF FF FF FF)");
        }
        if (record[0] != null) {
            for (RowgroupEntry entry : rowgroups) {
                if (entry.rowgroupId() >= record[0].nextRowgroupId()) {
                    findings.report(indent, "the rowgroup directory of " + label + " holds rowgroup " + entry.rowgroupId()
                            + " but its table record gives " + record[0].nextRowgroupId() + " as the next rowgroup id");
                }
            }
        }
        return new RowgroupDirectory(table, rowgroups, record[0], complete);
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

    /** Decodes a rowgroup entry into {@code rowgroups}; returns what is wrong with it, or null. */
    private static String rowgroup(int keyId, ByteBuffer value, List<RowgroupEntry> rowgroups) {
        if (value.remaining() != ROWGROUP_VALUE_LENGTH) {
            return "rowgroup " + keyId + "'s entry is " + value.remaining() + " bytes, expected " + ROWGROUP_VALUE_LENGTH;
        }
        int version = Byte.toUnsignedInt(value.get());
        if (version != ColumnstoreLayout.METADATA_VERSION) {
            return "rowgroup " + keyId + "'s entry has format version " + version + " at offset 0, this build reads "
                    + ColumnstoreLayout.METADATA_VERSION;
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
            return "key says rowgroup " + keyId + " but the entry is rowgroup " + rowgroupId;
        }
        if (state >= RowgroupState.values().length) {
            return "rowgroup " + keyId + " has state " + state + " at offset 5, expected 0 to "
                    + (RowgroupState.values().length - 1);
        }
        if (trim >= TrimReason.values().length) {
            return "rowgroup " + keyId + " has trim reason " + trim + " at offset 30, expected 0 to "
                    + (TrimReason.values().length - 1);
        }
        try {
            rowgroups.add(new RowgroupEntry(rowgroupId, RowgroupState.values()[state], totalRows, deletedRows, sizeBytes,
                    TrimReason.values()[trim], created, deltaRoot, deltaOam));
            return null;
        } catch (IllegalArgumentException invalid) {
            return invalid.getMessage();
        }
    }

    private static String tableRecord(ByteBuffer value, TableRecord[] record) {
        if (value.remaining() != TABLE_VALUE_LENGTH) {
            return "the table record is " + value.remaining() + " bytes, expected " + TABLE_VALUE_LENGTH;
        }
        int version = Byte.toUnsignedInt(value.get());
        if (version != ColumnstoreLayout.METADATA_VERSION) {
            return "the table record has format version " + version + " at offset 0, this build reads "
                    + ColumnstoreLayout.METADATA_VERSION;
        }
        record[0] = new TableRecord(value.getLong(), value.getLong(), value.getInt());
        return null;
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
