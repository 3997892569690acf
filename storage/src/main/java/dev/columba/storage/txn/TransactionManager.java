package dev.columba.storage.txn;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.settings.CommitDurability;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.alloc.Allocator;
import dev.columba.storage.buffer.BufferPool;
import dev.columba.storage.buffer.SpillFile;
import dev.columba.storage.buffer.WriteSet;
import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.wal.LogFlusher;
import dev.columba.storage.wal.LogRecord;
import dev.columba.storage.wal.WriteAheadLog;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Begins, commits and rolls back write transactions; one at a time (the single writer).
 *
 * <p>Commit, under the writer lock: one log record per changed page — its full image if the page
 * was last changed before the current checkpoint's redo point (or is new), so that recovery never
 * applies a delta to a torn page; otherwise the byte ranges that differ from the committed version
 * — then a commit record, appended as one group. The new page versions are then installed (the
 * changed objects held exclusively for that instant, see {@link ObjectLocks}), the writer lock is
 * released, and the committer waits for the log to be durable up to its commit record. Committers
 * that arrive while a sync is in flight share the next one (group commit). A reader may see a
 * commit a few milliseconds before it is durable; if the machine dies in that window the commit is
 * lost, but its committer never heard it succeed.
 *
 * <p>A delayed commit ({@link CommitDurability#DELAYED}) does all of that except the wait: it
 * returns once its group is written to the log file, and asks the {@link LogFlusher} to sync it
 * within a few milliseconds (docs/design/storage.md, "Delayed durability"). Because the log is
 * synced in order, a crash of the machine can lose only a tail of the commits: whatever survives
 * is a prefix of the commit order, and every full commit, with everything before it.
 *
 * <p>A transaction larger than its share of the pool has spilled copies ({@link WriteSet},
 * {@link SpillFile}): they are logged as full images streamed from the spill file into the same
 * group, and installed through frames of their own (docs/design/storage.md, "Transactions larger
 * than the pool").
 */
public final class TransactionManager {
    /** Deltas separated by fewer identical bytes than this are logged as one range. */
    private static final int DELTA_MERGE_GAP = 16;
    private static final int IMAGE_FRAME = WriteAheadLog.frameSize(
            new LogRecord.PageImage(0, new byte[PageFormat.PAGE_SIZE]));
    /** In {@code logAndInstall}'s record index: the page is minimally logged, written and not logged. */
    private static final int WRITTEN_RECORD = -2;
    private static final int COMMIT_FRAME = WriteAheadLog.frameSize(new LogRecord.Commit(0, 0));

    private final BufferPool pool;
    private final WriteAheadLog log;
    private final Allocator allocator;
    private final ObjectLocks locks;
    private final WriterTurn writerTurn = new WriterTurn();
    private final AtomicLong nextTransactionId;
    private final IoCounters systemCounters = new IoCounters();
    private final int maxTransactionFrames;
    private final SpillFile spill;
    private final LogFlusher flusher;
    private final AtomicLong fullCommits = new AtomicLong();
    private final AtomicLong delayedCommits = new AtomicLong();
    private volatile long redoPoint;
    private volatile ColumbaException failure;
    private volatile RowCountRecorder rowCountRecorder = (writes, changes, counters) -> { };
    private volatile java.util.function.Consumer<String> syncPoint = name -> { };
    private final AtomicLong minimallyLoggedWrites = new AtomicLong();

    /**
     * Named points of a minimally logged commit that crash tests stop a child process at (through
     * {@link #setSyncPoint}): its pages are written to the data file but not yet synced, and they
     * are synced but the commit record is not yet appended.
     */
    public static final String PAGES_WRITTEN = "minimal-logging: pages written, data file not synced";
    public static final String PAGES_SYNCED = "minimal-logging: data file synced, commit not logged";

    /** Writes a committing transaction's row count changes into the catalog, through its write set. */
    @FunctionalInterface
    public interface RowCountRecorder {
        void record(WriteSet writes, java.util.Map<Integer, Long> changes, IoCounters counters);
    }

    /**
     * @param maxTransactionFrames the frames a transaction may hold before it spills
     * @param spill where a transaction's copies beyond {@code maxTransactionFrames} go, shared by
     *     the transactions one after another; null makes that limit a hard one
     * @param flushIntervalNanos the longest a delayed commit waits before the log's flusher starts
     *     syncing it ({@link LogFlusher#DEFAULT_INTERVAL_NANOS} in a database)
     */
    public TransactionManager(BufferPool pool, WriteAheadLog log, Allocator allocator, ObjectLocks locks,
                              long firstTransactionId, long redoPoint, int maxTransactionFrames, SpillFile spill,
                              long flushIntervalNanos) {
        this.pool = pool;
        this.log = log;
        this.allocator = allocator;
        this.locks = locks;
        this.nextTransactionId = new AtomicLong(firstTransactionId);
        this.redoPoint = redoPoint;
        this.maxTransactionFrames = maxTransactionFrames;
        this.spill = spill;
        this.flusher = new LogFlusher(log, flushIntervalNanos, syncFailure ->
                failure = new ColumbaException(ErrorCode.IO_ERROR, "the log could not be made durable, so the"
                        + " last delayed commits may or may not survive a crash; the database refuses further writes"
                        + " until it is reopened (" + syncFailure.getMessage() + ")", syncFailure));
    }

    /** Commits since the database opened, by durability (user transactions and the database's own). */
    public record CommitCounters(long full, long delayed) {
    }

    public CommitCounters commitCounters() {
        return new CommitCounters(fullCommits.get(), delayedCommits.get());
    }

    /** The background flusher of delayed commits. */
    public LogFlusher flusher() {
        return flusher;
    }

    /**
     * Makes every commit so far durable, delayed ones included ({@code sys.sp_flush_log}): returns
     * once the log is on storage up to its end as of the call.
     */
    public void flushLog() {
        checkHealthy();
        try {
            log.flush(log.endLsn());
        } catch (RuntimeException e) {
            failure = new ColumbaException(ErrorCode.IO_ERROR, "the log could not be made durable, so the last"
                    + " delayed commits may or may not survive a crash; the database refuses further writes until it"
                    + " is reopened (" + e.getMessage() + ")", e);
            throw failure;
        }
    }

    /** Stops the flusher of delayed commits; the caller then syncs the log (a checkpoint does). */
    public void stopFlusher() {
        flusher.close();
    }

    /** Sets what runs at each named point of a commit ({@link #PAGES_WRITTEN}, ...): for crash tests. */
    public void setSyncPoint(java.util.function.Consumer<String> syncPoint) {
        this.syncPoint = java.util.Objects.requireNonNull(syncPoint, "syncPoint");
    }

    /** Pages minimally logged transactions wrote to the data file instead of the log, since the database opened. */
    public long minimallyLoggedWrites() {
        return minimallyLoggedWrites.get();
    }

    /**
     * Makes the transaction minimally logged from now on: the pages it creates are written to the
     * data file (made durable before its commit record) instead of the log, except pages of extents
     * freed since the redo point, whose older records recovery could replay over them
     * (docs/design/storage.md, "Minimally logged bulk loads"). Everything else stays logged.
     */
    void enableMinimalLogging(Transaction transaction) {
        var freed = allocator.freedExtents();
        transaction.writeSet().enableMinimalLogging(pageId -> !freed.freedSinceRedoPoint(pageId));
    }

    /** Sets who records row counts at commit (the database, in its catalog). */
    public void setRowCountRecorder(RowCountRecorder recorder) {
        this.rowCountRecorder = recorder;
    }

    /** Begins a write transaction, waiting for the current one to end. */
    public Transaction begin() {
        checkHealthy();
        writerTurn.take();
        try {
            checkHealthy();
            return new Transaction(this, nextTransactionId.getAndIncrement(),
                    new WriteSet(pool, maxTransactionFrames, systemCounters, spill));
        } catch (RuntimeException e) {
            writerTurn.release();
            throw e;
        }
    }

    public ObjectLocks locks() {
        return locks;
    }

    public Allocator allocator() {
        return allocator;
    }

    IoCounters systemCounters() {
        return systemCounters;
    }

    public long nextTransactionId() {
        return nextTransactionId.get();
    }

    /** The LSN from which recovery would replay; changes to pages older than it log full images. */
    public long redoPoint() {
        return redoPoint;
    }

    /**
     * Runs {@code action} with no write transaction in progress and returns its result; used by
     * checkpoints to pick a redo point that no commit straddles.
     */
    public <T> T quiesced(java.util.function.Supplier<T> action) {
        writerTurn.take();
        try {
            return action.get();
        } finally {
            writerTurn.release();
        }
    }

    /** Moves the redo point: from now on, a page's first change logs its full image. */
    public void setRedoPoint(long lsn) {
        this.redoPoint = lsn;
    }

    long commit(Transaction transaction, CommitDurability durability) {
        WriteSet writes = transaction.writeSet();
        long commitLsn;
        try {
            if (!transaction.rowCountChanges().isEmpty()) {
                try {
                    rowCountRecorder.record(writes, transaction.rowCountChanges(), systemCounters);
                } catch (RuntimeException e) {
                    writes.close();
                    allocator.forgetHints();
                    throw e;
                }
            }
            List<WriteSet.Entry> entries = writes.entries();
            if (entries.isEmpty()) {
                writes.close();
                return 0;
            }
            commitLsn = logAndInstall(transaction, writes, entries);
            if (commitLsn == 0) {
                return 0;
            }
        } finally {
            writerTurn.release();
        }
        if (durability == CommitDurability.DELAYED) {
            delayedCommits.incrementAndGet();
            flusher.requestFlush();
            return commitLsn;
        }
        fullCommits.incrementAndGet();
        try {
            log.flush(commitLsn);
        } catch (RuntimeException e) {
            failure = new ColumbaException(ErrorCode.IO_ERROR, "the log could not be made durable, so transaction "
                    + transaction.id() + " may or may not survive a crash; the database refuses further writes"
                    + " until it is reopened (" + e.getMessage() + ")", e);
            throw failure;
        }
        return commitLsn;
    }

    /**
     * Logs the group of the transaction's changed pages and its commit record, then installs the
     * pages. Copies in memory are logged first (an image or a delta, computed now); spilled copies
     * follow as full images, read from the spill file in slot order while the group is written, so
     * the group never has to fit in memory.
     *
     * @return the commit LSN, 0 if no page changed
     */
    private long logAndInstall(Transaction transaction, WriteSet writes, List<WriteSet.Entry> entries) {
        boolean minimallyLogged = false;
        if (writes.minimalLoggingEnabled()) {
            try {
                minimallyLogged = writes.writeMinimallyLoggedPages();
                if (minimallyLogged) {
                    syncPoint.accept(PAGES_WRITTEN);
                    // The pages are on storage before the commit record that makes them reachable.
                    pool.store().sync();
                    syncPoint.accept(PAGES_SYNCED);
                }
            } catch (RuntimeException e) {
                writes.close();
                allocator.forgetHints();
                throw e;
            }
            minimallyLoggedWrites.addAndGet(writes.minimallyLoggedWrites());
        }
        List<LogRecord> inMemory = new ArrayList<>();
        int[] recordOf = new int[entries.size()];
        java.util.Map<WriteSet.Entry, Integer> entryIndex = new java.util.IdentityHashMap<>();
        java.util.Set<Integer> changedObjects = new java.util.TreeSet<>();
        long redo = redoPoint;
        long groupBytes = COMMIT_FRAME;
        for (int index = 0; index < entries.size(); index++) {
            WriteSet.Entry entry = entries.get(index);
            entryIndex.put(entry, index);
            if (entry.minimallyLogged()) {
                recordOf[index] = WRITTEN_RECORD;
                changedObjects.add(entry.objectId());
                continue;
            }
            if (!entry.resident()) {
                continue;
            }
            LogRecord record = pageRecord(entry, redo);
            if (record == null) {
                recordOf[index] = -1;
                continue;
            }
            recordOf[index] = inMemory.size();
            inMemory.add(record);
            groupBytes += WriteAheadLog.frameSize(record);
            changedObjects.add(entry.objectId());
        }
        List<WriteSet.Entry> spilled = writes.spilledInSlotOrder();
        for (int position = 0; position < spilled.size(); position++) {
            WriteSet.Entry entry = spilled.get(position);
            recordOf[entryIndex.get(entry)] = inMemory.size() + position;
            groupBytes += IMAGE_FRAME;
            changedObjects.add(entry.objectId());
        }
        long[] installLsns = new long[entries.size()];
        int recordCount = inMemory.size() + spilled.size();
        if (recordCount == 0 && !minimallyLogged) {
            java.util.Arrays.fill(installLsns, WriteSet.UNCHANGED);
            writes.install(installLsns);
            return 0;
        }
        LogRecord commit = new LogRecord.Commit(transaction.id(), nowMicros());
        long[] lsns = new long[recordCount + 1];
        long commitLsn;
        try {
            commitLsn = log.append(recordCount + 1, groupBytes, index -> {
                if (index < inMemory.size()) {
                    return inMemory.get(index);
                }
                if (index < recordCount) {
                    int position = index - inMemory.size();
                    return new LogRecord.PageImage(spilled.get(position).pageId(), writes.spilledImage(spilled, position));
                }
                return commit;
            }, lsns);
        } catch (RuntimeException e) {
            writes.close();
            allocator.forgetHints();
            throw e;
        }
        for (int index = 0; index < entries.size(); index++) {
            installLsns[index] = recordOf[index] == WRITTEN_RECORD ? WriteSet.WRITTEN
                    : recordOf[index] < 0 ? WriteSet.UNCHANGED : lsns[recordOf[index]];
        }
        int[] objectIds = changedObjects.stream().mapToInt(Integer::intValue).toArray();
        try (ObjectLocks.Lease ignored = locks.exclusive(objectIds)) {
            writes.install(installLsns);
        } catch (RuntimeException e) {
            // The commit is in the log but not every page is installed: only recovery can say what the
            // database holds now.
            failure = new ColumbaException(ErrorCode.IO_ERROR, "transaction " + transaction.id() + " was logged but its"
                    + " pages could not all be installed; the database refuses further writes until it is reopened ("
                    + e.getMessage() + ")", e);
            throw failure;
        }
        return commitLsn;
    }

    void rollback(Transaction transaction) {
        try {
            transaction.writeSet().close();
            allocator.forgetHints();
        } finally {
            writerTurn.release();
        }
    }

    private void checkHealthy() {
        ColumbaException current = failure;
        if (current != null) {
            throw new ColumbaException(current.errorCode(), current.getMessage(), current);
        }
    }

    /**
     * The redo record of one changed page: a full image when the page is new or its committed
     * version predates the redo point, else the changed byte ranges. The checksum and LSN fields
     * are left out of deltas: the page's LSN is set when the record is applied, its checksum when it
     * is written. Null when the copy ended up identical to its base: nothing to log.
     */
    static LogRecord pageRecord(WriteSet.Entry entry, long redoPoint) {
        MemorySegment copy = entry.page();
        MemorySegment base = entry.basePage();
        long pageId = entry.pageId();
        if (base == null || Page.lsn(base) < redoPoint) {
            return new LogRecord.PageImage(pageId, copy.toArray(ValueLayout.JAVA_BYTE));
        }
        List<LogRecord.PageDelta.Range> ranges = new ArrayList<>();
        int offset = PageFormat.TYPE_OFFSET;
        int end = PageFormat.PAGE_SIZE;
        while (offset < end) {
            long mismatch = MemorySegment.mismatch(copy, offset, end, base, offset, end);
            if (mismatch < 0) {
                break;
            }
            int start = offset + (int) mismatch;
            // Extend the range while differences are closer than the merge gap.
            int rangeEnd = start + 1;
            while (rangeEnd < end) {
                int probeEnd = Math.min(end, rangeEnd + DELTA_MERGE_GAP);
                long next = MemorySegment.mismatch(copy, rangeEnd, probeEnd, base, rangeEnd, probeEnd);
                if (next < 0) {
                    break;
                }
                rangeEnd = rangeEnd + (int) next + 1;
            }
            addRange(ranges, copy, start, rangeEnd);
            offset = rangeEnd;
        }
        return ranges.isEmpty() ? null : new LogRecord.PageDelta(pageId, ranges);
    }

    /** Adds {@code [start, end)} of the page, leaving out the LSN field. */
    private static void addRange(List<LogRecord.PageDelta.Range> ranges, MemorySegment page, int start, int end) {
        int lsnStart = PageFormat.LSN_OFFSET;
        int lsnEnd = PageFormat.LSN_OFFSET + 8;
        if (start < lsnStart) {
            addPlain(ranges, page, start, Math.min(end, lsnStart));
        }
        if (end > lsnEnd) {
            addPlain(ranges, page, Math.max(start, lsnEnd), end);
        }
    }

    private static void addPlain(List<LogRecord.PageDelta.Range> ranges, MemorySegment page, int start, int end) {
        if (end > start) {
            ranges.add(new LogRecord.PageDelta.Range(start, page.asSlice(start, end - start).toArray(ValueLayout.JAVA_BYTE)));
        }
    }

    private static long nowMicros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }
}
