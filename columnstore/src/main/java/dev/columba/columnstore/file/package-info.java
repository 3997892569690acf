/**
 * The rowgroup file: its format, writer, memory-mapped reader, and a scan's read-ahead and
 * mincore-checked counters over it. Knows segments as bytes; their encodings belong elsewhere.
 */
package dev.columba.columnstore.file;
