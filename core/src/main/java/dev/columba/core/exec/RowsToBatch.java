package dev.columba.core.exec;

import dev.columba.core.batch.VectorValues;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.util.Objects;
import java.util.function.Function;
import org.apache.arrow.vector.FieldVector;

/**
 * Adapts a {@link RowSource} (rows as objects: an index seek, a system view) to the batch world:
 * copies up to a batch of rows into vectors per call. The operator it makes is
 * {@link ExecutionMode#ROW}: the rows are produced one at a time, whatever the operators above do
 * with the batches.
 */
public final class RowsToBatch implements VectorSource {
    private final SqlType[] types;
    private final RowSource rows;

    private RowsToBatch(TableSchema schema, RowSource rows) {
        this.types = new SqlType[schema.size()];
        for (int columnIndex = 0; columnIndex < types.length; columnIndex++) {
            types[columnIndex] = schema.column(columnIndex).type();
        }
        this.rows = Objects.requireNonNull(rows, "rows");
    }

    /**
     * A leaf operator over the rows {@code opener} gives when the operator opens (scans need the
     * query context); the source is closed with the operator.
     *
     * @param schema the columns of the rows, in order
     */
    public static VectorSourceOperator operator(TableSchema schema, Function<ExecutionContext, RowSource> opener) {
        Objects.requireNonNull(opener, "opener");
        return new VectorSourceOperator(schema, ExecutionMode.ROW, context -> new RowsToBatch(schema, opener.apply(context)));
    }

    @Override
    public int fill(FieldVector[] vectors, int capacity) {
        int count = 0;
        while (count < capacity) {
            Object[] row = rows.next();
            if (row == null) {
                break;
            }
            for (int columnIndex = 0; columnIndex < types.length; columnIndex++) {
                VectorValues.set(vectors[columnIndex], count, types[columnIndex], row[columnIndex]);
            }
            count++;
        }
        return count;
    }

    @Override
    public void close() {
        rows.close();
    }
}
