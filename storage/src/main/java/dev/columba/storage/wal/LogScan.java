package dev.columba.storage.wal;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Reads every retained segment of a log at open, changing nothing, and says where the log ends and
 * whether what follows is a torn tail (cut it) or damage (never cut it without being told to):
 * {@code docs/format/wal.md}, "Torn tail or corruption".
 *
 * <p>A torn tail is what an interrupted append leaves, and an append only ever writes past the end
 * of the last segment. So invalid bytes are a torn tail only if all of these hold: they are in the
 * last segment; no valid frame starts anywhere after them (a frame's CRC covers its LSN, so a
 * valid frame found by sliding over the bytes is one that was written there); they start at or
 * after the end of what is known to be on storage (the checkpoint the control file names); and
 * they look like an interrupted write: a frame whose header is consistent but which the end of the
 * file cuts short, or a frame that runs into zeros reaching the end of the file (space the file
 * system allocated but never wrote). Anything else is damage.
 */
final class LogScan {
    /**
     * Fewer zeros than this at the end of a file do not count as unwritten space: a valid last
     * frame (a Commit or Checkpoint) can itself end in up to seven zero bytes (the high bytes of a
     * little-endian number), so a damaged one must not pass for a torn write.
     */
    static final int TORN_ZEROS_MINIMUM = 8;
    private static final int SEARCH_WINDOW = 4 << 20;

    private LogScan() {
    }

    /** What the scan found. */
    sealed interface Outcome {
    }

    /** Every frame is valid and every group whole: the log ends at {@code endLsn}. */
    record Clean(long endLsn) implements Outcome {
    }

    /**
     * The last segment holds a torn tail from {@code offset} of {@code file}: {@code discardedBytes}
     * to cut, so that the log ends at {@code endLsn}. {@code headerIncomplete}: the segment's header
     * itself was never wholly written, and is written again.
     */
    record Torn(long endLsn, Path file, long offset, long discardedBytes, String reason, boolean headerIncomplete)
            implements Outcome {
    }

    record Damaged(LogDamage damage) implements Outcome {
    }

    /**
     * Scans the segments starting at {@code starts} (ascending, at least one) in {@code directory}.
     * Frames before {@code fromLsn} are not read (their segments' headers are still checked).
     *
     * @throws ColumbaException for a bad segment header or a segment that does not end where the
     *     next starts: damage that no cut can repair
     */
    static Outcome scan(FilesFacade files, Path directory, List<Long> starts, long fromLsn, long durableLsn) {
        long consistent = 0;
        for (int index = 0; index < starts.size(); index++) {
            long start = starts.get(index);
            boolean last = index == starts.size() - 1;
            Path path = directory.resolve(LogFormat.segmentName(start));
            try (FileHandle segment = files.open(path, FilesFacade.OpenMode.READ, false);
                 SegmentScanner scanner = new SegmentScanner()) {
                long size = segment.size();
                byte[] header = SegmentHeader.read(segment);
                if (last && (header.length < LogFormat.HEADER_SIZE || SegmentHeader.isZeros(header))) {
                    String state = header.length < LogFormat.HEADER_SIZE ? "short" : "zeros";
                    if (start < durableLsn) {
                        return new Damaged(new LogDamage(path, 0, start, "the segment header is incomplete ("
                                + size + " bytes, " + state + ") but the log reached storage up to LSN " + durableLsn
                                + ", so this is not an interrupted segment creation", start));
                    }
                    return new Torn(start + LogFormat.HEADER_SIZE, path, 0, size,
                            "segment header incomplete (" + size + " bytes, " + state + "): rewritten", true);
                }
                SegmentHeader.check(header, path, start);
                long end = size;
                if (!last) {
                    long next = starts.get(index + 1);
                    if (start + size != next) {
                        throw RecordCodec.corrupt(path, size, "the segment ends at LSN " + (start + size)
                                + " but the next segment, " + LogFormat.segmentName(next) + ", starts at LSN " + next);
                    }
                    if (next <= fromLsn) {
                        consistent = next;
                        continue;
                    }
                }
                long fromOffset = Math.max(LogFormat.HEADER_SIZE, fromLsn - start);
                if (fromOffset > size) {
                    throw RecordCodec.corrupt(path, size, "the log ends at LSN " + (start + size)
                            + ", before LSN " + fromLsn + " where recovery must start");
                }
                consistent = start + fromOffset;
                Outcome stop = scanSegment(segment, scanner, start, fromOffset, end, last, durableLsn, consistent);
                switch (stop) {
                    case Clean clean -> consistent = clean.endLsn();
                    case Torn torn -> {
                        return torn;
                    }
                    case Damaged damaged -> {
                        return damaged;
                    }
                }
                if (last && consistent < durableLsn) {
                    return new Damaged(new LogDamage(path, consistent - start, consistent, "the log ends here, "
                            + "but it reached storage up to LSN " + durableLsn + " (the end of the checkpoint the "
                            + "control file names): records known to be durable are missing", consistent));
                }
            }
        }
        return new Clean(consistent);
    }

