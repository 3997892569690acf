package dev.columba.storage.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.settings.CommitDurability;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.table.TableCursor;
import dev.columba.storage.table.TableScan;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import dev.columba.storage.txn.Transaction;
import dev.columba.storage.txn.TransactionManager;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Delayed commits (docs/design/storage.md, "Delayed durability") in one process: what a power
 * loss keeps, the explicit flush, and the flusher. A power loss is simulated by copying the
 * database while it is open and cutting the copy's log anywhere between what was synced and what
 * was written: the operating system may have written any prefix of the unsynced tail before the
 * machine died (a later page without an earlier one is a damaged log, which recovery refuses, as
 * for any torn write; {@code LogCorruptionTest}). The log's syncs are held back by a hand-written
 * facade while the delayed commits to lose are made. Replay a failure with
 * {@code -Dcolumba.seed=<seed>}.
 */
@Timeout(300)
class DelayedDurabilityTest {
    private static final String ROWS = "rows";
    private static final String TRANSACTIONS = "transactions";

    @TempDir
    Path temporary;

    @Test
    void aPowerLossKeepsAPrefixOfTheCommitsEachWholeAndEveryFullCommit() throws Exception {
        long seed = Long.getLong("columba.seed", System.nanoTime());
        System.out.println("DelayedDurabilityTest seed " + seed);
        Random random = new Random(seed);
        Path original = temporary.resolve("original");
        Path copy = temporary.resolve("copy");
        HeldLogSyncs files = new HeldLogSyncs();
        IoCounters counters = new IoCounters();
        Map<Long, Long> commitLsns = new TreeMap<>();
        Map<Long, Integer> rowsOf = new TreeMap<>();
        long lastFull = 0;
        long cut;
        try (Database database = Database.open(original, new Properties(), files)) {
            Tables tables = new Tables(database);
            TableStore rows;
            TableStore transactions;
            try (Transaction create = database.begin()) {
                rows = tables.createTable(create, ROWS, TableSchema.of(Column.notNull("id", SqlType.BIGINT),
                        Column.notNull("txn", SqlType.BIGINT), Column.notNull("payload", SqlType.varchar(200))),
                        List.of(0), true, Map.of());
                transactions = tables.createTable(create, TRANSACTIONS, TableSchema.of(
                        Column.notNull("txn", SqlType.BIGINT), Column.notNull("row_count", SqlType.INT)),
                        List.of(0), true, Map.of());
                create.commit();
            }
            long txn = 0;
            // Durable and delayed commits mixed, the log synced as usual.
            for (int index = 0; index < 40; index++) {
                txn++;
                CommitDurability durability = index == 0 || random.nextInt(3) == 0 ? CommitDurability.FULL : CommitDurability.DELAYED;
                commitLsns.put(txn, write(database, rows, transactions, txn, 1 + random.nextInt(12), durability, rowsOf,
                        counters));
                if (durability == CommitDurability.FULL) {
                    lastFull = txn;
                    assertTrue(database.log().durableLsn() >= commitLsns.get(txn), "a full commit returns durable");
                }
            }
            // Then delayed commits while no sync completes: the flusher's sync is held inside fdatasync.
            files.hold();
            for (int index = 0; index < 30; index++) {
                txn++;
                commitLsns.put(txn, write(database, rows, transactions, txn, 1 + random.nextInt(12),
                        CommitDurability.DELAYED, rowsOf, counters));
            }
            long durable = database.log().durableLsn();
            long end = database.log().endLsn();
            assertTrue(durable < end, "delayed commits returned before they were synced");
            cut = durable + (long) (random.nextDouble() * (end - durable + 1));
            cut = Math.min(cut, end);
            copyDatabase(original, copy, database.log().segmentStartLsns().getLast(), cut);
            files.release();
        }
        Map<Long, Integer> expected = new TreeMap<>();
        for (Map.Entry<Long, Long> commit : commitLsns.entrySet()) {
            if (commit.getValue() <= cut) {
                expected.put(commit.getKey(), rowsOf.get(commit.getKey()));
            }
        }
        String context = "seed " + seed + ", log cut at " + cut;
        assertTrue(commitLsns.get(lastFull) <= cut, "the cut lies after every full commit: " + context);
        assertEquals(expected, recovered(copy, counters), "exactly the commits up to the cut, each whole: " + context);
        assertEquals(rowsOf, recovered(original, counters), "closing made every delayed commit durable");
    }

    @Test
    void flushLogMakesDelayedCommitsDurableAndCountsThem() {
        HeldLogSyncs files = new HeldLogSyncs();
        IoCounters counters = new IoCounters();
        try (Database database = Database.open(temporary.resolve("db"), new Properties(), files)) {
            TableStore table;
            try (Transaction create = database.begin()) {
                table = new Tables(database).createTable(create, ROWS, TableSchema.of(Column.notNull("id", SqlType.BIGINT)),
                        List.of(0), true, Map.of());
                create.commit();
            }
            TransactionManager.CommitCounters before = database.transactions().commitCounters();
            files.hold();
            long lsn;
            try (Transaction delayed = database.begin()) {
                table.insert(delayed, new Object[] {1L}, counters);
                lsn = delayed.commit(CommitDurability.DELAYED);
            }
            assertTrue(database.log().durableLsn() < lsn);
            TransactionManager.CommitCounters after = database.transactions().commitCounters();
            assertEquals(1, after.delayed() - before.delayed());
            assertEquals(0, after.full() - before.full());
            files.release();
            database.flushLog();
            assertTrue(database.log().durableLsn() >= lsn, "flushLog returns once the delayed commit is durable");
        }
    }

