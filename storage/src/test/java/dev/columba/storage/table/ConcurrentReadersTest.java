package dev.columba.storage.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.ObjectLocks;
import dev.columba.storage.txn.Transaction;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers scanning a table on real threads while the writer commits transactions that delete
 * rows and insert new ones at the other end of the key range, freeing and splitting pages: every
 * scan must see a consistent table (the same row count and the same total), because a statement
 * holds its table shared and a commit installs its pages only when no statement reads them. A
 * small pool keeps pages moving in and out. Replay with {@code -Dcolumba.seed=<seed>}.
 */
class ConcurrentReadersTest {
    private static final int ROWS = 4000;
    private static final long BALANCE = 100;

    @TempDir
    Path directory;

    @Test
    void everyScanSeesAConsistentTableWhileTheWriterCommits() throws Exception {
        long seed = Long.getLong("columba.seed", System.nanoTime());
        System.out.println("ConcurrentReadersTest seed " + seed);
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", "4MB");
        try (Database database = Database.open(directory, settings, NativeFilesFacade.INSTANCE)) {
            TableSchema schema = TableSchema.of(Column.notNull("id", SqlType.INT), Column.notNull("balance", SqlType.BIGINT),
                    Column.notNull("pad", SqlType.varchar(200)));
            IoCounters counters = new IoCounters();
            TableStore table;
            try (Transaction transaction = database.begin()) {
                table = new Tables(database).createTable(transaction, "accounts", schema, List.of(0), true, Map.of());
                for (int id = 0; id < ROWS; id++) {
                    table.insert(transaction, new Object[] {id, BALANCE, "x".repeat(150)},
                            counters);
                }
                transaction.commit();
            }
            int objectId = table.definition().objectId();
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicLong scans = new AtomicLong();
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            List<Thread> readers = new ArrayList<>();
            for (int reader = 0; reader < 3; reader++) {
                ReadAheadOptions readAhead = reader == 0 ? ReadAheadOptions.OFF : new ReadAheadOptions(true, 64, 8);
                TableScan scan = reader == 2 ? TableScan.allocationOrder(readAhead) : TableScan.all(readAhead);
                readers.add(Thread.ofPlatform().name("reader-" + reader).start(() -> {
                    try {
                        do {
                            long rows = 0;
                            long total = 0;
                            try (ObjectLocks.Lease ignored = database.locks().shared(objectId);
                                 TableCursor cursor = table.scan(database.bufferPool(), scan.withProjection(1),
                                         new IoCounters())) {
                                while (cursor.next()) {
                                    rows++;
                                    total += (Long) cursor.row()[0];
                                }
                            }
                            if (rows != ROWS || total != ROWS * BALANCE) {
                                failures.add(Thread.currentThread().getName() + " saw " + rows + " rows totalling " + total);
                            }
                            scans.incrementAndGet();
                        } while (writing.get());
                    } catch (RuntimeException e) {
                        failures.add(Thread.currentThread().getName() + " failed: " + e);
                    }
                }));
            }
            Random random = new Random(seed);
            int nextId = ROWS;
            List<Integer> live = new ArrayList<>();
            for (int id = 0; id < ROWS; id++) {
                live.add(id);
            }
            try {
                for (int commit = 0; commit < 150; commit++) {
                    try (Transaction transaction = database.begin()) {
                        long moved = 0;
                        for (int change = 0; change < 40; change++) {
                            int victim = live.remove(random.nextInt(live.size() / 4));
                            Object[] row = table.get(transaction.writes(), new Object[] {victim}, counters);
                            moved += (Long) row[1];
                            table.delete(transaction, new Object[] {victim}, counters);
                        }
                        for (int change = 0; change < 40; change++) {
                            long balance = change == 39 ? moved : Math.min(moved, random.nextInt(2 * (int) BALANCE));
                            moved -= balance;
                            table.insert(transaction, 
                                    new Object[] {nextId, balance, "y".repeat(random.nextInt(200))}, counters);
                            live.add(nextId++);
                        }
                        transaction.commit();
                    }
                }
            } finally {
                writing.set(false);
                for (Thread reader : readers) {
                    reader.join();
                }
            }
            assertTrue(failures.isEmpty(), "seed " + seed + ": " + failures);
            assertTrue(scans.get() >= 3, "the readers ran");
            long total = 0;
            try (TableCursor cursor = table.scan(database.bufferPool(), TableScan.all(ReadAheadOptions.OFF), counters)) {
                while (cursor.next()) {
                    total += (Long) cursor.row()[1];
                }
            }
            assertEquals(ROWS * BALANCE, total);
        }
    }
}
