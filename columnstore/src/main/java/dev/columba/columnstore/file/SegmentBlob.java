package dev.columba.columnstore.file;

import java.util.Objects;

/**
 * One column's encoded segment as the writer stores it: the segment's bytes and the metadata the
 * encoding layer wants kept beside it in the footer (encoding, statistics, dictionary ids).
 */
public record SegmentBlob(byte[] bytes, byte[] metadata) {
    public SegmentBlob {
        Objects.requireNonNull(bytes, "bytes");
        Objects.requireNonNull(metadata, "metadata");
    }
}
