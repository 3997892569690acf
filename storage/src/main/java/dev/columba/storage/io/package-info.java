/**
 * File I/O: the {@link dev.columba.storage.io.FilesFacade} every file access goes through, its
 * native implementation over the C library (FFM API), and the operating system's views that keep
 * Columba's counters honest ({@code /proc/self/io}, {@code mincore}). Knows nothing of pages.
 */
package dev.columba.storage.io;
