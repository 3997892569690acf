package dev.columba.columnstore.file;

import static dev.columba.columnstore.file.RowgroupFileFormat.*;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * Writes a rowgroup file: header, the segments in column order each on an 8 KB boundary, the
 * footer, the trailer. Written under a temporary name, forced to storage and renamed into place,
 * so the file either exists whole and durable or not at all.
 */
public final class RowgroupFileWriter {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private RowgroupFileWriter() {
    }

    /**
     * Writes the rowgroup to {@code target}: {@code segments} are the blobs in order, the first
     * {@code columns} of them the column segments.
     *
     * @return the file's size in bytes
     */
    public static long write(FilesFacade files, Path target, int rowgroupId, int rows, int flags, int columns,
                             List<SegmentBlob> segments) {
        if (columns < 0 || columns > segments.size()) {
            throw new IllegalArgumentException(columns + " columns among " + segments.size() + " blobs");
        }
        Path temporary = ColumnstoreFiles.temporaryFile(target);
        long[] offsets = new long[segments.size()];
        long position = HEADER_SIZE;
        for (int column = 0; column < segments.size(); column++) {
            position = align(position);
            offsets[column] = position;
            position += segments.get(column).bytes().length;
        }
        long footerOffset = position;
        long footerLength = 0;
        for (SegmentBlob segment : segments) {
            footerLength += FOOTER_ENTRY_FIXED + segment.metadata().length;
        }
        long size = footerOffset + footerLength + TRAILER_SIZE;
        try (Arena arena = Arena.ofConfined();
             FileHandle file = files.open(temporary, FilesFacade.OpenMode.CREATE, false)) {
            file.truncate(0);
            MemorySegment header = arena.allocate(HEADER_SIZE);
            header.set(LONG, HEADER_MAGIC, MAGIC);
            header.set(INT, HEADER_VERSION, VERSION);
            header.set(INT, HEADER_FLAGS, flags);
            header.set(INT, HEADER_ROWGROUP_ID, rowgroupId);
            header.set(INT, HEADER_ROWS, rows);
            header.set(SHORT, HEADER_COLUMNS, (short) columns);
            header.set(SHORT, HEADER_BLOBS, (short) segments.size());
            header.set(INT, HEADER_CRC, ColumnstoreChecksum.of(header.asSlice(0, HEADER_CRC)));
            file.write(0, header);
            for (int column = 0; column < segments.size(); column++) {
                byte[] bytes = segments.get(column).bytes();
                if (bytes.length > 0) {
                    file.write(offsets[column], MemorySegment.ofArray(bytes));
                }
            }
            MemorySegment footer = arena.allocate(Math.max(1, footerLength));
            long at = 0;
            for (int column = 0; column < segments.size(); column++) {
                SegmentBlob segment = segments.get(column);
                footer.set(LONG, at + ENTRY_BLOB_OFFSET, offsets[column]);
                footer.set(LONG, at + ENTRY_BLOB_LENGTH, segment.bytes().length);
                footer.set(INT, at + ENTRY_BLOB_CRC, ColumnstoreChecksum.of(MemorySegment.ofArray(segment.bytes())));
                footer.set(INT, at + ENTRY_METADATA_LENGTH, segment.metadata().length);
                MemorySegment.copy(segment.metadata(), 0, footer, ValueLayout.JAVA_BYTE, at + FOOTER_ENTRY_FIXED,
                        segment.metadata().length);
                at += FOOTER_ENTRY_FIXED + segment.metadata().length;
            }
            MemorySegment footerBytes = footer.asSlice(0, footerLength);
            if (footerLength > 0) {
                file.write(footerOffset, footerBytes);
            }
            MemorySegment trailer = arena.allocate(TRAILER_SIZE);
            trailer.set(LONG, TRAILER_FOOTER_OFFSET, footerOffset);
            trailer.set(INT, TRAILER_FOOTER_LENGTH, (int) footerLength);
            trailer.set(INT, TRAILER_FOOTER_CRC, ColumnstoreChecksum.of(footerBytes));
            trailer.set(LONG, TRAILER_MAGIC, MAGIC);
            file.write(footerOffset + footerLength, trailer);
            file.force(true);
        }
        try {
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot move " + temporary + " to " + target + ": " + e, e);
        }
        files.syncDirectory(target.toAbsolutePath().getParent());
        return size;
    }
}
