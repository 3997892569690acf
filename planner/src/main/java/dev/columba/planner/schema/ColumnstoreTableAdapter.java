package dev.columba.planner.schema;

import dev.columba.columnstore.table.ColumnstoreTable;

/** A columnstore table behind the planner's view of it. */
public final class ColumnstoreTableAdapter extends ColumbaTable {
    private final ColumnstoreTable table;
    private final StatisticsStore statistics;

    /** A table without gathered statistics (estimates use default selectivities). */
    public ColumnstoreTableAdapter(ColumnstoreTable table) {
        this(table, new StatisticsStore());
    }

    /** A table whose rowgroup statistics live in {@code statistics} (one store per database). */
    public ColumnstoreTableAdapter(ColumnstoreTable table, StatisticsStore statistics) {
        super(table.name(), table.schema());
        this.table = table;
        this.statistics = statistics;
    }

    @Override
    public java.util.Optional<ColumnstoreStatistics> columnstoreStatistics() {
        return statistics.columnstore(table.objectId());
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

    @Override
    public GeneratedColumns generated() {
        return GeneratedColumns.of(schema(), table.definition().options());
    }

    @Override
    public TableConstraints constraints() {
        return TableConstraints.of(schema(), table.definition().options());
    }
}
