package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorCopy;
import dev.columba.core.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.util.TransferPair;

/**
 * Rows copied out of input batches into vectors of their own that grow as rows arrive (Arrow
 * doubles them), for operators that materialize: a hash join's build side, a sort, a top-N. The
 * vectors come from the operator's allocator, so the query's memory limit bounds the buffer.
 */
final class RowBuffer implements AutoCloseable {
    private final Batch rows;
    private int size;

    RowBuffer(TableSchema schema, BufferAllocator allocator) {
        this.rows = Batch.create(schema, allocator);
    }

    private RowBuffer(Batch rows, int size) {
        this.rows = rows;
        this.size = size;
    }

    /**
     * A buffer holding this one's rows without copying them: the vectors' memory moves to the new
     * buffer (under the same allocator), which appends after them; this one is left empty, still to
     * be closed.
     */
    RowBuffer transfer() {
        rows.setRowCount(size);
        List<FieldVector> moved = new ArrayList<>(rows.columnCount());
        try {
            for (int columnIndex = 0; columnIndex < rows.columnCount(); columnIndex++) {
                FieldVector vector = rows.column(columnIndex);
                TransferPair pair = vector.getTransferPair(vector.getAllocator());
                pair.transfer();
                moved.add((FieldVector) pair.getTo());
            }
        } catch (RuntimeException e) {
            for (FieldVector vector : moved) {
                vector.close();
            }
            throw e;
        }
        RowBuffer taken = new RowBuffer(Batch.of(moved), size);
        size = 0;
        rows.setRowCount(0);
        return taken;
    }

    int size() {
        return size;
    }

    FieldVector column(int columnIndex) {
        return rows.column(columnIndex);
    }

    int columnCount() {
        return rows.columnCount();
    }

    /** Appends the rows at {@code positions[0, count)} of {@code source}, which has this buffer's columns. */
    void append(Batch source, int[] positions, int count) {
        for (int columnIndex = 0; columnIndex < rows.columnCount(); columnIndex++) {
            VectorCopy.gather(source.column(columnIndex), positions, count, rows.column(columnIndex), size);
        }
        size += count;
    }

    /** Appends the rows at {@code positions[offset, offset + count)} of {@code source}, which has this buffer's columns. */
    void append(Batch source, int[] positions, int offset, int count) {
        for (int columnIndex = 0; columnIndex < rows.columnCount(); columnIndex++) {
            VectorCopy.gather(source.column(columnIndex), positions, offset, count, rows.column(columnIndex), size);
        }
        size += count;
    }

    /** Forgets every row, keeping the vectors' memory for the rows appended next. */
    void clear() {
        size = 0;
        Vectors.rewind(rows);
    }

    /** Appends the rows {@code [first, first + count)} of {@code source}, which has this buffer's columns, each column in bulk. */
    void appendRange(Batch source, int first, int count) {
        for (int columnIndex = 0; columnIndex < rows.columnCount(); columnIndex++) {
            VectorCopy.copyRange(source.column(columnIndex), first, count, rows.column(columnIndex), size);
        }
        size += count;
    }

    /** The buffered rows as a batch (valid until the next append or close). */
    Batch asBatch() {
        rows.setRowCount(size);
        return rows;
    }

    @Override
    public void close() {
        rows.close();
    }
}
