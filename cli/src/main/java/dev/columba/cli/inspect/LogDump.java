package dev.columba.cli.inspect;

import static dev.columba.cli.inspect.DataFileDump.INDENT;

import dev.columba.core.error.ColumbaException;
import dev.columba.storage.wal.LogEnd;
import dev.columba.storage.wal.LogFormat;
import dev.columba.storage.wal.LogRecord;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * Dumps the write-ahead log (docs/format/wal.md): each segment's header, its records, and where
 * the log ends. It finds the end as storage's reader does, but without repairing anything and
 * without stopping at the first problem: a torn tail is reported with its file, offset and reason;
 * an invalid frame with more log after it, a bad header, a gap between segments or a record whose
 * content breaks the format is reported as corruption, and the scan carries on where it can.
 */
final class LogDump {
    /** What one segment holds, for the summary table. */
    record SegmentSummary(Path file, long startLsn, long size, long records, long groups, long images, long deltas,
                          long commits, long checkpoints, long firstTransaction, long lastTransaction) {
    }

    /** The log as a whole: its segments, where it starts and where it ends. */
    record Summary(List<SegmentSummary> segments, LogEnd end) {
        /** The LSN of the first segment's first byte, or -1 without segments. */
        long startLsn() {
            return segments.isEmpty() ? -1 : segments.getFirst().startLsn();
        }
    }

    private final PrintStream out;
    private final Findings findings;
    private final boolean listRecords;

    LogDump(PrintStream out, Findings findings, boolean listRecords) {
        this.out = out;
        this.findings = findings;
        this.listRecords = listRecords;
    }

    /** Dumps every segment of {@code directory}, in LSN order. */
    Summary dumpDirectory(Path directory) {
        out.println("write-ahead log " + directory);
        TreeMap<Long, Path> segments = new TreeMap<>();
        if (!Files.isDirectory(directory)) {
            findings.report(INDENT, "the log directory " + directory + " is missing");
            return new Summary(List.of(), null);
        }
        try (Stream<Path> entries = Files.list(directory)) {
            for (Path entry : (Iterable<Path>) entries::iterator) {
                long startLsn = LogFormat.startLsnOfName(entry.getFileName().toString());
                if (startLsn >= 0 && Files.isRegularFile(entry)) {
                    segments.put(startLsn, entry);
                }
            }
        } catch (IOException e) {
            findings.report(INDENT, "cannot list " + directory + ": " + e.getMessage());
            return new Summary(List.of(), null);
        }
        if (segments.isEmpty()) {
            findings.report(INDENT, directory + " holds no log segment (<16 hex digits>.wal): the log is missing");
            return new Summary(List.of(), null);
        }
        return dump(new ArrayList<>(segments.values()), new ArrayList<>(segments.keySet()));
    }

    /** Dumps one segment file, taken as the last of its log (so an invalid tail is torn, not corrupt). */
    Summary dumpSegment(Path file) {
        out.println("write-ahead log segment " + file);
        long startLsn = LogFormat.startLsnOfName(file.getFileName().toString());
        if (startLsn < 0) {
            try (ReadOnlyFile segment = ReadOnlyFile.open(file)) {
                byte[] header = segment.bytes(0, LogFormat.HEADER_SIZE);
                startLsn = header.length == LogFormat.HEADER_SIZE ? littleEndian(header).getLong(LogFormat.HEADER_START_LSN_OFFSET) : 0;
            }
            out.println(INDENT + "(the file name is not <16 hex digits>.wal: its LSNs are taken from its header, "
                    + startLsn + ")");
        }
        return dump(List.of(file), List.of(startLsn));
    }

    private Summary dump(List<Path> files, List<Long> startLsns) {
        List<SegmentSummary> summaries = new ArrayList<>();
        LogEnd end = null;
        for (int index = 0; index < files.size(); index++) {
            boolean last = index == files.size() - 1;
            SegmentScan scan = new SegmentScan(files.get(index), startLsns.get(index), last);
            end = scan.run();
            summaries.add(scan.summary());
            if (!last) {
                long endLsn = startLsns.get(index) + scan.size;
                long nextStart = startLsns.get(index + 1);
                if (endLsn != nextStart) {
                    findings.report(INDENT, "segment " + files.get(index).getFileName() + " ends at LSN " + endLsn
                            + " but the next segment, " + files.get(index + 1).getFileName() + ", starts at LSN "
                            + nextStart + (endLsn < nextStart ? " (log is missing between them)" : " (they overlap)"));
                }
            }
        }
        out.println();
        TextTable table = new TextTable(INDENT, "segment", "start LSN", "end LSN", "records", "groups", "images",
                "deltas", "commits", "checkpoints", "transactions");
        for (SegmentSummary segment : summaries) {
            table.row(segment.file().getFileName().toString(), segment.startLsn(), segment.startLsn() + segment.size(),
                    segment.records(), segment.groups(), segment.images(), segment.deltas(), segment.commits(),
                    segment.checkpoints(), segment.firstTransaction() < 0 ? "-"
                            : segment.firstTransaction() == segment.lastTransaction() ? String.valueOf(segment.firstTransaction())
                            : segment.firstTransaction() + "-" + segment.lastTransaction());
        }
        table.print(out);
        out.println(INDENT + "log end: " + describe(end));
        return new Summary(summaries, end);
    }

