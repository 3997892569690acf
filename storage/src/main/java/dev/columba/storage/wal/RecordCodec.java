package dev.columba.storage.wal;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Encodes records into their on-disk frames and decodes them back ({@code docs/format/wal.md},
 * "Records"). Stateless; callers bring their own {@link CRC32C}, which is not thread-safe.
 */
final class RecordCodec {
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private RecordCodec() {
    }

    /** The bytes of {@code record}'s frame: record header and payload. */
    static int frameSize(LogRecord record) {
        return LogFormat.RECORD_HEADER_SIZE + payloadSize(record);
    }

    private static int payloadSize(LogRecord record) {
        return switch (record) {
            case LogRecord.PageImage _ -> LogFormat.PAGE_IMAGE_PAYLOAD;
            case LogRecord.PageDelta delta -> {
                int size = LogFormat.PAGE_DELTA_FIXED_PAYLOAD;
                for (LogRecord.PageDelta.Range range : delta.ranges()) {
                    size += LogFormat.PAGE_DELTA_RANGE_HEADER + range.bytes().length;
                }
                yield size;
            }
            case LogRecord.Commit _ -> LogFormat.COMMIT_PAYLOAD;
            case LogRecord.Checkpoint _ -> LogFormat.CHECKPOINT_PAYLOAD;
        };
    }

    private static int typeCode(LogRecord record) {
        return switch (record) {
            case LogRecord.PageImage _ -> LogFormat.TYPE_PAGE_IMAGE;
            case LogRecord.PageDelta _ -> LogFormat.TYPE_PAGE_DELTA;
            case LogRecord.Commit _ -> LogFormat.TYPE_COMMIT;
            case LogRecord.Checkpoint _ -> LogFormat.TYPE_CHECKPOINT;
        };
    }

    /**
     * Writes {@code record}'s frame at {@code position} of {@code target}, which must have
     * {@link #frameSize} bytes free there, for a record at {@code lsn}.
     *
     * @return the position just past the frame
     */
    static int encode(LogRecord record, long lsn, boolean groupEnd, byte[] target, int position, CRC32C crc) {
        int payloadLength = payloadSize(record);
        INT.set(target, position + LogFormat.RECORD_LENGTH_OFFSET, payloadLength);
        target[position + LogFormat.RECORD_TYPE_OFFSET] = (byte) typeCode(record);
        target[position + LogFormat.RECORD_FLAGS_OFFSET] = (byte) (groupEnd ? LogFormat.FLAG_GROUP_END : 0);
        SHORT.set(target, position + LogFormat.RECORD_RESERVED_OFFSET, (short) 0);
        int payload = position + LogFormat.RECORD_HEADER_SIZE;
        switch (record) {
            case LogRecord.PageImage image -> {
                LONG.set(target, payload, image.pageId());
                System.arraycopy(image.image(), 0, target, payload + 8, LogFormat.PAGE_SIZE);
            }
            case LogRecord.PageDelta delta -> {
                LONG.set(target, payload, delta.pageId());
                SHORT.set(target, payload + 8, (short) delta.ranges().size());
                int cursor = payload + LogFormat.PAGE_DELTA_FIXED_PAYLOAD;
                for (LogRecord.PageDelta.Range range : delta.ranges()) {
                    SHORT.set(target, cursor, (short) range.offset());
                    SHORT.set(target, cursor + 2, (short) range.bytes().length);
                    System.arraycopy(range.bytes(), 0, target, cursor + 4, range.bytes().length);
                    cursor += LogFormat.PAGE_DELTA_RANGE_HEADER + range.bytes().length;
                }
            }
            case LogRecord.Commit commit -> {
                LONG.set(target, payload, commit.transactionId());
                LONG.set(target, payload + 8, commit.commitTimeMicros());
            }
            case LogRecord.Checkpoint checkpoint -> LONG.set(target, payload, checkpoint.redoLsn());
        }
        int end = payload + payloadLength;
        INT.set(target, position + LogFormat.RECORD_CRC_OFFSET, frameCrc(lsn, target, position, end, crc));
        return end;
    }

    /** The CRC32C of a frame at {@code lsn} whose bytes are {@code frame[start, end)}: see {@link LogFormat#frameCrc}. */
    static int frameCrc(long lsn, byte[] frame, int start, int end, CRC32C crc) {
        int payloadStart = start + LogFormat.RECORD_HEADER_SIZE;
        return LogFormat.frameCrc(lsn, frame, start, frame, payloadStart, end - payloadStart, crc);
    }

    static int readInt(byte[] source, int position) {
        return (int) INT.get(source, position);
    }

    static long readLong(byte[] source, int position) {
        return (long) LONG.get(source, position);
    }

    static void writeInt(byte[] target, int position, int value) {
        INT.set(target, position, value);
    }

    static void writeLong(byte[] target, int position, long value) {
        LONG.set(target, position, value);
    }

    static void writeShort(byte[] target, int position, int value) {
        SHORT.set(target, position, (short) value);
    }