    private static long write(Database database, TableStore rows, TableStore transactions, long txn, int rowCount,
                              CommitDurability durability, Map<Long, Integer> rowsOf, IoCounters counters) {
        try (Transaction transaction = database.begin()) {
            for (int row = 0; row < rowCount; row++) {
                rows.insert(transaction, new Object[] {txn * 100 + row, txn, "row " + row + " of " + txn}, counters);
            }
            transactions.insert(transaction, new Object[] {txn, rowCount}, counters);
            long lsn = transaction.commit(durability);
            rowsOf.put(txn, rowCount);
            return lsn;
        }
    }

    /** Reopens (recovering) and returns each transaction's row count, checking each transaction whole. */
    private static Map<Long, Integer> recovered(Path directory, IoCounters counters) {
        Map<Long, Integer> found = new TreeMap<>();
        try (Database database = Database.open(directory, new Properties(), NativeFilesFacade.INSTANCE)) {
            Tables tables = new Tables(database);
            TableStore rows = tables.find(database.bufferPool(), ROWS, counters).orElseThrow();
            TableStore transactions = tables.find(database.bufferPool(), TRANSACTIONS, counters).orElseThrow();
            Map<Long, Integer> rowCounts = new TreeMap<>();
            try (TableCursor cursor = rows.scan(database.bufferPool(), TableScan.all(ReadAheadOptions.OFF), counters)) {
                while (cursor.next()) {
                    Object[] row = cursor.row();
                    long txn = (Long) row[1];
                    assertEquals("row " + ((Long) row[0] - txn * 100) + " of " + txn, row[2]);
                    rowCounts.merge(txn, 1, Integer::sum);
                }
            }
            try (TableCursor cursor = transactions.scan(database.bufferPool(), TableScan.all(ReadAheadOptions.OFF),
                    counters)) {
                while (cursor.next()) {
                    Object[] row = cursor.row();
                    found.put((Long) row[0], (Integer) row[1]);
                }
            }
            assertEquals(found, rowCounts, "every transaction's rows are there whole, or not at all");
            TreeSet<Long> ids = new TreeSet<>(found.keySet());
            assertEquals(ids.isEmpty() ? 0 : ids.last(), ids.size(), "a prefix of the commit order: " + ids);
        }
        return found;
    }

    /** Copies the open database's files, the last log segment cut at {@code cutLsn}. */
    private static void copyDatabase(Path from, Path to, long lastSegmentStart, long cutLsn) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path path : paths.toList()) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else if (!path.getFileName().toString().equals(Database.LOCK_FILE)) {
                    Files.copy(path, target);
                }
            }
        }
        Path segment;
        try (Stream<Path> segments = Files.list(DatabaseLayout.logDirectory(to))) {
            // Segment files are named by their start LSN in fixed-width hexadecimal: the last sorts last.
            segment = segments.max(java.util.Comparator.comparing(path -> path.getFileName().toString())).orElseThrow();
        }
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            channel.truncate(cutLsn - lastSegmentStart);
        }
    }

    /**
     * The native facade, except that while held, every sync of a log segment blocks until released:
     * what is appended meanwhile stays unsynced. The data file is never synced while held here (no
     * checkpoint, no eviction of a page the log has not covered).
     */
    private static final class HeldLogSyncs implements FilesFacade {
        private volatile CountDownLatch held = new CountDownLatch(0);

        void hold() {
            held = new CountDownLatch(1);
        }

        void release() {
            held.countDown();
        }

        @Override
        public FileHandle open(Path path, OpenMode mode, boolean direct) {
            FileHandle file = NativeFilesFacade.INSTANCE.open(path, mode, direct);
            if (!path.getParent().getFileName().toString().equals(DatabaseLayout.WAL_DIRECTORY)) {
                return file;
            }
            return new FileHandle() {
                @Override
                public Path path() {
                    return file.path();
                }

                @Override
                public long size() {
                    return file.size();
                }

                @Override
                public long read(long offset, MemorySegment target) {
                    return file.read(offset, target);
                }

                @Override
                public long readScatter(long offset, MemorySegment[] targets) {
                    return file.readScatter(offset, targets);
                }

                @Override
                public void write(long offset, MemorySegment source) {
                    file.write(offset, source);
                }

                @Override
                public void force(boolean metadata) {
                    CountDownLatch latch = held;
                    while (latch.getCount() > 0) {
                        try {
                            latch.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new IllegalStateException("interrupted while a log sync was held", e);
                        }
                    }
                    file.force(metadata);
                }

                @Override
                public void truncate(long size) {
                    file.truncate(size);
                }

                @Override
                public void allocate(long offset, long length) {
                    file.allocate(offset, length);
                }

                @Override
                public void advise(long offset, long length, Advice advice) {
                    file.advise(offset, length, advice);
                }

                @Override
                public boolean direct() {
                    return file.direct();
                }

                @Override
                public int descriptor() {
                    return file.descriptor();
                }

                @Override
                public void close() {
                    file.close();
                }
            };
        }

        @Override
        public void syncDirectory(Path directory) {
            NativeFilesFacade.INSTANCE.syncDirectory(directory);
        }
    }
}
