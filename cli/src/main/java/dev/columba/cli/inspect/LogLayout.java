package dev.columba.cli.inspect;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * The write-ahead log's on-disk layout as inspect reads it, specified in docs/format/wal.md
 * (version 1). Storage's own constants class ({@code dev.columba.storage.wal.LogFormat}) and its
 * frame scanner are package-private, and its public reader needs an opened log, which repairs a
 * torn tail as it opens; so the numbers are repeated here and must change with that spec.
 */
final class LogLayout {
    private LogLayout() {
    }

    static final byte[] MAGIC = "CLMB-WAL".getBytes(StandardCharsets.US_ASCII);
    static final int FORMAT_VERSION = 1;

    static final int HEADER_SIZE = 32;
    static final int HEADER_VERSION_OFFSET = 8;
    static final int HEADER_START_LSN_OFFSET = 16;
    /** The header's CRC32C covers bytes {@code [0, HEADER_CRC_OFFSET)}. */
    static final int HEADER_CRC_OFFSET = 28;

    static final int RECORD_HEADER_SIZE = 12;
    static final int RECORD_LENGTH_OFFSET = 4;
    static final int RECORD_TYPE_OFFSET = 8;
    static final int RECORD_FLAGS_OFFSET = 9;
    static final int RECORD_RESERVED_OFFSET = 10;
    static final int FLAG_GROUP_END = 1;
    static final int MAX_PAYLOAD = 1 << 20;

    static final int TYPE_PAGE_IMAGE = 1;
    static final int TYPE_PAGE_DELTA = 2;
    static final int TYPE_COMMIT = 3;
    static final int TYPE_CHECKPOINT = 4;

    static final int PAGE_IMAGE_PAYLOAD = 8 + 8192;
    static final int PAGE_DELTA_FIXED_PAYLOAD = 10;
    static final int PAGE_DELTA_RANGE_HEADER = 4;
    static final int COMMIT_PAYLOAD = 16;
    static final int CHECKPOINT_PAYLOAD = 8;

    static final String SEGMENT_SUFFIX = ".wal";

    /** The start LSN a segment file name stands for, or -1 if the name is not a segment's. */
    static long startLsnOfName(String fileName) {
        if (fileName.length() != 16 + SEGMENT_SUFFIX.length() || !fileName.endsWith(SEGMENT_SUFFIX)) {
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
