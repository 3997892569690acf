package dev.columba.planner.schema;

import dev.columba.columnstore.table.ColumnstoreTable;

/** A columnstore table behind the planner's view of it. */
public final class ColumnstoreTableAdapter extends ColumbaTable {
    private final ColumnstoreTable table;

    public ColumnstoreTableAdapter(ColumnstoreTable table) {
        super(table.name(), table.schema());
        this.table = table;
    }

    public ColumnstoreTable table() {
        return table;
    }

    @Override
    public long rowCount() {
        return table.definition().rowCount();
    }

    @Override
    public int[] lockObjectIds() {
        return new int[] {table.objectId()};
    }

    /** Compressed columnstore data is several times smaller than rows; a tenth is the planning guess. */
    @Override
    public double pages() {
        return Math.max(1, rowCount() * (double) RowWidths.estimate(schema()) / 10 / 8192);
    }
}
