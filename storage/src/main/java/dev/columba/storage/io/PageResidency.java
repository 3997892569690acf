package dev.columba.storage.io;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.util.BitSet;

/**
 * Which operating-system pages of a file range were in the page cache when {@link OsPageCache}
 * asked: a snapshot, stale as soon as it is taken. Page {@code i} covers the file bytes
 * {@code [firstPageOffset + i * pageSize, firstPageOffset + (i + 1) * pageSize)}.
 *
 * @param firstPageOffset file offset of the first page, a multiple of {@code pageSize}
 * @param pageSize        the operating system's page size
 * @param pageCount       the number of pages covered
 * @param resident        bit {@code i} set when page {@code i} was resident; copied in and out
 */
public record PageResidency(long firstPageOffset, int pageSize, int pageCount, BitSet resident) {

    public PageResidency {
        if (pageSize <= 0 || Integer.bitCount(pageSize) != 1) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "page size must be a power of two, not " + pageSize);
        }
        if (firstPageOffset < 0 || firstPageOffset % pageSize != 0) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT,
                    "first page offset must be a non-negative multiple of " + pageSize + ", not " + firstPageOffset);
        }
        if (pageCount < 0) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "page count must not be negative: " + pageCount);
        }
        if (resident.length() > pageCount) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT,
                    "page " + (resident.length() - 1) + " marked resident but only " + pageCount + " pages covered");
        }
        resident = (BitSet) resident.clone();
    }

    /** A copy: the record stays immutable. */
    @Override
    public BitSet resident() {
        return (BitSet) resident.clone();
    }

    public boolean isResident(int page) {
        if (page < 0 || page >= pageCount) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "page " + page + " outside [0, " + pageCount + ")");
        }
        return resident.get(page);
    }

    public int residentPageCount() {
        return resident.cardinality();
    }

    /** The file offset where {@code page} starts. */
    public long pageOffset(int page) {
        return firstPageOffset + (long) page * pageSize;
    }
}
