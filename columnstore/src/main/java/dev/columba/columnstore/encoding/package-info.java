/**
 * Column segment encodings of the columnstore: {@link dev.columba.columnstore.encoding.SegmentEncoder}
 * chooses and writes an encoding for one column of one rowgroup (an Arrow vector in, bytes and
 * {@link dev.columba.columnstore.encoding.SegmentMetadata} out), and
 * {@link dev.columba.columnstore.encoding.SegmentReader} decodes, fetches and filters a segment in
 * place over a {@code MemorySegment}; the byte layout is {@code docs/format/segment.md}. Owns no
 * files, rowgroups or dictionaries' contents: the rowgroup file stores the bytes, the dictionary
 * package builds the dictionaries.
 */
package dev.columba.columnstore.encoding;
