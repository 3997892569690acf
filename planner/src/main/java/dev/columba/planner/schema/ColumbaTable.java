package dev.columba.planner.schema;

import dev.columba.core.schema.TableSchema;
import java.util.List;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * A table of the database as the planner sees it: its row type, and the statistics the cost model
 * uses (row count kept exact by commits, the clustered key as a unique key and a collation).
 * What kind of storage is behind it decides which scans the rules may produce.
 */
public abstract sealed class ColumbaTable extends AbstractTable permits RowstoreTable, ColumnstoreTableAdapter, SystemView {
    private final String name;
    private final TableSchema schema;

    protected ColumbaTable(String name, TableSchema schema) {
        this.name = name;
        this.schema = schema;
    }

    public String name() {
        return name;
    }

    public TableSchema schema() {
        return schema;
    }

    /** Rows in the table. */
    public abstract long rowCount();

    /** Columns of the clustered key, in order, or empty. */
    public List<Integer> keyColumns() {
        return List.of();
    }

    /** Whether the clustered key is unique. */
    public boolean uniqueKey() {
        return false;
    }

    /** Approximate pages a full scan reads, for the cost model. */
    public abstract double pages();

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        return SqlTypes.toRowType(schema, typeFactory);
    }

    @Override
    public Statistic getStatistic() {
        List<Integer> key = keyColumns();
        List<ImmutableBitSet> keys = uniqueKey() && !key.isEmpty() ? List.of(ImmutableBitSet.of(key)) : List.of();
        List<RelCollation> collations = key.isEmpty() ? List.of()
                : List.of(RelCollations.of(key.stream().map(RelFieldCollation::new).toList()));
        return Statistics.of(rowCount(), keys, collations);
    }
}
