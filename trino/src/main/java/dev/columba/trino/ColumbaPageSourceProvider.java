package dev.columba.trino;

import dev.columba.columnstore.scan.ColumnFilter;
import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.columnstore.table.RowgroupState;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.db.Database;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.txn.ObjectLocks;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.ConnectorPageSourceProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorTableCredentials;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.connector.EmptyPageSource;
import io.trino.spi.connector.MemoryContext;
import io.trino.spi.predicate.TupleDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Opens the page source of a split on the worker that runs it: a {@link RowstorePageSource} for a
 * rowstore table's page range, a {@link ColumbaPageSource} for a columnstore rowgroup. The rowgroup
 * split names the rowgroup; its directory entry is read again here, so a rowgroup that the engine
 * compressed, merged or dropped since the query was planned fails the split
 * ({@link ColumbaErrorCode#COLUMBA_TABLE_CHANGED}) rather than being read twice or not at all. The
 * constraint handed to the columnstore scan is the pushed-down one and, when it is already complete,
 * the dynamic filter of the joins above.
 */
final class ColumbaPageSourceProvider implements ConnectorPageSourceProvider {
    /** The catalog (and through it the database or snapshot) a transaction reads. */
    private final Function<ConnectorTransactionHandle, ColumbaMetadata> catalogs;
    private final BufferAllocator allocator;

    ColumbaPageSourceProvider(Function<ConnectorTransactionHandle, ColumbaMetadata> catalogs, BufferAllocator allocator) {
        this.catalogs = catalogs;
        this.allocator = allocator;
    }

    @Override
    public ConnectorPageSource createPageSource(ConnectorTransactionHandle transaction, ConnectorSession session,
                                                ConnectorSplit split, ConnectorTableHandle table,
                                                Optional<ConnectorTableCredentials> credentials,
                                                List<ColumnHandle> columns, DynamicFilter dynamicFilter,
                                                MemoryContext memoryContext) {
        ColumbaTableHandle handle = (ColumbaTableHandle) table;
        ColumbaMetadata metadata = catalogs.apply(transaction);
        Database database = metadata.database();
        List<ColumbaColumnHandle> projected = new ArrayList<>(columns.size());
        for (ColumnHandle column : columns) {
            projected.add((ColumbaColumnHandle) column);
        }
        if (split instanceof RowstoreSplit pageRange) {
            return new RowstorePageSource(database, new TableStore(metadata.definition(handle), List.of()), pageRange,
                    projected, allocator, memoryContext);
        }
        ColumbaSplit rowgroupSplit = (ColumbaSplit) split;
        ColumnstoreTable columnstore = ColumnstoreTable.open(database, metadata.definition(handle));
        // Held until the page source holds the table itself: no commit (a tuple move freeing the delta
        // rowgroup's pages) can come between reading the entry and reading the rowgroup it names.
        try (ObjectLocks.Lease ignored = database.locks().shared(handle.objectId())) {
            // A tombstone's pages are freed: its rows are in rowgroups the query did not plan to read.
            RowgroupEntry entry = columnstore.rowgroup(database.bufferPool(), rowgroupSplit.rowgroupId(), new IoCounters())
                    .filter(found -> found.state() != RowgroupState.TOMBSTONE)
                    .orElseThrow(() -> new TrinoException(ColumbaErrorCode.COLUMBA_TABLE_CHANGED, "rowgroup "
                            + rowgroupSplit.rowgroupId() + " of " + handle.name() + " was compressed, merged or dropped"
                            + " by the engine after the query was planned: run the query again"));
            TupleDomain<ColumnHandle> constraint = handle.constraint();
            // A scan that stops at a limit returns only rows the query keeps: a dynamic filter must not drop any.
            if (dynamicFilter.isComplete() && !handle.stopsAtLimit()) {
                constraint = constraint.intersect(dynamicFilter.getCurrentPredicate());
            }
            if (constraint.isNone()) {
                return new EmptyPageSource();
            }
            List<ColumnFilter> filters = ColumnFilters.of(constraint, columnstore.schema());
            return new ColumbaPageSource(columnstore, entry, projected, filters, allocator, memoryContext,
                    handle.stopsAtLimit() ? handle.limit() : Long.MAX_VALUE);
        }
    }
}
