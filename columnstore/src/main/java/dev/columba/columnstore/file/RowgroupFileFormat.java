package dev.columba.columnstore.file;

/**
 * Constants of the rowgroup file (docs/format/rowgroup-file.md), shared by writer and reader.
 *
 * <pre>
 * header (64 bytes)  magic "CLMBRGRP", version, flags, rowgroup id, rows, columns, blobs, crc of the header
 * blobs              each starting at a multiple of 8 KB: one segment per column, then one secondary
 *                    dictionary per column (empty where the column has none)
 * footer             per blob: offset, length, crc32c of the blob, metadata length, metadata
 * trailer (24 bytes) footer offset, footer length, crc32c of the footer, magic "CLMBRGRP"
 * </pre>
 * Little-endian.
 */
public final class RowgroupFileFormat {
    private RowgroupFileFormat() {
    }

    /** "CLMBRGRP" as a little-endian u64. */
    public static final long MAGIC = 0x50524752424d4c43L;
    public static final int VERSION = 1;
    public static final int HEADER_SIZE = 64;
    public static final int TRAILER_SIZE = 24;
    /** Segments start on 8 KB boundaries: each occupies whole 8 KB units, the unit the counters speak. */
    public static final int SEGMENT_ALIGNMENT = 8192;

    public static final int FLAG_ARCHIVE = 1;

    static final int HEADER_MAGIC = 0;
    static final int HEADER_VERSION = 8;
    static final int HEADER_FLAGS = 12;
    static final int HEADER_ROWGROUP_ID = 16;
    static final int HEADER_ROWS = 20;
    static final int HEADER_COLUMNS = 24;
    static final int HEADER_BLOBS = 26;
    static final int HEADER_CRC = 60;

    /** Footer entry before its metadata: u64 offset, u64 length, u32 crc, u32 metadata length. */
    static final int FOOTER_ENTRY_FIXED = 24;

    static long align(long offset) {
        return (offset + SEGMENT_ALIGNMENT - 1) / SEGMENT_ALIGNMENT * SEGMENT_ALIGNMENT;
    }
}
