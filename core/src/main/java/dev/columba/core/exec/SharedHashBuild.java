package dev.columba.core.exec;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The build side of a hash join that the workers of a parallel plan share: the first worker to
 * need it reads the build input and builds the hash table, the others wait and then probe the
 * same table, read-only — the build input is read once, so its reads are counted once and its
 * memory is held once. The table's memory comes from an allocator of its own under the query's,
 * released when the last worker that registered lets go.
 *
 * <p>RIGHT_SEMI and RIGHT_ANTI joins share the build's match flags as well: every worker sets
 * flags (plain writes of {@code true}, racing only with writes of the same value) while it probes,
 * then reports that it finished probing ({@link #finishProbing}, synchronized); the last of the
 * registered workers to report returns the build rows. Each report is ordered after that worker's
 * writes and before the next report, so the last reporter sees every flag set.
 */
public final class SharedHashBuild {
    /** What the build produced; read-only once published. */
    record Built(BufferAllocator allocator, RowBuffer rows, GroupHashTable table, int[] firstRow, int[] nextRow,
                 boolean[] matchedRows, boolean[] matchedGroups, MemoryCharge tableCharge, MemoryCharge chainCharge) {
        void close() {
            try {
                table.close();
                rows.close();
                tableCharge.close();
                chainCharge.close();
            } finally {
                allocator.close();
            }
        }
    }

    /** Builds the table from the build input, with memory from the allocator given. */
    interface Builder {
        Built build(BufferAllocator allocator);
    }

    private int users;
    private int registered;
    private int finishedProbing;
    private boolean building;
    private Built built;
    private RuntimeException failure;

    /** Counts a worker that will {@link #release} the build when it closes. */
    synchronized void register() {
        users++;
        registered++;
    }

    /**
     * A registered worker has probed all its rows (RIGHT_SEMI, RIGHT_ANTI); true for the last of
     * them, which then sees the match flags every worker set.
     */
    synchronized boolean finishProbing() {
        finishedProbing++;
        if (finishedProbing > registered) {
            throw new IllegalStateException("more workers finished probing than registered: " + finishedProbing);
        }
        return finishedProbing == registered;
    }

    /** The table, built by this caller with {@code builder} if nobody built it yet, else as another worker built it. */
    Built acquire(ExecutionContext context, Builder builder) {
        synchronized (this) {
            while (building) {
                context.checkCancelled();
                try {
                    wait(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ColumbaException(ErrorCode.QUERY_CANCELLED, "interrupted while waiting for a hash join's build", e);
                }
            }
            if (failure != null) {
                throw failure;
            }
            if (built != null) {
                return built;
            }
            building = true;
        }
        BufferAllocator allocator = context.allocator().newChildAllocator("shared hash join build", 0, Long.MAX_VALUE);
        Built result = null;
        try {
            result = builder.build(allocator);
            return result;
        } catch (RuntimeException e) {
            allocator.close();
            synchronized (this) {
                failure = e;
            }
            throw e;
        } finally {
            synchronized (this) {
                built = result;
                building = false;
                notifyAll();
            }
        }
    }

    /** A registered worker is done with the table; the last one frees it. */
    void release() {
        Built toClose = null;
        synchronized (this) {
            users--;
            if (users == 0 && built != null) {
                toClose = built;
                built = null;
            }
        }
        if (toClose != null) {
            toClose.close();
        }
    }
}
