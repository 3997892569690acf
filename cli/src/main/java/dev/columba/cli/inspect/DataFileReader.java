package dev.columba.cli.inspect;

import static dev.columba.storage.page.PageFormat.PAGE_SIZE;

import dev.columba.storage.file.DataFileFormat;
import dev.columba.storage.page.PageFormat;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.UUID;

/**
 * Reads a data file page by page, read-only and without verifying: the caller decides what to make
 * of a bad page ({@link PageInfo}). Owns one page buffer: the segment {@link #read} returns is
 * valid until the next call. Not thread-safe; close to release the file and the buffer.
 */
final class DataFileReader implements AutoCloseable {
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** The body of page 0 (docs/format/data-file.md, "Page 0: file header"). */
    record FileHeader(long magic, int version, int pageSize, UUID databaseId, long createdMicros) {
    }

    /** The body of page 2 (docs/format/data-file.md, "Page 2: boot page"). */
    record Boot(long catalogRoot, long catalogFirstOamPage, int nextObjectId) {
    }

    private final ReadOnlyFile file;
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment page = arena.allocate(PAGE_SIZE, 4096);
    private final long pageCount;
    private final long trailingBytes;

    DataFileReader(Path path) {
        this.file = ReadOnlyFile.open(path);
        long size = file.size();
        this.pageCount = size / PAGE_SIZE;
        this.trailingBytes = size % PAGE_SIZE;
    }

    String name() {
        return file.path().toString();
    }

    long size() {
        return pageCount * PAGE_SIZE + trailingBytes;
    }

    /** Whole pages in the file. */
    long pageCount() {
        return pageCount;
    }

    /** Bytes after the last whole page: the file should hold whole extents, so any is damage. */
    long trailingBytes() {
        return trailingBytes;
    }

    boolean contains(long pageId) {
        return pageId >= 0 && pageId < pageCount;
    }

    /** Reads page {@code pageId}, which must be {@link #contains contained}; valid until the next read. */
    MemorySegment read(long pageId) {
        file.read(PageFormat.offsetOf(pageId), page);
        return page;
    }

    static FileHeader fileHeader(MemorySegment page) {
        return new FileHeader(page.get(LONG, DataFileFormat.HEADER_MAGIC_OFFSET), page.get(INT, DataFileFormat.HEADER_VERSION_OFFSET),
                page.get(INT, DataFileFormat.HEADER_PAGE_SIZE_OFFSET),
                new UUID(page.get(LONG, DataFileFormat.HEADER_DATABASE_ID_HIGH_OFFSET),
                        page.get(LONG, DataFileFormat.HEADER_DATABASE_ID_LOW_OFFSET)),
                page.get(LONG, DataFileFormat.HEADER_CREATED_MICROS_OFFSET));
    }

    static Boot boot(MemorySegment page) {
        return new Boot(page.get(LONG, DataFileFormat.BOOT_CATALOG_ROOT_OFFSET),
                page.get(LONG, DataFileFormat.BOOT_CATALOG_ALLOCATION_OFFSET),
                page.get(INT, DataFileFormat.BOOT_NEXT_OBJECT_ID_OFFSET));
    }

    @Override
    public void close() {
        try {
            file.close();
        } finally {
            arena.close();
        }
    }
}
