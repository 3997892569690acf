package dev.columba.storage.io;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * An open file: positional reads and writes into {@link MemorySegment}s, durability, and advice
 * to the operating system's page cache. Thread-safe: positional calls share no file offset.
 * Closing twice is harmless; any other call after {@link #close()} fails.
 */
public interface FileHandle extends AutoCloseable {

    /** Page-cache advice, {@code posix_fadvise(2)}. */
    enum Advice {
        NORMAL,
        /** No kernel read-ahead: Columba does its own. */
        RANDOM,
        SEQUENTIAL,
        /** Start reading the range into the page cache asynchronously. */
        WILLNEED,
        /** Drop the range's clean pages from the page cache: the next read is cold. */
        DONTNEED
    }

    Path path();

    /** The current length of the file in bytes. */
    long size();

    /**
     * Reads {@code target.byteSize()} bytes at {@code offset}, retrying short reads. Heap segments
     * are accepted (staged through native memory).
     *
     * @return the bytes read, fewer than asked only when the file ends first
     */
    long read(long offset, MemorySegment target);

    /**
     * Reads consecutive bytes at {@code offset} into {@code targets} in order with one system call
     * where possible ({@code preadv(2)}): the scatter read of a read-ahead I/O.
     *
     * @return the bytes read, fewer than asked only when the file ends first
     */
    long readScatter(long offset, MemorySegment[] targets);

    /** Writes all of {@code source} at {@code offset}, extending the file if needed; heap segments are staged. */
    void write(long offset, MemorySegment source);

    /** Forces written data to storage: {@code fdatasync(2)}, or {@code fsync(2)} with metadata. */
    void force(boolean metadata);

    /** Sets the file's length. */
    void truncate(long size);

    /** Reserves space for {@code [offset, offset + length)} so later writes cannot fail for space. */
    void allocate(long offset, long length);

    /** Gives page-cache advice for {@code [offset, offset + length)}; length 0 means to the end. */
    void advise(long offset, long length, Advice advice);

    /** Whether the file was opened with {@code O_DIRECT}. */
    boolean direct();

    /**
     * The operating system's descriptor, for native calls that need one (e.g. {@code mmap}).
     * Valid until {@link #close()}.
     */
    int descriptor();

    @Override
    void close();
}
