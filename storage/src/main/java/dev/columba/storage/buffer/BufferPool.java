package dev.columba.storage.buffer;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounter;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.stats.IoStats;
import dev.columba.core.stats.WaitCounters;
import dev.columba.core.stats.WaitType;
import dev.columba.storage.io.MemoryMapping;
import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageFormat;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongConsumer;

/**
 * A fixed number of 8 KB frames in one off-heap block, caching the pages of a {@link PageStore}.
 *
 * <p>Reads pin a frame and take its latch shared; a page not resident is read synchronously by
 * the requester (a physical read) or arrives from an asynchronous read-ahead I/O that the requester
 * may have to wait for (a read-ahead read). Every request is charged to the caller's
 * {@link IoCounters} and to the pool's cumulative counters, so that {@code (physical + read-ahead)
 * x 8 KB} is exactly what this pool asked the operating system for.
 *
 * <p>Committed frames are immutable (see {@link Frame}); write transactions work on private
 * copies ({@link WriteSet}) that commit installs. Dirty frames go to disk on eviction and at
 * checkpoints, after the log is durable up to their LSN (the write-ahead rule, through the
 * {@code logFlusher}). Writes of one page are serialized and only the current version of a page
 * is ever written, so an older version can never overwrite a newer one.
 *
 * <p>Waits: a reader that blocks on a page read — its own synchronous read, a frame another thread
 * is loading (whose latch the loader holds exclusively), its own read-ahead at the end of a scan, a
 * frame to become free while reads hold the candidates — waits {@link WaitType#PAGEIOLATCH_SH}; a
 * thread that finds the eviction policy's latch held waits {@link WaitType#LATCH_EX}. Each is
 * counted once and timed only when the thread blocks, in the pool's {@link #waits()} (the
 * database's, {@code sys.wait_stats}) and in the statement's that the request's counters carry.
 */
public final class BufferPool implements PageReader, AutoCloseable {
    private static final int WRITE_STRIPES = 256;
    private static final int EVICTION_BATCH = 16;
    private static final int PROTECTED_PERCENT = 80;

    private final PageStore store;
    private final Arena arena;
    private final Frame[] frames;
    private final PageTable pageTable;
    private final ConcurrentLinkedQueue<Frame> freeFrames = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Frame> retiredFrames = new ConcurrentLinkedQueue<>();
    /**
     * About how many frames {@link #retiredFrames} holds (added before the add, taken after the
     * poll): {@code ConcurrentLinkedQueue.size()} walks the whole queue, and once the free list is
     * used up a pool of 32,768 frames retires one per changed page per commit, so the walk took
     * 40% of a 4-client insert's CPU (JFR, bench/results/commit-path-20261126.md).
     */
    private final AtomicInteger retiredCount = new AtomicInteger();
    /**
     * Frames whose asynchronous read is in flight. Read-ahead stops taking frames at a quarter of the
     * pool, so that what it has in flight never leaves a reader, or a write transaction's copies,
     * without a frame (a 4 MB pool had 265 of its 512 frames loading in LargeTransactionTest).
     */
    private final AtomicInteger readAheadFrames = new AtomicInteger();
    private final EvictionPolicy policy;
    private final ReentrantLock[] writeStripes = new ReentrantLock[WRITE_STRIPES];
    private final PoolCounters cumulative = new PoolCounters();
    /** Pages written to the data files: a dirty frame's write and a minimally logged page's alike. */
    private final LongAdder pagesWritten = new LongAdder();
    /** Of {@link #pagesWritten}, those of minimally logged transactions, committed or not. */
    private final LongAdder minimallyLoggedPagesWritten = new LongAdder();
    private final WaitCounters waits = new WaitCounters();
    private final AtomicInteger privateFrames = new AtomicInteger();
    private final ExecutorService ioThreads;
    private final ThreadLocal<MemorySegment> writeBuffer;
    private volatile LongConsumer logFlusher = lsn -> { };
    private volatile LongConsumer ioSizeListener = bytes -> { };
    private volatile boolean closed;

