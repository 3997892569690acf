package dev.columba.cli.inspect;

import dev.columba.columnstore.table.MetadataFormat;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.columnstore.table.RowgroupState;
import dev.columba.core.error.ColumbaException;
import dev.columba.storage.catalog.CatalogEntry;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A columnstore table's rowgroup directory, delete bitmap and delta rowgroups
 * (docs/format/columnstore-metadata.md) as far as they can be read from the data file: the B+trees
 * the catalog entry, the table's own record and the directory's entries name, walked with
 * {@link BTreeWalk}, each key and value decoded and checked by the columnstore's own
 * {@link MetadataFormat}. Each rowgroup's deleted count is checked against where its deletes went:
 * the delete bitmap's keys for a compressed rowgroup, the rows missing from its B+tree for a delta
 * one. An entry that does not decode is reported and left out.
 *
 * @param rowgroups             every rowgroup entry that decoded, tombstones included, in key order
 * @param record                the table's own record, or null when it is missing or does not decode
 * @param complete              whether every page and entry of the directory could be read
 * @param leafPages             the directory's leaves
 * @param deleteBitmapLeafPages the delete bitmap's leaves; the table's other leaves are its delta rowgroups'
 */
record RowgroupDirectory(CatalogEntry.Table table, List<RowgroupEntry> rowgroups, MetadataFormat.TableRecord record,
                         boolean complete, Set<Long> leafPages, Set<Long> deleteBitmapLeafPages) {

    /** One directory entry as decoded from its key and value. */
    sealed interface Entry {
        record Rowgroup(RowgroupEntry entry) implements Entry {
        }

        record Table(MetadataFormat.TableRecord record) implements Entry {
        }

        record Undecodable(String problem) implements Entry {
        }
    }

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
        MetadataFormat.TableRecord[] record = new MetadataFormat.TableRecord[1];
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
                findings.report(indent, "the rowgroup directory of " + label + " has no table record");
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
        for (RowgroupEntry entry : rowgroups) {
            if (entry.isDelta()) {
                checkDelta(reader, table, entry, findings, indent);
            }
        }
        return new RowgroupDirectory(table, rowgroups, record[0], walk.complete(), walk.leafPages(), bitmapLeaves);
    }

    /**
     * Walks the delete bitmap and checks it against the directory: each key names a row of a
     * compressed rowgroup, and each compressed rowgroup's deleted count is its number of keys.
     */
    private static Set<Long> readDeleteBitmap(DataFileReader reader, CatalogEntry.Table table,
                                              MetadataFormat.TableRecord record, List<RowgroupEntry> rowgroups,
                                              boolean directoryComplete, Findings findings, String indent) {
        String label = label(table);
        Map<Integer, Long> deleted = new TreeMap<>();
        BTreeWalk.Tree tree = new BTreeWalk.Tree(record.deleteBitmapRoot(), table.objectId(), "the delete bitmap of " + label,
                "delete bitmap leaf", label);
        BTreeWalk.Walk walk = BTreeWalk.walk(reader, tree, findings, indent, (page, leaf, where) -> {
            if (leaf.keyLength() != MetadataFormat.DELETED_ROW_KEY_LENGTH || leaf.valueLength() != 0) {
                findings.report(indent, where + ": a " + leaf.keyLength() + "-byte key with a " + leaf.valueLength()
                        + "-byte value, expected a " + MetadataFormat.DELETED_ROW_KEY_LENGTH
                        + "-byte key (rowgroup, row) and no value");
                return false;
            }
            byte[] key = DataFileDump.bytes(page, leaf.keyOffset(), leaf.keyLength());
            deleted.merge(MetadataFormat.deletedRowgroupOf(key), 1L, Long::sum);
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

    /**
     * Walks a delta rowgroup's B+tree and checks it against the directory: every key is a position
     * the rowgroup has assigned (below its total), and the rows the tree still holds are its total
     * less its deleted rows, since a delete from a delta removes the row and counts it.
     */
    private static void checkDelta(DataFileReader reader, CatalogEntry.Table table, RowgroupEntry entry, Findings findings,
                                   String indent) {
        String label = label(table);
        String name = "delta rowgroup " + entry.rowgroupId() + " of " + label;
        long[] rows = new long[1];
        BTreeWalk.Tree tree = new BTreeWalk.Tree(entry.deltaRoot(), table.objectId(), name, "delta rowgroup leaf", label);
        BTreeWalk.Walk walk = BTreeWalk.walk(reader, tree, findings, indent, (page, leaf, where) -> {
            int position;
            try {
                position = MetadataFormat.deltaPositionOf(DataFileDump.bytes(page, leaf.keyOffset(), leaf.keyLength()));
            } catch (ColumbaException undecodable) {
                findings.report(indent, where + ": " + DataFileDump.reason(undecodable, null));
                return false;
            }
            rows[0]++;
            if (Integer.toUnsignedLong(position) >= entry.totalRows()) {
                findings.report(indent, where + ": position " + Integer.toUnsignedLong(position) + ", but " + name
                        + " has given out positions 0 to " + (entry.totalRows() - 1) + " only");
                return false;
            }
            return true;
        });
        long live = entry.totalRows() - entry.deletedRows();
        if (walk.complete() && rows[0] != live) {
            findings.report(indent, label + ": rowgroup " + entry.rowgroupId() + " (" + entry.state() + ") has "
                    + entry.totalRows() + " rows and " + entry.deletedRows() + " deleted in the rowgroup directory, so "
                    + live + " in its delta B+tree, which holds " + rows[0]);
        }
    }

    /** Decodes one directory entry from its key and value, with every check of the columnstore's reader. */
    static Entry decode(byte[] key, byte[] value) {
        try {
            return MetadataFormat.isTableKey(key) ? new Entry.Table(MetadataFormat.decodeTable(value))
                    : new Entry.Rowgroup(MetadataFormat.decodeRowgroup(key, value));
        } catch (ColumbaException undecodable) {
            return new Entry.Undecodable(DataFileDump.reason(undecodable, null));
        }
    }

    /** A delete bitmap key as text, {@code "rowgroup 0, row 4"}, or null when it does not decode. */
    static String deletedRowText(byte[] key) {
        if (key.length != MetadataFormat.DELETED_ROW_KEY_LENGTH) {
            return null;
        }
        return "rowgroup " + MetadataFormat.deletedRowgroupOf(key) + ", row " + MetadataFormat.deletedPositionOf(key);
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
