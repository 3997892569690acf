package dev.columba.storage.file;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.buffer.PageStore;
import dev.columba.storage.page.PageFormat;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Every data file of a database as one page store: a page id's high bits name its file
 * ({@link PageFormat#fileOf}), so the buffer pool, the log and recovery keep using one page id
 * space while the pages live in several files (SQL Server's file id and page number in one).
 * Files are only ever added while the database is open; the table of files is replaced whole
 * (copy on write), so I/O threads read it without a lock.
 */
public final class DataFiles implements PageStore, AutoCloseable {
    private volatile DataFile[] files;
    private volatile FileManifest manifest;

    public DataFiles(DataFile primary, FileManifest manifest) {
        this.files = new DataFile[] {primary};
        this.manifest = manifest;
    }

    /** A store of the primary file alone (tests, tools). */
    public static DataFiles single(DataFile primary) {
        return new DataFiles(primary, FileManifest.primaryOnly());
    }

    public DataFile primary() {
        return files[0];
    }

    public FileManifest manifest() {
        return manifest;
    }

    /** Adds an opened file under its id, with the manifest that now lists it. */
    public synchronized void add(DataFile file, FileManifest listing) {
        DataFile[] current = files;
        DataFile[] grown = Arrays.copyOf(current, Math.max(current.length, file.fileId() + 1));
        if (grown[file.fileId()] != null) {
            throw new IllegalStateException("file " + file.fileId() + " is open already");
        }
        grown[file.fileId()] = file;
        files = grown;
        manifest = listing;
    }

    /** Replaces the manifest (a filegroup added or removed; no file changes). */
    public synchronized void setManifest(FileManifest listing) {
        manifest = listing;
    }

    /** The file with id {@code fileId}. */
    public DataFile file(int fileId) {
        DataFile[] current = files;
        DataFile file = fileId < current.length ? current[fileId] : null;
        if (file == null) {
            throw new ColumbaException(ErrorCode.PAGE_HEADER_INVALID, "page of file " + fileId
                    + " asked for, but the database has no such file");
        }
        return file;
    }

    /** Every open file, by id. */
    public List<DataFile> all() {
        List<DataFile> open = new ArrayList<>();
        for (DataFile file : files) {
            if (file != null) {
                open.add(file);
            }
        }
        return open;
    }

    /** The files of a filegroup, by id (the primary filegroup holds file 0 first). */
    public List<DataFile> filesOf(int filegroupId) {
        List<DataFile> members = new ArrayList<>();
        if (filegroupId == FileManifest.PRIMARY_FILEGROUP) {
            members.add(primary());
        }
        for (FileManifest.FileEntry entry : manifest.filesOf(filegroupId)) {
            members.add(file(entry.id()));
        }
        return members;
    }

    /** The filegroup holding file {@code fileId}. */
    public int filegroupOf(int fileId) {
        if (fileId == 0) {
            return FileManifest.PRIMARY_FILEGROUP;
        }
        for (FileManifest.FileEntry entry : manifest.files()) {
            if (entry.id() == fileId) {
                return entry.filegroupId();
            }
        }
        throw new ColumbaException(ErrorCode.PAGE_HEADER_INVALID, "file " + fileId + " is in no filegroup");
    }

    @Override
    public String name() {
        return primary().name();
    }

    @Override
    public String name(long pageId) {
        return file(PageFormat.fileOf(pageId)).name();
    }

    @Override
    public void readPage(long pageId, MemorySegment target) {
        file(PageFormat.fileOf(pageId)).readPage(pageId, target);
    }

    @Override
    public void readPages(long firstPageId, MemorySegment[] targets) {
        int fileId = PageFormat.fileOf(firstPageId);
        long last = firstPageId + targets.length - 1;
        if (PageFormat.fileOf(last) == fileId) {
            file(fileId).readPages(firstPageId, targets);
            return;
        }
        // Consecutive ids across the end of a full file: one read per file.
        int inFirst = (int) (PageFormat.pageId(fileId + 1, 0) - firstPageId);
        file(fileId).readPages(firstPageId, Arrays.copyOfRange(targets, 0, inFirst));
        readPages(PageFormat.pageId(fileId + 1, 0), Arrays.copyOfRange(targets, inFirst, targets.length));
    }

    @Override
    public void writePage(long pageId, MemorySegment source) {
        file(PageFormat.fileOf(pageId)).writePage(pageId, source);
    }

    @Override
    public void sync() {
        for (DataFile file : all()) {
            file.sync();
        }
    }

    @Override
    public void dropOsCache() {
        for (DataFile file : all()) {
            file.dropOsCache();
        }
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        for (DataFile file : all()) {
            try {
                file.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
