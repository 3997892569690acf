package dev.columba.datagen;

import dev.columba.core.schema.TableSchema;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;

/**
 * How one table of the {@code io.trino.tpch} library becomes Columba rows: its schema, how many
 * rows each of the library's partitioning units ("parents") yields, and the copy of an entity's
 * fields into a row.
 *
 * @param library the library's table, whose generators partition by parent
 * @param schema the Columba columns, in the TPC-H specification's order
 * @param parentScaleBase parents at scale factor 1 (orders for lineitem, parts for partsupp), or
 *     -1 for NATION and REGION, whose size does not scale and which the library does not partition
 * @param fixedParentCount the parent count of a table that does not scale, else 0
 * @param rowsPerParent rows each parent yields: a fixed count, or one per line item of an order
 * @param filler writes an entity's values into a row
 */
record TpchTableMapping<E extends TpchEntity>(
        TpchTable<E> library,
        TableSchema schema,
        int parentScaleBase,
        int fixedParentCount,
        RowsPerParent rowsPerParent,
        Filler<E> filler) {

    /** Copies one entity into a reused row array. */
    @FunctionalInterface
    interface Filler<E> {
        void fill(E entity, Object[] row);
    }

    /** How many rows a parent yields, which decides how a row index maps to a library partition. */
    sealed interface RowsPerParent {
        /** Every parent yields {@code count} rows (1 for most tables, 4 suppliers per part). */
        record Fixed(int count) implements RowsPerParent {
        }

        /** An order yields 1 to 7 line items, drawn by the library's line-count random stream. */
        record LineItemsPerOrder() implements RowsPerParent {
        }
    }

    boolean scales() {
        return parentScaleBase > 0;
    }
}
