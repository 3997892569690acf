package dev.columba.columnstore.table;

import dev.columba.columnstore.build.TrimReason;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.db.Database;
import dev.columba.storage.txn.Transaction;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The tuple mover: compresses CLOSED delta rowgroups of every columnstore table of a database,
 * one rowgroup per write transaction. It runs on a background thread that wakes when asked
 * ({@link #wake()}, after inserts close a delta rowgroup) or every {@code interval}, and can be
 * run synchronously ({@link #runOnce()}). Each compression holds the writer for its duration
 * (SQL Server's tuple mover takes locks too); readers go on, and see the delta rowgroup or its
 * compressed replacement, never both.
 */
public final class TupleMover implements AutoCloseable {
    private final Database database;
    private final long intervalNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wakeUp = lock.newCondition();
    private boolean woken;
    private volatile boolean running;
    private volatile RuntimeException lastFailure;
    private Thread thread;
    private long compressed;
    private long backgroundRounds;

    public TupleMover(Database database, long interval, TimeUnit unit) {
        this.database = database;
        this.intervalNanos = unit.toNanos(interval);
    }

    /** Starts the background thread. */
    public synchronized void start() {
        if (thread != null) {
            return;
        }
        running = true;
        thread = Thread.ofPlatform().daemon().name("columba-tuple-mover").start(this::loop);
    }

    /** Asks the background thread to look for CLOSED rowgroups now. */
    public void wake() {
        lock.lock();
        try {
            woken = true;
            wakeUp.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void loop() {
        while (running) {
            lock.lock();
            try {
                long remaining = intervalNanos;
                while (!woken && running && remaining > 0) {
                    remaining = wakeUp.awaitNanos(remaining);
                }
                woken = false;
            } catch (InterruptedException e) {
                return;
            } finally {
                lock.unlock();
            }
            if (!running) {
                return;
            }
            try {
                runOnce();
                lastFailure = null;
                synchronized (this) {
                    backgroundRounds++;
                }
            } catch (RuntimeException e) {
                // Nobody waits on this thread: the failure is logged and shown in sys.event_log; the next round tries again.
                lastFailure = e;
                database.events().record(System.Logger.Level.ERROR, "tuple-mover",
                        "compressing closed delta rowgroups failed; the next round tries again", e);
            }
        }
    }

    /** The error of the last background round, or null if it succeeded. */
    public RuntimeException lastFailure() {
        return lastFailure;
    }

    /** Rounds the background thread has finished (woken, or at its interval). */
    public synchronized long backgroundRounds() {
        return backgroundRounds;
    }

    /** Rowgroups compressed by this mover so far. */
    public synchronized long compressedRowgroups() {
        return compressed;
    }

    /** Compresses every CLOSED delta rowgroup now; returns how many. */
    public int runOnce() {
        int count = 0;
        IoCounters counters = database.systemCounters();
        List<ColumnstoreTable> tables = new ArrayList<>();
        for (CatalogEntry entry : database.catalog().entries(database.bufferPool(), counters)) {
            if (entry instanceof CatalogEntry.Table table && table.organization() == CatalogEntry.Organization.COLUMNSTORE) {
                tables.add(ColumnstoreTable.open(database, table));
            }
        }
        for (ColumnstoreTable table : tables) {
            for (RowgroupEntry entry : table.rowgroups(database.bufferPool(), counters)) {
                if (entry.state() != RowgroupState.CLOSED) {
                    continue;
                }
                try (Transaction transaction = database.begin()) {
                    RowgroupEntry current = table.rowgroup(transaction.writes(), entry.rowgroupId(), counters).orElse(null);
                    if (current == null || current.state() != RowgroupState.CLOSED) {
                        continue;
                    }
                    table.compressDelta(transaction, entry.rowgroupId(), TrimReason.NO_TRIM);
                    transaction.commit();
                    count++;
                }
            }
        }
        synchronized (this) {
            compressed += count;
        }
        return count;
    }

    @Override
    public void close() {
        running = false;
        wake();
        Thread current;
        synchronized (this) {
            current = thread;
            thread = null;
        }
        if (current != null) {
            try {
                current.join(TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