    static int readUnsignedShort(byte[] source, int position) {
        return Short.toUnsignedInt((short) SHORT.get(source, position));
    }

    /**
     * Decodes a payload whose frame passed its CRC check. A payload that does not match its type's
     * layout was written wrong or by a different format: {@link ErrorCode#WAL_CORRUPT}.
     *
     * @param payload the payload bytes, {@code [0, length)}
     * @param file the segment file, for messages
     * @param frameOffset the frame's offset in {@code file}, for messages
     */
    static LogRecord decode(int type, byte[] payload, int length, Path file, long frameOffset) {
        try {
            return switch (type) {
                case LogFormat.TYPE_PAGE_IMAGE -> {
                    expectLength(type, length, LogFormat.PAGE_IMAGE_PAYLOAD, file, frameOffset);
                    byte[] image = new byte[LogFormat.PAGE_SIZE];
                    System.arraycopy(payload, 8, image, 0, LogFormat.PAGE_SIZE);
                    yield new LogRecord.PageImage(readLong(payload, 0), image);
                }
                case LogFormat.TYPE_PAGE_DELTA -> decodeDelta(payload, length, file, frameOffset);
                case LogFormat.TYPE_COMMIT -> {
                    expectLength(type, length, LogFormat.COMMIT_PAYLOAD, file, frameOffset);
                    yield new LogRecord.Commit(readLong(payload, 0), readLong(payload, 8));
                }
                case LogFormat.TYPE_CHECKPOINT -> {
                    expectLength(type, length, LogFormat.CHECKPOINT_PAYLOAD, file, frameOffset);
                    yield new LogRecord.Checkpoint(readLong(payload, 0));
                }
                default -> throw corrupt(file, frameOffset, "unknown record type " + type
                        + " (format version " + LogFormat.FORMAT_VERSION + " defines types 1-4)");
            };
        } catch (ColumbaException invalid) {
            if (invalid.errorCode() == ErrorCode.WAL_CORRUPT) {
                throw invalid;
            }
            throw corrupt(file, frameOffset, "record of type " + type + " holds invalid values: " + invalid.getMessage());
        }
    }

    private static LogRecord decodeDelta(byte[] payload, int length, Path file, long frameOffset) {
        if (length < LogFormat.PAGE_DELTA_FIXED_PAYLOAD) {
            throw corrupt(file, frameOffset, "page delta payload of " + length + " bytes is shorter than its fixed "
                    + LogFormat.PAGE_DELTA_FIXED_PAYLOAD + " bytes");
        }
        long pageId = readLong(payload, 0);
        int rangeCount = readUnsignedShort(payload, 8);
        List<LogRecord.PageDelta.Range> ranges = new ArrayList<>(rangeCount);
        int cursor = LogFormat.PAGE_DELTA_FIXED_PAYLOAD;
        for (int rangeIndex = 0; rangeIndex < rangeCount; rangeIndex++) {
            if (cursor + LogFormat.PAGE_DELTA_RANGE_HEADER > length) {
                throw corrupt(file, frameOffset, "page delta range " + rangeIndex + " of " + rangeCount
                        + " starts past the payload's " + length + " bytes");
            }
            int offset = readUnsignedShort(payload, cursor);
            int rangeLength = readUnsignedShort(payload, cursor + 2);
            cursor += LogFormat.PAGE_DELTA_RANGE_HEADER;
            if (cursor + rangeLength > length) {
                throw corrupt(file, frameOffset, "page delta range " + rangeIndex + " of " + rangeLength
                        + " bytes runs past the payload's " + length + " bytes");
            }
            byte[] bytes = new byte[rangeLength];
            System.arraycopy(payload, cursor, bytes, 0, rangeLength);
            ranges.add(new LogRecord.PageDelta.Range(offset, bytes));
            cursor += rangeLength;
        }
        if (cursor != length) {
            throw corrupt(file, frameOffset, "page delta payload has " + (length - cursor)
                    + " bytes after its " + rangeCount + " ranges");
        }
        return new LogRecord.PageDelta(pageId, ranges);
    }

    private static void expectLength(int type, int length, int expected, Path file, long frameOffset) {
        if (length != expected) {
            throw corrupt(file, frameOffset, "record of type " + type + " has a payload of " + length
                    + " bytes, expected " + expected);
        }
    }

    /** As {@link #corrupt(Path, long, String)}, naming the LSN of the offset too. */
    static ColumbaException corrupt(Path file, long offset, long lsn, String problem) {
        return new ColumbaException(ErrorCode.WAL_CORRUPT, "write-ahead log segment " + file + " at offset " + offset
                + " (LSN " + lsn + "): " + problem);
    }

    static ColumbaException corrupt(Path file, long offset, String problem) {
        return new ColumbaException(ErrorCode.WAL_CORRUPT, "write-ahead log segment " + file + " at offset " + offset
                + ": " + problem);
    }
}
