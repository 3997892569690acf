/**
 * The write-ahead log: typed redo records, segment files, appends in atomic groups, group commit
 * and a validating reader that finds where the log ends. It stores and returns records; replaying
 * them onto pages, and deciding when to checkpoint, belong to the caller.
 */
package dev.columba.storage.wal;
