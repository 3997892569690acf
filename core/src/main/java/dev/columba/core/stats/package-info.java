/**
 * I/O statistics in the vocabulary of docs/design/architecture.md: counters per table and query, their
 * snapshots and the STATISTICS IO line. Storage and columnstore fill them; nothing here reads pages.
 */
package dev.columba.core.stats;
