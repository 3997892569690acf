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
    /** How the rows are divided among partitions, or null for a table of one partition. */
    private final TablePartitions partitions;

    /** A table without key statistics (estimates use default selectivities). */
    public RowstoreTable(TableStore store) {
        this(store, new StatisticsStore());
    }

    /** A table whose key statistics live in {@code statistics} (one store per database). */
    public RowstoreTable(TableStore store, StatisticsStore statistics) {
        this(store, statistics, null);
    }

    /**
     * A partitioned table: {@code store} is the table's own catalog entry (its name, columns and
     * options; it holds no rows), {@code partitions} the tables that hold them.
     */
    public RowstoreTable(TableStore store, StatisticsStore statistics, TablePartitions partitions) {
        super(store.name(), store.schema());
        this.store = store;
        this.statistics = statistics;
        this.partitions = partitions;
    }

    /** How the table is partitioned, or null when it is not. */
    public TablePartitions partitions() {
        return partitions;
    }

    /** Where this table's key statistics are kept; DML widens them. */
    public StatisticsStore statistics() {
        return statistics;
    }

    @Override
    public Optional<KeyBounds> keyBounds() {
        return store.tree() == null || partitions != null ? Optional.empty()
                : statistics.bounds(store.definition().objectId());
    }

    @Override
    public int[] lockObjectIds() {
        if (partitions != null) {
            // The partitions are what commits change and scans read.
            int[] ids = new int[1 + partitions.count()];
            ids[0] = store.definition().objectId();
            for (int number = 1; number <= partitions.count(); number++) {
                ids[number] = partitions.store(number).definition().objectId();
            }
            return ids;
        }
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
        if (partitions != null) {
            long rows = 0;
            for (TableStore partition : partitions.stores()) {
                rows += partition.definition().rowCount();
            }
            return rows;
        }
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

    @Override
    public GeneratedColumns generated() {
        return GeneratedColumns.of(schema(), store.definition().options());
    }

    @Override
    public TableConstraints constraints() {
        return TableConstraints.of(schema(), store.definition().options());
    }
}
