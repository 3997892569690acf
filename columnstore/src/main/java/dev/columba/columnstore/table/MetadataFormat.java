package dev.columba.columnstore.table;

import dev.columba.columnstore.build.ColumnstoreOptions;
import dev.columba.columnstore.build.TrimReason;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The serialized forms of a columnstore table's metadata in its rowgroup directory B+tree
 * (docs/format/columnstore-metadata.md), big-endian, shared by writer and reader.
 */
final class MetadataFormat {
    private MetadataFormat() {
    }

    static final int VERSION = 1;
    /** Key of the table's own record: sorts after every four-byte rowgroup key. */
    static final byte[] TABLE_KEY = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF};

    /** The table's own record: where its delete bitmap is, and its counters. */
    record TableRecord(long deleteBitmapRoot, long deleteBitmapOam, int nextRowgroupId) {
    }

    static byte[] rowgroupKey(int rowgroupId) {
        return new byte[] {(byte) (rowgroupId >>> 24), (byte) (rowgroupId >>> 16), (byte) (rowgroupId >>> 8), (byte) rowgroupId};
    }

    static int rowgroupIdOf(byte[] key) {
        return ((key[0] & 0xFF) << 24) | ((key[1] & 0xFF) << 16) | ((key[2] & 0xFF) << 8) | (key[3] & 0xFF);
    }

    static byte[] encode(RowgroupEntry entry) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeInt(entry.rowgroupId());
            out.writeByte(entry.state().ordinal());
            out.writeLong(entry.totalRows());
            out.writeLong(entry.deletedRows());
            out.writeLong(entry.sizeBytes());
            out.writeByte(entry.trimReason().ordinal());
            out.writeLong(entry.createdMicros());
            out.writeLong(entry.deltaRoot());
            out.writeLong(entry.deltaOam());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static RowgroupEntry decodeRowgroup(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            checkVersion(in.readUnsignedByte(), "rowgroup entry");
            int rowgroupId = in.readInt();
            RowgroupState state = enumAt(RowgroupState.values(), in.readUnsignedByte(), "rowgroup state");
            long totalRows = in.readLong();
            long deletedRows = in.readLong();
            long sizeBytes = in.readLong();
            TrimReason trimReason = enumAt(TrimReason.values(), in.readUnsignedByte(), "trim reason");
            return new RowgroupEntry(rowgroupId, state, totalRows, deletedRows, sizeBytes, trimReason, in.readLong(),
                    in.readLong(), in.readLong());
        } catch (IOException | IllegalArgumentException e) {
            throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "malformed rowgroup entry: " + e.getMessage(), e);
        }
    }

    static byte[] encode(TableRecord record) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(32);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeLong(record.deleteBitmapRoot());
            out.writeLong(record.deleteBitmapOam());
            out.writeInt(record.nextRowgroupId());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static TableRecord decodeTable(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            checkVersion(in.readUnsignedByte(), "columnstore table record");
            return new TableRecord(in.readLong(), in.readLong(), in.readInt());
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "malformed columnstore table record: " + e.getMessage(), e);
        }
    }

    private static void checkVersion(int version, String what) {
        if (version > VERSION) {
            throw new ColumbaException(ErrorCode.FORMAT_TOO_NEW, what + " has format version " + version
                    + ", newer than this build (" + VERSION + ")");
        }
        if (version < 1) {
            throw new ColumbaException(ErrorCode.INDEX_CORRUPT, what + " has format version " + version);
        }
    }

    private static <E> E enumAt(E[] values, int code, String what) {
        if (code >= values.length) {
            throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "unknown " + what + " " + code);
        }
        return values[code];
    }

    /** Delete bitmap key: rowgroup id then row position, both big-endian. */
    static byte[] deletedRowKey(int rowgroupId, int row) {
        return new byte[] {(byte) (rowgroupId >>> 24), (byte) (rowgroupId >>> 16), (byte) (rowgroupId >>> 8), (byte) rowgroupId,
            (byte) (row >>> 24), (byte) (row >>> 16), (byte) (row >>> 8), (byte) row};
    }

    /** Delta rowgroup key: the row's position in the rowgroup, big-endian. */
    static byte[] deltaKey(int row) {
        return new byte[] {(byte) (row >>> 24), (byte) (row >>> 16), (byte) (row >>> 8), (byte) row};
    }

    static int intAt(byte[] bytes, int offset) {
        return ((bytes[offset] & 0xFF) << 24) | ((bytes[offset + 1] & 0xFF) << 16) | ((bytes[offset + 2] & 0xFF) << 8)
                | (bytes[offset + 3] & 0xFF);
    }
}