    static String describe(LogEnd end) {
        return switch (end) {
            case null -> "unknown (no readable segment)";
            case LogEnd.Clean clean -> "clean at LSN " + clean.lsn();
            case LogEnd.Torn torn -> "torn at LSN " + torn.lsn() + ": " + torn.discardedBytes() + " bytes from offset "
                    + torn.offset() + " of " + torn.file().getFileName() + " are not part of the log (" + torn.reason() + ")";
        };
    }

    private static ByteBuffer littleEndian(byte[] bytes) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** One pass over one segment: header, frames, end. */
    private final class SegmentScan {
        private static final int WINDOW_SIZE = 1 << 20;

        private final Path file;
        private final String name;
        private final long startLsn;
        private final boolean last;
        private final CRC32C crc = new CRC32C();
        private long size;
        private long records;
        private long groups;
        private long images;
        private long deltas;
        private long commits;
        private long checkpoints;
        private long firstTransaction = -1;
        private long lastTransaction = -1;
        /** Offset where the group being read started; -1 between groups. */
        private long groupStart = -1;
        private long recordsInOpenGroup;

        private ReadOnlyFile reader;
        private final byte[] window = new byte[WINDOW_SIZE];
        private long windowStart;
        private int windowLength;

        SegmentScan(Path file, long startLsn, boolean last) {
            this.file = file;
            this.name = file.getFileName().toString();
            this.startLsn = startLsn;
            this.last = last;
        }

        SegmentSummary summary() {
            return new SegmentSummary(file, startLsn, size, records, groups, images, deltas, commits, checkpoints,
                    firstTransaction, lastTransaction);
        }

        /** Scans the segment; returns where the log ends if this is the last segment, else null. */
        LogEnd run() {
            try (ReadOnlyFile opened = ReadOnlyFile.open(file)) {
                reader = opened;
                size = opened.size();
                if (listRecords) {
                    out.println();
                    out.println("segment " + name + ": start LSN " + startLsn + ", " + size + " bytes");
                }
                if (!headerUsable()) {
                    return last ? new LogEnd.Torn(startLsn, file, 0, size, "the segment header is unusable") : null;
                }
                if (listRecords) {
                    out.println(String.format(INDENT + "%14s  %-5s  %-10s  %s", "lsn", "group", "type", "details"));
                }
                return frames();
            } catch (ColumbaException unreadable) {
                findings.report(INDENT, "cannot read " + file + ": " + unreadable.getMessage());
                return last ? new LogEnd.Torn(startLsn, file, 0, size, "the file cannot be read") : null;
            }
        }

