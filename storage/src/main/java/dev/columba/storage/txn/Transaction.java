package dev.columba.storage.txn;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.settings.CommitDurability;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.buffer.WriteSet;

/**
 * A write transaction. There is one at a time per database (the single writer): it changes private
 * copies of pages in its {@link WriteSet}, which commit logs and publishes and rollback drops.
 * Owned by the thread that began it; it must end with {@link #commit()} or {@link #rollback()}
 * ({@link #close()} rolls back an open transaction).
 */
public final class Transaction implements AutoCloseable {
    enum State { ACTIVE, COMMITTED, ROLLED_BACK }

    private final TransactionManager manager;
    private final long id;
    private final WriteSet writes;
    private final java.util.Map<Integer, Long> rowCountChanges = new java.util.TreeMap<>();
    /**
     * The change of the table changed last, not yet in {@link #rowCountChanges}: a statement
     * changes one table row by row, and merging each row into the map (an Integer and a Long boxed,
     * a tree walked) was 6% of a 1,000-row executeBatch's CPU.
     */
    private int pendingObjectId;
    private long pendingDelta;
    private boolean pending;
    private State state = State.ACTIVE;
    /** See {@link #closedDeltaRowgroup()}. */
    private boolean closedDeltaRowgroup;

    Transaction(TransactionManager manager, long id, WriteSet writes) {
        this.manager = manager;
        this.id = id;
        this.writes = writes;
    }

    public long id() {
        return id;
    }

    /** The transaction's pages: reads see its own changes. */
    public WriteSet writes() {
        checkActive();
        return writes;
    }

    /** The database's space manager, which allocations of this transaction go through. */
    public dev.columba.storage.alloc.Allocator allocator() {
        return manager.allocator();
    }

    /**
     * Logs the pages this transaction creates from now on minimally: they are written to the data
     * file and made durable before the commit record, and the log holds only the changes to pages
     * that existed (allocation maps, the catalog, a tree's root). For bulk loads into new space
     * (docs/design/storage.md, "Minimally logged bulk loads"). The caller checks the {@code minimal_logging}
     * setting.
     */
    public void logNewPagesMinimally() {
        checkActive();
        manager.enableMinimalLogging(this);
    }

    /**
     * Records that the transaction changed the row count of table {@code objectId} by {@code delta};
     * the catalog's count is updated with the commit (and not at all on rollback).
     */
    public void adjustRowCount(int objectId, long delta) {
        checkActive();
        if (pending && objectId != pendingObjectId) {
            foldPending();
        }
        pendingObjectId = objectId;
        pendingDelta += delta;
        pending = true;
    }

    private void foldPending() {
        if (pending) {
            rowCountChanges.merge(pendingObjectId, pendingDelta, Long::sum);
            pending = false;
            pendingDelta = 0;
        }
    }

    /** Row count changes by table object id, for the commit. */
    java.util.Map<Integer, Long> rowCountChanges() {
        foldPending();
        return rowCountChanges;
    }

    /**
     * Records that the transaction closed a columnstore delta rowgroup (it filled up), which the
     * tuple mover compresses once the transaction has committed.
     */
    public void noteClosedDeltaRowgroup() {
        closedDeltaRowgroup = true;
    }

    /**
     * Whether the transaction closed a delta rowgroup: only then has its commit work for the tuple
     * mover, whose round reads the whole catalog and every columnstore table's rowgroup directory.
     */
    public boolean closedDeltaRowgroup() {
        return closedDeltaRowgroup;
    }

    /** Counters for reads the transaction makes on its own behalf (allocation maps, catalog). */
    public IoCounters systemCounters() {
        return manager.systemCounters();
    }

    public boolean isActive() {
        return state == State.ACTIVE;
    }

    /**
     * Makes the changes durable and visible. Returns once the commit record is on stable storage.
     *
     * @return the commit LSN (0 if the transaction changed nothing)
     */
    public long commit() {
        return commit(CommitDurability.FULL);
    }

    /**
     * Makes the changes visible, and durable before returning ({@link CommitDurability#FULL}) or
     * within a few milliseconds after ({@link CommitDurability#DELAYED}; docs/design/storage.md,
     * "Delayed durability").
     *
     * @return the commit LSN (0 if the transaction changed nothing)
     */
    public long commit(CommitDurability durability) {
        checkActive();
        try {
            return manager.commit(this, durability);
        } finally {
            state = State.COMMITTED;
        }
    }

    /** Drops every change. */
    public void rollback() {
        if (state != State.ACTIVE) {
            return;
        }
        state = State.ROLLED_BACK;
        manager.rollback(this);
    }

    private void checkActive() {
        if (state != State.ACTIVE) {
            throw new ColumbaException(ErrorCode.TRANSACTION_STATE, "transaction " + id + " is " + state);
        }
    }

    WriteSet writeSet() {
        return writes;
    }

    @Override
    public void close() {
        rollback();
    }
}
