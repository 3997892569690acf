package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorCopy;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.ExecutionMode;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * One worker's end of a repartition (Repartition Streams, {@link SharedRepartition}): reads its
 * whole input, sorts each row into the partition of the worker that owns its keys' hash, hands the
 * partitions in, and then returns the rows of its own partition from every worker (its own among
 * them). Used between a partial aggregation and its final merge, so that each worker merges the
 * groups of its partition and no merge runs serially above the gather.
 *
 * <p>The partition of a row is the high bits of the keys' hash (core's {@link GroupHashTable}
 * hashes), so that a hash table over one partition still spreads its keys over all its slots,
 * which it picks by the low bits. Returned batches belong to the repartition, are the only copy of
 * their rows and are read by this worker only; valid until the next {@code next()}.
 */
public final class RepartitionOperator extends BaseOperator {
    private final Operator input;
    private final int[] keys;
    private final Layout[] layouts;
    private final SharedRepartition shared;
    private final int worker;
    private boolean handedIn;
    private List<Batch> partition;
    private int nextBatch;
    private FieldVector[] keyVectors;
    private int[] positions = new int[0];
    private long[] hashes = new long[0];
    /** Per partition: the positions of the current input batch's rows that go there, and how many. */
    private int[][] partitionPositions;
    private int[] partitionCounts;
    /** Per partition: the batch being filled and its rows. */
    private Batch[] filling;
    private int[] filled;

    /** @param keys the input columns whose values decide a row's partition */
    public RepartitionOperator(Operator input, List<Integer> keys, SharedRepartition shared) {
        super(input.schema(), List.of(input));
        if (keys.isEmpty()) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "a repartition needs at least one key");
        }
        this.input = input;
        this.keys = keys.stream().mapToInt(Integer::intValue).toArray();
        this.layouts = new Layout[this.keys.length];
        for (int key = 0; key < this.keys.length; key++) {
            layouts[key] = Layout.of(input.schema().column(this.keys[key]).type());
        }
        this.shared = shared;
        this.worker = shared.register();
    }

    /** The operator whose rows this one repartitions. */
    public Operator input() {
        return input;
    }

    /** The rows of this worker's partition from all workers; known once the first {@code next()} returned. */
    public long partitionRows() {
        if (partition == null) {
            throw new IllegalStateException("the partition is known after the first next()");
        }
        long rows = 0;
        for (Batch batch : partition) {
            rows += batch.rowCount();
        }
        return rows;
    }

    /** The number of workers, and of partitions. */
    public int partitions() {
        return shared.partitions();
    }

    @Override
    public ExecutionMode mode() {
        return ExecutionMode.BATCH;
    }

    @Override
    void opened() {
    }

    @Override
    Batch produce() {
        if (partition == null) {
            try {
                distribute();
            } catch (RuntimeException e) {
                shared.fail(e);
                throw e;
            }
            handedIn = true;
            partition = shared.handIn(context, worker);
        }
        return nextBatch < partition.size() ? partition.get(nextBatch++) : null;
    }

    /** Sorts every input row into its partition's batches. */
    private void distribute() {
        int partitions = shared.partitions();
        int batchSize = context.batchSize();
        keyVectors = new FieldVector[keys.length];
        partitionPositions = new int[partitions][0];
        partitionCounts = new int[partitions];
        filling = new Batch[partitions];
        filled = new int[partitions];
        for (Batch batch = input.next(); batch != null; batch = input.next()) {
            int count = batch.selectedCount();
            positions = Vectors.livePositions(batch, positions);
            for (int key = 0; key < keys.length; key++) {
                keyVectors[key] = batch.column(keys[key]);
            }
            hashes = GroupHashTable.hashRows(keyVectors, layouts, positions, count, hashes);
            for (int target = 0; target < partitions; target++) {
                if (partitionPositions[target].length < count) {
                    partitionPositions[target] = new int[Math.max(count, batchSize)];
                }
                partitionCounts[target] = 0;
            }
            for (int index = 0; index < count; index++) {
                int target = (int) (((hashes[index] >>> 32) * partitions) >>> 32);
                partitionPositions[target][partitionCounts[target]++] = positions[index];
            }
            for (int target = 0; target < partitions; target++) {
                append(batch, target, batchSize);
            }
        }
        for (int target = 0; target < partitions; target++) {
            if (filling[target] != null) {
                filling[target].setRowCount(filled[target]);
            }
        }
    }

    /** Copies the current batch's rows of {@code target} to that partition's batches, starting a new one when one is full. */
    private void append(Batch batch, int target, int batchSize) {
        int count = partitionCounts[target];
        int copied = 0;
        while (copied < count) {
            if (filling[target] == null || filled[target] == batchSize) {
                if (filling[target] != null) {
                    filling[target].setRowCount(filled[target]);
                }
                filling[target] = shared.newBatch(context, worker, target, schema(), batchSize);
                filled[target] = 0;
            }
            int rows = Math.min(count - copied, batchSize - filled[target]);
            for (int column = 0; column < batch.columnCount(); column++) {
                VectorCopy.gather(batch.column(column), partitionPositions[target], copied, rows,
                        filling[target].column(column), filled[target]);
            }
            filled[target] += rows;
            copied += rows;
        }
    }

    @Override
    void release() {
        shared.release(handedIn);
    }
}
