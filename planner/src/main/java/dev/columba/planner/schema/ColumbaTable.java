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

    /**
     * The object ids a statement reading this table must hold shared for its duration (see
     * storage's {@code ObjectLocks}): the table and its indexes; a columnstore table's one id
     * covers all its internal trees; none for a system view.
     */
    public abstract int[] lockObjectIds();

    /** Column sets (besides the clustered key) that are unique: keys of unique secondary indexes. */
    public List<List<Integer>> uniqueIndexKeys() {
        return List.of();
    }

    /** Bounds of the leading clustered-key column, if the statistics know them. */
    public java.util.Optional<KeyBounds> keyBounds() {
        return java.util.Optional.empty();
    }

    /** Figures of a columnstore table's compressed rowgroups, if the statistics know them. */
    public java.util.Optional<ColumnstoreStatistics> columnstoreStatistics() {
        return java.util.Optional.empty();
    }

    /** The table's identity and computed columns (none unless its DDL declared them). */
    public GeneratedColumns generated() {
        return GeneratedColumns.NONE;
    }

    /** The table's defaults and UNIQUE and CHECK constraints (none unless its DDL declared them). */
    public TableConstraints constraints() {
        return TableConstraints.NONE;
    }

    /** Gives Calcite the initializer of generated and defaulted columns (and of {@code DEFAULT} in VALUES); otherwise as {@code AbstractTable}. */
    @Override
    public <C> C unwrap(Class<C> type) {
        if (type == org.apache.calcite.sql2rel.InitializerExpressionFactory.class && !(this instanceof SystemView)) {
            return type.cast(new GeneratedColumnInitializer(generated(), constraints(), name));
        }
        return super.unwrap(type);
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        return SqlTypes.toRowType(schema, typeFactory);
    }

    @Override
    public Statistic getStatistic() {
        List<Integer> key = keyColumns();
        List<ImmutableBitSet> keys = new java.util.ArrayList<>();
        if (uniqueKey() && !key.isEmpty() && key.stream().noneMatch(column -> schema.column(column).nullable())) {
            keys.add(ImmutableBitSet.of(key));
        }
        for (List<Integer> unique : uniqueIndexKeys()) {
            keys.add(ImmutableBitSet.of(unique));
        }
        List<RelCollation> collations = key.isEmpty() ? List.of()
                : List.of(RelCollations.of(key.stream().map(RelFieldCollation::new).toList()));
        return Statistics.of(rowCount(), keys, collations);
    }
}
