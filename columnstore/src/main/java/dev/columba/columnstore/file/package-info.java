/**
 * The columnstore's files: their names in the database directory, the rowgroup file (format,
 * writer, memory-mapped reader, and a scan's read-ahead and mincore-checked counters over it) and
 * the primary dictionary file, and the checksum both carry. Knows segments and dictionaries as
 * bytes; their encodings belong elsewhere.
 */
package dev.columba.columnstore.file;
