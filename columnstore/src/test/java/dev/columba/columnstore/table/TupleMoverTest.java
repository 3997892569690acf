package dev.columba.columnstore.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.scan.ColumnstoreScan;
import dev.columba.columnstore.scan.ScanOptions;
import dev.columba.core.batch.Batch;
import dev.columba.core.stats.IoCounters;
import dev.columba.datagen.TestTableGenerator;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.ObjectLocks;
import dev.columba.storage.txn.Transaction;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tuple mover against real concurrent readers: a scan that started before the compression sees
 * the delta rows, exactly, and the compression's commit waits for it; a scan after sees the
 * compressed rows, exactly. Interleavings are forced with latches and the lock's queue, not sleeps.
 */
class TupleMoverTest {
    private static final int ROWS = 15_000;

    @TempDir
    Path directory;

    private static long countAndSum(ColumnstoreTable table, Database database, RootAllocator allocator, long[] sum,
                                    Runnable afterFirstBatch) {
        long rows = 0;
        try (ColumnstoreScan scan = new ColumnstoreScan(table, database.bufferPool(),
                ScanOptions.all(table.schema().size()).withProjection(0).withBatchSize(1000), new IoCounters(), allocator)) {
            Batch batch;
            boolean first = true;
            while ((batch = scan.next()) != null) {
                org.apache.arrow.vector.IntVector ids = (org.apache.arrow.vector.IntVector) batch.column(0);
                for (int index = 0; index < batch.selectedCount(); index++) {
                    sum[0] += ids.get(batch.selectedRow(index));
                }
                rows += batch.selectedCount();
                if (first) {
                    first = false;
                    afterFirstBatch.run();
                }
            }
        }
        return rows;
    }

    @Test
    void readersBeforeDuringAndAfterCompressionSeeEveryCommittedRowOnce() throws Exception {
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", "32MB");
        try (Database database = Database.open(directory, settings, NativeFilesFacade.INSTANCE);
             RootAllocator allocator = new RootAllocator(1L << 30)) {
            TestTableGenerator generator = new TestTableGenerator(ROWS, 2);
            ColumnstoreTable table;
            try (Transaction transaction = database.begin()) {
                table = ColumnstoreTable.create(database, transaction, "t", generator.schema(),
                        Map.of("rowgroup_max_rows", "5000", "bulk_min_rows", "1000000"));
                table.bulkInsert(transaction, generator.rows());
                transaction.commit();
            }
            long expectedSum = (long) ROWS * (ROWS + 1) / 2;
            assertTrue(table.rowgroups(database.bufferPool(), new IoCounters()).stream()
                    .allMatch(entry -> entry.state() == RowgroupState.CLOSED));

            ObjectLocks locks = database.locks();
            CountDownLatch readerStarted = new CountDownLatch(1);
            CompletableFuture<long[]> before = CompletableFuture.supplyAsync(() -> {
                long[] sum = new long[1];
                try (ObjectLocks.Lease ignored = locks.shared(table.objectId())) {
                    long rows = countAndSum(table, database, allocator, sum, () -> {
                        readerStarted.countDown();
                        // Hold the scan open until the tuple mover's commit queues behind it.
                        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                        while (!locks.hasQueuedCommit(table.objectId()) && System.nanoTime() < deadline) {
                            Thread.onSpinWait();
                        }
                    });
                    return new long[] {rows, sum[0]};
                }
            });
            assertTrue(readerStarted.await(30, TimeUnit.SECONDS));
            TupleMover mover = new TupleMover(database, 1, TimeUnit.HOURS);
            assertEquals(3, mover.runOnce(), "three CLOSED rowgroups compressed");
            long[] early = before.get(30, TimeUnit.SECONDS);
            assertEquals(ROWS, early[0], "the reader that started before saw every row once");
            assertEquals(expectedSum, early[1]);

            assertTrue(table.rowgroups(database.bufferPool(), new IoCounters()).stream()
                    .allMatch(entry -> entry.state() == RowgroupState.COMPRESSED));
            long[] sum = new long[1];
            try (ObjectLocks.Lease ignored = locks.shared(table.objectId())) {
                assertEquals(ROWS, countAndSum(table, database, allocator, sum, () -> { }));
            }
            assertEquals(expectedSum, sum[0], "the reader after saw every row once");
        }
    }
}
