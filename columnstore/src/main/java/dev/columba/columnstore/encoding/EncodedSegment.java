package dev.columba.columnstore.encoding;

/**
 * One encoded segment: its bytes (owned by the caller from now on; the rowgroup file writes them
 * as they are) and what the encoder learned about it.
 */
public record EncodedSegment(byte[] bytes, SegmentMetadata metadata) {
}
