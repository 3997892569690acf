package dev.columba.storage.db;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.buffer.BufferPool;
import dev.columba.storage.buffer.PageRef;
import dev.columba.storage.buffer.WriteSet;
import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.wal.LogEntry;
import dev.columba.storage.wal.LogReader;
import dev.columba.storage.wal.LogRecord;
import dev.columba.storage.wal.WriteAheadLog;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Redo recovery. The log holds only transactions that reached commit (see
 * {@link dev.columba.storage.txn.TransactionManager}): each group of page records is applied when
 * its commit record is reached; a trailing group without one was cut by the crash and is dropped.
 *
 * <p>Every page changed after the redo point has a full image as its first record there, so images
 * are applied without reading the page from disk (a torn page is simply overwritten), and a delta
 * always lands on the state its image or an earlier delta left. A delta whose page already carries
 * its LSN or a later one is skipped: the page reached disk after that change.
 *
 * <p>A group larger than the pool (a transaction that spilled) is applied in slices as it is read,
 * after reading ahead to its commit record: memory holds one slice of records, never the group.
 */
final class Recovery {
    record Result(int transactions, int applied, int skipped, int discarded, long maxTransactionId) {
        static final Result NONE = new Result(0, 0, 0, 0, 0);
    }

    private final BufferPool pool;
    private final WriteAheadLog log;
    private final int maxTransactionFrames;
    private final IoCounters counters;

    Recovery(BufferPool pool, WriteAheadLog log, int maxTransactionFrames, IoCounters counters) {
        this.pool = pool;
        this.log = log;
        this.maxTransactionFrames = maxTransactionFrames;
        this.counters = counters;
    }

    Result replay(long redoLsn) {
        int transactions = 0;
        int applied = 0;
        int skipped = 0;
        long maxTransactionId = 0;
        int slice = Math.max(1, maxTransactionFrames / 2);
        List<LogEntry> pending = new ArrayList<>();
        // Whether the group being read is known to end with its commit record, so that its records
        // may be applied before that record is reached.
        boolean groupEnds = false;
        try (LogReader reader = log.read(redoLsn)) {
            while (reader.hasNext()) {
                LogEntry entry = reader.next();
                switch (entry.record()) {
                    case LogRecord.PageImage ignored -> pending.add(entry);
                    case LogRecord.PageDelta ignored -> pending.add(entry);
                    case LogRecord.Commit commit -> {
                        int[] outcome = apply(pending);
                        applied += outcome[0];
                        skipped += outcome[1];
                        transactions++;
                        maxTransactionId = Math.max(maxTransactionId, commit.transactionId());
                        pending.clear();
                        groupEnds = false;
                    }
                    case LogRecord.Checkpoint ignored -> {
                        // Checkpoints only matter through the control file.
                    }
                }
                if (pending.size() >= slice) {
                    // A transaction larger than the pool: apply it in slices as it is read, once it is
                    // known to be whole, rather than holding it all in memory.
                    if (!groupEnds) {
                        checkGroupEndsWithCommit(entry.nextLsn());
                        groupEnds = true;
                    }
                    int[] outcome = apply(pending);
                    applied += outcome[0];
                    skipped += outcome[1];
                    pending.clear();
                }
            }
        }
        return new Result(transactions, applied, skipped, pending.size(), maxTransactionId);
    }

    /**
     * Reads on from {@code lsn} to the end of the group in progress, and fails unless it ends with a
     * commit record. Opening the log already cut a torn tail, so this fails only on damage.
     */
    private void checkGroupEndsWithCommit(long lsn) {
        try (LogReader reader = log.read(lsn)) {
            while (reader.hasNext()) {
                LogEntry entry = reader.next();
                if (entry.groupEnd()) {
                    if (entry.record() instanceof LogRecord.Commit) {
                        return;
                    }
                    break;
                }
            }
        }
        throw new ColumbaException(ErrorCode.WAL_CORRUPT, "the group of page records before LSN " + lsn + " in "
                + log.directory() + " does not end with a commit record");
    }

    /** Applies one committed transaction's page records; returns {applied, skipped}. */
    private int[] apply(List<LogEntry> records) {
        int applied = 0;
        int skipped = 0;
        int start = 0;
        // Large transactions are applied in slices that fit the transaction frame budget.
        while (start < records.size()) {
            int end = Math.min(records.size(), start + Math.max(1, maxTransactionFrames / 2));
            List<Long> lsns = new ArrayList<>();
            try (WriteSet writes = new WriteSet(pool, maxTransactionFrames, counters)) {
                for (LogEntry entry : records.subList(start, end)) {
                    switch (entry.record()) {
                        case LogRecord.PageImage image -> {
                            try (PageRef ref = writes.create(image.pageId())) {
                                MemorySegment.copy(image.image(), 0, ref.page(), ValueLayout.JAVA_BYTE, 0,
                                        PageFormat.PAGE_SIZE);
                            }
                            lsns.add(entry.lsn());
                            applied++;
                        }
                        case LogRecord.PageDelta delta -> {
                            boolean alreadyThere;
                            try (PageRef committed = writes.read(delta.pageId(), dev.columba.storage.buffer.Access.RANDOM,
                                    counters)) {
                                alreadyThere = !writes.isModified(delta.pageId()) && Page.lsn(committed.page()) >= entry.lsn();
                            }
                            if (alreadyThere) {
                                skipped++;
                                continue;
                            }
                            try (PageRef ref = writes.modify(delta.pageId(), counters)) {
                                for (LogRecord.PageDelta.Range range : delta.ranges()) {
                                    MemorySegment.copy(range.bytes(), 0, ref.page(), ValueLayout.JAVA_BYTE, range.offset(),
                                            range.bytes().length);
                                }
                            }
                            lsns.add(entry.lsn());
                            applied++;
                        }
                        default -> throw new IllegalStateException("not a page record: " + entry.record());
                    }
                }
                writes.install(lsns.stream().mapToLong(Long::longValue).toArray());
            }
            start = end;
        }
        return new int[] {applied, skipped};
    }
}
