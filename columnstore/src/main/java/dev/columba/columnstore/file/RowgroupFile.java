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
 * {@code MADV_RANDOM}, its trailer, footer and header checked when mapped. Segments are slices of
 * the mapping; their checksums are checked by {@link #verifySegment} when a scan first decodes
 * them, once per opening. Slices must not be used after {@link #close()}.
 *
 * <p>An opening is either the file's own ({@link #open}: closing it unmaps the file) or one of
 * several over a mapping a database keeps between statements ({@link RowgroupMappings}: closing it
 * hands the mapping back). Either way what was verified is the opening's own.
 */
public final class RowgroupFile implements AutoCloseable {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final Mapped file;
    private final Runnable release;
    private final boolean[] verified;
    private boolean closed;

    RowgroupFile(Mapped file, Runnable release) {
        this.file = file;
        this.release = release;
        this.verified = new boolean[file.offsets.length];
    }

    /**
     * A mapped rowgroup file, checked: its header, trailer and footer parsed and their checksums
     * verified. Immutable once made, so openings on several threads may share it; the mapping lives
     * until {@link #unmap()}.
     */
    static final class Mapped {
        final Path path;
        private final Arena arena;
        final MemorySegment mapping;
        final int rowgroupId;
        final int rows;
        final int flags;
        final int columns;
        final long[] offsets;
        final long[] lengths;
        final int[] checksums;
        final byte[][] metadata;
        private final int headerCrc;
        private final long footerOffset;
        private final int footerLength;
        private final int footerCrc;

        private Mapped(Path path, Arena arena, MemorySegment mapping) {
            this.path = path;
            this.arena = arena;
            this.mapping = mapping;
            long size = mapping.byteSize();
            if (size < HEADER_SIZE + TRAILER_SIZE) {
                throw corrupt(path, ErrorCode.FILE_TRUNCATED, 0, "is " + size + " bytes, shorter than a header and trailer");
            }
            long trailer = size - TRAILER_SIZE;
            long trailerMagic = mapping.get(LONG, trailer + TRAILER_MAGIC);
            long headerMagic = mapping.get(LONG, HEADER_MAGIC);
            if (headerMagic != MAGIC) {
                throw corrupt(path, ErrorCode.FILE_MAGIC_MISMATCH, 0, String.format("has magic 0x%016x, not a rowgroup file", headerMagic));
            }
            if (trailerMagic != MAGIC) {
                throw corrupt(path, ErrorCode.FILE_TRUNCATED, trailer + TRAILER_MAGIC, String.format(
                        "ends with 0x%016x instead of the trailer magic: the file is cut short or overwritten", trailerMagic));
            }
            int version = mapping.get(INT, HEADER_VERSION);
            if (version > VERSION) {
                throw corrupt(path, ErrorCode.FORMAT_TOO_NEW, HEADER_VERSION, "has format version " + version
                        + ", newer than this build (" + VERSION + ")");
            }
            if (version < 1) {
                throw corrupt(path, ErrorCode.FORMAT_TOO_OLD, HEADER_VERSION, "has format version " + version);
            }
            this.headerCrc = mapping.get(INT, HEADER_CRC);
            int computed = ColumnstoreChecksum.of(mapping.asSlice(0, HEADER_CRC));
            if (headerCrc != computed) {
                throw corrupt(path, ErrorCode.PAGE_CHECKSUM_MISMATCH, HEADER_CRC, String.format(
                        "has a corrupt header: checksum 0x%08x, computed 0x%08x", headerCrc, computed));
            }
            this.rowgroupId = mapping.get(INT, HEADER_ROWGROUP_ID);
            this.rows = mapping.get(INT, HEADER_ROWS);
            this.flags = mapping.get(INT, HEADER_FLAGS);
            this.columns = Short.toUnsignedInt(mapping.get(SHORT, HEADER_COLUMNS));
            int blobs = Short.toUnsignedInt(mapping.get(SHORT, HEADER_BLOBS));
            if (blobs < columns) {
                throw corrupt(path, ErrorCode.PAGE_CHECKSUM_MISMATCH, HEADER_BLOBS, "has " + blobs + " blobs for " + columns + " columns");
            }
            this.footerOffset = mapping.get(LONG, trailer + TRAILER_FOOTER_OFFSET);
            this.footerLength = mapping.get(INT, trailer + TRAILER_FOOTER_LENGTH);
            if (footerOffset < HEADER_SIZE || footerLength < 0 || footerOffset + footerLength != trailer) {
                throw corrupt(path, ErrorCode.PAGE_CHECKSUM_MISMATCH, trailer, "has a trailer naming a footer at " + footerOffset
                        + " of " + footerLength + " bytes, which does not end at the trailer (" + trailer + ")");
            }
            this.footerCrc = mapping.get(INT, trailer + TRAILER_FOOTER_CRC);
            int footerComputed = ColumnstoreChecksum.of(mapping.asSlice(footerOffset, footerLength));
            if (footerCrc != footerComputed) {
                throw corrupt(path, ErrorCode.PAGE_CHECKSUM_MISMATCH, footerOffset, String.format(
                        "has a corrupt footer: checksum 0x%08x, computed 0x%08x", footerCrc, footerComputed));
            }
            offsets = new long[blobs];
            lengths = new long[blobs];
            checksums = new int[blobs];
            metadata = new byte[blobs][];
            long at = footerOffset;
            for (int column = 0; column < blobs; column++) {
                if (at + FOOTER_ENTRY_FIXED > trailer) {
                    throw corrupt(path, ErrorCode.PAGE_CHECKSUM_MISMATCH, at, "has a footer too short for " + blobs + " blobs");
                }
                offsets[column] = mapping.get(LONG, at + ENTRY_BLOB_OFFSET);
                lengths[column] = mapping.get(LONG, at + ENTRY_BLOB_LENGTH);
                checksums[column] = mapping.get(INT, at + ENTRY_BLOB_CRC);
                int metadataLength = mapping.get(INT, at + ENTRY_METADATA_LENGTH);
                if (offsets[column] < HEADER_SIZE || lengths[column] < 0 || offsets[column] + lengths[column] > footerOffset
                        || metadataLength < 0 || at + FOOTER_ENTRY_FIXED + metadataLength > trailer) {
                    throw corrupt(path, ErrorCode.PAGE_CHECKSUM_MISMATCH, at, "has a footer entry for column " + column
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
        static Mapped map(FilesFacade files, Path path) {
            Arena arena = Arena.ofShared();
            try (FileHandle file = files.open(path, FilesFacade.OpenMode.READ, false)) {
                long size = file.size();
                if (size == 0) {
                    throw new ColumbaException(ErrorCode.FILE_TRUNCATED, "rowgroup file " + path + " is empty");
                }
                return new Mapped(path, arena, MemoryMapping.mapReadOnly(file, size, arena));
            } catch (RuntimeException e) {
                arena.close();
                throw e;
            }
        }

        /**
         * Whether the mapped header and footer still hold the bytes checked when this was made (their
         * checksums computed again, and equal to both those stored in the file and those parsed): a
         * mapping kept between statements shows whatever was written into the file since, and what
         * was parsed from it must not outlive the bytes it came from.
         */
        boolean unchanged() {
            long trailer = mapping.byteSize() - TRAILER_SIZE;
            return mapping.get(INT, HEADER_CRC) == headerCrc
                    && ColumnstoreChecksum.of(mapping.asSlice(0, HEADER_CRC)) == headerCrc
                    && mapping.get(INT, trailer + TRAILER_FOOTER_CRC) == footerCrc
                    && mapping.get(LONG, trailer + TRAILER_FOOTER_OFFSET) == footerOffset
                    && mapping.get(INT, trailer + TRAILER_FOOTER_LENGTH) == footerLength
                    && ColumnstoreChecksum.of(mapping.asSlice(footerOffset, footerLength)) == footerCrc;
        }

        /** Unmaps the file: no opening over it may be used after this. */
        void unmap() {
            arena.close();
        }
    }

    /**
     * Maps and checks the rowgroup file at {@code path}, for this opening alone: closing it unmaps
     * the file.
     *
     * @throws ColumbaException FILE_TRUNCATED, FILE_MAGIC_MISMATCH, FORMAT_TOO_NEW/OLD or
     *         PAGE_CHECKSUM_MISMATCH naming the file and the offset
     */
    public static RowgroupFile open(FilesFacade files, Path path) {
        Mapped mapped = Mapped.map(files, path);
        return new RowgroupFile(mapped, mapped::unmap);
    }

    private static ColumbaException corrupt(Path path, ErrorCode code, long offset, String problem) {
        return new ColumbaException(code, "rowgroup file " + path + " (offset " + offset + ") " + problem);
    }

    public Path path() {
        return file.path;
    }

    public int rowgroupId() {
        return file.rowgroupId;
    }

    public int rows() {
        return file.rows;
    }

    public int flags() {
        return file.flags;
    }

    public int columnCount() {
        return file.columns;
    }

    /** Blobs in the file: the column segments, then whatever follows them (secondary dictionaries). */
    public int blobCount() {
        return file.offsets.length;
    }

    /** The whole mapping, for read-ahead and residency checks. */
    public MemorySegment mapping() {
        return file.mapping;
    }

    public long size() {
        return file.mapping.byteSize();
    }

    public long segmentOffset(int column) {
        return file.offsets[column];
    }

    public long segmentLength(int column) {
        return file.lengths[column];
    }

    /** The footer metadata stored for blob {@code column} (a column's segment below {@link #columnCount()}). */
    public byte[] metadata(int column) {
        return file.metadata[column];
    }

    /** The segment's bytes, a slice of the mapping. Touching them may fault pages in. */
    public MemorySegment segment(int column) {
        return file.mapping.asSlice(file.offsets[column], file.lengths[column]);
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
        if (computed != file.checksums[column]) {
            throw corrupt(file.path, ErrorCode.PAGE_CHECKSUM_MISMATCH, file.offsets[column], String.format(
                    "has a corrupt segment for column %d: checksum 0x%08x, computed 0x%08x", column, file.checksums[column],
                    computed));
        }
        verified[column] = true;
    }

    /** Whether blob {@code column}'s checksum was checked in this opening ({@link #verifySegment}). */
    public boolean verified(int column) {
        return verified[column];
    }

    /** The checksum the footer gives for blob {@code column}. */
    public int segmentChecksum(int column) {
        return file.checksums[column];
    }

    /** Ends this opening: unmaps the file, or hands the mapping back to the database that keeps it. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            release.run();
        }
    }
}