        /** Checks the header; false when the frames cannot be read after it (too short, wrong magic or version). */
        private boolean headerUsable() {
            byte[] header = bytes(0, LogFormat.HEADER_SIZE);
            String where = "write-ahead log segment " + file;
            if (header.length < LogFormat.HEADER_SIZE) {
                findings.report(INDENT, where + " has " + header.length + " bytes, fewer than its " + LogFormat.HEADER_SIZE
                        + "-byte header" + (last ? " (its creation was interrupted; opening the database writes it again)" : ""));
                return false;
            }
            if (last && Arrays.equals(header, new byte[LogFormat.HEADER_SIZE])) {
                findings.report(INDENT, where + " has a header of zeros (its creation was interrupted; opening the "
                        + "database writes it again)");
                return false;
            }
            byte[] magic = LogFormat.magic();
            if (!Arrays.equals(header, 0, magic.length, magic, 0, magic.length)) {
                findings.report(INDENT, where + " at offset " + LogFormat.HEADER_MAGIC_OFFSET + ": magic is "
                        + ValueText.hex(Arrays.copyOf(header, magic.length)) + ", expected " + ValueText.hex(magic) + " (\""
                        + new String(magic, StandardCharsets.US_ASCII) + "\")");
                return false;
            }
            ByteBuffer fields = littleEndian(header);
            int version = Short.toUnsignedInt(fields.getShort(LogFormat.HEADER_VERSION_OFFSET));
            if (version < LogFormat.OLDEST_READABLE_VERSION || version > LogFormat.FORMAT_VERSION) {
                findings.report(INDENT, where + " at offset " + LogFormat.HEADER_VERSION_OFFSET + ": format version " + version
                        + ", this build reads " + LogFormat.OLDEST_READABLE_VERSION + " to " + LogFormat.FORMAT_VERSION);
                return false;
            }
            int stored = fields.getInt(LogFormat.HEADER_CRC_OFFSET);
            int computed = LogFormat.headerCrc(header);
            if (stored != computed) {
                findings.report(INDENT, where + " at offset " + LogFormat.HEADER_CRC_OFFSET + ": header CRC32C is "
                        + ValueText.hex32(stored) + ", computed " + ValueText.hex32(computed));
            }
            long headerLsn = fields.getLong(LogFormat.HEADER_START_LSN_OFFSET);
            if (headerLsn != startLsn) {
                findings.report(INDENT, where + " at offset " + LogFormat.HEADER_START_LSN_OFFSET + ": header says start LSN "
                        + headerLsn + " but the file name says " + startLsn);
            }
            return true;
        }

        private LogEnd frames() {
            long position = LogFormat.HEADER_SIZE;
            while (true) {
                long remaining = size - position;
                if (remaining == 0) {
                    return endOfSegment(position);
                }
                String invalid = null;
                byte[] header = null;
                byte[] payload = null;
                if (remaining < LogFormat.RECORD_HEADER_SIZE) {
                    invalid = "incomplete record header at offset " + position + ": " + remaining
                            + " bytes before the end of the file";
                } else {
                    header = bytes(position, LogFormat.RECORD_HEADER_SIZE);
                    long length = Integer.toUnsignedLong(littleEndian(header).getInt(LogFormat.RECORD_LENGTH_OFFSET));
                    if (length > LogFormat.MAX_PAYLOAD) {
                        invalid = "record at offset " + position + " has a payload length of " + length
                                + " bytes, more than the largest allowed (" + LogFormat.MAX_PAYLOAD + ")";
                    } else if (LogFormat.RECORD_HEADER_SIZE + length > remaining) {
                        invalid = "record at offset " + position + " needs " + (LogFormat.RECORD_HEADER_SIZE + length)
                                + " bytes but the file has " + remaining + " left";
                    } else {
                        payload = bytes(position + LogFormat.RECORD_HEADER_SIZE, (int) length);
                        int stored = littleEndian(header).getInt(LogFormat.RECORD_CRC_OFFSET);
                        int computed = LogFormat.frameCrc(startLsn + position, header, 0, payload, 0, payload.length, crc);
                        if (stored != computed) {
                            invalid = "record at offset " + position + " has CRC32C " + ValueText.hex32(stored)
                                    + ", computed " + ValueText.hex32(computed);
                        }
                    }
                }
                if (invalid != null) {
                    return invalidFrame(position, invalid);
                }
                record(position, header, payload);
                position += LogFormat.RECORD_HEADER_SIZE + payload.length;
            }
        }

        private LogEnd endOfSegment(long position) {
            if (groupStart < 0) {
                return last ? new LogEnd.Clean(startLsn + position) : null;
            }
            String reason = "the group starting at offset " + groupStart + " has no record marked as its end before the "
                    + "end of the " + (last ? "log" : "segment");
            if (last) {
                return torn(reason);
            }
            findings.report(INDENT, "write-ahead log segment " + file + " at offset " + groupStart + ": " + reason
                    + ", and later segments follow");
            return null;
        }

        private LogEnd invalidFrame(long position, String reason) {
            if (!last) {
                findings.report(INDENT, "write-ahead log segment " + file + " at offset " + position + ": " + reason
                        + "; later segments follow, so this is corruption, not a torn tail (the rest of this segment"
                        + " is not read)");
                return null;
            }
            if (groupStart < 0) {
                groupStart = position;
            }
            return torn(reason);
        }

