package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
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
public final class SharedRepartition {
    private int registered;
    private int users;
    private int handedIn;
    private RuntimeException failure;
    private BufferAllocator memory;
    /** Per worker, then per partition, the batches it made (filled in order; only the last one may be partly full). */
    private final List<List<List<Batch>>> batches = new ArrayList<>();

    /** Counts a worker and returns its number: its partition, and the index of the batches it makes. */
    synchronized int register() {
        if (handedIn > 0) {
            throw new IllegalStateException("a worker registered after the first hand-in");
        }
        users++;
        batches.add(new ArrayList<>());
        return registered++;
    }

    /** The number of partitions: one per registered worker. */
    synchronized int partitions() {
        return registered;
    }

    /**
     * A new empty batch of {@code schema} with room for {@code rows} rows (its vectors grow beyond
     * if needed), for rows of {@code partition} from {@code worker}, recorded for release.
     */
    synchronized Batch newBatch(ExecutionContext context, int worker, int partition, TableSchema schema, int rows) {
        if (failure != null) {
            throw failure;
        }
        if (memory == null) {
            memory = context.allocator().newChildAllocator("repartition", 0, Long.MAX_VALUE);
        }
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
            if (failure != null) {
                throw failure;
            }
            handedIn++;
            notifyAll();
            while (handedIn < registered && failure == null) {
                context.checkCancelled();
                try {
                    wait(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ColumbaException(ErrorCode.QUERY_CANCELLED, "interrupted while waiting for a repartition", e);
                }
            }
            if (failure != null) {
                throw failure;
            }
            List<Batch> partition = new ArrayList<>();
            for (List<List<Batch>> byPartition : batches) {
                if (worker < byPartition.size()) {
                    partition.addAll(byPartition.get(worker));
                }
            }
            return partition;
        }
    }

    /** Keeps the first failure for every worker and wakes the waiting ones. */
    synchronized void fail(RuntimeException e) {
        if (failure == null) {
            failure = e;
        }
        notifyAll();
    }

    /**
     * A registered worker is done; {@code handedInRows} says whether it handed in. One that did not
     * fails the others still waiting; the last one to release frees every batch and the allocator.
     */
    void release(boolean handedInRows) {
        List<Batch> toClose = new ArrayList<>();
        BufferAllocator memoryToClose;
        synchronized (this) {
            users--;
            if (!handedInRows && handedIn < registered && failure == null) {
                failure = new ColumbaException(ErrorCode.QUERY_CANCELLED, "a worker stopped before handing in its rows to a repartition");
                notifyAll();
            }
            if (users > 0) {
                return;
            }
            for (List<List<Batch>> byPartition : batches) {
                for (List<Batch> partition : byPartition) {
                    toClose.addAll(partition);
                    partition.clear();
                }
            }
            memoryToClose = memory;
            memory = null;
        }
        for (Batch batch : toClose) {
            batch.close();
        }
        if (memoryToClose != null) {
            memoryToClose.close();
        }
    }
}
