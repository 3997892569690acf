package dev.columba.columnstore.file;

/**
 * Constants of the rowgroup file (docs/format/rowgroup-file.md), shared by writer and reader, and
 * public for the other reader of the format, {@code columba inspect}.
 *
 * <pre>
 * header (64 bytes)  magic "CLMBRGRP", version, flags, rowgroup id, rows, columns, blobs, crc of the header
 * blobs              each starting at a multiple of 8 KB: one segment per column, then one secondary
 *                    dictionary per column (empty where the column has none)
 * footer             per blob: offset, length, crc32c of the blob, metadata length, metadata
 * trailer (24 bytes) footer offset, footer length, crc32c of the footer, magic "CLMBRGRP"
 * </pre>
 * Little-endian. Checksums are {@link ColumnstoreChecksum}s.
 */
public final class RowgroupFileFormat {
    private RowgroupFileFormat() {
    }

    /** "CLMBRGRP" as a little-endian u64. */
    public static final long MAGIC = 0x50524752424d4c43L;
    /** The version this code writes, and the newest it reads (the oldest is 1). */
    public static final int VERSION = 1;
    public static final int HEADER_SIZE = 64;
    public static final int TRAILER_SIZE = 24;
    /** Segments start on 8 KB boundaries: each occupies whole 8 KB units, the unit the counters speak. */
    public static final int SEGMENT_ALIGNMENT = 8192;

    public static final int FLAG_ARCHIVE = 1;

    // Header fields: offsets from the start of the file.
    public static final int HEADER_MAGIC = 0;
    public static final int HEADER_VERSION = 8;
    public static final int HEADER_FLAGS = 12;
    public static final int HEADER_ROWGROUP_ID = 16;
    public static final int HEADER_ROWS = 20;
    /** u16. */
    public static final int HEADER_COLUMNS = 24;
    /** u16. */
    public static final int HEADER_BLOBS = 26;
    /** The header's CRC32C covers bytes {@code [0, HEADER_CRC)}. */
    public static final int HEADER_CRC = 60;

    // Footer entry fields: offsets from the start of the entry.
    public static final int ENTRY_BLOB_OFFSET = 0;
    public static final int ENTRY_BLOB_LENGTH = 8;
    /** The CRC32C of the blob's bytes. */
    public static final int ENTRY_BLOB_CRC = 16;
    public static final int ENTRY_METADATA_LENGTH = 20;
    /** Footer entry before its metadata: u64 offset, u64 length, u32 crc, u32 metadata length. */
    public static final int FOOTER_ENTRY_FIXED = 24;

    // Trailer fields: offsets from the start of the trailer.
    public static final int TRAILER_FOOTER_OFFSET = 0;
    /** u32. */
    public static final int TRAILER_FOOTER_LENGTH = 8;
    /** The CRC32C of the footer's bytes. */
    public static final int TRAILER_FOOTER_CRC = 12;
    public static final int TRAILER_MAGIC = 16;

    static long align(long offset) {
        return (offset + SEGMENT_ALIGNMENT - 1) / SEGMENT_ALIGNMENT * SEGMENT_ALIGNMENT;
    }
}
