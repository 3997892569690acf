/**
 * File I/O: the {@link dev.columba.storage.io.FilesFacade} every file access goes through, its
 * native implementation over the C library (FFM API) and a fault-injecting one for tests, paging
 * advice for memory-mapped files, and the operating system's views that keep Columba's counters
 * honest (page-cache residency through {@code mincore}, {@code /proc/self/io}). Knows nothing of
 * Columba's pages or file formats.
 */
package dev.columba.storage.io;
