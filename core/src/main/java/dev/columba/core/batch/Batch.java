package dev.columba.core.batch;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The unit of batch-mode execution: Arrow vectors of equal length, one per column, plus an
 * optional selection vector naming the rows that are live (a filter selects rather than copies).
 * Owns its vectors: closing the batch releases them. Producers reuse a batch from call to call;
 * a consumer's view of it is valid until the producer's next call.
 */
public final class Batch implements AutoCloseable {
    private final VectorSchemaRoot root;
    private int[] selection;
    private int selectedCount;
    private boolean selective;

    private Batch(VectorSchemaRoot root) {
        this.root = root;
    }

    /** An empty batch with one vector per column of {@code schema}, allocated from {@code allocator}. */
    public static Batch create(TableSchema schema, BufferAllocator allocator) {
        List<Field> fields = new ArrayList<>(schema.size());
        for (Column column : schema.columns()) {
            fields.add(new Field(column.name(), new FieldType(column.nullable(), column.type().arrowType(), null), null));
        }
        return new Batch(VectorSchemaRoot.create(new Schema(fields), allocator));
    }

    /** Wraps existing vectors (which the batch then owns). */
    public static Batch of(List<FieldVector> vectors) {
        return new Batch(new VectorSchemaRoot(vectors));
    }

    public int columnCount() {
        return root.getFieldVectors().size();
    }

    public FieldVector column(int columnIndex) {
        return root.getVector(columnIndex);
    }

    /** Rows held by the vectors, selected or not. */
    public int rowCount() {
        return root.getRowCount();
    }

    /** Sets the row count of every vector (after the producer filled them) and clears the selection. */
    public void setRowCount(int rows) {
        root.setRowCount(rows);
        selective = false;
        selectedCount = rows;
    }

    /** Whether only some rows are live. */
    public boolean hasSelection() {
        return selective;
    }

    /** Live rows: all rows without a selection. */
    public int selectedCount() {
        return selective ? selectedCount : root.getRowCount();
    }

    /** The vector position of the {@code index}-th live row. */
    public int selectedRow(int index) {
        return selective ? selection[index] : index;
    }

    /**
     * Keeps only the rows at {@code positions[0, count)} (ascending vector positions). The array is
     * copied into the batch's own.
     */
    public void select(int[] positions, int count) {
        Objects.checkFromToIndex(0, count, positions.length);
        if (selection == null || selection.length < count) {
            selection = new int[Math.max(count, root.getRowCount())];
        }
        System.arraycopy(positions, 0, selection, 0, count);
        selectedCount = count;
        selective = true;
    }

    /** The schema root, for Arrow APIs that want one. Valid as long as the batch. */
    public VectorSchemaRoot root() {
        return root;
    }

    @Override
    public void close() {
        root.close();
    }
}
