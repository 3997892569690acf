package dev.columba.storage.wal;

import static dev.columba.storage.wal.LogFixtures.commit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The background flusher of delayed commits, with real threads and real {@code fdatasync}s. Its
 * syncs are observed through a hook inside the sync (a sync point), never by timing; the class
 * timeout only guards against a hang.
 */
@Timeout(120)
class LogFlusherTest {
    private static final long MEGABYTE = 1 << 20;
    /** Long enough that the flusher never fires in a test that does not wait for it. */
    private static final long NEVER = TimeUnit.HOURS.toNanos(1);

    @TempDir
    Path temporary;

    @Test
    void aRequestedFlushSyncsEverythingAppendedBeforeIt() throws Exception {
        FaultInjectingFiles files = new FaultInjectingFiles();
        try (WriteAheadLog log = WriteAheadLog.open(files, temporary.resolve("wal"), MEGABYTE);
             LogFlusher flusher = new LogFlusher(log, 1_000_000, failure -> { })) {
            long first = log.append(List.of(commit(1)));
            long second = log.append(List.of(commit(2)));
            assertTrue(log.durableLsn() < first, "appends alone are not durable");
            CountDownLatch synced = new CountDownLatch(1);
            files.beforeForce(synced::countDown);
            flusher.requestFlush();
            flusher.requestFlush();
            assertTrue(synced.await(60, TimeUnit.SECONDS), "the flusher synced");
            // The sync hook runs before fdatasync returns: wait for the flusher to record it.
            while (log.durableLsn() < second) {
                Thread.onSpinWait();
            }
            assertEquals(log.endLsn(), log.durableLsn());
            assertEquals(2, flusher.counters().requests());
        }
    }

    @Test
    void nothingIsSyncedBeforeTheIntervalUnlessAskedAndCloseDoesNotFlush() {
        FaultInjectingFiles files = new FaultInjectingFiles();
        try (WriteAheadLog log = WriteAheadLog.open(files, temporary.resolve("wal"), MEGABYTE)) {
            long syncsBefore = log.counters().syncs();
            long lsn;
            try (LogFlusher flusher = new LogFlusher(log, NEVER, failure -> { })) {
                lsn = log.append(List.of(commit(1)));
                flusher.requestFlush();
                assertTrue(log.durableLsn() < lsn);
            }
            assertEquals(syncsBefore, log.counters().syncs(), "the flusher stopped without syncing");
            assertTrue(log.durableLsn() < lsn);
            log.flush(lsn);
            assertEquals(lsn, log.durableLsn());
        }
    }

    @Test
    void aFailedSyncIsReportedAndTheLogRefusesLaterAppends() throws Exception {
        FaultInjectingFiles files = new FaultInjectingFiles();
        try (WriteAheadLog log = WriteAheadLog.open(files, temporary.resolve("wal"), MEGABYTE)) {
            AtomicReference<RuntimeException> reported = new AtomicReference<>();
            CountDownLatch failed = new CountDownLatch(1);
            try (LogFlusher flusher = new LogFlusher(log, 1_000_000, failure -> {
                reported.set(failure);
                failed.countDown();
            })) {
                log.append(List.of(commit(1)));
                files.failForce(0);
                flusher.requestFlush();
                assertTrue(failed.await(60, TimeUnit.SECONDS), "the failure was reported");
            }
            assertTrue(reported.get() != null);
            assertThrows(RuntimeException.class, () -> log.append(List.of(commit(2))));
        }
    }

    @Test
    void anIntervalMustBePositive() {
        FaultInjectingFiles files = new FaultInjectingFiles();
        try (WriteAheadLog log = WriteAheadLog.open(files, temporary.resolve("wal"), MEGABYTE)) {
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                    () -> new LogFlusher(log, 0, failure -> { }));
            assertEquals("the flush interval must be positive, got 0 ns", error.getMessage());
        }
    }
}
