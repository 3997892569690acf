package dev.columba.columnstore.table;

import dev.columba.columnstore.build.ColumnstoreOptions;
import dev.columba.columnstore.build.TrimReason;
import java.util.Objects;

/**
 * The directory's record of one rowgroup.
 *
 * @param totalRows     rows in the rowgroup, deleted ones included; for a delta rowgroup the next
 *                      position to assign, which a delete never lowers (positions are not reused)
 * @param deletedRows   rows deleted from the rowgroup, so {@code totalRows - deletedRows} are live in
 *                      every state: a compressed rowgroup's are marked in the delete bitmap, a delta
 *                      rowgroup's are removed from its B+tree (which holds the live ones)
 * @param sizeBytes     bytes of its file (compressed) or of its B+tree pages (delta)
 * @param deltaRoot     root of the delta rowgroup's B+tree; 0 for compressed rowgroups
 * @param deltaOam      first allocation-map page of the delta B+tree; 0 for compressed rowgroups
 */
public record RowgroupEntry(int rowgroupId, RowgroupState state, long totalRows, long deletedRows, long sizeBytes,
                            TrimReason trimReason, long createdMicros, long deltaRoot, long deltaOam) {
    public RowgroupEntry {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(trimReason, "trimReason");
        if (rowgroupId < 0 || totalRows < 0 || deletedRows < 0 || deletedRows > totalRows) {
            throw new IllegalArgumentException("bad rowgroup entry " + rowgroupId + ": " + totalRows + " rows, "
                    + deletedRows + " deleted");
        }
    }

    public boolean isDelta() {
        return state == RowgroupState.OPEN || state == RowgroupState.CLOSED;
    }

    public RowgroupEntry withRows(long rows) {
        return new RowgroupEntry(rowgroupId, state, rows, deletedRows, sizeBytes, trimReason, createdMicros, deltaRoot,
                deltaOam);
    }

    public RowgroupEntry withState(RowgroupState newState) {
        return new RowgroupEntry(rowgroupId, newState, totalRows, deletedRows, sizeBytes, trimReason, createdMicros,
                deltaRoot, deltaOam);
    }

    public RowgroupEntry withDeletedRows(long deleted) {
        return new RowgroupEntry(rowgroupId, state, totalRows, deleted, sizeBytes, trimReason, createdMicros, deltaRoot,
                deltaOam);
    }
}
