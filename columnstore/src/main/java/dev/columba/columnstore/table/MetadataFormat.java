package dev.columba.columnstore.table;

import dev.columba.columnstore.build.TrimReason;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The keys and values of a columnstore table's metadata in its rowgroup directory, delete bitmap
 * and delta rowgroup B+trees (docs/format/columnstore-metadata.md), big-endian, shared by writer and
 * reader. The decoders are public for {@code columba inspect}, which walks these B+trees page by
 * page: every value is checked field by field, and a bad one is an error naming the field's
 * offset and value, never a misread.
 */
public final class MetadataFormat {
    private MetadataFormat() {
    }

    public static final int VERSION = 1;

    /** A rowgroup directory key: the rowgroup id. */
    public static final int ROWGROUP_KEY_LENGTH = 4;
    /** A delete bitmap key: rowgroup id, then the row's position. */
    public static final int DELETED_ROW_KEY_LENGTH = 8;
    /** A delta rowgroup key: the row's position. */
    public static final int DELTA_KEY_LENGTH = 4;

    /** Key of the table's own record: sorts after every four-byte rowgroup key. */
    static final byte[] TABLE_KEY = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF};

    // Rowgroup entry fields: offsets in the value.
    private static final int ENTRY_VERSION = 0;
    private static final int ENTRY_ROWGROUP_ID = 1;
    private static final int ENTRY_STATE = 5;
    private static final int ENTRY_TOTAL_ROWS = 6;
    private static final int ENTRY_DELETED_ROWS = 14;
    private static final int ENTRY_SIZE_BYTES = 22;
    private static final int ENTRY_TRIM_REASON = 30;
    private static final int ENTRY_CREATED = 31;
    private static final int ENTRY_DELTA_ROOT = 39;
    private static final int ENTRY_DELTA_OAM = 47;
    static final int ENTRY_LENGTH = 55;

    // Table record fields: offsets in the value.
    private static final int RECORD_VERSION = 0;
    private static final int RECORD_DELETE_BITMAP_ROOT = 1;
    private static final int RECORD_DELETE_BITMAP_OAM = 9;
    private static final int RECORD_NEXT_ROWGROUP_ID = 17;
    static final int RECORD_LENGTH = 21;

    /** The table's own record: where its delete bitmap is, and the next rowgroup id to give out. */
    public record TableRecord(long deleteBitmapRoot, long deleteBitmapOam, int nextRowgroupId) {
    }

    /** Whether {@code key} is the table record's, {@code FF FF FF FF FF}. */
    public static boolean isTableKey(byte[] key) {
        return Arrays.equals(key, TABLE_KEY);
    }

    static byte[] rowgroupKey(int rowgroupId) {
        return ByteBuffer.allocate(ROWGROUP_KEY_LENGTH).putInt(rowgroupId).array();
    }

    /** Delete bitmap key: rowgroup id then row position. */
    static byte[] deletedRowKey(int rowgroupId, int row) {
        return ByteBuffer.allocate(DELETED_ROW_KEY_LENGTH).putInt(rowgroupId).putInt(row).array();
    }

    /** Delta rowgroup key: the row's position in the rowgroup. */
    static byte[] deltaKey(int row) {
        return ByteBuffer.allocate(DELTA_KEY_LENGTH).putInt(row).array();
    }

    /**
     * The rowgroup a delete bitmap key names.
     *
     * @throws ColumbaException INDEX_CORRUPT when the key is not {@value #DELETED_ROW_KEY_LENGTH} bytes
     */
    public static int deletedRowgroupOf(byte[] key) {
        checkLength(key, DELETED_ROW_KEY_LENGTH, "delete bitmap key", "(rowgroup, position)");
        return ByteBuffer.wrap(key).getInt(0);
    }

    /**
     * The row position a delete bitmap key names.
     *
     * @throws ColumbaException INDEX_CORRUPT when the key is not {@value #DELETED_ROW_KEY_LENGTH} bytes
     */
    public static int deletedPositionOf(byte[] key) {
        checkLength(key, DELETED_ROW_KEY_LENGTH, "delete bitmap key", "(rowgroup, position)");
        return ByteBuffer.wrap(key).getInt(ROWGROUP_KEY_LENGTH);
    }

    /**
     * The row position a delta rowgroup key names.
     *
     * @throws ColumbaException INDEX_CORRUPT when the key is not {@value #DELTA_KEY_LENGTH} bytes
     */
    public static int deltaPositionOf(byte[] key) {
        checkLength(key, DELTA_KEY_LENGTH, "delta rowgroup key", "(position)");
        return ByteBuffer.wrap(key).getInt(0);
    }

    private static void checkLength(byte[] key, int length, String what, String fields) {
        if (key.length != length) {
            throw new ColumbaException(ErrorCode.INDEX_CORRUPT, what + " " + hex(key) + " is " + key.length
                    + " bytes, expected " + length + " " + fields);
        }
    }

    static byte[] encode(RowgroupEntry entry) {
        return ByteBuffer.allocate(ENTRY_LENGTH)
                .put(ENTRY_VERSION, (byte) VERSION)
                .putInt(ENTRY_ROWGROUP_ID, entry.rowgroupId())
                .put(ENTRY_STATE, (byte) entry.state().ordinal())
                .putLong(ENTRY_TOTAL_ROWS, entry.totalRows())
                .putLong(ENTRY_DELETED_ROWS, entry.deletedRows())
                .putLong(ENTRY_SIZE_BYTES, entry.sizeBytes())
                .put(ENTRY_TRIM_REASON, (byte) entry.trimReason().ordinal())
                .putLong(ENTRY_CREATED, entry.createdMicros())
                .putLong(ENTRY_DELTA_ROOT, entry.deltaRoot())
                .putLong(ENTRY_DELTA_OAM, entry.deltaOam())
                .array();
    }

    /**
     * Decodes a rowgroup directory entry from its key and value.
     *
     * @throws ColumbaException FORMAT_TOO_NEW for a version above {@value #VERSION}; INDEX_CORRUPT
     *     for a key that is not a rowgroup id, a value of the wrong length, a rowgroup id other than
     *     the key's, an unknown state or trim reason, or counts that contradict each other, naming
     *     the offset and value
     */
    public static RowgroupEntry decodeRowgroup(byte[] key, byte[] value) {
        if (key.length != ROWGROUP_KEY_LENGTH) {
            throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "rowgroup directory key " + hex(key) + " is neither a "
                    + ROWGROUP_KEY_LENGTH + "-byte rowgroup id nor the table record's " + hex(TABLE_KEY));
        }
        int keyId = ByteBuffer.wrap(key).getInt();
        String what = "the rowgroup directory entry of rowgroup " + keyId;
        ByteBuffer bytes = checkedValue(value, ENTRY_LENGTH, what);
        int rowgroupId = bytes.getInt(ENTRY_ROWGROUP_ID);
        if (rowgroupId != keyId) {
            throw corrupt(what + " names rowgroup " + rowgroupId + " at offset " + ENTRY_ROWGROUP_ID);
        }
        int state = Byte.toUnsignedInt(bytes.get(ENTRY_STATE));
        if (state >= RowgroupState.values().length) {
            throw corrupt(what + " has state " + state + " at offset " + ENTRY_STATE + ", expected 0 to "
                    + (RowgroupState.values().length - 1));
        }
        int trim = Byte.toUnsignedInt(bytes.get(ENTRY_TRIM_REASON));
        if (trim >= TrimReason.values().length) {
            throw corrupt(what + " has trim reason " + trim + " at offset " + ENTRY_TRIM_REASON + ", expected 0 to "
                    + (TrimReason.values().length - 1));
        }
        try {
            return new RowgroupEntry(rowgroupId, RowgroupState.values()[state], bytes.getLong(ENTRY_TOTAL_ROWS),
                    bytes.getLong(ENTRY_DELETED_ROWS), bytes.getLong(ENTRY_SIZE_BYTES), TrimReason.values()[trim],
                    bytes.getLong(ENTRY_CREATED), bytes.getLong(ENTRY_DELTA_ROOT), bytes.getLong(ENTRY_DELTA_OAM));
        } catch (IllegalArgumentException contradictory) {
            throw new ColumbaException(ErrorCode.INDEX_CORRUPT, what + " (total rows at offset " + ENTRY_TOTAL_ROWS
                    + ", deleted rows at offset " + ENTRY_DELETED_ROWS + "): " + contradictory.getMessage(), contradictory);
        }
    }

    static byte[] encode(TableRecord record) {
        return ByteBuffer.allocate(RECORD_LENGTH)
                .put(RECORD_VERSION, (byte) VERSION)
                .putLong(RECORD_DELETE_BITMAP_ROOT, record.deleteBitmapRoot())
                .putLong(RECORD_DELETE_BITMAP_OAM, record.deleteBitmapOam())
                .putInt(RECORD_NEXT_ROWGROUP_ID, record.nextRowgroupId())
                .array();
    }

    /**
     * Decodes the table record, the value under {@link #isTableKey the table key}.
     *
     * @throws ColumbaException FORMAT_TOO_NEW for a version above {@value #VERSION}; INDEX_CORRUPT
     *     for a value of the wrong length or a negative next rowgroup id, naming the offset and value
     */
    public static TableRecord decodeTable(byte[] value) {
        String what = "the columnstore table record";
        ByteBuffer bytes = checkedValue(value, RECORD_LENGTH, what);
        int next = bytes.getInt(RECORD_NEXT_ROWGROUP_ID);
        if (next < 0) {
            throw corrupt(what + " gives next rowgroup id " + next + " at offset " + RECORD_NEXT_ROWGROUP_ID);
        }
        return new TableRecord(bytes.getLong(RECORD_DELETE_BITMAP_ROOT), bytes.getLong(RECORD_DELETE_BITMAP_OAM), next);
    }

    /** The value checked for its version (first, so that a newer, longer value says so) and its length. */
    private static ByteBuffer checkedValue(byte[] value, int length, String what) {
        if (value.length == 0) {
            throw corrupt(what + " is empty, expected " + length + " bytes");
        }
        int version = Byte.toUnsignedInt(value[0]);
        if (version > VERSION) {
            throw new ColumbaException(ErrorCode.FORMAT_TOO_NEW, what + " has format version " + version
                    + " at offset 0, newer than this build reads (" + VERSION + ")");
        }
        if (version < 1) {
            throw corrupt(what + " has format version " + version + " at offset 0, expected 1 to " + VERSION);
        }
        if (value.length != length) {
            throw corrupt(what + " is " + value.length + " bytes, expected " + length);
        }
        return ByteBuffer.wrap(value);
    }

    private static ColumbaException corrupt(String message) {
        return new ColumbaException(ErrorCode.INDEX_CORRUPT, message);
    }

    private static String hex(byte[] bytes) {
        return HexFormat.ofDelimiter(" ").withUpperCase().formatHex(bytes);
    }
}