        private LogEnd torn(String reason) {
            LogEnd.Torn torn = new LogEnd.Torn(startLsn + groupStart, file, groupStart, size - groupStart, reason);
            if (listRecords && recordsInOpenGroup > 0) {
                out.println(INDENT + "(the last " + recordsInOpenGroup + " records above belong to a group that never "
                        + "ended: recovery discards them)");
            }
            findings.report(INDENT, "write-ahead log segment " + file + ": torn tail at offset " + groupStart + " (LSN "
                    + torn.lsn() + "), " + torn.discardedBytes() + " bytes not part of the log: " + reason);
            return torn;
        }

        /** A frame whose length and CRC are valid: count it, check its content, list it. */
        private void record(long position, byte[] header, byte[] payload) {
            long lsn = startLsn + position;
            String where = "write-ahead log segment " + file + " at offset " + position + " (LSN " + lsn + ")";
            int type = Byte.toUnsignedInt(header[LogFormat.RECORD_TYPE_OFFSET]);
            int flags = Byte.toUnsignedInt(header[LogFormat.RECORD_FLAGS_OFFSET]);
            int reserved = Short.toUnsignedInt(littleEndian(header).getShort(LogFormat.RECORD_RESERVED_OFFSET));
            if ((flags & ~LogFormat.KNOWN_FLAGS) != 0) {
                findings.report(INDENT, where + ": record flags " + flags + " set bits format version "
                        + LogFormat.FORMAT_VERSION + " does not define");
            }
            if (reserved != 0) {
                findings.report(INDENT, where + ": record reserved bytes hold " + reserved + ", expected 0");
            }
            boolean groupEnd = (flags & LogFormat.FLAG_GROUP_END) != 0;
            records++;
            if (groupStart < 0) {
                groupStart = position;
                recordsInOpenGroup = 0;
            }
            recordsInOpenGroup++;
            String details;
            String typeName;
            try {
                LogRecord decoded = decode(type, payload);
                count(decoded);
                typeName = typeName(decoded);
                details = details(decoded);
            } catch (ColumbaException | IllegalArgumentException undecodable) {
                findings.report(INDENT, where + ": record of type " + type + " with a " + payload.length
                        + "-byte payload does not decode: " + DataFileDump.reason(undecodable));
                typeName = "TYPE " + type;
                details = "UNDECODABLE, " + payload.length + " bytes";
            }
            if (groupEnd) {
                groups++;
                groupStart = -1;
                recordsInOpenGroup = 0;
            }
            if (listRecords) {
                out.println(String.format(INDENT + "%14d  %-5s  %-10s  %s", lsn, groupEnd ? "end" : "", typeName, details));
            }
        }

        private void count(LogRecord record) {
            switch (record) {
                case LogRecord.PageImage ignored -> images++;
                case LogRecord.PageDelta ignored -> deltas++;
                case LogRecord.Commit commit -> {
                    commits++;
                    if (firstTransaction < 0) {
                        firstTransaction = commit.transactionId();
                    }
                    lastTransaction = commit.transactionId();
                }
                case LogRecord.Checkpoint ignored -> checkpoints++;
            }
        }

