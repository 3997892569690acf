package dev.columba.trino;

import dev.columba.columnstore.encoding.ColumnPredicate;
import dev.columba.columnstore.file.FooterMetadata;
import dev.columba.columnstore.file.RowgroupFile;
import dev.columba.columnstore.scan.ColumnFilter;
import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.columnstore.table.RowgroupState;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.txn.ObjectLocks;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.FixedSplitSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * A rowstore table's splits are ranges of its allocated pages ({@link RowstorePages#splits}), about
 * the catalog's pages per split each, made from its allocation maps under its shared lock.
 *
 * <p>A columnstore table has one split per rowgroup that may hold rows the pushed-down constraint accepts: a
 * compressed rowgroup whose footer's min/max (or NULL count) rule a filter out is left out here, on
 * the coordinator, so no worker is sent to it; delta rowgroups carry no statistics and are always
 * split. The rowgroups are those committed when the query is planned. The dynamic filters of joins
 * above the scan eliminate more as the splits are handed out ({@link ColumbaSplitSource}).
 */
final class ColumbaSplitManager implements ConnectorSplitManager {
    /** The catalog (and through it the database or snapshot) a transaction reads. */
    private final Function<ConnectorTransactionHandle, ColumbaMetadata> catalogs;
    private final Duration dynamicFilterWait;
    private final int rowstorePagesPerSplit;

    ColumbaSplitManager(Function<ConnectorTransactionHandle, ColumbaMetadata> catalogs, Duration dynamicFilterWait,
                        int rowstorePagesPerSplit) {
        this.catalogs = catalogs;
        this.dynamicFilterWait = dynamicFilterWait;
        this.rowstorePagesPerSplit = rowstorePagesPerSplit;
    }

    @Override
    public ConnectorSplitSource getSplits(ConnectorTransactionHandle transaction, ConnectorSession session,
                                          ConnectorTableHandle table, Set<ColumnHandle> columns, Constraint constraint) {
        ColumbaTableHandle handle = (ColumbaTableHandle) table;
        if (handle.constraint().isNone()) {
            return new FixedSplitSource(List.of());
        }
        ColumbaMetadata metadata = catalogs.apply(transaction);
        Database database = metadata.database();
        if (handle.rowstore()) {
            TableStore rowstore = new TableStore(metadata.definition(handle), List.of());
            try (ObjectLocks.Lease ignored = database.locks().shared(handle.objectId())) {
                return new FixedSplitSource(RowstorePages.of(rowstore, database.bufferPool(), new IoCounters())
                        .splits(handle.objectId(), rowstorePagesPerSplit));
            }
        }
        ColumnstoreTable columnstore = ColumnstoreTable.open(database, metadata.definition(handle));
        List<ColumnFilter> filters = ColumnFilters.of(handle.constraint(), columnstore.schema());
        List<RowgroupEntry> candidates = new ArrayList<>();
        long liveRows = 0;
        try (ObjectLocks.Lease ignored = database.locks().shared(handle.objectId())) {
            for (RowgroupEntry entry : columnstore.rowgroups(database.bufferPool(), new IoCounters())) {
                if (entry.totalRows() == entry.deletedRows()) {
                    continue;
                }
                if (entry.state() == RowgroupState.COMPRESSED && !filters.isEmpty()
                        && !mayMatch(columnstore, entry, filters)) {
                    continue;
                }
                if (handle.stopsAtLimit() && liveRows >= handle.limit()) {
                    // The rowgroups so far hold enough live rows for the limit, and every one counts.
                    break;
                }
                candidates.add(entry);
                liveRows += entry.totalRows() - entry.deletedRows();
            }
        }
        // The rowgroups left out for a limit were counted on: no dynamic filter may drop the ones kept.
        return new ColumbaSplitSource(columnstore, handle.objectId(), candidates, dynamicFilterWait.toMillis(),
                !handle.stopsAtLimit());
    }

    /** Whether every filter may match some row of compressed rowgroup {@code entry}, by its footer's statistics. */
    static boolean mayMatch(ColumnstoreTable table, RowgroupEntry entry, List<ColumnFilter> filters) {
        TableSchema schema = table.schema();
        try (RowgroupFile file = RowgroupFile.open(NativeFilesFacade.INSTANCE, table.rowgroupFile(entry.rowgroupId()))) {
            for (ColumnFilter filter : filters) {
                int column = filter.column();
                if (!ColumnPredicate.mayMatch(schema.column(column).type(), FooterMetadata.decode(file.metadata(column),
                        schema.column(column).type(), file.path().toString()), filter.predicate())) {
                    return false;
                }
            }
        }
        return true;
    }
}