    /** Scans one segment's frames; {@link Clean} means the segment ended at a group end. */
    private static Outcome scanSegment(FileHandle segment, SegmentScanner scanner, long start, long fromOffset, long end,
                                       boolean last, long durableLsn, long consistentAtStart) {
        Path path = segment.path();
        long consistent = consistentAtStart;
        scanner.reset(segment, start, fromOffset, end);
        while (true) {
            SegmentScanner.Step step;
            try {
                step = scanner.advance();
                if (step == SegmentScanner.Step.RECORD) {
                    scanner.decode();
                }
            } catch (ColumbaException malformed) {
                if (malformed.errorCode() != ErrorCode.WAL_CORRUPT) {
                    throw malformed;
                }
                long offset = scanner.recordOffset();
                return new Damaged(new LogDamage(path, offset, start + offset, "a frame with a valid CRC32C "
                        + "breaks the format, so it was written wrong: " + malformed.detail(), consistent));
            }
            long groupOffset = consistent - start;
            switch (step) {
                case RECORD -> {
                    if (scanner.groupEnd()) {
                        consistent = start + scanner.nextOffset();
                    }
                }
                case END -> {
                    if (groupOffset == end) {
                        return new Clean(consistent);
                    }
                    String open = "the group starting at offset " + groupOffset
                            + " has no record marked as its end before the end of the ";
                    if (!last) {
                        return damaged(path, groupOffset, start, open + "segment, and later segments follow", consistent);
                    }
                    if (consistent < durableLsn) {
                        return damaged(path, groupOffset, start, open + "file, but the log reached storage up to LSN "
                                + durableLsn + ", so this is not a torn tail", consistent);
                    }
                    return new Torn(consistent, path, groupOffset, end - groupOffset, open + "file", false);
                }
                case INVALID -> {
                    long offset = scanner.recordOffset();
                    String problem = scanner.problem();
                    if (offset != groupOffset) {
                        problem += ", inside the group starting at offset " + groupOffset;
                    }
                    if (!last) {
                        return damaged(path, offset, start, problem + "; later segments follow, so this is not a torn tail",
                                consistent);
                    }
                    long valid = findValidFrame(segment, start, offset + 1, end);
                    if (valid >= 0) {
                        return damaged(path, offset, start, problem + "; a valid record follows at offset " + valid
                                + " (LSN " + (start + valid) + "), so this is not a torn tail", consistent);
                    }
                    if (consistent < durableLsn) {
                        return damaged(path, offset, start, problem + "; the log reached storage up to LSN " + durableLsn
                                + " (the end of the checkpoint the control file names), so this is not a torn tail",
                                consistent);
                    }
                    if (!looksInterrupted(segment, offset, end)) {
                        return damaged(path, offset, start, problem + "; these are not the bytes an interrupted write "
                                + "leaves (a frame cut short by the end of the file, or zeros to the end of the file), "
                                + "so this is not a torn tail", consistent);
                    }
                    return new Torn(consistent, path, groupOffset, end - groupOffset, problem, false);
                }
            }
        }
    }

    private static Damaged damaged(Path path, long offset, long start, String problem, long consistent) {
        return new Damaged(new LogDamage(path, offset, start + offset, problem, consistent));
    }

    /**
     * Whether the invalid frame at {@code offset} is what an interrupted append leaves: its header
     * cut short, a consistent header whose frame runs past the end of the file, or zeros from inside
     * the frame to the end of the file (at least {@link #TORN_ZEROS_MINIMUM} of them).
     */
    static boolean looksInterrupted(FileHandle segment, long offset, long size) {
        long remaining = size - offset;
        if (remaining < LogFormat.RECORD_HEADER_SIZE) {
            return true;
        }
        byte[] header = read(segment, offset, LogFormat.RECORD_HEADER_SIZE);
        long length = Integer.toUnsignedLong(RecordCodec.readInt(header, LogFormat.RECORD_LENGTH_OFFSET));
        long frameEnd = offset + LogFormat.RECORD_HEADER_SIZE + length;
        if (frameEnd > size && consistentHeader(header, 0, length)) {
            return true;
        }
        long zerosFrom = trailingZerosStart(segment, offset, size);
        return size - zerosFrom >= TORN_ZEROS_MINIMUM && zerosFrom < Math.min(frameEnd, size);
    }

