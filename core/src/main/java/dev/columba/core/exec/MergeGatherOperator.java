package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorCopy;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.WaitType;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;

/**
 * A parallel ORDER BY: SQL Server's Parallelism (Gather Streams) with an order, PostgreSQL's
 * Gather Merge. Each worker — a {@link SortOperator} over its copy of a plan fragment, the copies
 * sharing their scan's rowgroups through morsels — reads and sorts its share of the rows on a
 * thread of its own; once all have, this operator merges their sorted runs on the consumer's
 * thread and returns the rows in order, a batch at a time.
 *
 * <p>Why merge the workers' buffers in place rather than pass batches through a gather: the rows
 * are materialized by the sorts anyway, so the merge reads them where they lie (no hand-off per
 * batch, no copy between threads) and copies each row once, into its output batch. The serial
 * part left is that copy and {@code log2(workers)} comparisons a row, against a serial sort's
 * copy in, {@code log2(rows)} comparisons a row and copy out.
 *
 * <p>Order: by the keys, ties between the workers' rows in worker order (which rows a worker read
 * depends on the morsels it claimed, so the order of ties is not fixed between runs, as with any
 * parallel plan); within a worker, ties keep its input order (its sort is stable).
 *
 * <p>Memory: the workers' sorts hold every row, as one sort would (charged to the query's limit
 * through their allocators), and this operator one output batch. Each returned batch is the
 * operator's own, valid until the next {@code next()}.
 *
 * <p>Failure, cancellation and closing as {@link WorkerExchange} says (and as {@link GatherOperator}
 * does): the first error of a worker cancels the others and is thrown to the consumer; every worker
 * closes its fragment on its own thread, once the consumer is done with its rows (at
 * {@link #close}). The consumer's wait for the sorts to end is one {@link WaitType#CXCONSUMER} wait.
 */
public final class MergeGatherOperator extends WorkerExchange<SortOperator> {
    private static final AtomicLong IDS = new AtomicLong();

    private final String name = "MergeGatherOperator#" + IDS.incrementAndGet();
    /** Counted down by each worker once its share is sorted (or it failed, or never started). */
    private CountDownLatch sorted;
    /** Released once the consumer no longer reads the workers' rows: the workers then close their fragments. */
    private final CountDownLatch merged = new CountDownLatch(1);
    private ExecutionContext context;
    private BufferAllocator allocator;

    // The merge, set up once every worker has sorted.
    private RowOrder[] orders;
    private RowBuffer[] runs;
    private int[][] runOrders;
    private int[] runSizes;
    /** Per run, the index into its sorted order of its next row to return. */
    private int[] positions;
    /** A binary heap of the runs with rows left, the run of the smallest next row first. */
    private int[] heap;
    private int heapSize;
    /** The run and the row of each row of the batch being built. */
    private int[] pickedRuns;
    private int[] pickedRows;
    private Batch output;

    /** @param workers sorts over copies of one fragment, by the same keys; each is opened, sorted and closed on a worker thread */
    public MergeGatherOperator(List<SortOperator> workers) {
        super(workers, "a merging gather");
        List<SortKey> keys = workers.getFirst().keys();
        for (SortOperator worker : workers) {
            if (!worker.keys().equals(keys)) {
                throw new ColumbaException(ErrorCode.INTERNAL, "the workers of a merging gather sort different rows");
            }
        }
    }

    @Override
    public void open(ExecutionContext executionContext) {
        openWorkers(executionContext, name);
        context = executionContext;
        allocator = executionContext.allocator().newChildAllocator(name, 0, Long.MAX_VALUE);
        sorted = new CountDownLatch(workers.size());
    }

    @Override
    void run(int worker) {
        long cpuStart = THREADS.getCurrentThreadCpuTime();
        SortOperator sort = workers.get(worker);
        try {
            sort.open(group.worker());
            sort.sortInput();
        } catch (Throwable e) {
            fail(e);
        } finally {
            sorted.countDown();
        }
        long cpu = THREADS.getCurrentThreadCpuTime() - cpuStart;
        try {
            awaitUninterruptibly(merged);
        } finally {
            endWorker(worker, cpu);
        }
    }

    @Override
    void workerEnded(int worker, boolean ran) {
        if (!ran) {
            sorted.countDown();
        }
    }

