package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A hand-written input operator for tests, standing where a table scan will: it returns given rows
 * in batches of a given size. With a random source it also mixes in rows that are not live (values
 * from a foreign row, deselected by the batch's selection vector), so every operator is tested on
 * inputs with selection vectors. It can fail on purpose after some batches, and records whether it
 * was opened and closed.
 */
final class ListSource implements Operator {
    private final TableSchema schema;
    private final List<Object[]> rows;
    private final int batchSize;
    private final Random selections;
    private final int failAfterBatches;
    private BufferAllocator allocator;
    private Batch batch;
    private int next;
    private int batches;
    boolean opened;
    boolean closed;

    /**
     * @param selections when not null, adds deselected rows to the batches at random
     * @param failAfterBatches throws a {@link ColumbaException} (IO_ERROR) instead of this batch; -1 never
     */
    ListSource(TableSchema schema, List<Object[]> rows, int batchSize, Random selections, int failAfterBatches) {
        this.schema = schema;
        this.rows = List.copyOf(rows);
        this.batchSize = batchSize;
        this.selections = selections;
        this.failAfterBatches = failAfterBatches;
    }

    /** Another source of the same rows, batches and failure (a parallel plan's copy of an input). */
    ListSource copy() {
        return new ListSource(schema, rows, batchSize, selections == null ? null : new Random(rows.size()), failAfterBatches);
    }

    static ListSource of(TableSchema schema, List<Object[]> rows, int batchSize) {
        return new ListSource(schema, rows, batchSize, null, -1);
    }

    @Override
    public TableSchema schema() {
        return schema;
    }

    @Override
    public ExecutionMode mode() {
        return ExecutionMode.BATCH;
    }

    @Override
    public void open(ExecutionContext context) {
        opened = true;
        allocator = context.allocator().newChildAllocator("ListSource", 0, Long.MAX_VALUE);
        batch = Batch.create(schema, allocator);
    }

    @Override
    public Batch next() {
        if (next >= rows.size()) {
            return null;
        }
        if (batches++ == failAfterBatches) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "the test source fails after " + failAfterBatches + " batches");
        }
        Vectors.rewind(batch);
        List<Object[]> physical = new ArrayList<>();
        List<Integer> live = new ArrayList<>();
        while (live.size() < batchSize && next < rows.size()) {
            if (selections != null && selections.nextInt(3) == 0) {
                physical.add(rows.get(selections.nextInt(rows.size())));
            }
            live.add(physical.size());
            physical.add(rows.get(next++));
        }
        for (int column = 0; column < schema.size(); column++) {
            for (int row = 0; row < physical.size(); row++) {
                VectorValues.set(batch.column(column), row, schema.column(column).type(), physical.get(row)[column]);
            }
        }
        batch.setRowCount(physical.size());
        if (live.size() < physical.size()) {
            batch.select(live.stream().mapToInt(Integer::intValue).toArray(), live.size());
        }
        return batch;
    }

    @Override
    public void close() {
        closed = true;
        if (batch != null) {
            batch.close();
            batch = null;
        }
        if (allocator != null) {
            allocator.close();
            allocator = null;
        }
    }
}
