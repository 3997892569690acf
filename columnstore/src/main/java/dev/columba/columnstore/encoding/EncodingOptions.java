package dev.columba.columnstore.encoding;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;

/**
 * Table options that shape how segments are written.
 *
 * @param archive compress every segment with zstd after encoding it (the table's
 *     {@code COLUMNSTORE_ARCHIVE}-like option); a segment zstd does not shrink stays unarchived
 * @param archiveLevel the zstd level, 1..22
 */
public record EncodingOptions(boolean archive, int archiveLevel) {
    /** The zstd level archival uses unless told otherwise: archives trade write time for size. */
    public static final int DEFAULT_ARCHIVE_LEVEL = 9;

    /** Encoding without archival compression. */
    public static final EncodingOptions DEFAULT = new EncodingOptions(false, DEFAULT_ARCHIVE_LEVEL);

    /** Encoding with archival compression at the default level. */
    public static final EncodingOptions ARCHIVE = new EncodingOptions(true, DEFAULT_ARCHIVE_LEVEL);

    public EncodingOptions {
        if (archiveLevel < 1 || archiveLevel > 22) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "zstd archive level must be 1..22, was " + archiveLevel);
        }
    }
}
