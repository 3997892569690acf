/**
 * The database as a whole: its directory, control file and settings file, opening with redo
 * recovery, checkpoints, and dropping clean buffers for cold runs. Ties storage's parts together;
 * knows nothing of SQL.
 */
package dev.columba.storage.db;
