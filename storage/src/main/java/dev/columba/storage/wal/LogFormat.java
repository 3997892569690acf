package dev.columba.storage.wal;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * The constants of the write-ahead log's on-disk format, shared by writer and reader, and public
 * (with the checksums) for {@code columba inspect}, which reads segments without opening the log
 * (opening repairs a torn tail). The layout is specified in {@code docs/format/wal.md}; change one
 * only together with the other, and bump {@link #FORMAT_VERSION} for any change a version-1 reader
 * could misread (a new record type included).
 */
public final class LogFormat {
    private LogFormat() {
    }

    /** The first eight bytes of every segment file: ASCII {@code CLMB-WAL}. */
    static final byte[] MAGIC = "CLMB-WAL".getBytes(StandardCharsets.US_ASCII);

    /** The version this code writes. */
    public static final int FORMAT_VERSION = 1;
    /** The oldest version this code reads. */
    public static final int OLDEST_READABLE_VERSION = 1;

    // Segment header, 32 bytes, little-endian.
    public static final int HEADER_SIZE = 32;
    public static final int HEADER_MAGIC_OFFSET = 0;
    public static final int HEADER_VERSION_OFFSET = 8;
    public static final int HEADER_START_LSN_OFFSET = 16;
    /** The header's CRC32C covers bytes {@code [0, HEADER_CRC_OFFSET)}. */
    public static final int HEADER_CRC_OFFSET = 28;

    // Record frame: a 12-byte header, then the payload.
    public static final int RECORD_HEADER_SIZE = 12;
    public static final int RECORD_CRC_OFFSET = 0;
    public static final int RECORD_LENGTH_OFFSET = 4;
    public static final int RECORD_TYPE_OFFSET = 8;
    public static final int RECORD_FLAGS_OFFSET = 9;
    public static final int RECORD_RESERVED_OFFSET = 10;
    /** Flags bit 0: this record is the last of its append group. */
    public static final int FLAG_GROUP_END = 1;
    /** Flags bits that version 1 defines; any other bit set makes the record invalid. */
    public static final int KNOWN_FLAGS = FLAG_GROUP_END;
    /**
     * The largest payload a reader accepts. Version 1's largest record, a delta of 8,192 one-byte
     * ranges, is 40,970 bytes; the bound keeps a garbage length field from asking for gigabytes.
     */
    public static final int MAX_PAYLOAD = 1 << 20;

    /** Bytes of a page: a {@link LogRecord.PageImage} carries exactly this many. */
    public static final int PAGE_SIZE = 8192;

    // Record type codes (one byte). 0 is never a type, so zero-filled space never reads as a record.
    //   1-31    pages and transactions (version 1 uses 1-4)
    //   32-63   reserved for columnstore file events
    //   64-255  reserved
    public static final int TYPE_PAGE_IMAGE = 1;
    public static final int TYPE_PAGE_DELTA = 2;
    public static final int TYPE_COMMIT = 3;
    public static final int TYPE_CHECKPOINT = 4;

    // Payload sizes of the fixed-size records.
    public static final int PAGE_IMAGE_PAYLOAD = 8 + PAGE_SIZE;
    /** Page id (8) and range count (2); each range adds offset (2), length (2) and its bytes. */
    public static final int PAGE_DELTA_FIXED_PAYLOAD = 10;
    public static final int PAGE_DELTA_RANGE_HEADER = 4;
    public static final int COMMIT_PAYLOAD = 16;
    public static final int CHECKPOINT_PAYLOAD = 8;
    /** A whole Checkpoint frame: the control file's checkpoint LSN plus this is known durable. */
    public static final int CHECKPOINT_FRAME = RECORD_HEADER_SIZE + CHECKPOINT_PAYLOAD;

    /** Segment files are named by their start LSN: 16 lowercase hex digits and this suffix. */
    public static final String SEGMENT_SUFFIX = ".wal";
    private static final int SEGMENT_NAME_LENGTH = 16 + SEGMENT_SUFFIX.length();

    /** The first eight bytes of every segment file, {@code CLMB-WAL}: a copy. */
    public static byte[] magic() {
        return MAGIC.clone();
    }

    /** The CRC32C a segment header stores: of its bytes {@code [0, HEADER_CRC_OFFSET)}. */
    public static int headerCrc(byte[] header) {
        CRC32C crc = new CRC32C();
        crc.update(header, 0, HEADER_CRC_OFFSET);
        return (int) crc.getValue();
    }

    /**
     * The CRC32C a frame at {@code lsn} stores: it covers the LSN (eight bytes, little-endian, not
     * stored), then the frame header after the CRC field, then the payload. Covering the LSN means
     * a frame read at any other position (a stale or misplaced copy) fails its check. The frame
     * header is {@code header[headerStart, headerStart + RECORD_HEADER_SIZE)}, the payload
     * {@code payload[payloadStart, payloadStart + payloadLength)}; {@code crc} is reset first.
     */
    public static int frameCrc(long lsn, byte[] header, int headerStart, byte[] payload, int payloadStart,
                               int payloadLength, CRC32C crc) {
        crc.reset();
        for (int shift = 0; shift < 64; shift += 8) {
            crc.update((int) (lsn >>> shift));
        }
        crc.update(header, headerStart + RECORD_LENGTH_OFFSET, RECORD_HEADER_SIZE - RECORD_LENGTH_OFFSET);
        crc.update(payload, payloadStart, payloadLength);
        return (int) crc.getValue();
    }

    static String segmentName(long startLsn) {
        return String.format(Locale.ROOT, "%016x", startLsn) + SEGMENT_SUFFIX;
    }

    /** The start LSN a segment file name stands for, or -1 if the name is not a segment's. */
    public static long startLsnOfName(String fileName) {
        if (fileName.length() != SEGMENT_NAME_LENGTH || !fileName.endsWith(SEGMENT_SUFFIX)) {
            return -1;
        }
        for (int index = 0; index < 16; index++) {
            char digit = fileName.charAt(index);
            if (!(digit >= '0' && digit <= '9') && !(digit >= 'a' && digit <= 'f')) {
                return -1;
            }
        }
        long lsn = HexFormat.fromHexDigitsToLong(fileName, 0, 16);
        return lsn >= 0 ? lsn : -1;
    }
}
