package dev.columba.columnstore.table;

import dev.columba.columnstore.build.BuiltRowgroup;
import dev.columba.columnstore.build.ColumnstoreOptions;
import dev.columba.columnstore.build.PrimaryDictionaries;
import dev.columba.columnstore.build.RowgroupBuilder;
import dev.columba.columnstore.build.TrimReason;
import dev.columba.columnstore.file.CheckedObjects;
import dev.columba.columnstore.file.RowgroupFileFormat;
import dev.columba.columnstore.file.RowgroupFileWriter;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.Transaction;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Builds compressed rowgroups inside the writer's transaction: each rowgroup the builder finishes
 * gets an id, is written to its file (synced, renamed into place) and recorded COMPRESSED in the
 * directory. Commit makes them visible all at once; a rollback leaves only unreferenced files,
 * which the next write to the table removes. Owned by the writer's thread.
 */
final class RowgroupWriter implements AutoCloseable {
    /** Bytes of accumulated column values at which a rowgroup is cut (MEMORY_LIMITATION). */
    static final long MEMORY_BUDGET = 1L << 30;

    private final ColumnstoreTable table;
    private final Transaction transaction;
    private final BufferAllocator allocator;
    private final RowgroupBuilder builder;
    private final List<Integer> written = new ArrayList<>();
    private final List<Integer> rowsWritten = new ArrayList<>();

    RowgroupWriter(ColumnstoreTable table, Transaction transaction) {
        this.table = table;
        this.transaction = transaction;
        table.ensureFileDirectory();
        table.removeOrphanFiles(transaction.writes(), transaction.systemCounters());
        this.allocator = new RootAllocator(2 * MEMORY_BUDGET);
        IoCounters counters = transaction.systemCounters();
        ColumnstoreOptions options = table.options();
        this.builder = new RowgroupBuilder(table.schema(), options, table.primaryDictionaries(), allocator, MEMORY_BUDGET,
                () -> table.nextRowgroupId(transaction.writes(), counters), this::write);
    }

    /** Encodes each rowgroup's columns on {@code pool} ({@link RowgroupBuilder#encodeOn}). */
    void encodeOn(java.util.concurrent.ForkJoinPool pool) {
        builder.encodeOn(pool);
    }

    void add(Object[] row) {
        builder.add(row);
    }

    /** {@code rows} in order ({@link RowgroupBuilder#addAll}). */
    void addAll(List<Object[]> rows) {
        builder.addAll(rows);
    }

    /** {@code batch}'s rows in order ({@link RowgroupBuilder#addBatch}). */
    void addBatch(dev.columba.columnstore.build.ColumnBatch batch) {
        builder.addBatch(batch);
    }

    /** Finishes the last rowgroup; returns the ids of every rowgroup written, in order. */
    List<Integer> finish(TrimReason lastReason) {
        builder.finish(lastReason);
        return List.copyOf(written);
    }

    /** Rows of each rowgroup written, in the order of {@link #finish}'s ids. */
    List<Integer> rowsPerRowgroup() {
        return List.copyOf(rowsWritten);
    }

    private void write(BuiltRowgroup rowgroup) {
        int flags = table.options().archive() ? RowgroupFileFormat.FLAG_ARCHIVE : 0;
        long size = RowgroupFileWriter.write(NativeFilesFacade.INSTANCE, table.rowgroupFile(rowgroup.rowgroupId()),
                rowgroup.rowgroupId(), rowgroup.rows(), flags, table.schema().size(), rowgroup.blobs());
        table.putRowgroup(transaction.writes(), new RowgroupEntry(rowgroup.rowgroupId(), RowgroupState.COMPRESSED,
                rowgroup.rows(), 0, size, rowgroup.trimReason(), ColumnstoreTable.nowMicros(), 0, 0),
                transaction.systemCounters());
        written.add(rowgroup.rowgroupId());
        rowsWritten.add(rowgroup.rows());
    }

    @Override
    public void close() {
        builder.close();
        allocator.close();
    }

    static PrimaryDictionaries primaries(ColumnstoreTable table) {
        return new PrimaryDictionaries(NativeFilesFacade.INSTANCE, table.fileDirectory(), table.schema(),
                CheckedObjects.of(table.database()));
    }
}