    /** Whether a frame header's type, flags, reserved bytes and length agree with the format. */
    private static boolean consistentHeader(byte[] bytes, int headerStart, long length) {
        int type = Byte.toUnsignedInt(bytes[headerStart + LogFormat.RECORD_TYPE_OFFSET]);
        int flags = Byte.toUnsignedInt(bytes[headerStart + LogFormat.RECORD_FLAGS_OFFSET]);
        int reserved = RecordCodec.readUnsignedShort(bytes, headerStart + LogFormat.RECORD_RESERVED_OFFSET);
        if ((flags & ~LogFormat.KNOWN_FLAGS) != 0 || reserved != 0 || length > LogFormat.MAX_PAYLOAD) {
            return false;
        }
        return switch (type) {
            case LogFormat.TYPE_PAGE_IMAGE -> length == LogFormat.PAGE_IMAGE_PAYLOAD;
            case LogFormat.TYPE_PAGE_DELTA -> length > LogFormat.PAGE_DELTA_FIXED_PAYLOAD + LogFormat.PAGE_DELTA_RANGE_HEADER;
            case LogFormat.TYPE_COMMIT -> length == LogFormat.COMMIT_PAYLOAD;
            case LogFormat.TYPE_CHECKPOINT -> length == LogFormat.CHECKPOINT_PAYLOAD;
            default -> false;
        };
    }

    /** The offset from which {@code [offset, size)} of the file holds only zeros ({@code size} if it ends in another byte). */
    private static long trailingZerosStart(FileHandle segment, long offset, long size) {
        long position = size;
        while (position > offset) {
            int length = (int) Math.min(64 * 1024, position - offset);
            byte[] bytes = read(segment, position - length, length);
            for (int index = length - 1; index >= 0; index--) {
                if (bytes[index] != 0) {
                    return position - length + index + 1;
                }
            }
            position -= length;
        }
        return offset;
    }

    /**
     * The offset of the first valid frame starting in {@code [from, size)}, trying every byte
     * position, or -1. Valid means whole, a consistent header and a matching CRC32C; the CRC covers
     * the LSN, so a frame that passes was written at that position.
     */
    static long findValidFrame(FileHandle segment, long startLsn, long from, long size) {
        int overlap = LogFormat.RECORD_HEADER_SIZE + LogFormat.MAX_PAYLOAD;
        CRC32C crc = new CRC32C();
        long base = from;
        while (base < size) {
            int length = (int) Math.min(SEARCH_WINDOW + overlap, size - base);
            byte[] bytes = read(segment, base, length);
            int candidates = Math.min(SEARCH_WINDOW, length);
            for (int position = 0; position < candidates; position++) {
                if (length - position < LogFormat.RECORD_HEADER_SIZE) {
                    break;
                }
                long payload = Integer.toUnsignedLong(RecordCodec.readInt(bytes, position + LogFormat.RECORD_LENGTH_OFFSET));
                if (position + LogFormat.RECORD_HEADER_SIZE + payload > length) {
                    continue;
                }
                if (!consistentHeader(bytes, position, payload)) {
                    continue;
                }
                int stored = RecordCodec.readInt(bytes, position + LogFormat.RECORD_CRC_OFFSET);
                int computed = LogFormat.frameCrc(startLsn + base + position, bytes, position, bytes,
                        position + LogFormat.RECORD_HEADER_SIZE, (int) payload, crc);
                if (stored == computed) {
                    return base + position;
                }
            }
            base += candidates;
        }
        return -1;
    }

    private static byte[] read(FileHandle file, long offset, int length) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(Math.max(1, length));
            long read = file.read(offset, buffer.asSlice(0, length));
            if (read < length) {
                throw new ColumbaException(ErrorCode.IO_ERROR, "write-ahead log segment " + file.path() + " ended at "
                        + (offset + read) + " bytes while reading " + length + " bytes at offset " + offset);
            }
            byte[] bytes = new byte[length];
            MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, 0, bytes, 0, length);
            return bytes;
        }
    }
}
