package dev.columba.planner.schema;

import dev.columba.core.schema.TableSchema;
import java.util.List;
import java.util.function.Supplier;

/**
 * A system view ({@code sys.*}): rows computed when the view is read, from the catalog and the
 * engine's statistics. Small by nature.
 */
public final class SystemView extends ColumbaTable {
    private final Supplier<List<Object[]>> rows;

    public SystemView(String name, TableSchema schema, Supplier<List<Object[]>> rows) {
        super(name, schema);
        this.rows = rows;
    }

    /** The view's rows now, values in column order. */
    public List<Object[]> rows() {
        return rows.get();
    }

    @Override
    public long rowCount() {
        return 100;
    }

    @Override
    public int[] lockObjectIds() {
        return new int[0];
    }

    @Override
    public double pages() {
        return 1;
    }
}
