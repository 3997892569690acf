package dev.columba.storage.file;

import static dev.columba.storage.file.DataFileFormat.*;
import static dev.columba.storage.page.PageFormat.PAGE_SIZE;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.buffer.PageStore;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.page.PageType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.UUID;

/**
 * A data file of 8 KB pages in 64 KB extents (docs/format/data-file.md). Opened with
 * {@code POSIX_FADV_RANDOM} so the kernel does not read ahead on its own: every page the process
 * reads was asked for by Columba, which is what makes the read counters checkable against
 * {@code /proc/self/io}. With {@code direct} the page cache is bypassed entirely.
 */
public final class DataFile implements PageStore, AutoCloseable {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final FileHandle file;
    private final String name;
    private final UUID databaseId;
    private final int fileId;

    private DataFile(FileHandle file, UUID databaseId, int fileId) {
        this.file = file;
        this.name = file.path().toString();
        this.databaseId = databaseId;
        this.fileId = fileId;
        if (!file.direct()) {
            file.advise(0, 0, FileHandle.Advice.RANDOM);
        }
    }

    /**
     * Creates a new data file holding only its header page; the caller formats the allocation map
     * and boot page through the buffer pool.
     */
    public static DataFile create(FilesFacade files, Path path, UUID databaseId, long createdMicros, boolean direct) {
        return create(files, path, databaseId, 0, createdMicros, direct);
    }

