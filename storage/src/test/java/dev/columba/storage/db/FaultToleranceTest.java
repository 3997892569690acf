package dev.columba.storage.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.io.FaultInjectingFilesFacade;
import dev.columba.storage.io.FaultInjectingFilesFacade.Failure;
import dev.columba.storage.io.FaultInjectingFilesFacade.Operation;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import dev.columba.storage.txn.Transaction;
import dev.columba.storage.wal.WriteAheadLog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A full disk at commit, and commits from many threads sharing fsyncs. */
class FaultToleranceTest {
    private static final TableSchema SCHEMA = TableSchema.of(Column.notNull("id", SqlType.INT),
            Column.notNull("v", SqlType.varchar(100)));

    @TempDir
    Path directory;

    private static Properties settings() {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "8MB");
        return properties;
    }

    @Test
    void aFullDiskAtCommitLosesThatTransactionOnlyAndTheDatabaseCarriesOn() {
        FaultInjectingFilesFacade files = new FaultInjectingFilesFacade(NativeFilesFacade.INSTANCE);
        IoCounters counters = new IoCounters();
        try (Database database = Database.open(directory, settings(), files)) {
            Tables tables = new Tables(database);
            TableStore table;
            try (Transaction transaction = database.begin()) {
                table = tables.createTable(transaction, "t", SCHEMA, List.of(0), true, Map.of());
                for (int id = 0; id < 100; id++) {
                    table.insert(transaction, new Object[] {id, "committed"}, counters);
                }
                transaction.commit();
            }
            files.failNth(Operation.WRITE, 1, ".*\\.wal", Failure.DISK_FULL);
            try (Transaction transaction = database.begin()) {
                for (int id = 100; id < 200; id++) {
                    table.insert(transaction, new Object[] {id, "lost"}, counters);
                }
                ColumbaException error = assertThrows(ColumbaException.class, transaction::commit);
                assertEquals(ErrorCode.DISK_FULL, error.errorCode());
                assertEquals("53100", error.errorCode().sqlState());
            }
            assertNull(table.get(database.bufferPool(), new Object[] {150}, counters), "the failed commit is not visible");
            try (Transaction transaction = database.begin()) {
                table.insert(transaction, new Object[] {300, "after"}, counters);
                transaction.commit();
            }
        }
        try (Database database = Database.open(directory, settings(), NativeFilesFacade.INSTANCE)) {
            TableStore table = new Tables(database).table(database.bufferPool(), "t", counters);
            for (int id = 0; id < 100; id++) {
                assertNotNull(table.get(database.bufferPool(), new Object[] {id}, counters), "committed row " + id);
            }
            assertNull(table.get(database.bufferPool(), new Object[] {150}, counters));
            assertNotNull(table.get(database.bufferPool(), new Object[] {300}, counters));
        }
    }

    @Test
    void concurrentCommittersShareFsyncs() throws Exception {
        IoCounters counters = new IoCounters();
        try (Database database = Database.open(directory, settings(), NativeFilesFacade.INSTANCE)) {
            TableStore table;
            try (Transaction transaction = database.begin()) {
                table = new Tables(database).createTable(transaction, "t", SCHEMA, List.of(0), true, Map.of());
                transaction.commit();
            }
            WriteAheadLog.Counters before = database.log().counters();
            int threads = 8;
            int commitsPerThread = 40;
            CyclicBarrier start = new CyclicBarrier(threads);
            AtomicInteger failures = new AtomicInteger();
            List<Thread> workers = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                int base = thread * 1000;
                workers.add(Thread.ofPlatform().start(() -> {
                    try {
                        start.await();
                        for (int commit = 0; commit < commitsPerThread; commit++) {
                            try (Transaction transaction = database.begin()) {
                                table.insert(transaction, 
                                        new Object[] {base + commit, "row"}, new IoCounters());
                                transaction.commit();
                            }
                        }
                    } catch (Exception e) {
                        failures.incrementAndGet();
                    }
                }));
            }
            for (Thread worker : workers) {
                worker.join();
            }
            assertEquals(0, failures.get());
            WriteAheadLog.Counters after = database.log().counters();
            long commits = threads * commitsPerThread;
            long syncs = after.syncs() - before.syncs();
            assertEquals(commits, after.groups() - before.groups(), "one log group per commit");
            assertTrue(syncs < commits, "group commit: " + syncs + " fsyncs for " + commits + " commits");
            System.out.println("group commit: " + syncs + " fsyncs for " + commits + " commits");
            for (int thread = 0; thread < threads; thread++) {
                for (int commit = 0; commit < commitsPerThread; commit++) {
                    assertNotNull(table.get(database.bufferPool(), new Object[] {thread * 1000 + commit}, counters));
                }
            }
        }
    }
}
