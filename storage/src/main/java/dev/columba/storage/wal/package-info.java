/**
 * The write-ahead log: typed redo records, segment files, appends in atomic groups, group commit,
 * a validating reader, and recovery at open that cuts a torn tail but refuses (or, when told to,
 * repairs) a damaged log, keeping the original bytes in {@code damaged/} first. It stores and
 * returns records; replaying them onto pages, and deciding when to checkpoint, belong to the caller.
 */
package dev.columba.storage.wal;
