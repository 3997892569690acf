/**
 * The data file: its header, its page I/O for the buffer pool, and the constants of its
 * allocation structures. Owns bytes on disk, not what the pages mean.
 */
package dev.columba.storage.file;
