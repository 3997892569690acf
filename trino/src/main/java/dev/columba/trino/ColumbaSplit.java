package dev.columba.trino;

import io.trino.spi.SplitWeight;
import io.trino.spi.connector.ConnectorSplit;

/**
 * One rowgroup of a table, compressed or delta: the unit of work a worker reads. Weighted by its
 * rows against a full rowgroup, so the scheduler gives a worker several small rowgroups for one
 * large one.
 * Public, as every handle: Trino serializes handles to JSON (Jackson) between its nodes.
 *
 * @param objectId   the table's object id
 * @param rowgroupId the rowgroup's id in the table's rowgroup directory
 * @param rows       its rows (deleted ones included) when the split was made
 */
public record ColumbaSplit(int objectId, int rowgroupId, long rows) implements ConnectorSplit {
    /** Rows of a full rowgroup (rowgroup_max_rows' default): weight 1. */
    static final long FULL_ROWGROUP_ROWS = 1 << 20;
    private static final long INSTANCE_SIZE = 48;

    public ColumbaSplit {
        if (rowgroupId < 0 || rows < 0) {
            throw new IllegalArgumentException("split of rowgroup " + rowgroupId + " with " + rows + " rows");
        }
    }

    @Override
    public SplitWeight getSplitWeight() {
        return SplitWeight.fromProportion(Math.clamp((double) rows / FULL_ROWGROUP_ROWS, 0.01, 1.0));
    }

    @Override
    public long getRetainedSizeInBytes() {
        return INSTANCE_SIZE;
    }
}
