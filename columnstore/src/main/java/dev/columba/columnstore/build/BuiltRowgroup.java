package dev.columba.columnstore.build;

import dev.columba.columnstore.encoding.SegmentMetadata;
import dev.columba.columnstore.file.SegmentBlob;
import java.util.List;

/**
 * A rowgroup the builder finished: its encoded blobs (one segment per column, then one secondary
 * dictionary per column, empty where unused), the segments' metadata, and why it has the rows it has.
 */
public record BuiltRowgroup(int rowgroupId, int rows, TrimReason trimReason, List<SegmentBlob> blobs,
                            List<SegmentMetadata> segments) {
    public BuiltRowgroup {
        blobs = List.copyOf(blobs);
        segments = List.copyOf(segments);
    }
}
