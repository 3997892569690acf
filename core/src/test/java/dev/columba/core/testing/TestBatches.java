package dev.columba.core.testing;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/** Builds batches from Java rows and reads them back, the way tests state inputs and expectations. */
public final class TestBatches {
    private TestBatches() {
    }

    /** A batch holding {@code rows} (Java values per {@link dev.columba.core.type.SqlType}), with no selection. */
    public static Batch batch(TableSchema schema, List<Object[]> rows, BufferAllocator allocator) {
        Batch batch = Batch.create(schema, allocator);
        for (int column = 0; column < schema.size(); column++) {
            FieldVector vector = batch.column(column);
            vector.setInitialCapacity(Math.max(rows.size(), 1));
            vector.allocateNew();
            for (int row = 0; row < rows.size(); row++) {
                VectorValues.set(vector, row, schema.column(column).type(), rows.get(row)[column]);
            }
        }
        batch.setRowCount(rows.size());
        return batch;
    }

    /** The live rows of {@code batch}, in order. */
    public static List<Object[]> rows(Batch batch, TableSchema schema) {
        List<Object[]> rows = new ArrayList<>();
        for (int index = 0; index < batch.selectedCount(); index++) {
            int position = batch.selectedRow(index);
            Object[] row = new Object[schema.size()];
            for (int column = 0; column < schema.size(); column++) {
                row[column] = VectorValues.get(batch.column(column), position, schema.column(column).type());
            }
            rows.add(row);
        }
        return rows;
    }
}
