package dev.columba.trino;

import dev.columba.core.batch.Batch;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.db.Database;
import dev.columba.storage.table.TableCursor;
import dev.columba.storage.table.TableScan;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.txn.ObjectLocks;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.connector.MemoryContext;
import io.trino.spi.connector.SourcePage;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;

/**
 * The rows of one page range of a rowstore table (one {@link RowstoreSplit}) as Trino pages: the
 * table's allocation-order scan limited to the range's pages ({@link TableScan#withPages}), decoding
 * the projected columns of a batch of rows straight into Arrow vectors, which are then copied into
 * Trino blocks ({@link BlockConversion}), as the columnstore's page source does.
 *
 * <p>Completed bytes ({@link ScanPageSource}) are the pages the scan read through the buffer pool
 * (logical reads, overflow pages of large values as lob logical reads) times 8 KB.
 *
 * <p>Holds the table's shared object lock from opening to {@link #close}: the heap and B+tree scans are
 * not safe against a commit changing the pages under them (a commit into the table waits at most for
 * this split). Owned by one driver thread.
 */
final class RowstorePageSource extends ScanPageSource {
    /** Rows decoded per Trino page. */
    static final int BATCH_ROWS = 4096;

    private final ObjectLocks.Lease lock;
    private final BufferAllocator allocator;
    private final TableCursor cursor;
    /** The vectors the rows are decoded into, or null when no column is projected. */
    private final Batch batch;
    private final FieldVector[] vectors;
    private final SqlType[] types;

    RowstorePageSource(Database database, TableStore table, RowstoreSplit split, List<ColumbaColumnHandle> columns,
                       BufferAllocator parentAllocator, MemoryContext memoryContext) {
        super(memoryContext);
        int[] projection = columns.stream().mapToInt(ColumbaColumnHandle::ordinal).toArray();
        List<Column> projected = new ArrayList<>(projection.length);
        this.types = new SqlType[projection.length];
        for (int column = 0; column < projection.length; column++) {
            projected.add(table.schema().column(projection[column]));
            types[column] = projected.get(column).type();
        }
        TableScan scan = TableScan.allocationOrder(ReadAheadOptions.from(database.settings()))
                .withProjection(projection).withPages(split.firstPage(), split.endPage());
        this.lock = database.locks().shared(table.definition().objectId());
        BufferAllocator child = null;
        TableCursor opened = null;
        Batch vectorsBatch = null;
        try {
            child = parentAllocator.newChildAllocator("trino split " + table.name() + "/pages " + split.firstPage(), 0,
                    Long.MAX_VALUE);
            // count(*) asks for no column: the scan then counts rows without decoding them, into no vectors.
            vectorsBatch = projected.isEmpty() ? null : Batch.create(new TableSchema(projected), child);
            opened = table.scan(database.bufferPool(), scan, counters);
        } catch (RuntimeException e) {
            try (ObjectLocks.Lease ignored = lock; BufferAllocator ignoredAllocator = child; Batch ignoredBatch = vectorsBatch) {
                throw e;
            }
        }
        this.allocator = child;
        this.batch = vectorsBatch;
        this.cursor = opened;
        this.vectors = new FieldVector[projection.length];
        for (int column = 0; column < vectors.length; column++) {
            vectors[column] = batch.column(column);
        }
    }

    @Override
    SourcePage nextPage() {
        for (FieldVector vector : vectors) {
            if (vector instanceof BaseVariableWidthVector variableWidth) {
                // Values are appended from row 0 again (the vector keeps its buffers).
                variableWidth.setLastSet(-1);
            }
        }
        int rows = cursor.fill(vectors, BATCH_ROWS);
        if (rows < BATCH_ROWS) {
            // The cursor has no more rows: it is not asked again.
            finish();
        }
        if (rows == 0) {
            return null;
        }
        if (batch != null) {
            batch.setRowCount(rows);
        }
        memoryContext.setBytes(allocator.getAllocatedMemory());
        produced(rows);
        if (vectors.length == 0) {
            return SourcePage.create(rows);
        }
        Block[] blocks = new Block[vectors.length];
        for (int column = 0; column < blocks.length; column++) {
            blocks[column] = BlockConversion.toBlock(vectors[column], types[column], rows);
        }
        return SourcePage.create(new Page(rows, blocks));
    }

    @Override
    void release() {
        try (lock; allocator; batch; cursor) {
            // closed in reverse order: the cursor, the vectors, their allocator, then the lock
        }
    }
}
