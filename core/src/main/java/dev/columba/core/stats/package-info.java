/**
 * I/O statistics in the vocabulary of docs/design/architecture.md: counters per table and query, their
 * snapshots and the STATISTICS IO line; and measured waits per statement and database
 * ({@code sys.wait_stats}). Storage, columnstore and the exchanges fill them; nothing here reads pages.
 */
package dev.columba.core.stats;
