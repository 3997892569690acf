package dev.columba.storage.buffer;

import java.lang.foreign.MemorySegment;

/**
 * Where the buffer pool's pages live: a data file of 8 KB pages. Reads and writes move whole pages;
 * the buffer pool verifies checksums, the store only moves bytes.
 */
public interface PageStore {

    /** The file's name, for error messages. */
    String name();

    /** The name of the file holding {@code pageId}, for error messages (a store may span files). */
    default String name(long pageId) {
        return name();
    }

    /** Reads page {@code pageId} into {@code target} (8 KB); a page past the end of the file reads as zeros. */
    void readPage(long pageId, MemorySegment target);

    /**
     * Reads {@code targets.length} consecutive pages starting at {@code firstPageId} with one
     * I/O request; pages past the end of the file read as zeros.
     */
    void readPages(long firstPageId, MemorySegment[] targets);

    /** Writes one page (8 KB, checksum already stamped). */
    void writePage(long pageId, MemorySegment source);

    /** Forces written pages to storage. */
    void sync();

    /** Drops the file's clean pages from the operating system's page cache. */
    void dropOsCache();
}
