package dev.columba.storage.wal;

/**
 * A record read back from the log: it starts at {@code lsn} and ends just before
 * {@code nextLsn}; {@code groupEnd} says it was the last record of its append group.
 */
public record LogEntry(long lsn, long nextLsn, LogRecord record, boolean groupEnd) {
}