    /**
     * Creates data file {@code fileId} (0 = the primary file, written as version 1; a secondary
     * file is written as version 2, which records its id). Its page ids are those of
     * {@link PageFormat#pageId(int, long)} for that file.
     */
    public static DataFile create(FilesFacade files, Path path, UUID databaseId, int fileId, long createdMicros,
                                  boolean direct) {
        if (fileId < 0 || fileId >= PageFormat.MAX_FILES) {
            throw new IllegalArgumentException("file id " + fileId + " out of range 0.." + (PageFormat.MAX_FILES - 1));
        }
        FileHandle file = files.open(path, FilesFacade.OpenMode.CREATE_NEW, direct);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment page = arena.allocate(PAGE_SIZE, FilesFacade.DIRECT_IO_ALIGNMENT);
            Page.format(page, PageFormat.pageId(fileId, FILE_HEADER_PAGE), PageType.FILE_HEADER, 0, 0);
            page.set(LONG, HEADER_MAGIC_OFFSET, MAGIC);
            page.set(INT, HEADER_VERSION_OFFSET, fileId == 0 ? PRIMARY_FILE_VERSION : FORMAT_VERSION);
            if (fileId != 0) {
                page.set(INT, HEADER_FILE_ID_OFFSET, fileId);
            }
            page.set(INT, HEADER_PAGE_SIZE_OFFSET, PAGE_SIZE);
            page.set(LONG, HEADER_DATABASE_ID_HIGH_OFFSET, databaseId.getMostSignificantBits());
            page.set(LONG, HEADER_DATABASE_ID_LOW_OFFSET, databaseId.getLeastSignificantBits());
            page.set(LONG, HEADER_CREATED_MICROS_OFFSET, createdMicros);
            Page.updateChecksum(page);
            file.allocate(0, PageFormat.EXTENT_SIZE);
            file.write(0, page);
            file.force(true);
        } catch (RuntimeException e) {
            file.close();
            throw e;
        }
        files.syncDirectory(path.toAbsolutePath().getParent());
        return new DataFile(file, databaseId, fileId);
    }

    /**
     * Opens an existing data file, checking its header.
     *
     * @throws ColumbaException FILE_MAGIC_MISMATCH, FORMAT_TOO_OLD, FORMAT_TOO_NEW, FILE_TRUNCATED or
     *         PAGE_CHECKSUM_MISMATCH, each naming the file and the offending value
     */
    public static DataFile open(FilesFacade files, Path path, boolean direct) {
        return open(files, path, 0, direct);
    }

    /**
     * Opens data file {@code fileId}, checking its header: a version-2 file must carry that id
     * (a file listed under the wrong id would put pages in the wrong place), a version-1 file can
     * only be the primary file.
     */
    public static DataFile open(FilesFacade files, Path path, int fileId, boolean direct) {
        FileHandle file = files.open(path, FilesFacade.OpenMode.READ_WRITE, direct);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment page = arena.allocate(PAGE_SIZE, FilesFacade.DIRECT_IO_ALIGNMENT);
            long read = file.read(0, page);
            if (read < PAGE_SIZE) {
                throw new ColumbaException(ErrorCode.FILE_TRUNCATED, "data file " + path + " is " + read
                        + " bytes long, shorter than its header page (" + PAGE_SIZE + " bytes)");
            }
            long magic = page.get(LONG, HEADER_MAGIC_OFFSET);
            if (magic != MAGIC) {
                throw new ColumbaException(ErrorCode.FILE_MAGIC_MISMATCH, String.format(
                        "%s is not a Columba data file: magic at offset %d is 0x%016x, expected 0x%016x",
                        path, HEADER_MAGIC_OFFSET, magic, MAGIC));
            }
            int version = page.get(INT, HEADER_VERSION_OFFSET);
            if (version < MIN_READABLE_VERSION) {
                throw new ColumbaException(ErrorCode.FORMAT_TOO_OLD, "data file " + path + " has format version "
                        + version + "; this build reads versions " + MIN_READABLE_VERSION + " to " + FORMAT_VERSION);
            }
            if (version > FORMAT_VERSION) {
                throw new ColumbaException(ErrorCode.FORMAT_TOO_NEW, "data file " + path + " has format version "
                        + version + ", newer than this build (" + FORMAT_VERSION + "); upgrade Columba to open it");
            }
            int storedFileId = version >= 2 ? page.get(INT, HEADER_FILE_ID_OFFSET) : 0;
            if (storedFileId != fileId) {
                throw new ColumbaException(ErrorCode.FILE_MAGIC_MISMATCH, "data file " + path + " is file "
                        + storedFileId + " of its database (header offset " + HEADER_FILE_ID_OFFSET
                        + "), but the database lists it as file " + fileId);
            }
            Page.verify(page, PageFormat.pageId(fileId, FILE_HEADER_PAGE), path.toString());
            int pageSize = page.get(INT, HEADER_PAGE_SIZE_OFFSET);
            if (pageSize != PAGE_SIZE) {
                throw new ColumbaException(ErrorCode.PAGE_HEADER_INVALID, "data file " + path + " has page size "
                        + pageSize + ", this build uses " + PAGE_SIZE);
            }
            UUID databaseId = new UUID(page.get(LONG, HEADER_DATABASE_ID_HIGH_OFFSET),
                    page.get(LONG, HEADER_DATABASE_ID_LOW_OFFSET));
            return new DataFile(file, databaseId, fileId);
        } catch (RuntimeException e) {
            file.close();
            throw e;
        }
    }

    public UUID databaseId() {
        return databaseId;
    }

    /** The file's id: the high bits of its page ids (0 = the primary file). */
    public int fileId() {
        return fileId;
    }

    public Path path() {
        return file.path();
    }

    /** Pages the file has room for. */
    public long pageCount() {
        return file.size() / PAGE_SIZE;
    }

    /** Makes sure the file has room up to and including {@code extent}, reserving the space. */
    public void ensureExtent(long extent) {
        long end = (DataFileFormat.extentInFile(extent) + 1) * PageFormat.EXTENT_SIZE;
        long size = file.size();
        if (size < end) {
            file.allocate(size, end - size);
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void readPage(long pageId, MemorySegment target) {
        long read = file.read(PageFormat.offsetOf(pageId), target.asSlice(0, PAGE_SIZE));
        if (read < PAGE_SIZE) {
            target.asSlice(read, PAGE_SIZE - read).fill((byte) 0);
        }
    }

    @Override
    public void readPages(long firstPageId, MemorySegment[] targets) {
        long read = file.readScatter(PageFormat.offsetOf(firstPageId), targets);
        long expected = (long) targets.length * PAGE_SIZE;
        for (long position = read; position < expected; position = (position / PAGE_SIZE + 1) * PAGE_SIZE) {
            int index = (int) (position / PAGE_SIZE);
            long within = position % PAGE_SIZE;
            targets[index].asSlice(within, PAGE_SIZE - within).fill((byte) 0);
        }
    }

    @Override
    public void writePage(long pageId, MemorySegment source) {
        file.write(PageFormat.offsetOf(pageId), source.asSlice(0, PAGE_SIZE));
    }

    @Override
    public void sync() {
        file.force(false);
    }

    @Override
    public void dropOsCache() {
        if (file.direct()) {
            return;
        }
        // DONTNEED drops only clean pages: write back what the kernel still holds first.
        file.force(false);
        file.advise(0, 0, FileHandle.Advice.DONTNEED);
    }

    @Override
    public void close() {
        file.close();
    }
}
