package dev.columba.storage.wal;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.util.Arrays;
import java.util.List;

/**
 * A record of the write-ahead log. The log holds redo information only: the records of a write
 * transaction are appended, with its {@link Commit}, in one atomic group at commit time.
 *
 * <p>Records holding byte arrays take ownership of them: the caller must not modify an array after
 * handing it to a record (copying every 8 KB image again at commit would buy nothing). Equality
 * compares array contents.
 *
 * <p>Each variant has a one-byte type code in {@code docs/format/wal.md}; a new variant takes a new
 * code and a new format version.
 */
public sealed interface LogRecord {

    /** The full image of a page: the first change to a page after a checkpoint's redo point. */
    record PageImage(long pageId, byte[] image) implements LogRecord {
        public PageImage {
            checkPageId(pageId);
            if (image == null || image.length != LogFormat.PAGE_SIZE) {
                throw invalid("page image of page " + pageId + " must be " + LogFormat.PAGE_SIZE + " bytes, got "
                        + (image == null ? "null" : image.length));
            }
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof PageImage that && pageId == that.pageId && Arrays.equals(image, that.image);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(pageId) * 31 + Arrays.hashCode(image);
        }

        @Override
        public String toString() {
            return "PageImage[pageId=" + pageId + ", image=" + image.length + " bytes, hash "
                    + Integer.toHexString(Arrays.hashCode(image)) + "]";
        }
    }

    /**
     * Changed byte ranges of a page against its committed version. Ranges are sorted by offset,
     * do not overlap (they may touch), lie inside the page and are not empty; there is at least
     * one (an unchanged page is not logged).
     */
    record PageDelta(long pageId, List<Range> ranges) implements LogRecord {
        public PageDelta {
            checkPageId(pageId);
            if (ranges == null || ranges.isEmpty()) {
                throw invalid("page delta of page " + pageId + " has no ranges");
            }
            ranges = List.copyOf(ranges);
            int previousEnd = 0;
            for (int index = 0; index < ranges.size(); index++) {
                Range range = ranges.get(index);
                if (range.offset() < previousEnd) {
                    throw invalid("page delta of page " + pageId + ": range " + index + " at offset " + range.offset()
                            + " starts before the end of the previous range (" + previousEnd + ")");
                }
                previousEnd = range.offset() + range.bytes().length;
            }
        }

        /** Bytes {@code bytes} at {@code offset} within the page. */
        public record Range(int offset, byte[] bytes) {
            public Range {
                if (bytes == null || bytes.length == 0) {
                    throw invalid("delta range at offset " + offset + " is empty");
                }
                if (offset < 0 || offset > LogFormat.PAGE_SIZE - bytes.length) {
                    throw invalid("delta range of " + bytes.length + " bytes at offset " + offset
                            + " does not fit in a " + LogFormat.PAGE_SIZE + "-byte page");
                }
            }

            @Override
            public boolean equals(Object other) {
                return other instanceof Range that && offset == that.offset && Arrays.equals(bytes, that.bytes);
            }

            @Override
            public int hashCode() {
                return offset * 31 + Arrays.hashCode(bytes);
            }

            @Override
            public String toString() {
                return "Range[offset=" + offset + ", bytes=" + Arrays.toString(bytes) + "]";
            }
        }
    }

    /** The end of a write transaction's group: its changes are committed once this is durable. */
    record Commit(long transactionId, long commitTimeMicros) implements LogRecord {
        public Commit {
            if (transactionId < 0) {
                throw invalid("transaction id must not be negative, got " + transactionId);
            }
            if (commitTimeMicros < 0) {
                throw invalid("commit time must not be negative, got " + commitTimeMicros + " µs");
            }
        }
    }

    /** A checkpoint completed: recovery may start replaying at {@code redoLsn}. */
    record Checkpoint(long redoLsn) implements LogRecord {
        public Checkpoint {
            if (redoLsn < 0) {
                throw invalid("checkpoint redo LSN must not be negative, got " + redoLsn);
            }
        }
    }

    private static void checkPageId(long pageId) {
        if (pageId < 0) {
            throw invalid("page id must not be negative, got " + pageId);
        }
    }

    private static ColumbaException invalid(String message) {
        return new ColumbaException(ErrorCode.INVALID_ARGUMENT, message);
    }
}
