package dev.columba.trino;

import dev.columba.columnstore.scan.ColumnFilter;
import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.columnstore.table.RowgroupState;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.DynamicFilterSnapshot;
import io.trino.spi.predicate.TupleDomain;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The splits of one table scan, a rowgroup each, handed out in batches. The split manager has already
 * left out the rowgroups the pushed-down constraint rules out; each batch tests the rest again against
 * the dynamic filters Trino has by then (a join's build-side keys as a set or a range), and a compressed
 * rowgroup whose footer's min/max lie outside them gets no split either. Trino holds the first batch
 * back up to the catalog's wait timeout for those filters to complete; a filter that is still partial
 * then is a wider domain, so using it is always safe (it can only let more rowgroups through).
 */
final class ColumbaSplitSource implements ConnectorSplitSource {
    private final ColumnstoreTable table;
    private final int objectId;
    private final Deque<RowgroupEntry> pending;
    private final long waitMillis;
    /** Whether the dynamic filters may leave rowgroups out (not when the split manager cut the list at a limit). */
    private final boolean dynamicFiltering;

    ColumbaSplitSource(ColumnstoreTable table, int objectId, List<RowgroupEntry> candidates, long waitMillis,
                       boolean dynamicFiltering) {
        this.table = table;
        this.objectId = objectId;
        this.pending = new ArrayDeque<>(candidates);
        this.waitMillis = waitMillis;
        this.dynamicFiltering = dynamicFiltering;
    }

    @Override
    public CompletableFuture<List<ConnectorSplit>> getNextBatch(int maxSize, DynamicFilterSnapshot dynamicFilter) {
        TupleDomain<ColumnHandle> dynamic = dynamicFiltering ? dynamicFilter.currentPredicate() : TupleDomain.all();
        if (dynamic.isNone()) {
            // The build side is empty: no probe row can join.
            pending.clear();
            return CompletableFuture.completedFuture(List.of());
        }
        List<ColumnFilter> filters = dynamic.isAll() ? List.of() : ColumnFilters.of(dynamic, table.schema());
        List<ConnectorSplit> batch = new ArrayList<>(Math.min(maxSize, pending.size()));
        while (batch.size() < maxSize && !pending.isEmpty()) {
            RowgroupEntry entry = pending.poll();
            if (entry.state() == RowgroupState.COMPRESSED && !filters.isEmpty()
                    && !ColumbaSplitManager.mayMatch(table, entry, filters)) {
                continue;
            }
            batch.add(new ColumbaSplit(objectId, entry.rowgroupId(), entry.totalRows()));
        }
        return CompletableFuture.completedFuture(batch);
    }

    @Override
    public long getRequestedDynamicFilterWaitTimeoutMillis() {
        return dynamicFiltering ? waitMillis : 0;
    }

    @Override
    public boolean isFinished() {
        return pending.isEmpty();
    }

    @Override
    public void close() {
        pending.clear();
    }
}
