package dev.columba.trino;

import dev.columba.columnstore.scan.ColumnFilter;
import dev.columba.columnstore.scan.ColumnstoreScan;
import dev.columba.columnstore.scan.RowgroupMorsels;
import dev.columba.columnstore.scan.ScanOptions;
import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.core.batch.Batch;
import dev.columba.core.type.SqlType;
import dev.columba.storage.txn.ObjectLocks;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.connector.MemoryContext;
import io.trino.spi.connector.SourcePage;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The rows of one rowgroup (one split) as Trino pages: a serial columnstore scan of that rowgroup
 * alone, with the projected columns and the pushed-down filters, each batch's live rows copied into
 * Trino blocks ({@link BlockConversion}).
 *
 * <p>Completed bytes ({@link ScanPageSource}) are the scan's own reads: segment pages touched
 * (compressed rowgroups) and B+tree pages read (delta rowgroups), in Columba's 8 KB units, so that each
 * split's bytes add up to the query's total as Columba counts it.
 *
 * <p>Holds the table's shared object lock from opening to {@link #close} (the scan's contract:
 * nothing rewrites or removes the rowgroup under it). Owned by one driver thread.
 */
final class ColumbaPageSource extends ScanPageSource {
    private final ObjectLocks.Lease lock;
    private final BufferAllocator allocator;
    private final ColumnstoreScan scan;
    /** The Columba type of each projected column. */
    private final SqlType[] types;
    /** Whether Trino asked for no column (count(*)): the scan reads column 0 for its row counts only. */
    private final boolean countOnly;
    private final int[] selected;
    /** Rows this split may still return: the pushed-down limit, or {@code Long.MAX_VALUE}. */
    private long remaining;

    ColumbaPageSource(ColumnstoreTable table, RowgroupEntry rowgroup, List<ColumbaColumnHandle> columns,
                      List<ColumnFilter> filters, BufferAllocator parentAllocator, MemoryContext memoryContext) {
        this(table, rowgroup, columns, filters, parentAllocator, memoryContext, Long.MAX_VALUE);
    }

    /** A split that stops once it has returned {@code limit} rows (a limit Trino pushed down, no constraint). */
    ColumbaPageSource(ColumnstoreTable table, RowgroupEntry rowgroup, List<ColumbaColumnHandle> columns,
                      List<ColumnFilter> filters, BufferAllocator parentAllocator, MemoryContext memoryContext, long limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("a limit is at least 0, not " + limit);
        }
        super(memoryContext);
        this.remaining = limit;
        this.countOnly = columns.isEmpty();
        int[] projection = countOnly ? new int[] {0} : columns.stream().mapToInt(ColumbaColumnHandle::ordinal).toArray();
        ScanOptions options = ScanOptions.all(table.schema().size()).withProjection(projection).withFilters(filters);
        this.lock = table.database().locks().shared(table.objectId());
        BufferAllocator child = null;
        try {
            child = parentAllocator.newChildAllocator("trino split " + table.name() + "/" + rowgroup.rowgroupId(), 0,
                    Long.MAX_VALUE);
            this.scan = new ColumnstoreScan(table, table.database().bufferPool(), options, counters, child,
                    RowgroupMorsels.of(List.of(rowgroup)));
        } catch (RuntimeException e) {
            if (child != null) {
                child.close();
            }
            lock.close();
            throw e;
        }
        this.allocator = child;
        this.types = new SqlType[projection.length];
        for (int column = 0; column < projection.length; column++) {
            types[column] = table.schema().column(projection[column]).type();
        }
        this.selected = new int[options.batchSize()];
    }

    @Override
    SourcePage nextPage() {
        if (remaining == 0) {
            return null;
        }
        Batch batch = scan.next();
        while (batch != null && batch.selectedCount() == 0) {
            batch = scan.next();
        }
        if (batch == null) {
            return null;
        }
        memoryContext.setBytes(allocator.getAllocatedMemory());
        int live = (int) Math.min(batch.selectedCount(), remaining);
        remaining -= live;
        produced(live);
        if (countOnly) {
            return SourcePage.create(live);
        }
        Block[] blocks = new Block[batch.columnCount()];
        int rows = batch.rowCount();
        boolean selective = batch.hasSelection();
        if (selective) {
            batch.copySelectedRows(selected);
        }
        for (int column = 0; column < blocks.length; column++) {
            Block block = BlockConversion.toBlock(batch.column(column), types[column], rows);
            blocks[column] = selective ? block.copyPositions(selected, 0, live) : live < rows ? block.getRegion(0, live) : block;
        }
        return SourcePage.create(new Page(live, blocks));
    }

    @Override
    void release() {
        try (lock; allocator; scan) {
            // closed in reverse order: the scan, its allocator, then the lock
        }
    }
}
