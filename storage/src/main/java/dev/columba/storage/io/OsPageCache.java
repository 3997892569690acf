package dev.columba.storage.io;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.util.BitSet;

/**
 * The operating system's page cache seen from Columba: which bytes of a file it holds, and how to
 * empty it of a file for a cold run without root. This is how Columba's I/O counters are checked
 * against the operating system, and how {@code DBCC DROPCLEANBUFFERS} reaches below the buffer
 * pool.
 *
 * <p>Residency is read by mapping the range ({@code mmap(PROT_READ, MAP_SHARED)}, which faults
 * nothing in), asking {@code mincore(2)} (which reads nothing and changes no residency) and
 * unmapping. Linux reports the truth only for files the caller owns or could open for writing; for
 * others it claims every page resident.
 */
public final class OsPageCache {

    private OsPageCache() {
    }

    /** The operating system's page size in bytes: the unit of residency. */
    public static int pageSize() {
        return ResidencyProbe.PAGE_SIZE;
    }

    /**
     * The bytes of {@code [offset, offset + length)} of {@code file} that are in the page cache: the
     * range's overlap with each resident page. The range is cut at the end of the file.
     */
    public static long residentBytes(FileHandle file, long offset, long length) {
        checkRange(file, offset, length);
        long end = Math.min(file.size(), offset + Math.min(length, Long.MAX_VALUE - offset));
        if (end <= offset) {
            return 0;
        }
        long mapOffset = ResidencyProbe.alignDown(offset);
        long mapLength = end - mapOffset;
        long address = map(file, mapOffset, mapLength);
        try {
            return ResidencyProbe.residentBytes(address + (offset - mapOffset), address + mapLength, file.path(), offset);
        } finally {
            unmap(file, address, mapLength);
        }
    }

    /**
     * Residency of each operating-system page that overlaps {@code [offset, offset + length)} of
     * {@code file}, cut at the end of the file. Use {@link #residentBytes} when a count will do.
     */
    public static PageResidency residentPages(FileHandle file, long offset, long length) {
        checkRange(file, offset, length);
        long end = Math.min(file.size(), offset + Math.min(length, Long.MAX_VALUE - offset));
        long mapOffset = ResidencyProbe.alignDown(offset);
        if (end <= offset) {
            return new PageResidency(mapOffset, pageSize(), 0, new BitSet());
        }
        long mapLength = end - mapOffset;
        long pages = ResidencyProbe.alignUp(mapLength) / pageSize();
        if (pages > Integer.MAX_VALUE) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "range of " + length + " bytes at offset " + offset
                    + " of " + file.path() + " has too many pages to list; count them with residentBytes");
        }
        long address = map(file, mapOffset, mapLength);
        try {
            BitSet resident = ResidencyProbe.residentPages(address, (int) pages, file.path(), mapOffset);
            return new PageResidency(mapOffset, pageSize(), (int) pages, resident);
        } finally {
            unmap(file, address, mapLength);
        }
    }

    /**
     * Empties the page cache of {@code file} so that its next read comes from storage:
     * {@code fdatasync} first, because {@code POSIX_FADV_DONTNEED} only drops clean pages (it
     * starts write-back of dirty ones and leaves them resident), then {@code POSIX_FADV_DONTNEED}
     * over the whole file. Pages that some process has mapped stay resident.
     */
    public static void dropFromPageCache(FileHandle file) {
        file.force(false);
        file.advise(0, 0, FileHandle.Advice.DONTNEED);
    }

    private static void checkRange(FileHandle file, long offset, long length) {
        if (offset < 0 || length < 0) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "range of " + length + " bytes at offset " + offset
                    + " of " + file.path() + ": offset and length must not be negative");
        }
    }

    /** Maps without faulting anything in: no {@code MAP_POPULATE}, and nothing touches the memory. */
    private static long map(FileHandle file, long mapOffset, long mapLength) {
        long address = LibC.mmap(mapLength, LibC.PROT_READ, LibC.MAP_SHARED, file.descriptor(), mapOffset);
        if (address == LibC.MAP_FAILED) {
            throw NativeFileHandle.failure("mmap of " + mapLength + " bytes", file.path(), mapOffset, LibC.errno());
        }
        return address;
    }

    private static void unmap(FileHandle file, long address, long mapLength) {
        if (LibC.munmap(address, mapLength) != 0) {
            throw NativeFileHandle.failure("munmap of " + mapLength + " bytes", file.path(), -1, LibC.errno());
        }
    }
}
