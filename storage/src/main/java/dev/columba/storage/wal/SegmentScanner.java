package dev.columba.storage.wal;

import dev.columba.core.error.ErrorCode;
import dev.columba.storage.io.FileHandle;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.zip.CRC32C;

/**
 * Walks the record frames of one segment file at a time, checking each frame's length and CRC32C.
 * A frame that fails those checks is {@link Step#INVALID}: whether that is a torn tail or
 * corruption depends on where it is, which the caller knows. A frame that passes them but breaks
 * the format (unknown flags, non-zero reserved bytes) was written that way, and is
 * {@link ErrorCode#WAL_CORRUPT} wherever it is.
 *
 * <p>Reads go through a window buffer so that a segment of small records costs few system calls.
 * The current record's fields are valid until the next {@link #advance()}. Not thread-safe: one
 * user at a time; owns off-heap memory until {@link #close()}.
 */
final class SegmentScanner implements AutoCloseable {
    enum Step { RECORD, END, INVALID }

    private static final int WINDOW_SIZE = 256 * 1024;

    private final Arena arena = Arena.ofShared();
    private final MemorySegment window = arena.allocate(WINDOW_SIZE, 4096);
    private long windowStart;
    private int windowLength;

    private final byte[] header = new byte[LogFormat.RECORD_HEADER_SIZE];
    private byte[] payload = new byte[64 * 1024];
    private final CRC32C crc = new CRC32C();

    private FileHandle file;
    private long startLsn;
    private long limit;
    private long position;

    private long recordOffset;
    private int type;
    private int payloadLength;
    private boolean groupEnd;
    private String problem;

    /**
     * Points the scanner at {@code file}, a segment starting at {@code startLsn}, to read frames
     * from {@code fromOffset} up to {@code limit} bytes into the file.
     */
    void reset(FileHandle file, long startLsn, long fromOffset, long limit) {
        this.file = file;
        this.startLsn = startLsn;
        this.position = fromOffset;
        this.limit = limit;
        this.windowStart = 0;
        this.windowLength = 0;
        this.problem = null;
    }

    /** Moves to the next frame: a valid record, the exact end at the limit, or an invalid frame. */
    Step advance() {
        recordOffset = position;
        long remaining = limit - position;
        if (remaining == 0) {
            return Step.END;
        }
        if (remaining < LogFormat.RECORD_HEADER_SIZE) {
            problem = "incomplete record header at offset " + position + ": " + remaining
                    + " bytes before the end of the file";
            return Step.INVALID;
        }
        if (!readFully(position, header, LogFormat.RECORD_HEADER_SIZE)) {
            return Step.INVALID;
        }
        long length = Integer.toUnsignedLong(RecordCodec.readInt(header, LogFormat.RECORD_LENGTH_OFFSET));
        if (length > LogFormat.MAX_PAYLOAD) {
            problem = "record at offset " + position + " has a payload length of " + length
                    + " bytes, more than the largest allowed (" + LogFormat.MAX_PAYLOAD + ")";
            return Step.INVALID;
        }
        if (LogFormat.RECORD_HEADER_SIZE + length > remaining) {
            problem = "record at offset " + position + " needs " + (LogFormat.RECORD_HEADER_SIZE + length)
                    + " bytes but the file has " + remaining + " left";
            return Step.INVALID;
        }
        int lengthAsInt = (int) length;
        if (payload.length < lengthAsInt) {
            payload = new byte[Math.max(lengthAsInt, payload.length * 2)];
        }
        if (!readFully(position + LogFormat.RECORD_HEADER_SIZE, payload, lengthAsInt)) {
            return Step.INVALID;
        }
        int stored = RecordCodec.readInt(header, LogFormat.RECORD_CRC_OFFSET);
        int computed = frameCrc(startLsn + position, lengthAsInt);
        if (stored != computed) {
            problem = "record at offset " + position + " has CRC32C " + SegmentHeader.hex(stored) + ", computed "
                    + SegmentHeader.hex(computed);
            return Step.INVALID;
        }
        int flags = Byte.toUnsignedInt(header[LogFormat.RECORD_FLAGS_OFFSET]);
        if ((flags & ~LogFormat.KNOWN_FLAGS) != 0) {
            throw RecordCodec.corrupt(file.path(), position + LogFormat.RECORD_FLAGS_OFFSET,
                    "record flags " + flags + " set bits that format version " + LogFormat.FORMAT_VERSION
                            + " does not define");
        }
        int reserved = RecordCodec.readUnsignedShort(header, LogFormat.RECORD_RESERVED_OFFSET);
        if (reserved != 0) {
            throw RecordCodec.corrupt(file.path(), position + LogFormat.RECORD_RESERVED_OFFSET,
                    "record reserved bytes hold " + reserved + ", expected 0");
        }
        type = Byte.toUnsignedInt(header[LogFormat.RECORD_TYPE_OFFSET]);
        groupEnd = (flags & LogFormat.FLAG_GROUP_END) != 0;
        payloadLength = lengthAsInt;
        position += LogFormat.RECORD_HEADER_SIZE + length;
        return Step.RECORD;
    }

    private int frameCrc(long lsn, int length) {
        return LogFormat.frameCrc(lsn, header, 0, payload, 0, length, crc);
    }

    /** Decodes the current record; see {@link RecordCodec#decode}. */
    LogRecord decode() {
        return RecordCodec.decode(type, payload, payloadLength, file.path(), recordOffset);
    }

    /** The file offset of the current frame (or of the end, or of the invalid frame). */
    long recordOffset() {
        return recordOffset;
    }

    /** The file offset just past the current record. */
    long nextOffset() {
        return position;
    }

    boolean groupEnd() {
        return groupEnd;
    }

    /** Why the last {@link Step#INVALID} frame is invalid, naming its offset. */
    String problem() {
        return problem;
    }

    private boolean readFully(long offset, byte[] target, int length) {
        if (length > WINDOW_SIZE) {
            try (Arena scratch = Arena.ofConfined()) {
                MemorySegment buffer = scratch.allocate(length);
                long read = file.read(offset, buffer);
                if (read < length) {
                    problem = shortRead(offset, length, read);
                    return false;
                }
                MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, 0, target, 0, length);
                return true;
            }
        }
        if (offset < windowStart || offset + length > windowStart + windowLength) {
            int wanted = (int) Math.min(WINDOW_SIZE, limit - offset);
            long read = file.read(offset, window.asSlice(0, wanted));
            windowStart = offset;
            windowLength = (int) read;
            if (read < length) {
                problem = shortRead(offset, length, read);
                return false;
            }
        }
        MemorySegment.copy(window, ValueLayout.JAVA_BYTE, offset - windowStart, target, 0, length);
        return true;
    }

    private String shortRead(long offset, int length, long read) {
        return "file ended while reading " + length + " bytes at offset " + offset + " (got " + read + ")";
    }

    @Override
    public void close() {
        arena.close();
    }
}
