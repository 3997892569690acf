package dev.columba.core.settings;

/**
 * What opening a database does when its write-ahead log is damaged (setting
 * {@code wal_recovery_mode}; docs/design/storage.md, "Recovery"). A torn tail, the unfinished end an
 * interrupted append leaves, is not damage: it is always cut, after being copied aside.
 */
public enum WalRecoveryMode {
    /** Refuse to open, naming the file, offset and LSN of the damage; the log is left as it is. */
    FAIL,
    /**
     * Open read-only at the last consistent point before the damage (at or after the redo
     * point): the log, the control file and the damaged bytes stay as they are (copied into
     * {@code damaged/} too); no transaction can commit and nothing is checkpointed.
     */
    READ_ONLY_CONSISTENT,
    /**
     * Recover to the last consistent point before the damage (at or after the redo point): the
     * log is cut there and what followed, with every transaction in it, is discarded, after the
     * damaged files are copied into the database's {@code damaged/} folder.
     */
    POINT_IN_TIME
}
