package dev.columba.storage.wal;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.io.FileHandle;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The 32-byte header that starts every segment file ({@code docs/format/wal.md}, "Segment
 * header"): magic, format version, start LSN and a CRC32C.
 */
final class SegmentHeader {
    private SegmentHeader() {
    }

    static byte[] encode(long startLsn) {
        byte[] header = new byte[LogFormat.HEADER_SIZE];
        System.arraycopy(LogFormat.MAGIC, 0, header, LogFormat.HEADER_MAGIC_OFFSET, LogFormat.MAGIC.length);
        RecordCodec.writeShort(header, LogFormat.HEADER_VERSION_OFFSET, LogFormat.FORMAT_VERSION);
        RecordCodec.writeLong(header, LogFormat.HEADER_START_LSN_OFFSET, startLsn);
        RecordCodec.writeInt(header, LogFormat.HEADER_CRC_OFFSET, LogFormat.headerCrc(header));
        return header;
    }

    /** Writes the header of a segment starting at {@code startLsn} at offset 0 of {@code file}. */
    static void write(FileHandle file, long startLsn) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(LogFormat.HEADER_SIZE);
            MemorySegment.copy(encode(startLsn), 0, buffer, ValueLayout.JAVA_BYTE, 0, LogFormat.HEADER_SIZE);
            file.write(0, buffer);
        }
    }

    /**
     * Reads the first {@link LogFormat#HEADER_SIZE} bytes of {@code file}, or fewer if the file is
     * shorter: the caller decides what a short header means.
     */
    static byte[] read(FileHandle file) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(LogFormat.HEADER_SIZE);
            int length = (int) file.read(0, buffer);
            byte[] header = new byte[length];
            MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, 0, header, 0, length);
            return header;
        }
    }

    /** Whether {@code header} is a whole header of zeros: space the file system allocated, never written. */
    static boolean isZeros(byte[] header) {
        if (header.length < LogFormat.HEADER_SIZE) {
            return false;
        }
        for (byte value : header) {
            if (value != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Checks a whole header read from {@code file}, whose name says it starts at
     * {@code expectedStartLsn}: magic, then version (a newer layout may move the rest), then CRC,
     * then the start LSN.
     *
     * @throws ColumbaException {@link ErrorCode#FILE_TRUNCATED}, {@link ErrorCode#FILE_MAGIC_MISMATCH},
     *     {@link ErrorCode#FORMAT_TOO_OLD}, {@link ErrorCode#FORMAT_TOO_NEW} or {@link ErrorCode#WAL_CORRUPT}
     */
    static void check(byte[] header, Path file, long expectedStartLsn) {
        if (header.length < LogFormat.HEADER_SIZE) {
            throw new ColumbaException(ErrorCode.FILE_TRUNCATED, "write-ahead log segment " + file + " has "
                    + header.length + " bytes, fewer than its " + LogFormat.HEADER_SIZE + "-byte header");
        }
        byte[] magic = Arrays.copyOfRange(header, LogFormat.HEADER_MAGIC_OFFSET, LogFormat.MAGIC.length);
        if (!Arrays.equals(magic, LogFormat.MAGIC)) {
            throw new ColumbaException(ErrorCode.FILE_MAGIC_MISMATCH, "write-ahead log segment " + file
                    + " at offset 0: magic is " + HexFormat.of().formatHex(magic) + ", expected "
                    + HexFormat.of().formatHex(LogFormat.MAGIC) + " (\"CLMB-WAL\")");
        }
        int version = RecordCodec.readUnsignedShort(header, LogFormat.HEADER_VERSION_OFFSET);
        if (version > LogFormat.FORMAT_VERSION) {
            throw new ColumbaException(ErrorCode.FORMAT_TOO_NEW, "write-ahead log segment " + file + " at offset "
                    + LogFormat.HEADER_VERSION_OFFSET + ": format version " + version
                    + " is newer than the newest this build reads (" + LogFormat.FORMAT_VERSION + ")");
        }
        if (version < LogFormat.OLDEST_READABLE_VERSION) {
            throw new ColumbaException(ErrorCode.FORMAT_TOO_OLD, "write-ahead log segment " + file + " at offset "
                    + LogFormat.HEADER_VERSION_OFFSET + ": format version " + version
                    + " is older than the oldest this build reads (" + LogFormat.OLDEST_READABLE_VERSION + ")");
        }
        int stored = RecordCodec.readInt(header, LogFormat.HEADER_CRC_OFFSET);
        int computed = LogFormat.headerCrc(header);
        if (stored != computed) {
            throw RecordCodec.corrupt(file, LogFormat.HEADER_CRC_OFFSET, "segment header CRC32C is "
                    + hex(stored) + ", computed " + hex(computed));
        }
        long startLsn = RecordCodec.readLong(header, LogFormat.HEADER_START_LSN_OFFSET);
        if (startLsn != expectedStartLsn) {
            throw RecordCodec.corrupt(file, LogFormat.HEADER_START_LSN_OFFSET, "segment header says start LSN "
                    + startLsn + " but the file name says " + expectedStartLsn);
        }
    }

    static String hex(int value) {
        return String.format("0x%08x", value);
    }
}
