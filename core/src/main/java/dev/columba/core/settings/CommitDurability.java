package dev.columba.core.settings;

/**
 * When a commit returns (setting {@code delayed_durability}; docs/design/storage.md, "Delayed
 * durability"). SQL Server calls the choice DELAYED_DURABILITY, PostgreSQL
 * {@code synchronous_commit}.
 */
public enum CommitDurability {
    /** The default: a commit returns once its commit record is on storage ({@code fdatasync}). */
    FULL,
    /**
     * A commit returns once its commit record is written to the log file, before it is on storage;
     * the log's background flusher makes it durable within a few milliseconds. A crash of the
     * machine (power loss, kernel panic) in between loses the last delayed commits, never a part of
     * one and never one older than a commit that survived.
     */
    DELAYED
}
