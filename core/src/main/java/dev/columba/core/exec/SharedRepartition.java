package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The rows the workers of one parallel fragment exchange by hash (Repartition Streams): every
 * worker's {@link RepartitionOperator} sorts its input rows into one partition per worker by the
 * hash of their keys, hands them in, and once every registered worker has handed in, reads the
 * rows of its own partition from all of them. Rows with equal keys so end in one worker, which can
 * finish their aggregation alone.
 *
 * <p>Registration happens when the workers' operators are made, before any runs, so the number of
 * partitions is known when the first rows are sorted. The partitions' batches live in an allocator
 * of their own under the query's, made by the first worker to need it; every batch is recorded
 * here when it is made (not when it is handed in), and the last registered worker to close frees
 * them all and the allocator, so a worker that stops half-way leaks nothing. A worker that fails
 * or closes before handing in fails the workers waiting for it (its partitions cannot be whole),
 * and the first failure is thrown to every worker that waits or asks later.
 *
 * <p>Memory visibility: a worker's batches are written before it hands in (under this monitor),
 * and read by the others only after they saw every hand-in (under the monitor), so the monitor
 * orders every write before every read. After the hand-ins the batches are only read, each by the
 * one worker whose partition it belongs to.
 */
public final class SharedRepartition extends WorkerHandIns {
    /** Per worker, then per partition, the batches it made (filled in order; only the last one may be partly full). */
    private final List<List<List<Batch>>> batches = new ArrayList<>();

    @Override
    void workerRegistered() {
        batches.add(new ArrayList<>());
    }

    /**
     * A new empty batch of {@code schema} with room for {@code rows} rows (its vectors grow beyond
     * if needed), for rows of {@code partition} from {@code worker}, recorded for release.
     */
    synchronized Batch newBatch(ExecutionContext context, int worker, int partition, TableSchema schema, int rows) {
        BufferAllocator memory = memory(context, "repartition");
        List<List<Batch>> byPartition = batches.get(worker);
        while (byPartition.size() <= partition) {
            byPartition.add(new ArrayList<>());
        }
        Batch batch = Batch.create(schema, memory);
        byPartition.get(partition).add(batch);
        for (int column = 0; column < batch.columnCount(); column++) {
            batch.column(column).setInitialCapacity(rows);
            batch.column(column).allocateNew();
        }
        return batch;
    }

    /**
     * {@code worker} has sorted all its rows into its batches; waits until every registered worker
     * has, then returns the batches of {@code worker}'s partition from all of them, in worker order.
     */
    List<Batch> handIn(ExecutionContext context, int worker) {
        synchronized (this) {
            handInAndAwaitAll(context, "a repartition");
            List<Batch> partition = new ArrayList<>();
            for (List<List<Batch>> byPartition : batches) {
                if (worker < byPartition.size()) {
                    partition.addAll(byPartition.get(worker));
                }
            }
            return partition;
        }
    }

    /**
     * A registered worker is done; {@code handedInRows} says whether it handed in. One that did not
     * fails the others still waiting; the last one to release frees every batch and the allocator.
     */
    void release(boolean handedInRows) {
        release(handedInRows, "a repartition");
    }

    @Override
    Runnable takeEverything() {
        List<Batch> toClose = new ArrayList<>();
        for (List<List<Batch>> byPartition : batches) {
            for (List<Batch> partition : byPartition) {
                toClose.addAll(partition);
                partition.clear();
            }
        }
        return () -> toClose.forEach(Batch::close);
    }
}
