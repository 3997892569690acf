package dev.columba.columnstore.file;

import static dev.columba.columnstore.file.RowgroupFileFormat.*;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import dev.columba.storage.io.MemoryMapping;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * A rowgroup file opened for reading: the whole file memory-mapped read-only with
 * {@code MADV_RANDOM}, its trailer, footer and header checked when opened. Segments are slices of
 * the mapping; their checksums are checked by {@link #verifySegment} when a scan first decodes
 * them. The mapping lives until {@link #close()}; slices must not be used after it.
 */
public final class RowgroupFile implements AutoCloseable {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final Path path;
    private final Arena arena;
    private final MemorySegment mapping;
    private final int rowgroupId;
    private final int rows;
    private final int flags;
    private final int columns;
    private final long[] offsets;
    private final long[] lengths;
    private final int[] checksums;
    private final byte[][] metadata;
    private final boolean[] verified;

    private RowgroupFile(Path path, Arena arena, MemorySegment mapping) {
        this.path = path;
        this.arena = arena;
        this.mapping = mapping;
        long size = mapping.byteSize();
        if (size < HEADER_SIZE + TRAILER_SIZE) {
            throw corrupt(ErrorCode.FILE_TRUNCATED, 0, "is " + size + " bytes, shorter than a header and trailer");
        }
        long trailer = size - TRAILER_SIZE;
        long trailerMagic = mapping.get(LONG, trailer + TRAILER_MAGIC);
        long headerMagic = mapping.get(LONG, HEADER_MAGIC);
        if (headerMagic != MAGIC) {
            throw corrupt(ErrorCode.FILE_MAGIC_MISMATCH, 0, String.format("has magic 0x%016x, not a rowgroup file", headerMagic));
        }
        if (trailerMagic != MAGIC) {
            throw corrupt(ErrorCode.FILE_TRUNCATED, trailer + TRAILER_MAGIC, String.format(
                    "ends with 0x%016x instead of the trailer magic: the file is cut short or overwritten", trailerMagic));
        }
        int version = mapping.get(INT, HEADER_VERSION);
        if (version > VERSION) {
            throw corrupt(ErrorCode.FORMAT_TOO_NEW, HEADER_VERSION, "has format version " + version
                    + ", newer than this build (" + VERSION + ")");
        }
        if (version < 1) {
            throw corrupt(ErrorCode.FORMAT_TOO_OLD, HEADER_VERSION, "has format version " + version);
        }
        int headerCrc = mapping.get(INT, HEADER_CRC);
        int computed = ColumnstoreChecksum.of(mapping.asSlice(0, HEADER_CRC));
        if (headerCrc != computed) {
            throw corrupt(ErrorCode.PAGE_CHECKSUM_MISMATCH, HEADER_CRC, String.format(
                    "has a corrupt header: checksum 0x%08x, computed 0x%08x", headerCrc, computed));
        }
        this.rowgroupId = mapping.get(INT, HEADER_ROWGROUP_ID);
        this.rows = mapping.get(INT, HEADER_ROWS);
        this.flags = mapping.get(INT, HEADER_FLAGS);
        this.columns = Short.toUnsignedInt(mapping.get(SHORT, HEADER_COLUMNS));
        int blobs = Short.toUnsignedInt(mapping.get(SHORT, HEADER_BLOBS));
        if (blobs < columns) {
            throw corrupt(ErrorCode.PAGE_CHECKSUM_MISMATCH, HEADER_BLOBS, "has " + blobs + " blobs for " + columns + " columns");
        }
        long footerOffset = mapping.get(LONG, trailer + TRAILER_FOOTER_OFFSET);
        int footerLength = mapping.get(INT, trailer + TRAILER_FOOTER_LENGTH);
        if (footerOffset < HEADER_SIZE || footerLength < 0 || footerOffset + footerLength != trailer) {
            throw corrupt(ErrorCode.PAGE_CHECKSUM_MISMATCH, trailer, "has a trailer naming a footer at " + footerOffset
                    + " of " + footerLength + " bytes, which does not end at the trailer (" + trailer + ")");
        }
        int footerCrc = mapping.get(INT, trailer + TRAILER_FOOTER_CRC);
        int footerComputed = ColumnstoreChecksum.of(mapping.asSlice(footerOffset, footerLength));
        if (footerCrc != footerComputed) {
            throw corrupt(ErrorCode.PAGE_CHECKSUM_MISMATCH, footerOffset, String.format(
                    "has a corrupt footer: checksum 0x%08x, computed 0x%08x", footerCrc, footerComputed));
        }
        offsets = new long[blobs];
        lengths = new long[blobs];
        checksums = new int[blobs];
        metadata = new byte[blobs][];
        verified = new boolean[blobs];
        long at = footerOffset;
        for (int column = 0; column < blobs; column++) {
            if (at + FOOTER_ENTRY_FIXED > trailer) {
                throw corrupt(ErrorCode.PAGE_CHECKSUM_MISMATCH, at, "has a footer too short for " + blobs + " blobs");
            }
            offsets[column] = mapping.get(LONG, at + ENTRY_BLOB_OFFSET);
            lengths[column] = mapping.get(LONG, at + ENTRY_BLOB_LENGTH);
            checksums[column] = mapping.get(INT, at + ENTRY_BLOB_CRC);
            int metadataLength = mapping.get(INT, at + ENTRY_METADATA_LENGTH);
            if (offsets[column] < HEADER_SIZE || lengths[column] < 0 || offsets[column] + lengths[column] > footerOffset
                    || metadataLength < 0 || at + FOOTER_ENTRY_FIXED + metadataLength > trailer) {
                throw corrupt(ErrorCode.PAGE_CHECKSUM_MISMATCH, at, "has a footer entry for column " + column
                        + " outside the file: offset " + offsets[column] + ", length " + lengths[column]);
            }
            metadata[column] = mapping.asSlice(at + FOOTER_ENTRY_FIXED, metadataLength).toArray(ValueLayout.JAVA_BYTE);
            at += FOOTER_ENTRY_FIXED + metadataLength;
        }
    }

    /**
     * Maps and checks the rowgroup file at {@code path}.
     *
     * @throws ColumbaException FILE_TRUNCATED, FILE_MAGIC_MISMATCH, FORMAT_TOO_NEW/OLD or
     *         PAGE_CHECKSUM_MISMATCH naming the file and the offset
     */
    public static RowgroupFile open(FilesFacade files, Path path) {
        Arena arena = Arena.ofShared();
        try (FileHandle file = files.open(path, FilesFacade.OpenMode.READ, false)) {
            long size = file.size();
            if (size == 0) {
                throw new ColumbaException(ErrorCode.FILE_TRUNCATED, "rowgroup file " + path + " is empty");
            }
            return new RowgroupFile(path, arena, MemoryMapping.mapReadOnly(file, size, arena));
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    private ColumbaException corrupt(ErrorCode code, long offset, String problem) {
        return new ColumbaException(code, "rowgroup file " + path + " (offset " + offset + ") " + problem);
    }

    public Path path() {
        return path;
    }

    public int rowgroupId() {
        return rowgroupId;
    }

    public int rows() {
        return rows;
    }

    public int flags() {
        return flags;
    }

    public int columnCount() {
        return columns;
    }

    /** Blobs in the file: the column segments, then whatever follows them (secondary dictionaries). */
    public int blobCount() {
        return offsets.length;
    }

    /** The whole mapping, for read-ahead and residency checks. */
    public MemorySegment mapping() {
        return mapping;
    }

    public long size() {
        return mapping.byteSize();
    }

    public long segmentOffset(int column) {
        return offsets[column];
    }

    public long segmentLength(int column) {
        return lengths[column];
    }

    /** The footer metadata stored for blob {@code column} (a column's segment below {@link #columnCount()}). */
    public byte[] metadata(int column) {
        return metadata[column];
    }

    /** The segment's bytes, a slice of the mapping. Touching them may fault pages in. */
    public MemorySegment segment(int column) {
        return mapping.asSlice(offsets[column], lengths[column]);
    }

    /**
     * Checks the segment's checksum (once per opening).
     *
     * @throws ColumbaException PAGE_CHECKSUM_MISMATCH naming the file, column and offset
     */
    public void verifySegment(int column) {
        if (verified[column]) {
            return;
        }
        int computed = ColumnstoreChecksum.of(segment(column));
        if (computed != checksums[column]) {
            throw corrupt(ErrorCode.PAGE_CHECKSUM_MISMATCH, offsets[column], String.format(
                    "has a corrupt segment for column %d: checksum 0x%08x, computed 0x%08x", column, checksums[column], computed));
        }
        verified[column] = true;
    }

    /** Whether blob {@code column}'s checksum was checked in this opening ({@link #verifySegment}). */
    public boolean verified(int column) {
        return verified[column];
    }

    /** The checksum the footer gives for blob {@code column}. */
    public int segmentChecksum(int column) {
        return checksums[column];
    }

    /** Unmaps the file. */
    @Override
    public void close() {
        arena.close();
    }
}