        private byte[] bytes(long offset, int length) {
            if (length > WINDOW_SIZE) {
                return reader.bytes(offset, length);
            }
            if (offset < windowStart || offset + length > windowStart + windowLength) {
                try (Arena arena = Arena.ofConfined()) {
                    int wanted = (int) Math.min(WINDOW_SIZE, Math.max(0, size - offset));
                    MemorySegment buffer = arena.allocate(Math.max(1, wanted));
                    windowLength = (int) reader.read(offset, buffer.asSlice(0, wanted));
                    MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, 0, window, 0, windowLength);
                    windowStart = offset;
                }
            }
            int available = (int) Math.max(0, Math.min(length, windowStart + windowLength - offset));
            return Arrays.copyOfRange(window, (int) (offset - windowStart), (int) (offset - windowStart) + available);
        }
    }

    // ---- records -------------------------------------------------------------------------------

    /**
     * Decodes a payload into storage's record types, whose constructors check the values.
     *
     * @throws ColumbaException or IllegalArgumentException naming what does not fit
     */
    static LogRecord decode(int type, byte[] payload) {
        ByteBuffer bytes = littleEndian(payload);
        return switch (type) {
            case LogFormat.TYPE_PAGE_IMAGE -> {
                expectLength(type, payload.length, LogFormat.PAGE_IMAGE_PAYLOAD);
                yield new LogRecord.PageImage(bytes.getLong(0), Arrays.copyOfRange(payload, 8, payload.length));
            }
            case LogFormat.TYPE_PAGE_DELTA -> {
                if (payload.length < LogFormat.PAGE_DELTA_FIXED_PAYLOAD) {
                    throw new IllegalArgumentException("page delta payload of " + payload.length
                            + " bytes is shorter than its fixed " + LogFormat.PAGE_DELTA_FIXED_PAYLOAD + " bytes");
                }
                int rangeCount = Short.toUnsignedInt(bytes.getShort(8));
                List<LogRecord.PageDelta.Range> ranges = new ArrayList<>(rangeCount);
                int cursor = LogFormat.PAGE_DELTA_FIXED_PAYLOAD;
                for (int range = 0; range < rangeCount; range++) {
                    if (cursor + LogFormat.PAGE_DELTA_RANGE_HEADER > payload.length) {
                        throw new IllegalArgumentException("page delta range " + range + " of " + rangeCount
                                + " starts past the payload's " + payload.length + " bytes");
                    }
                    int offset = Short.toUnsignedInt(bytes.getShort(cursor));
                    int length = Short.toUnsignedInt(bytes.getShort(cursor + 2));
                    cursor += LogFormat.PAGE_DELTA_RANGE_HEADER;
                    if (cursor + length > payload.length) {
                        throw new IllegalArgumentException("page delta range " + range + " of " + length
                                + " bytes runs past the payload's " + payload.length + " bytes");
                    }
                    ranges.add(new LogRecord.PageDelta.Range(offset, Arrays.copyOfRange(payload, cursor, cursor + length)));
                    cursor += length;
                }
                if (cursor != payload.length) {
                    throw new IllegalArgumentException("page delta payload has " + (payload.length - cursor)
                            + " bytes after its " + rangeCount + " ranges");
                }
                yield new LogRecord.PageDelta(bytes.getLong(0), ranges);
            }
            case LogFormat.TYPE_COMMIT -> {
                expectLength(type, payload.length, LogFormat.COMMIT_PAYLOAD);
                yield new LogRecord.Commit(bytes.getLong(0), bytes.getLong(8));
            }
            case LogFormat.TYPE_CHECKPOINT -> {
                expectLength(type, payload.length, LogFormat.CHECKPOINT_PAYLOAD);
                yield new LogRecord.Checkpoint(bytes.getLong(0));
            }
            default -> throw new IllegalArgumentException("unknown record type " + type + " (format version "
                    + LogFormat.FORMAT_VERSION + " defines types 1-4)");
        };
    }

    private static void expectLength(int type, int length, int expected) {
        if (length != expected) {
            throw new IllegalArgumentException("record of type " + type + " has a payload of " + length
                    + " bytes, expected " + expected);
        }
    }

    static String typeName(LogRecord record) {
        return switch (record) {
            case LogRecord.PageImage ignored -> "PAGE_IMAGE";
            case LogRecord.PageDelta ignored -> "PAGE_DELTA";
            case LogRecord.Commit ignored -> "COMMIT";
            case LogRecord.Checkpoint ignored -> "CHECKPOINT";
        };
    }

    static String details(LogRecord record) {
        return switch (record) {
            case LogRecord.PageImage image -> {
                PageInfo page = PageInfo.of(image.pageId(), MemorySegment.ofArray(image.image()));
                yield "page " + image.pageId() + ": image, " + page.typeName() + " of object " + page.objectId()
                        + (page.headerPageId() != image.pageId() ? " (its header says page " + page.headerPageId() + ")" : "");
            }
            case LogRecord.PageDelta delta -> {
                int bytes = 0;
                List<String> spans = new ArrayList<>();
                for (LogRecord.PageDelta.Range range : delta.ranges()) {
                    bytes += range.bytes().length;
                    if (spans.size() < 4) {
                        int last = range.offset() + range.bytes().length - 1;
                        spans.add(last == range.offset() ? String.valueOf(last) : range.offset() + "-" + last);
                    }
                }
                yield "page " + delta.pageId() + ": delta, " + delta.ranges().size()
                        + (delta.ranges().size() == 1 ? " range, " : " ranges, ") + bytes + (bytes == 1 ? " byte" : " bytes")
                        + " at "
                        + String.join(", ", spans) + (delta.ranges().size() > spans.size() ? ", ..." : "");
            }
            case LogRecord.Commit commit -> "transaction " + commit.transactionId() + " committed at "
                    + ValueText.micros(commit.commitTimeMicros());
            case LogRecord.Checkpoint checkpoint -> "redo LSN " + checkpoint.redoLsn();
        };
    }
}
