package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorCopy;
import dev.columba.core.expr.ExecutionMode;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * ORDER BY: materializes its whole input, sorts row numbers by the keys (stable: ties keep input
 * order), and returns the rows in order, a batch at a time.
 *
 * <p>Memory: every input row is copied into Arrow vectors of its own, plus two int arrays of the
 * row count (charged to the query's limit); exceeding the limit is {@code OUT_OF_MEMORY}, there is
 * no spilling. Each returned batch is the operator's own, valid until the next {@code next()}.
 */
public final class SortOperator extends BaseOperator {
    private final Operator input;
    private final List<SortKey> keys;
    private RowBuffer buffer;
    private final RowOrder order;
    private MemoryCharge charge;
    private Batch output;
    private int[] sorted;
    private int emitted;

    public SortOperator(Operator input, List<SortKey> keys) {
        super(input.schema(), List.of(input));
        this.input = input;
        this.keys = List.copyOf(keys);
        this.order = new RowOrder(keys, input.schema());
    }

    @Override
    public ExecutionMode mode() {
        return ExecutionMode.BATCH;
    }

    @Override
    void opened() {
        buffer = new RowBuffer(schema(), allocator);
        charge = new MemoryCharge(allocator, name() + " sort index");
    }

    @Override
    Batch produce() {
        if (sorted == null) {
            sorted = materializeAndSort(input, buffer, order, charge);
        }
        if (emitted >= buffer.size()) {
            return null;
        }
        if (output == null) {
            output = Batch.create(schema(), allocator);
        }
        int count = Math.min(context.batchSize(), buffer.size() - emitted);
        gather(buffer, sorted, emitted, count, output);
        emitted += count;
        return output;
    }

    /**
     * Reads and sorts the whole input now, for a parallel sort's merge ({@link MergeGatherOperator}),
     * which then reads {@link #sortedRows()} in {@link #sortedOrder()} itself instead of calling
     * {@link #next()}. Once open only; both stay valid until close.
     */
    void sortInput() {
        if (sorted != null) {
            return;
        }
        context.checkCancelled();
        try {
            sorted = materializeAndSort(input, buffer, order, charge);
        } catch (org.apache.arrow.memory.OutOfMemoryException e) {
            throw new dev.columba.core.error.ColumbaException(dev.columba.core.error.ErrorCode.OUT_OF_MEMORY,
                    name() + " needs more memory than the query may use: " + e.getMessage(), e);
        }
    }

    /** The rows read by {@link #sortInput()}, in input order. */
    RowBuffer sortedRows() {
        return buffer;
    }

    /** The row numbers of {@link #sortedRows()} in sorted order. */
    int[] sortedOrder() {
        return sorted;
    }

    /** The keys the rows are sorted by. */
    List<SortKey> keys() {
        return keys;
    }

    /** Reads all of {@code input} into {@code buffer} and returns its row numbers in sorted order. */
    static int[] materializeAndSort(Operator input, RowBuffer buffer, RowOrder order, MemoryCharge charge) {
        int[] positions = new int[0];
        for (Batch batch = input.next(); batch != null; batch = input.next()) {
            positions = Vectors.livePositions(batch, positions);
            buffer.append(batch, positions, batch.selectedCount());
        }
        int count = buffer.size();
        charge.ensure(2L * Integer.BYTES * count);
        int[] rows = new int[count];
        for (int row = 0; row < count; row++) {
            rows[row] = row;
        }
        order.bind(buffer);
        order.sort(rows, new int[count], count);
        return rows;
    }

    /** Copies rows {@code rows[from, from + count)} of {@code buffer} into {@code output}, which then holds just them. */
    static void gather(RowBuffer buffer, int[] rows, int from, int count, Batch output) {
        Vectors.rewind(output);
        for (int columnIndex = 0; columnIndex < buffer.columnCount(); columnIndex++) {
            VectorCopy.gather(buffer.column(columnIndex), rows, from, count, output.column(columnIndex), 0);
        }
        output.setRowCount(count);
    }

    @Override
    void release() {
        if (output != null) {
            output.close();
        }
        if (buffer != null) {
            buffer.close();
        }
        if (charge != null) {
            charge.close();
        }
    }
}
