package dev.columba.planner.schema;

import dev.columba.storage.page.PageFormat;
import dev.columba.storage.table.IndexStore;
import dev.columba.storage.table.TableStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A rowstore table (clustered B+tree or heap) behind the planner's view of it. */
public final class RowstoreTable extends ColumbaTable {
    private final TableStore store;
    private final StatisticsStore statistics;

    /** A table without key statistics (estimates use default selectivities). */
    public RowstoreTable(TableStore store) {
        this(store, new StatisticsStore());
    }

    /** A table whose key statistics live in {@code statistics} (one store per database). */
    public RowstoreTable(TableStore store, StatisticsStore statistics) {
        super(store.name(), store.schema());
        this.store = store;
        this.statistics = statistics;
    }

    /** Where this table's key statistics are kept; DML widens them. */
    public StatisticsStore statistics() {
        return statistics;
    }

    @Override
    public Optional<KeyBounds> keyBounds() {
        return store.tree() == null ? Optional.empty() : statistics.bounds(store.definition().objectId());
    }

    @Override
    public int[] lockObjectIds() {
        int[] ids = new int[1 + store.indexes().size()];
        ids[0] = store.definition().objectId();
        for (int index = 0; index < store.indexes().size(); index++) {
            ids[index + 1] = store.indexes().get(index).definition().objectId();
        }
        return ids;
    }

    @Override
    public List<List<Integer>> uniqueIndexKeys() {
        List<List<Integer>> keys = new ArrayList<>();
        for (IndexStore index : store.indexes()) {
            // A unique index admits many NULLs; only a key without NULLs identifies a row.
            if (index.definition().unique()
                    && index.definition().keyColumns().stream().noneMatch(column -> schema().column(column).nullable())) {
                keys.add(index.definition().keyColumns());
            }
        }
        return keys;
    }

    public TableStore store() {
        return store;
    }

    @Override
    public long rowCount() {
        return store.definition().rowCount();
    }

    @Override
    public List<Integer> keyColumns() {
        return store.definition().keyColumns();
    }

    @Override
    public boolean uniqueKey() {
        return store.definition().uniqueKey();
    }

    @Override
    public double pages() {
        return Math.max(1, rowCount() * (double) RowWidths.estimate(schema()) / PageFormat.USABLE_SIZE);
    }
}
