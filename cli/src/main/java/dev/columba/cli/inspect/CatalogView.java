package dev.columba.cli.inspect;

import dev.columba.core.error.ColumbaException;
import dev.columba.storage.catalog.Catalog;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.catalog.CatalogFormat;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The catalog's entries as far as they can be read from the data file: found from the boot page,
 * by walking the catalog B+tree ({@link BTreeWalk}). A damaged page on the way is reported and ends
 * the walk; the entries read so far stay usable, so names and key types are known for what survived.
 */
final class CatalogView {
    /** The catalog key: an object id as four big-endian bytes ({@link CatalogFormat#key}). */
    private static final ValueLayout.OfInt BIG_ENDIAN_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private final Map<Integer, CatalogEntry> entries;
    private final boolean complete;

    private CatalogView(Map<Integer, CatalogEntry> entries, boolean complete) {
        this.entries = entries;
        this.complete = complete;
    }

    static CatalogView unreadable() {
        return new CatalogView(new TreeMap<>(), false);
    }

    /**
     * Reads the catalog rooted at {@code boot.catalogRoot()}, reporting every problem met.
     */
    static CatalogView read(DataFileReader reader, DataFileReader.Boot boot, Findings findings, String indent) {
        Map<Integer, CatalogEntry> entries = new TreeMap<>();
        BTreeWalk.Tree tree = new BTreeWalk.Tree(boot.catalogRoot(), Catalog.CATALOG_OBJECT_ID, "the catalog",
                "catalog leaf", "the catalog");
        BTreeWalk.Walk walk = BTreeWalk.walk(reader, tree, findings, indent,
                (page, leaf, where) -> readEntry(where, page, leaf, entries, findings, indent));
        return new CatalogView(entries, walk.complete());
    }

    private static boolean readEntry(String where, MemorySegment page, Cell.Leaf leaf, Map<Integer, CatalogEntry> entries,
                                     Findings findings, String indent) {
        if (leaf.keyLength() != 4) {
            findings.report(indent, where + ": key of " + leaf.keyLength() + " bytes, expected a 4-byte object id");
            return false;
        }
        int objectId = page.get(BIG_ENDIAN_INT, leaf.keyOffset());
        byte[] value = page.asSlice(leaf.valueOffset(), leaf.valueLength()).toArray(ValueLayout.JAVA_BYTE);
        try {
            CatalogEntry entry = CatalogFormat.decode(value);
            if (entry.objectId() != objectId) {
                findings.report(indent, where + ": key says object " + objectId + " but the entry is object "
                        + entry.objectId() + " (" + entry.name() + ")");
            }
            entries.put(entry.objectId(), entry);
            return true;
        } catch (ColumbaException | IllegalArgumentException undecodable) {
            findings.report(indent, where + ": entry of object " + objectId + " cannot be decoded: "
                    + undecodable.getMessage());
            return false;
        }
    }

    /** Whether every catalog page and entry could be read. */
    boolean complete() {
        return complete;
    }

    List<CatalogEntry> entries() {
        return new ArrayList<>(entries.values());
    }

    Optional<CatalogEntry> entry(int objectId) {
        return Optional.ofNullable(entries.get(objectId));
    }

    /** A name for any object id: the database-wide pages and the catalog have none in the catalog. */
    String name(int objectId) {
        if (objectId == 0) {
            return "(database)";
        }
        if (objectId == Catalog.CATALOG_OBJECT_ID) {
            return "(catalog)";
        }
        CatalogEntry entry = entries.get(objectId);
        return entry == null ? "(unknown)" : entry.name();
    }

    /** {@code "100 orders"}: the id and its name. */
    String label(int objectId) {
        return objectId + " " + name(objectId);
    }

    /**
     * The object an {@code --object} argument names: a number is an id, anything else a name
     * (exact, then ignoring case).
     *
     * @throws UsageException when no entry has that name
     */
    int resolve(String idOrName) throws UsageException {
        try {
            return Integer.parseInt(idOrName);
        } catch (NumberFormatException notANumber) {
            // A name: look it up.
        }
        for (boolean ignoreCase : new boolean[] {false, true}) {
            for (CatalogEntry entry : entries.values()) {
                if (ignoreCase ? entry.name().equalsIgnoreCase(idOrName) : entry.name().equals(idOrName)) {
                    return entry.objectId();
                }
            }
        }
        List<String> names = new ArrayList<>();
        for (CatalogEntry entry : entries.values()) {
            names.add(entry.name());
        }
        throw new UsageException("no table or index named '" + idOrName + "' in the catalog"
                + (complete ? "" : " (the catalog could not be read whole; give the object id instead)")
                + (names.isEmpty() ? "" : "; it has " + String.join(", ", names)));
    }

    static int bigEndianInt(byte[] bytes) {
        return ByteBuffer.wrap(bytes).getInt();
    }
}