    @Override
    public Batch next() {
        if (!opened()) {
            throw new IllegalStateException(name + " is not open");
        }
        if (!started()) {
            startWorkers();
            awaitSorts();
            setUpMerge();
        }
        throwFailure();
        context.checkCancelled();
        if (heapSize == 0) {
            return null;
        }
        try {
            return merge();
        } catch (OutOfMemoryException e) {
            throw new ColumbaException(ErrorCode.OUT_OF_MEMORY, name + " needs more memory than the query may use: "
                    + e.getMessage(), e);
        }
    }

    /** Waits for every worker to sort its share (one measured wait), checking for failure and cancellation meanwhile. */
    private void awaitSorts() {
        long waitStart = System.nanoTime();
        try {
            while (!sorted.await(100, TimeUnit.MILLISECONDS)) {
                throwFailure();
                context.checkCancelled();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ColumbaException(ErrorCode.QUERY_CANCELLED, "the query was interrupted", e);
        } finally {
            context.query().statistics().waits().record(WaitType.CXCONSUMER, System.nanoTime() - waitStart);
        }
        throwFailure();
    }

    private void setUpMerge() {
        int count = workers.size();
        orders = new RowOrder[count];
        runs = new RowBuffer[count];
        runOrders = new int[count][];
        runSizes = new int[count];
        positions = new int[count];
        heap = new int[count];
        for (int run = 0; run < count; run++) {
            SortOperator sort = workers.get(run);
            runs[run] = sort.sortedRows();
            runOrders[run] = sort.sortedOrder();
            runSizes[run] = runs[run].size();
            orders[run] = new RowOrder(sort.keys(), schema());
            orders[run].bind(runs[run]);
            if (runSizes[run] > 0) {
                heap[heapSize++] = run;
            }
        }
        for (int slot = heapSize / 2 - 1; slot >= 0; slot--) {
            siftDown(slot);
        }
        pickedRuns = new int[context.batchSize()];
        pickedRows = new int[context.batchSize()];
        output = Batch.create(schema(), allocator);
    }

    /** The next batch of rows in order: picks them from the runs' heads, then copies them column by column. */
    private Batch merge() {
        int batchSize = pickedRuns.length;
        int picked = 0;
        while (picked < batchSize && heapSize > 0) {
            int run = heap[0];
            pickedRuns[picked] = run;
            pickedRows[picked] = runOrders[run][positions[run]];
            picked++;
            if (++positions[run] == runSizes[run]) {
                heap[0] = heap[--heapSize];
            }
            if (heapSize > 0) {
                siftDown(0);
            }
        }
        Vectors.rewind(output);
        for (int columnIndex = 0; columnIndex < schema().size(); columnIndex++) {
            // Consecutive rows of one run are copied in one call.
            int first = 0;
            while (first < picked) {
                int run = pickedRuns[first];
                int end = first + 1;
                while (end < picked && pickedRuns[end] == run) {
                    end++;
                }
                VectorCopy.gather(runs[run].column(columnIndex), pickedRows, first, end - first, output.column(columnIndex), first);
                first = end;
            }
        }
        output.setRowCount(picked);
        return output;
    }

    private void siftDown(int slot) {
        int at = slot;
        int run = heap[at];
        while (true) {
            int child = 2 * at + 1;
            if (child >= heapSize) {
                break;
            }
            if (child + 1 < heapSize && before(heap[child + 1], heap[child])) {
                child++;
            }
            if (!before(heap[child], run)) {
                break;
            }
            heap[at] = heap[child];
            at = child;
        }
        heap[at] = run;
    }

    /** Whether the next row of run {@code left} comes before that of run {@code right}: by the keys, then by run. */
    private boolean before(int left, int right) {
        int comparison = orders[left].compare(runOrders[left][positions[left]], orders[right], runOrders[right][positions[right]]);
        return comparison < 0 || comparison == 0 && left < right;
    }

    /** Cancels the sorts if they have not all ended (an error, a cancellation, a consumer that stopped early), then lets every worker close. */
    @Override
    void stopWorkers() {
        if (sorted.getCount() > 0) {
            group.cancel();
        }
        merged.countDown();
    }

    @Override
    RuntimeException releaseOwn() {
        if (output != null) {
            output.close();
        }
        try {
            allocator.close();
            return null;
        } catch (IllegalStateException e) {
            return new ColumbaException(ErrorCode.INTERNAL, name + " did not release its memory: " + e.getMessage(), e);
        }
    }
}
