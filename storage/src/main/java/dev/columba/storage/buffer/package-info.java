/**
 * The buffer pool: off-heap frames, the page table, pins and latches, scan-resistant eviction,
 * synchronous and asynchronous (read-ahead) page reads with honest counters, write transactions'
 * private page copies, and writing dirty pages under the write-ahead rule. Knows nothing of what
 * is inside a page beyond its header.
 */
package dev.columba.storage.buffer;
