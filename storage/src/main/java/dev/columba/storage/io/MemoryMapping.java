package dev.columba.storage.io;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.lang.foreign.MemorySegment;

/**
 * Paging advice and residency for file mappings the caller made with
 * {@code FileChannel.map(mode, position, size, arena)}: the columnstore's read-ahead
 * ({@code MADV_RANDOM} on the mapping, {@code MADV_WILLNEED} ahead of the scan) and the
 * {@code mincore} check that tells which of its pages were read from storage.
 *
 * <p>Offsets are relative to the segment, which need not start on a page boundary. The kernel works
 * in whole pages, and the pages around an unaligned range belong to the same mapping
 * ({@code FileChannel.map} maps from the page boundary below {@code position}, and a mapping always
 * ends on one), so a range is widened to whole pages, except for {@link MemoryAdvice#DONTNEED},
 * which is narrowed to the whole pages inside it because on a private mapping it discards changes.
 *
 * <p>The caller keeps the segment's arena open during a call: an unmapped range fails with
 * {@code ENOMEM}, and a range mapped again by someone else in between would receive the advice.
 */
public final class MemoryMapping {

    private MemoryMapping() {
    }

    /**
     * Maps {@code [0, length)} of {@code file} read-only and shared, advised {@code MADV_RANDOM} so the
     * kernel reads only the pages touched or asked for with {@code WILLNEED}. The mapping lives until
     * {@code arena} closes ({@code munmap} then), independently of the file handle.
     *
     * @throws ColumbaException IO_ERROR naming the file if the mapping fails
     */
    public static MemorySegment mapReadOnly(FileHandle file, long length, java.lang.foreign.Arena arena) {
        if (length <= 0) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "cannot map " + length + " bytes of " + file.path());
        }
        long address = LibC.mmap(length, LibC.PROT_READ, LibC.MAP_SHARED, file.descriptor(), 0);
        if (address == LibC.MAP_FAILED) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "mmap of " + length + " bytes of " + file.path() + " failed: "
                    + LibC.strerror(LibC.errno()) + " (errno " + LibC.errno() + ")");
        }
        MemorySegment mapped = MemorySegment.ofAddress(address).reinterpret(length, arena,
                segment -> LibC.munmap(address, length));
        madvise(mapped, 0, length, MemoryAdvice.RANDOM);
        return mapped;
    }

    /**
     * {@code length} bytes of private anonymous memory, read-write, zero when first touched: the
     * kernel gives each page when it is first used, where allocating through an arena writes zeros
     * over all of it at once (a 256 MB buffer pool took 0.3–0.8 s of every database opening, and
     * all of its memory, before a page was read). Unmapped when {@code arena} closes.
     *
     * @throws ColumbaException OUT_OF_MEMORY if the mapping fails
     */
    public static MemorySegment anonymous(long length, java.lang.foreign.Arena arena) {
        if (length <= 0) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "cannot map " + length + " bytes of memory");
        }
        long address = LibC.mmap(length, LibC.PROT_READ | LibC.PROT_WRITE, LibC.MAP_PRIVATE | LibC.MAP_ANONYMOUS, -1, 0);
        if (address == LibC.MAP_FAILED) {
            int errno = LibC.errno();
            throw new ColumbaException(ErrorCode.OUT_OF_MEMORY, "cannot map " + length + " bytes of memory: "
                    + LibC.strerror(errno) + " (errno " + errno + ")");
        }
        return MemorySegment.ofAddress(address).reinterpret(length, arena, segment -> LibC.munmap(address, length));
    }

    /** Gives {@code advice} for {@code [offset, offset + length)} of {@code mapped}. */
    public static void madvise(MemorySegment mapped, long offset, long length, MemoryAdvice advice) {
        checkRange(mapped, offset, length);
        long start = mapped.address() + offset;
        long end = start + length;
        int code = switch (advice) {
            case NORMAL -> LibC.MADV_NORMAL;
            case RANDOM -> LibC.MADV_RANDOM;
            case SEQUENTIAL -> LibC.MADV_SEQUENTIAL;
            case WILLNEED -> LibC.MADV_WILLNEED;
            case DONTNEED -> LibC.MADV_DONTNEED;
        };
        long pageStart;
        long pageEnd;
        if (advice == MemoryAdvice.DONTNEED) {
            pageStart = ResidencyProbe.alignUp(start);
            pageEnd = ResidencyProbe.alignDown(end);
        } else {
            pageStart = ResidencyProbe.alignDown(start);
            pageEnd = ResidencyProbe.alignUp(end);
        }
        if (pageEnd <= pageStart) {
            return;
        }
        while (LibC.madvise(pageStart, pageEnd - pageStart, code) != 0) {
            int errno = LibC.errno();
            if (errno != LibC.EAGAIN && errno != LibC.EINTR) {
                throw new ColumbaException(ErrorCode.IO_ERROR, "madvise(" + advice + ") failed on " + mapped
                        + " at offset " + offset + " for " + length + " bytes: " + LibC.strerror(errno)
                        + " (errno " + errno + ")");
            }
        }
    }

    /**
     * The bytes of {@code [offset, offset + length)} of {@code mapped} that are in the page cache,
     * whether or not this process has touched them: the range's overlap with each resident page.
     * Asking reads nothing and changes no residency.
     */
    public static long residentBytes(MemorySegment mapped, long offset, long length) {
        return probe(mapped, offset, length, true);
    }

    /**
     * The bytes of the whole pages that {@code [offset, offset + length)} of {@code mapped} touches
     * and that are not in the page cache: what touching or advising the range reads from storage.
     * (Subtracting {@link #residentBytes} from the range rounded out to pages would count the
     * uncovered parts of resident end pages as unread.)
     */
    public static long nonResidentPageBytes(MemorySegment mapped, long offset, long length) {
        return probe(mapped, offset, length, false);
    }

    private static long probe(MemorySegment mapped, long offset, long length, boolean residentOverlap) {
        checkRange(mapped, offset, length);
        if (length == 0) {
            return 0;
        }
        long start = mapped.address() + offset;
        return ResidencyProbe.walk(start, start + length, mapped, offset, residentOverlap);
    }

    private static void checkRange(MemorySegment mapped, long offset, long length) {
        if (!mapped.isNative()) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT,
                    mapped + " is not a file mapping (FileChannel.map with an Arena, or mapReadOnly)");
        }
        if (!mapped.scope().isAlive()) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, mapped + " is no longer mapped: its arena is closed");
        }
        if (offset < 0 || length < 0 || length > mapped.byteSize() - offset) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "range of " + length + " bytes at offset " + offset
                    + " is outside the mapping of " + mapped.byteSize() + " bytes");
        }
    }
}