    /**
     * @param capacityPages frames in the pool
     * @param ioThreadCount threads performing asynchronous reads: the most read-ahead I/Os in flight
     */
    public BufferPool(PageStore store, int capacityPages, int ioThreadCount) {
        if (capacityPages < 16) {
            throw new IllegalArgumentException("a buffer pool needs at least 16 frames, asked for " + capacityPages);
        }
        this.store = Objects.requireNonNull(store, "store");
        this.arena = Arena.ofShared();
        // Mapped, not allocated: frames are zero pages until first used (MemoryMapping.anonymous).
        MemorySegment block = MemoryMapping.anonymous((long) capacityPages * PageFormat.PAGE_SIZE, arena);
        this.frames = new Frame[capacityPages];
        this.pageTable = new PageTable(capacityPages);
        for (int index = 0; index < capacityPages; index++) {
            frames[index] = new Frame(index, block.asSlice((long) index * PageFormat.PAGE_SIZE, PageFormat.PAGE_SIZE));
            freeFrames.add(frames[index]);
        }
        for (int index = 0; index < WRITE_STRIPES; index++) {
            writeStripes[index] = new ReentrantLock();
        }
        this.policy = new EvictionPolicy(frames, PROTECTED_PERCENT, waits);
        AtomicInteger threadNumber = new AtomicInteger();
        this.ioThreads = Executors.newFixedThreadPool(ioThreadCount, runnable -> {
            Thread thread = new Thread(runnable, "columba-io-" + threadNumber.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        Arena writeArena = arena;
        this.writeBuffer = ThreadLocal.withInitial(() -> writeArena.allocate(PageFormat.PAGE_SIZE, 4096));
    }

    /** Sets how the pool makes the log durable up to an LSN before writing a page with that LSN. */
    public void setLogFlusher(LongConsumer flusher) {
        this.logFlusher = Objects.requireNonNull(flusher, "flusher");
    }

    @Override
    public BufferPool bufferPool() {
        return this;
    }

    /** Sets what hears the size in bytes of every read request this pool makes (for metrics). */
    public void setIoSizeListener(LongConsumer listener) {
        this.ioSizeListener = Objects.requireNonNull(listener, "listener");
    }

    /** Pages whose current version is dirty now. */
    public int dirtyPageCount() {
        int dirty = 0;
        for (Frame frame : frames) {
            if (frame.dirty && frame.state == Frame.State.VALID) {
                dirty++;
            }
        }
        return dirty;
    }

    public int capacity() {
        return frames.length;
    }

    public PageStore store() {
        return store;
    }

    /** Pages currently resident (valid in the page table), including those still loading. */
    public int residentPages() {
        return pageTable.size();
    }

    /** Frames held as private copies by write transactions. */
    public int privatePages() {
        return privateFrames.get();
    }

    /** Whether the page is resident or being read. */
    public boolean isResident(long pageId) {
        return pageTable.containsKey(pageId);
    }

    /** Cumulative counters of every read this pool served since it was created. */
    public IoStats cumulativeStatistics() {
        return cumulative.snapshot();
    }

    /**
     * The pages this pool wrote to its store since it was created, each a write of {@code
     * PageFormat.PAGE_SIZE} bytes: {@code pagesWritten x 8 KB} is what it asked the operating
     * system to write.
     *
     * @param pagesWritten                every page write: dirty frames written at eviction or by a
     *                                    checkpoint, and minimally logged pages
     * @param minimallyLoggedPagesWritten of those, the pages minimally logged transactions wrote before
     *                                    their commit record, including those of transactions that then
     *                                    rolled back (the I/O happened all the same)
     */
    public record WriteStatistics(long pagesWritten, long minimallyLoggedPagesWritten) {
        public long bytesWritten() {
            return pagesWritten * PageFormat.PAGE_SIZE;
        }
    }

    /** The pages written since the pool was created. */
    public WriteStatistics writeStatistics() {
        // The total is counted before the minimal count and read after it, so it never falls below its part.
        long minimal = minimallyLoggedPagesWritten.sum();
        return new WriteStatistics(pagesWritten.sum(), minimal);
    }

    /**
     * Every wait of the pool's readers since it was created (statements, the database's own reads
     * and the I/O threads), and the waits of statements that report to these counters
     * ({@link WaitCounters#WaitCounters(WaitCounters)}): the database's waits.
     */
    public WaitCounters waits() {
        return waits;
    }

    /** Frames whose page was promoted by repeated random access (for tests of scan resistance). */
    public int protectedPages() {
        return policy.protectedSize();
    }

    /**
     * Pins committed page {@code pageId}, reading it if it is not resident.
     *
     * @param counters the statement's counters for the page's table, charged for this request
     * @throws ColumbaException if the page is corrupt (naming file and page) or the pool is exhausted
     */
    @Override
    public PageRef read(long pageId, Access access, IoCounters counters) {
        boolean lob = access == Access.LOB;
        charge(counters, lob ? IoCounter.LOB_LOGICAL_READS : IoCounter.LOGICAL_READS, 1);
        while (true) {
            checkOpen();
            Frame frame = pageTable.get(pageId);
            if (frame != null) {
                PageRef ref = pinResident(frame, pageId, access, counters);
                if (ref != null) {
                    return ref;
                }
                continue;
            }
            PageRef ref = readFromStore(pageId, access, counters, lob);
            if (ref != null) {
                return ref;
            }
        }
    }

    private PageRef pinResident(Frame frame, long pageId, Access access, IoCounters counters) {
        if (!frame.tryPin()) {
            Thread.onSpinWait();
            return null;
        }
        long stamp = frame.latch.tryReadLock();
        if (stamp == 0) {
            // Only a loader holds a frame's latch exclusively: this is a wait for a read in flight.
            long waitStart = System.nanoTime();
            stamp = frame.latch.readLock();
            long waited = System.nanoTime() - waitStart;
            charge(counters, IoCounter.PAGE_IO_WAIT_NANOS, waited);
            recordWait(WaitType.PAGEIOLATCH_SH, waited, counters);
        }
        if (frame.pageId != pageId || frame.state != Frame.State.VALID) {
            frame.latch.unlockRead(stamp);
            frame.unpin();
            return null;
        }
        // Read first, swapped only when set: an unconditional atomic swap on every pin of a hot page
        // (a B+tree root read by every point select) was 7% of a point select's samples in JFR.
        IoCounters readAheadOwner = frame.readAheadOwner.get() == null ? null : frame.readAheadOwner.getAndSet(null);
        if (readAheadOwner != null) {
            readAheadOwner.increment(IoCounter.READ_AHEAD_USED);
            cumulative.increment(IoCounter.READ_AHEAD_USED);
        }
        policy.touch(frame, access, counters.waits());
        return new PageRef(frame, stamp, false);
    }

    private PageRef readFromStore(long pageId, Access access, IoCounters counters, boolean lob) {
        Frame frame = obtainFrame(false, counters);
        frame.pageId = pageId;
        frame.state = Frame.State.LOADING;
        long stamp = frame.latch.writeLock();
        frame.pins.set(1);
        if (pageTable.putIfAbsent(pageId, frame) != null) {
            frame.latch.unlockWrite(stamp);
            release(frame);
            return null;
        }
        long start = System.nanoTime();
        try {
            store.readPage(pageId, frame.memory);
            Page.verify(frame.memory, pageId, store.name(pageId));
        } catch (RuntimeException e) {
            pageTable.remove(pageId, frame);
            frame.state = Frame.State.FAILED;
            frame.latch.unlockWrite(stamp);
            release(frame);
            throw e;
        }
        long waited = System.nanoTime() - start;
        charge(counters, IoCounter.PAGE_IO_WAIT_NANOS, waited);
        recordWait(WaitType.PAGEIOLATCH_SH, waited, counters);
        charge(counters, lob ? IoCounter.LOB_PHYSICAL_READS : IoCounter.PHYSICAL_READS, 1);
        charge(counters, IoCounter.READ_IOS, 1);
        charge(counters, IoCounter.READ_BYTES, PageFormat.PAGE_SIZE);
        ioSizeListener.accept(PageFormat.PAGE_SIZE);
        frame.lsn = Page.lsn(frame.memory);
        frame.dirty = false;
        frame.state = Frame.State.VALID;
        policy.admit(frame, counters.waits());
        return new PageRef(frame, frame.latch.tryConvertToReadLock(stamp), false);
    }

    /**
     * Starts an asynchronous read of up to {@code count} consecutive pages from {@code firstPageId},
     * as few I/O requests as possible: a resident page splits the run (its copy is newer or equal),
     * and each request covers at most the pages asked for. Pages are charged to {@code counters} as
     * read-ahead reads when they arrive.
     *
     * @return the ids of the pages actually requested (not resident before), in order; the caller
     *         may {@link #awaitReadAhead await} them and account for waste when it is done
     */
    public long[] readAhead(long firstPageId, int count, Access access, IoCounters counters) {
        List<Frame> run = new ArrayList<>(count);
        long[] requested = new long[count];
        int requestedCount = 0;
        for (long pageId = firstPageId; pageId < firstPageId + count; pageId++) {
            if (closed || pageTable.containsKey(pageId)) {
                submitRun(run, access, counters);
                continue;
            }
            Frame frame = readAheadFrames.get() < frames.length / 4 ? obtainFrame(true, counters) : null;
            if (frame == null) {
                break; // every frame is pinned, or a quarter is being read: read-ahead gives way, readers read on demand
            }
            frame.pageId = pageId;
            readAheadFrames.incrementAndGet();
            frame.loadStamp = frame.latch.writeLock();
            frame.state = Frame.State.LOADING;
            frame.releaseClaim();
            if (pageTable.putIfAbsent(pageId, frame) != null) {
                frame.state = Frame.State.FREE;
                frame.latch.unlockWrite(frame.loadStamp);
                readAheadFrames.decrementAndGet();
                freeFrames.add(frame);
                submitRun(run, access, counters);
                continue;
            }
            frame.readAheadOwner.set(counters);
            run.add(frame);
            requested[requestedCount++] = pageId;
        }
        submitRun(run, access, counters);
        return requestedCount == count ? requested : java.util.Arrays.copyOf(requested, requestedCount);
    }

    private void submitRun(List<Frame> run, Access access, IoCounters counters) {
        if (run.isEmpty()) {
            return;
        }
        Frame[] batch = run.toArray(Frame[]::new);
        run.clear();
        try {
            ioThreads.execute(() -> completeReadAhead(batch, access, counters));
        } catch (RejectedExecutionException e) {
            failLoads(batch, new ColumbaException(ErrorCode.DATABASE_CLOSED, "buffer pool closed"));
        }
    }

    private void completeReadAhead(Frame[] batch, Access access, IoCounters counters) {
        MemorySegment[] targets = new MemorySegment[batch.length];
        for (int index = 0; index < batch.length; index++) {
            targets[index] = batch[index].memory;
        }
        try {
            store.readPages(batch[0].pageId, targets);
        } catch (RuntimeException e) {
            failLoads(batch, e);
            return;
        }
        boolean lob = access == Access.LOB;
        charge(counters, lob ? IoCounter.LOB_READ_AHEAD_READS : IoCounter.READ_AHEAD_READS, batch.length);
        charge(counters, IoCounter.READ_IOS, 1);
        charge(counters, IoCounter.READ_BYTES, (long) batch.length * PageFormat.PAGE_SIZE);
        ioSizeListener.accept((long) batch.length * PageFormat.PAGE_SIZE);
        for (Frame frame : batch) {
            try {
                Page.verify(frame.memory, frame.pageId, store.name(frame.pageId));
            } catch (RuntimeException e) {
                failLoads(new Frame[] {frame}, e);
                continue;
            }
            frame.lsn = Page.lsn(frame.memory);
            frame.dirty = false;
            frame.state = Frame.State.VALID;
            // The I/O thread's own wait, if any, is the pool's: no statement's thread blocks on it.
            policy.admit(frame, null);
            frame.latch.unlockWrite(frame.loadStamp);
            readAheadFrames.decrementAndGet();
        }
    }

    /**
     * A read-ahead that failed (I/O error, corrupt page) leaves nothing behind: the frames leave the
     * page table, so the page's next request reads it synchronously and reports the error itself.
     */
    private void failLoads(Frame[] batch, RuntimeException failure) {
        for (Frame frame : batch) {
            pageTable.remove(frame.pageId, frame);
            frame.failure = failure;
            frame.state = Frame.State.FAILED;
            frame.readAheadOwner.set(null);
            frame.latch.unlockWrite(frame.loadStamp);
            readAheadFrames.decrementAndGet();
            addRetired(frame);
        }
    }

    /** Waits until none of {@code pageIds} is still loading. */
    public void awaitReadAhead(long[] pageIds) {
        awaitReadAhead(pageIds, null);
    }

    /** Waits until none of {@code pageIds} is still loading, a wait per page still loading charged to {@code counters} (or the pool only). */
    private void awaitReadAhead(long[] pageIds, IoCounters counters) {
        for (long pageId : pageIds) {
            Frame frame = pageTable.get(pageId);
            if (frame != null && frame.state == Frame.State.LOADING) {
                awaitLoad(frame, counters);
            }
        }
    }

    /** Waits out the read of a frame being loaded (its loader holds the latch exclusively), measured if it blocks. */
    private void awaitLoad(Frame frame, IoCounters counters) {
        long stamp = frame.latch.tryReadLock();
        if (stamp == 0) {
            long start = System.nanoTime();
            stamp = frame.latch.readLock();
            recordWait(WaitType.PAGEIOLATCH_SH, System.nanoTime() - start, counters);
        }
        frame.latch.unlockRead(stamp);
    }

    /**
     * Counts as wasted the read-ahead pages among {@code pageIds} that {@code counters} read ahead
     * and nobody has requested; they will not be counted again.
     *
     * @return the number of wasted pages
     */
    public long settleReadAhead(long[] pageIds, IoCounters counters) {
        awaitReadAhead(pageIds, counters);
        long wasted = 0;
        for (long pageId : pageIds) {
            Frame frame = pageTable.get(pageId);
            if (frame != null && frame.readAheadOwner.compareAndSet(counters, null)) {
                wasted++;
            }
        }
        charge(counters, IoCounter.READ_AHEAD_WASTED, wasted);
        return wasted;
    }

    // ---- frames ------------------------------------------------------------------------------

    /**
     * A claimed frame (pins == -1) from the free list, the retired frames or by eviction.
     *
     * <p>When none is to be had at once and the caller must have one, frames being read ahead are
     * waited for before the pool is called exhausted: a frame whose asynchronous read is in flight
     * is neither free nor evictable, but will be as soon as the read ends. Under load the I/O
     * threads can hold a large share of a small pool for milliseconds, and giving up after a few
     * microseconds of attempts failed statements that had frames enough
     * (jdbc {@code LargeTransactionTest}, 4 MB pool: 265 frames loading, 247 private; issue 11).
     *
     * @param mayFail return null instead of waiting or failing when no frame is available now
     * @param counters the counters of the request the frame is for, charged for a wait; null for none
     */
    private Frame obtainFrame(boolean mayFail, IoCounters counters) {
        Frame frame = tryObtainFrame();
        if (frame != null || mayFail) {
            return frame;
        }
        for (int waited = 0; waited < frames.length; waited++) {
            Frame loading = aFrameBeingRead();
            if (loading == null) {
                break;
            }
            // Waits out the read: the I/O thread holds the frame's latch exclusively until it ends.
            awaitLoad(loading, counters);
            frame = tryObtainFrame();
            if (frame != null) {
                return frame;
            }
        }
        throw new ColumbaException(ErrorCode.BUFFER_POOL_EXHAUSTED, "every one of the buffer pool's " + frames.length
                + " frames is pinned or private (" + privateFrames.get() + " private); raise buffer_pool_size");
    }

    private Frame tryObtainFrame() {
        for (int attempt = 0; attempt < 64; attempt++) {
            Frame frame = freeFrames.poll();
            if (frame != null) {
                if (frame.tryClaim()) {
                    return frame;
                }
                continue;
            }
            frame = reclaimRetired();
            if (frame != null) {
                return frame;
            }
            frame = evict();
            if (frame != null) {
                return frame;
            }
        }
        return null;
    }

    /** Some frame whose read is in flight, or null if there is none. */
    private Frame aFrameBeingRead() {
        if (readAheadFrames.get() == 0) {
            return null;
        }
        for (Frame frame : frames) {
            if (frame.state == Frame.State.LOADING) {
                return frame;
            }
        }
        return null;
    }

    /** A retired frame nobody pins any more, claimed; each retired frame is looked at once at most. */
    private Frame reclaimRetired() {
        int scanned = retiredCount.get();
        for (int index = 0; index < scanned; index++) {
            Frame frame = retiredFrames.poll();
            if (frame == null) {
                return null;
            }
            retiredCount.decrementAndGet();
            if (frame.tryClaim()) {
                discardReadAheadOwner(frame);
                return frame;
            }
            addRetired(frame);
        }
        return null;
    }

    private void addRetired(Frame frame) {
        retiredCount.incrementAndGet();
        retiredFrames.add(frame);
    }

    private Frame evict() {
        List<Frame> candidates = new ArrayList<>(EVICTION_BATCH);
        policy.candidates(EVICTION_BATCH, candidates);
        for (Frame frame : candidates) {
            if (frame.pins.get() != 0 || frame.state != Frame.State.VALID) {
                continue;
            }
            if (frame.dirty) {
                writeIfCurrent(frame);
                if (frame.dirty) {
                    continue;
                }
            }
            if (!frame.tryClaim()) {
                continue;
            }
            if (!leaveTable(frame)) {
                frame.releaseClaim();
                continue;
            }
            discardReadAheadOwner(frame);
            return frame;
        }
        return null;
    }

    /**
     * Takes a claimed frame out of the page table if it is still its page's clean current version.
     * Under the page's write stripe, because {@link #install} replaces the current version and
     * retires it under that stripe: checked outside it, a commit could install a new version
     * between the check and the removal, retire the frame the caller is about to reuse, and the
     * retired list would later hand the same frame out again while the page table maps another
     * page to it (readers of that page then spin on a frame that is no longer theirs).
     */
    private boolean leaveTable(Frame frame) {
        ReentrantLock stripe = stripe(frame.pageId);
        stripe.lock();
        try {
            if (frame.state != Frame.State.VALID || frame.dirty || !pageTable.remove(frame.pageId, frame)) {
                return false;
            }
            policy.remove(frame);
            return true;
        } finally {
            stripe.unlock();
        }
    }

    /** A frame leaving the pool with its read-ahead never requested: that read-ahead was wasted. */
    private void discardReadAheadOwner(Frame frame) {
        IoCounters owner = frame.readAheadOwner.getAndSet(null);
        if (owner != null) {
            owner.increment(IoCounter.READ_AHEAD_WASTED);
            cumulative.increment(IoCounter.READ_AHEAD_WASTED);
        }
    }

    /** Returns a claimed or pinned-by-us frame to the free list. */
    private void release(Frame frame) {
        frame.state = Frame.State.FREE;
        frame.pageId = -1;
        frame.dirty = false;
        frame.readAheadOwner.set(null);
        frame.pins.set(0);
        freeFrames.add(frame);
    }

    // ---- private copies for write transactions ----------------------------------------------

    /** A new private frame for a write transaction, pinned until {@link #releasePrivate}. */
    Frame obtainPrivateFrame(long pageId) {
        Frame frame = obtainFrame(false, null);
        frame.pageId = pageId;
        frame.state = Frame.State.PRIVATE;
        frame.dirty = true;
        frame.pins.set(1);
        privateFrames.incrementAndGet();
        return frame;
    }

    void releasePrivate(Frame frame) {
        privateFrames.decrementAndGet();
        release(frame);
    }

    /**
     * Publishes a private frame as the committed version of its page with {@code lsn}, retiring the
     * previous version. Readers holding the old version keep reading it until they unpin.
     */
    void install(Frame frame, long lsn) {
        publish(frame, lsn, true);
    }

    /**
     * Publishes a private frame as the committed version of its page, clean: its bytes were
     * already written to the data file by {@link #writeMinimallyLogged} and made durable. Its LSN is
     * 0, below every redo point, so the page's next change logs a full image.
     */
    void installWritten(Frame frame) {
        publish(frame, 0, false);
    }

    private void publish(Frame frame, long lsn, boolean dirty) {
        ReentrantLock stripe = stripe(frame.pageId);
        stripe.lock();
        try {
            Page.setLsn(frame.memory, lsn);
            frame.lsn = lsn;
            frame.dirty = dirty;
            frame.state = Frame.State.VALID;
            Frame previous = pageTable.put(frame.pageId, frame);
            privateFrames.decrementAndGet();
            frame.pins.set(0);
            policy.admit(frame, null);
            if (previous != null) {
                retire(previous);
            }
        } finally {
            stripe.unlock();
        }
    }

    /**
     * Drops whatever version of {@code pageId} the pool holds: the data file has a newer one,
     * written by {@link #writeMinimallyLogged}, that the next read loads. The page was free before
     * its writer's commit, so no reader holds it; a frame still pinned is retired as an install would.
     */
    void forget(long pageId) {
        ReentrantLock stripe = stripe(pageId);
        stripe.lock();
        try {
            Frame frame = pageTable.get(pageId);
            if (frame != null && frame.state == Frame.State.VALID && pageTable.remove(pageId, frame)) {
                retire(frame);
            }
        } finally {
            stripe.unlock();
        }
    }

    /**
     * Writes a page of a minimally logged transaction straight to the data file, before its
     * commit: the page was free when the transaction began and has no log record (see {@link
     * WriteSet#enableMinimalLogging}). Its LSN is written as 0 and its checksum stamped on a copy.
     * Does not sync.
     */
    void writeMinimallyLogged(long pageId, MemorySegment page) {
        MemorySegment copy = writeBuffer.get();
        MemorySegment.copy(page, 0, copy, 0, PageFormat.PAGE_SIZE);
        Page.setLsn(copy, 0);
        Page.updateChecksum(copy);
        store.writePage(pageId, copy);
        pagesWritten.increment();
        minimallyLoggedPagesWritten.increment();
    }

    /** Reads the data file's version of {@code pageId} into {@code target}, bypassing the pool; checks it. */
    void readFromStoreInto(long pageId, MemorySegment target) {
        store.readPage(pageId, target);
        Page.verify(target, pageId, store.name(pageId));
    }

    private void retire(Frame frame) {
        policy.remove(frame);
        frame.state = Frame.State.RETIRED;
        addRetired(frame);
    }

    // ---- writing ------------------------------------------------------------------------------

    private ReentrantLock stripe(long pageId) {
        return writeStripes[(int) ((pageId ^ (pageId >>> 17)) & (WRITE_STRIPES - 1))];
    }

    /**
     * Writes a dirty frame if it is still the current version of its page. The log is made durable
     * up to the frame's LSN first; the checksum is stamped on a copy, so the frame stays immutable.
     */
    private void writeIfCurrent(Frame frame) {
        if (!frame.tryPin()) {
            return;
        }
        try {
            long pageId = frame.pageId;
            ReentrantLock stripe = stripe(pageId);
            stripe.lock();
            try {
                if (!frame.dirty || frame.state != Frame.State.VALID || pageTable.get(pageId) != frame) {
                    return;
                }
                logFlusher.accept(frame.lsn);
                MemorySegment copy = writeBuffer.get();
                MemorySegment.copy(frame.memory, 0, copy, 0, PageFormat.PAGE_SIZE);
                Page.updateChecksum(copy);
                store.writePage(pageId, copy);
                pagesWritten.increment();
                frame.dirty = false;
            } finally {
                stripe.unlock();
            }
        } finally {
            frame.unpin();
        }
    }

    /** Ids of the pages whose current version is dirty. */
    public long[] dirtyPages() {
        List<Long> dirty = new ArrayList<>();
        for (Frame frame : frames) {
            if (frame.dirty && frame.state == Frame.State.VALID) {
                dirty.add(frame.pageId);
            }
        }
        return dirty.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    /** Writes the current versions of {@code pageIds} that are still dirty; does not sync. */
    public void writeDirty(long[] pageIds) {
        for (long pageId : pageIds) {
            Frame frame = pageTable.get(pageId);
            if (frame != null && frame.dirty) {
                writeIfCurrent(frame);
            }
        }
    }

    /**
     * Empties the pool of clean, unpinned pages and asks the operating system to drop the file from
     * its page cache: the next read of those pages is cold. Dirty pages stay (write them with a
     * checkpoint first). Returns the number of pages dropped.
     */
    public int dropCleanBuffers() {
        int dropped = 0;
        for (Frame frame : frames) {
            if (frame.state == Frame.State.VALID && !frame.dirty && frame.tryClaim()) {
                if (leaveTable(frame)) {
                    discardReadAheadOwner(frame);
                    release(frame);
                    dropped++;
                } else {
                    frame.releaseClaim();
                }
            }
        }
        store.dropOsCache();
        return dropped;
    }

    /** One wait of a request: in the pool's waits, and in its statement's when {@code counters} carry them. */
    private void recordWait(WaitType type, long waitedNanos, IoCounters counters) {
        WaitCounters.record(type, waitedNanos, waits, counters == null ? null : counters.waits());
    }

    private void charge(IoCounters counters, IoCounter counter, long delta) {
        if (delta == 0) {
            return;
        }
        counters.add(counter, delta);
        cumulative.add(counter, delta);
    }

    private void checkOpen() {
        if (closed) {
            throw new ColumbaException(ErrorCode.DATABASE_CLOSED, "the buffer pool of " + store.name() + " is closed");
        }
    }

    /** Stops the I/O threads and frees the frames; dirty pages are not written (checkpoint first). */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        ioThreads.shutdown();
        try {
            if (!ioThreads.awaitTermination(30, TimeUnit.SECONDS)) {
                ioThreads.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        arena.close();
    }
}
