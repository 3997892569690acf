/**
 * Write transactions (one writer at a time, private page copies, redo-only logging at commit, group
 * commit) and the object locks that give reading statements a consistent view. Knows pages and the
 * log, not rows.
 */
package dev.columba.storage.txn;
