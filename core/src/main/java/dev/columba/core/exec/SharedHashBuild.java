package dev.columba.core.exec;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.WaitType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The build side of a hash join that the workers of a parallel plan share, read in one of two ways:
 *
 * <ul>
 * <li>{@linkplain #readByOne() By one worker}, when the build input is not divided among the
 *     workers (a small table, or a serial subtree): the first worker to need the table reads the
 *     build input and builds the table, the others wait and never open their copies of the input.
 * <li>{@linkplain #readByEach() By each worker}, when the build input is itself a fragment whose
 *     scan the workers divide (its rowgroups are claimed from the same morsels): every worker reads
 *     its share of the build input into rows of its own ({@link #contribute}), with no lock
 *     while it reads; the last worker to hand in its share assembles the table from all shares
 *     while the others wait (the shares are freed once the table holds their rows).
 * </ul>
 * Either way, every worker then probes the same table, read-only, and the build input is read
 * once, so its reads are counted once and the table's memory is held once. That memory comes from
 * an allocator of its own under the query's, released when the last worker that registered lets
 * go. A worker's failure while reading or building is kept and thrown to every worker that waits
 * for the table or asks for it later; a worker that lets go before handing in its share (it was
 * stopped or cancelled) fails the waiting ones the same way, as the table can no longer be whole.
 *
 * <p>RIGHT_SEMI and RIGHT_ANTI joins share the build's match flags as well: every worker sets
 * flags (plain writes of {@code true}, racing only with writes of the same value) while it probes,
 * then reports that it finished probing ({@link #finishProbing}, synchronized); the last of the
 * registered workers to report returns the build rows. Each report is ordered after that worker's
 * writes and before the next report, so the last reporter sees every flag set.
 *
 * <p>A worker that has to wait for the table (for the others' shares and the assembly, or for the
 * worker reading it by one) waits {@link WaitType#HTBUILD}, once per wait, in the query's statistics.
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

    /**
     * One worker's part in a build read by each: whether it has handed in its share (set under
     * the build's lock). A worker that stops after handing in its share withdraws nothing: the
     * table can still be whole, and its share may be the one the last worker is assembling from.
     */
    static final class Contribution {
        private boolean handedIn;
    }

    /** Builds the table from the build input, with memory from the allocator given. */
    interface Builder {
        Built build(BufferAllocator allocator);
    }

    /** Reads this worker's share of the build input into rows of its own, with memory from the allocator given. */
    interface ShareReader {
        RowBuffer read(BufferAllocator allocator);
    }

    /**
     * Makes the table from every worker's share (which the caller closes afterwards), with memory
     * from the allocator given: builds it, or prepares work that all {@code workers} do together
     * and whose last step builds it.
     */
    interface Assembler {
        Assembly assemble(BufferAllocator allocator, List<RowBuffer> shares, int workers);
    }

    /** What an {@link Assembler} made: the table ({@code built}), or the work that makes it ({@code work}). */
    record Assembly(Built built, SharedWork work) {
        Assembly {
            if ((built == null) == (work == null)) {
                throw new IllegalArgumentException("an assembly is a table or work that makes one");
            }
        }
    }

    /**
     * Work that the workers of a build read by each do together once every share is in (a parallel
     * fill of the table): phases of items that any worker may claim, each item run by one worker;
     * {@link #afterPhase} runs on the worker that finished a phase's last item, before any item of
     * the next phase is claimed, and after the last phase {@link #result} is the table. Every
     * worker takes part, so a worker the machine holds back only leaves its items to the others.
     * Items of one phase run at once on several threads and must write disjoint memory; the
     * phases' counters order every write of a phase before the next phase's reads.
     */
    abstract static class SharedWork {
        private final int[] items;
        private final AtomicInteger[] claimed;
        private final AtomicInteger[] finished;
        /** The phases below this one may be claimed. */
        private volatile int open;

        SharedWork(int... items) {
            this.items = items.clone();
            claimed = new AtomicInteger[items.length];
            finished = new AtomicInteger[items.length];
            for (int phase = 0; phase < items.length; phase++) {
                claimed[phase] = new AtomicInteger();
                finished[phase] = new AtomicInteger();
            }
        }

        abstract void run(int phase, int item);

        abstract void afterPhase(int phase);

        /** The table, after the last phase; from then on the table owns the memory the work held. */
        abstract Built result();

        /** Frees what the work holds, when it failed or was abandoned before {@link #result}. */
        abstract void close();

        /** The next item of {@code phase} for the caller, -1 when every item is claimed. */
        private int claim(int phase) {
            if (claimed[phase].get() >= items[phase]) {
                return -1;
            }
            int item = claimed[phase].getAndIncrement();
            return item < items[phase] ? item : -1;
        }

        /** Counts a finished item; true for the phase's last one. */
        private boolean finish(int phase) {
            return finished[phase].incrementAndGet() == items[phase];
        }
    }

    private final boolean readByEach;
    private int users;
    private int registered;
    private int finishedProbing;
    private boolean building;
    private Built built;
    private RuntimeException failure;
    /** Read by each: the allocator of the shares and the table, made by the first worker to need it. */
    private BufferAllocator memory;
    /** Read by each: the shares handed in so far (until the table is built from them), and how many workers handed in. */
    private final List<RowBuffer> shares = new ArrayList<>();
    private int contributed;
    /** Read by each: the work that makes the table from the shares, from its preparation until the table is published. */
    private SharedWork work;

    private SharedHashBuild(boolean readByEach) {
        this.readByEach = readByEach;
    }

    /** A build whose input the first worker to need it reads whole. */
    public static SharedHashBuild readByOne() {
        return new SharedHashBuild(false);
    }

    /** A build whose input every worker reads a share of (the input's scan divided among them). */
    public static SharedHashBuild readByEach() {
        return new SharedHashBuild(true);
    }

    /** Whether every worker reads a share of the build input ({@link #contribute}) rather than one reading it all ({@link #acquire}). */
    boolean isReadByEach() {
        return readByEach;
    }

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
            awaitWhile(() -> building, context);
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

    /**
     * Read by each: reads this worker's share with {@code reader} and hands it in, then returns
     * the table once every registered worker has handed in its share — built by this caller with
     * {@code assembler} if it is the last to hand in, else as the last one built it.
     */
    Built contribute(ExecutionContext context, Contribution contribution, ShareReader reader, Assembler assembler) {
        BufferAllocator allocator;
        synchronized (this) {
            if (!readByEach) {
                throw new IllegalStateException("this build is read by one worker");
            }
            if (failure != null) {
                throw failure;
            }
            if (memory == null) {
                memory = context.allocator().newChildAllocator("shared hash join build", 0, Long.MAX_VALUE);
            }
            allocator = memory;
        }
        RowBuffer share;
        try {
            share = reader.read(allocator);
        } catch (RuntimeException e) {
            fail(e);
            throw e;
        }
        List<RowBuffer> all;
        synchronized (this) {
            if (failure != null) {
                share.close();
                throw failure;
            }
            shares.add(share);
            contribution.handedIn = true;
            contributed++;
            boolean last = contributed == registered;
            if (last) {
                building = true;
            }
            all = last ? List.copyOf(shares) : null;
        }
        if (all == null) {
            return awaitBuilt(context);
        }
        Assembly assembly = null;
        try {
            assembly = assembler.assemble(allocator, all, all.size());
        } catch (RuntimeException e) {
            fail(e);
            throw e;
        } finally {
            synchronized (this) {
                closeShares();
                if (assembly != null) {
                    built = assembly.built();
                    work = assembly.work();
                    building = built == null;
                    if (work != null && failure != null) {
                        // Failed meanwhile: nobody will run the work, the last to let go frees it.
                        throw failure;
                    }
                    if (work != null) {
                        work.open = 1;
                    }
                }
                notifyAll();
            }
        }
        return assembly.built() != null ? assembly.built() : join(context, assembly.work());
    }

    /**
     * Runs items of the shared work with the other workers until every item is claimed, then
     * waits for the table. The worker that finishes the last phase publishes the table.
     */
    private Built join(ExecutionContext context, SharedWork shared) {
        int phases = shared.items.length;
        for (int phase = 0; phase < phases; phase++) {
            int current = phase;
            synchronized (this) {
                awaitWhile(() -> shared.open <= current && failure == null, context);
                if (failure != null) {
                    throw failure;
                }
            }
            for (int item = shared.claim(phase); item >= 0; item = shared.claim(phase)) {
                boolean last;
                Built result = null;
                try {
                    shared.run(phase, item);
                    last = shared.finish(phase);
                    if (last) {
                        shared.afterPhase(phase);
                        if (phase == phases - 1) {
                            result = shared.result();
                        }
                    }
                } catch (RuntimeException e) {
                    fail(e);
                    throw e;
                }
                if (last) {
                    synchronized (this) {
                        if (result != null) {
                            built = result;
                            work = null;
                            building = false;
                        } else {
                            shared.open = phase + 2;
                        }
                        notifyAll();
                    }
                }
            }
        }
        synchronized (this) {
            // Every item is claimed: what remains runs on other workers, the last of them publishes the table.
            awaitWhile(() -> built == null && failure == null, context);
            if (failure != null) {
                throw failure;
            }
            return built;
        }
    }

    /**
     * Waits on this monitor (the caller holds it) while {@code waiting} holds: one
     * {@link WaitType#HTBUILD} wait of the query if it had to wait at all, none (and no clock
     * reading) if not.
     */
    private void awaitWhile(BooleanSupplier waiting, ExecutionContext context) {
        if (!waiting.getAsBoolean()) {
            return;
        }
        long start = System.nanoTime();
        try {
            do {
                waitForBuild(context);
            } while (waiting.getAsBoolean());
        } finally {
            context.query().statistics().waits().record(WaitType.HTBUILD, System.nanoTime() - start);
        }
    }

    /** Waits on this monitor a while (the caller holds it), failing if the query was cancelled or the thread interrupted. */
    private void waitForBuild(ExecutionContext context) {
        context.checkCancelled();
        try {
            wait(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ColumbaException(ErrorCode.QUERY_CANCELLED, "interrupted while waiting for a hash join's build", e);
        }
    }

    /**
     * Waits until the last worker to hand in its share has built the table (or any worker failed),
     * taking part in the work that builds it if there is any.
     */
    private Built awaitBuilt(ExecutionContext context) {
        SharedWork shared;
        synchronized (this) {
            awaitWhile(() -> built == null && failure == null && (work == null || work.open == 0), context);
            if (failure != null) {
                throw failure;
            }
            if (built != null) {
                return built;
            }
            shared = work;
        }
        return join(context, shared);
    }

    /** Keeps the first failure for every worker, frees the shares handed in and wakes the waiting workers. */
    private synchronized void fail(RuntimeException e) {
        if (failure == null) {
            failure = e;
        }
        closeShares();
        notifyAll();
    }

    /**
     * Frees the shares handed in so far. Under the monitor, like every removal of a share: the
     * last worker to let go closes the shares' allocator, and it must find every share either
     * still listed (and close it) or already closed, never one that another thread took off the
     * list and is still freeing.
     */
    private void closeShares() {
        assert Thread.holdsLock(this);
        try {
            for (RowBuffer share : shares) {
                share.close();
            }
        } finally {
            shares.clear();
        }
    }

    /**
     * A registered worker is done with the table; the last one frees it. {@code contribution}: the
     * worker's part when the build is read by each (null otherwise).
     */
    void release(Contribution contribution) {
        Built toClose;
        BufferAllocator memoryToClose;
        synchronized (this) {
            users--;
            if (readByEach && !contribution.handedIn && built == null && failure == null && !building) {
                // This worker never handed in its share (stopped, cancelled or failed before): the table cannot be whole.
                fail(new ColumbaException(ErrorCode.QUERY_CANCELLED,
                        "a worker stopped before handing in its share of a hash join's build"));
            }
            if (users > 0) {
                return;
            }
            // The last one: no worker reads a share, builds or probes any more.
            closeShares();
            if (work != null) {
                // The work failed or was abandoned before it made the table: what it holds goes before its allocator.
                work.close();
                work = null;
            }
            toClose = built;
            built = null;
            memoryToClose = memory;
            memory = null;
        }
        if (toClose != null) {
            toClose.close();
        } else if (memoryToClose != null) {
            memoryToClose.close();
        }
    }
}
