package dev.columba.trino;

import dev.columba.columnstore.scan.ColumnFilter;
import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.db.Database;
import dev.columba.storage.txn.ObjectLocks;
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
import org.apache.arrow.memory.BufferAllocator;

/**
 * Opens a {@link ColumbaPageSource} for a split on the worker that runs it. The split names the
 * rowgroup; its directory entry is read again here, so a rowgroup that the engine compressed,
 * merged or dropped since the query was planned fails the split rather than being read twice or
 * not at all. The constraint handed to the scan is the pushed-down one and, when it is already
 * complete, the dynamic filter of the joins above.
 */
final class ColumbaPageSourceProvider implements ConnectorPageSourceProvider {
    private final Database database;
    private final ColumbaMetadata metadata;
    private final BufferAllocator allocator;

    ColumbaPageSourceProvider(Database database, ColumbaMetadata metadata, BufferAllocator allocator) {
        this.database = database;
        this.metadata = metadata;
        this.allocator = allocator;
    }

    @Override
    public ConnectorPageSource createPageSource(ConnectorTransactionHandle transaction, ConnectorSession session,
                                                ConnectorSplit split, ConnectorTableHandle table,
                                                Optional<ConnectorTableCredentials> credentials,
                                                List<ColumnHandle> columns, DynamicFilter dynamicFilter,
                                                MemoryContext memoryContext) {
        ColumbaTableHandle handle = (ColumbaTableHandle) table;
        ColumbaSplit rowgroupSplit = (ColumbaSplit) split;
        ColumnstoreTable columnstore = ColumnstoreTable.open(database, metadata.definition(handle));
        RowgroupEntry entry;
        try (ObjectLocks.Lease ignored = database.locks().shared(handle.objectId())) {
            entry = columnstore.rowgroup(database.bufferPool(), rowgroupSplit.rowgroupId(), new IoCounters())
                    .orElseThrow(() -> new IllegalStateException("rowgroup " + rowgroupSplit.rowgroupId() + " of "
                            + handle.name() + " is gone: the table changed after the query was planned"));
        }
        TupleDomain<ColumnHandle> constraint = handle.constraint();
        // A scan that stops at a limit returns only rows the query keeps: a dynamic filter must not drop any.
        if (dynamicFilter.isComplete() && !handle.stopsAtLimit()) {
            constraint = constraint.intersect(dynamicFilter.getCurrentPredicate());
        }
        if (constraint.isNone()) {
            return new EmptyPageSource();
        }
        List<ColumnFilter> filters = ColumnFilters.of(constraint, columnstore.schema());
        List<ColumbaColumnHandle> projected = new ArrayList<>(columns.size());
        for (ColumnHandle column : columns) {
            projected.add((ColumbaColumnHandle) column);
        }
        return new ColumbaPageSource(columnstore, entry, projected, filters, allocator, memoryContext,
                handle.stopsAtLimit() ? handle.limit() : Long.MAX_VALUE);
    }
}
