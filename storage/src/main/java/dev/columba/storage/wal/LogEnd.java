package dev.columba.storage.wal;

import java.nio.file.Path;

/**
 * Where a scan of the log stopped: at its clean end, or at a torn tail. {@link #lsn()} is the
 * first byte the scan did not accept, so appends continue there.
 */
public sealed interface LogEnd {

    long lsn();

    /** The log ends after a whole record at {@code lsn}; nothing follows. */
    record Clean(long lsn) implements LogEnd {
    }

    /**
     * The last segment holds {@code discardedBytes} that are not a whole, valid group of records
     * from {@code offset} of {@code file} on: what a crash in the middle of an append leaves.
     * {@code reason} names the first bad frame and its offset.
     */
    record Torn(long lsn, Path file, long offset, long discardedBytes, String reason) implements LogEnd {
    }
}
