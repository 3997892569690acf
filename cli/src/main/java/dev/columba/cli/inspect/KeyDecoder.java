package dev.columba.cli.inspect;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.storage.catalog.Catalog;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.heap.Heap;
import dev.columba.storage.row.KeyCodec;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Turns the B+tree keys of one object into values a person can read, with the key types the
 * catalog gives (docs/format/row.md, "Keys"):
 * <ul>
 *   <li>the catalog: the object id, four big-endian bytes;</li>
 *   <li>a clustered table: its key columns, plus a four-byte big-endian uniquifier when the key
 *       is not unique;</li>
 *   <li>a secondary index: its key columns, then the row's locator: the table's clustered key, or
 *       the eight-byte big-endian row id of a heap row.</li>
 * </ul>
 * The uniquifier and the locator layout belong to storage's {@code TableStore} and
 * {@code IndexStore} (package-private there) and are repeated here.
 */
final class KeyDecoder {
    private static final int UNIQUIFIER_BYTES = 4;
    private static final int ROW_ID_BYTES = 8;

    /** Null for the catalog, whose key is an object id. */
    private final KeyCodec columns;
    private final boolean uniquifier;
    private final boolean rowIdLocator;
    /** The table's clustered key, which follows an index key; null otherwise. */
    private final KeyDecoder clusteredLocator;

    private KeyDecoder(KeyCodec columns, boolean uniquifier, boolean rowIdLocator, KeyDecoder clusteredLocator) {
        this.columns = columns;
        this.uniquifier = uniquifier;
        this.rowIdLocator = rowIdLocator;
        this.clusteredLocator = clusteredLocator;
    }

    /** The decoder for the keys of {@code objectId}, or null when the catalog does not say enough. */
    static KeyDecoder forObject(int objectId, CatalogView catalog) {
        if (objectId == Catalog.CATALOG_OBJECT_ID) {
            return new KeyDecoder(null, false, false, null);
        }
        CatalogEntry entry = catalog.entry(objectId).orElse(null);
        return switch (entry) {
            case null -> null;
            case CatalogEntry.Table table -> table.organization() == CatalogEntry.Organization.CLUSTERED
                    ? clustered(table) : null;
            case CatalogEntry.Index index -> {
                if (!(catalog.entry(index.tableId()).orElse(null) instanceof CatalogEntry.Table table)) {
                    yield null;
                }
                KeyCodec codec = new KeyCodec(types(table.schema(), index.keyColumns()), index.descending());
                yield table.organization() == CatalogEntry.Organization.HEAP
                        ? new KeyDecoder(codec, false, true, null)
                        : new KeyDecoder(codec, false, false, clustered(table));
            }
            case CatalogEntry.View ignored -> null;
            case CatalogEntry.PartitionObject ignored -> null;
            case CatalogEntry.Login ignored -> null;
        };
    }

    private static KeyDecoder clustered(CatalogEntry.Table table) {
        return new KeyDecoder(new KeyCodec(types(table.schema(), table.keyColumns())), !table.uniqueKey(), false, null);
    }

    private static List<SqlType> types(TableSchema schema, List<Integer> columnIndexes) {
        List<SqlType> types = new ArrayList<>();
        for (int column : columnIndexes) {
            types.add(schema.column(column).type());
        }
        return types;
    }

    /**
     * The key's values, e.g. {@code (42, 'abc') uniquifier 3} or {@code ('abc') -> row id 81920 (page 5, slot 0)}.
     *
     * @throws ColumbaException INDEX_CORRUPT when the bytes are not one whole key of this shape
     */
    String decode(byte[] key) {
        if (columns == null) {
            if (key.length != 4) {
                throw corrupt("a catalog key is a 4-byte object id, this one has " + key.length + " bytes");
            }
            return "object " + CatalogView.bigEndianInt(key);
        }
        MemorySegment bytes = MemorySegment.ofArray(key);
        int length = columns.encodedLength(bytes, 0);
        String values = ValueText.tuple(columns.decode(bytes, 0, length));
        int rest = key.length - length;
        if (uniquifier) {
            expect(rest, UNIQUIFIER_BYTES, "uniquifier");
            return values + " uniquifier " + Integer.toUnsignedLong(CatalogView.bigEndianInt(tail(key, length)));
        }
        if (rowIdLocator) {
            expect(rest, ROW_ID_BYTES, "heap row id");
            long rowId = 0;
            for (int index = length; index < key.length; index++) {
                rowId = (rowId << 8) | (key[index] & 0xFF);
            }
            return values + " -> row id " + rowId + " (page " + Heap.pageOf(rowId) + ", slot " + Heap.slotOf(rowId) + ")";
        }
        if (clusteredLocator != null) {
            return values + " -> " + clusteredLocator.decode(tail(key, length));
        }
        expect(rest, 0, "nothing");
        return values;
    }

    private static byte[] tail(byte[] key, int from) {
        return Arrays.copyOfRange(key, from, key.length);
    }

    private static void expect(int rest, int expected, String what) {
        if (rest != expected) {
            throw corrupt(rest + " bytes follow the key columns, expected " + expected + " (" + what + ")");
        }
    }

    private static ColumbaException corrupt(String message) {
        return new ColumbaException(ErrorCode.INDEX_CORRUPT, message);
    }
}
