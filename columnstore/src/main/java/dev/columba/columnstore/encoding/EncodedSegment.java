package dev.columba.columnstore.encoding;

/**
 * One encoded segment: its bytes (owned by the caller from now on; the rowgroup file writes them
 * as they are) and what the encoder learned about it.
 *
 * @param valueRuns runs of equal values in row order (NULLs break none) for the kinds stored as
 *     one long (whole numbers, dates, timestamps, doubles, decimals up to 18 digits), at least the
 *     number of distinct values; 0 for other kinds (not counted)
 */
public record EncodedSegment(byte[] bytes, SegmentMetadata metadata, int valueRuns) {
}
