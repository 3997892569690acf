package dev.columba.planner.schema;

import dev.columba.storage.page.PageFormat;
import dev.columba.storage.table.TableStore;
import java.util.List;

/** A rowstore table (clustered B+tree or heap) behind the planner's view of it. */
public final class RowstoreTable extends ColumbaTable {
    private final TableStore store;

    public RowstoreTable(TableStore store) {
        super(store.name(), store.schema());
        this.store = store;
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
