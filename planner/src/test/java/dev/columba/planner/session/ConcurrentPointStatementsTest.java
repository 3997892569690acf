package dev.columba.planner.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.type.SqlType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sessions on real threads running point selects and updates by key on one table at once, as the
 * oltp benchmark's clients do, every answer checked: an update changes two rows ({@code k} and
 * {@code k + PAIRS}) and two columns of each in one autocommit statement, so a reader must see
 * {@code a = b} in every row, an even {@code a} summed over a pair, and a row's value never going
 * back; at the end every row holds exactly the updates made to it. Statement-level consistency
 * comes from the table being held shared by each select (storage's {@code ObjectLocks}), the
 * memory of each statement from its own allocator; both are shared by the sessions. Replay with
 * {@code -Dcolumba.seed=<seed>}.
 */
class ConcurrentPointStatementsTest {
    private static final int PAIRS = 100;
    private static final int READERS = 4;
    private static final int WRITERS = 2;
    private static final int READS_PER_READER = 3000;
    private static final int UPDATES_PER_WRITER = 150;

    @TempDir
    Path directory;

    @Test
    void pointSelectsSeeWholeCommitsWhileUpdatesRunAndEveryUpdateLands() throws Exception {
        long seed = Long.getLong("columba.seed", System.nanoTime());
        System.out.println("ConcurrentPointStatementsTest seed " + seed);
        AtomicLongArray updatesOfPair = new AtomicLongArray(PAIRS + 1);
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        try (Engine engine = SessionRows.open(directory)) {
            try (Session setup = engine.openSession()) {
                setup.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, a BIGINT NOT NULL, b BIGINT NOT NULL)");
                setup.execute("INSERT INTO t SELECT generate_series, 0, 0 FROM generate_series(1, " + 2 * PAIRS + ")");
            }
            CyclicBarrier start = new CyclicBarrier(READERS + WRITERS);
            List<Thread> threads = new ArrayList<>();
            for (int reader = 0; reader < READERS; reader++) {
                SplittableRandom random = new SplittableRandom(seed + reader);
                threads.add(Thread.ofPlatform().name("reader-" + reader).start(() -> {
                    try (Session session = engine.openSession()) {
                        start.await();
                        long[] lastSeen = new long[2 * PAIRS + 1];
                        for (int read = 0; read < READS_PER_READER; read++) {
                            long key = 1 + random.nextInt(2 * PAIRS);
                            long[] row = selectRow(session, key);
                            if (row[0] != row[1]) {
                                throw new AssertionError("row " + key + " half updated: a " + row[0] + ", b " + row[1]);
                            }
                            if (row[0] < lastSeen[(int) key]) {
                                throw new AssertionError("row " + key + " went back from " + lastSeen[(int) key] + " to " + row[0]);
                            }
                            lastSeen[(int) key] = row[0];
                            if (read % 4 == 0) {
                                long pair = 1 + random.nextInt(PAIRS);
                                long sum = pairSum(session, pair);
                                if (sum % 2 != 0) {
                                    throw new AssertionError("pair " + pair + " seen half committed: sum " + sum);
                                }
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            for (int writer = 0; writer < WRITERS; writer++) {
                SplittableRandom random = new SplittableRandom(seed + READERS + writer);
                threads.add(Thread.ofPlatform().name("writer-" + writer).start(() -> {
                    try (Session session = engine.openSession()) {
                        start.await();
                        for (int update = 0; update < UPDATES_PER_WRITER; update++) {
                            long pair = 1 + random.nextInt(PAIRS);
                            long changed = ((StatementResult.Update) session.execute(
                                    "UPDATE t SET a = a + 1, b = b + 1 WHERE id = ? OR id = ?",
                                    List.of(pair, pair + PAIRS))).count();
                            if (changed != 2) {
                                throw new AssertionError("update of pair " + pair + " changed " + changed + " rows");
                            }
                            updatesOfPair.incrementAndGet((int) pair);
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            for (Thread thread : threads) {
                thread.join();
            }
            if (!failures.isEmpty()) {
                AssertionError failure = new AssertionError("seed " + seed + ": " + failures.size() + " threads failed",
                        failures.peek());
                failures.stream().skip(1).forEach(failure::addSuppressed);
                throw failure;
            }
            try (Session check = engine.openSession()) {
                long total = 0;
                for (long pair = 1; pair <= PAIRS; pair++) {
                    long expected = updatesOfPair.get((int) pair);
                    total += expected;
                    for (long key : new long[] {pair, pair + PAIRS}) {
                        long[] row = selectRow(check, key);
                        assertEquals(expected, row[0], "a of row " + key + ", seed " + seed);
                        assertEquals(expected, row[1], "b of row " + key + ", seed " + seed);
                    }
                }
                assertEquals((long) WRITERS * UPDATES_PER_WRITER, total);
            }
        }
    }

    /** Row {@code key}'s a and b, through a statement with a parameter (the prepared path). */
    private static long[] selectRow(Session session, long key) {
        List<long[]> rows = new ArrayList<>();
        try (StatementResult.Rows result = (StatementResult.Rows) session.execute("SELECT a, b FROM t WHERE id = ?",
                List.of(key))) {
            for (Batch batch = result.next(); batch != null; batch = result.next()) {
                for (int index = 0; index < batch.selectedCount(); index++) {
                    int row = batch.selectedRow(index);
                    rows.add(new long[] {(Long) VectorValues.get(batch.column(0), row, SqlType.BIGINT),
                            (Long) VectorValues.get(batch.column(1), row, SqlType.BIGINT)});
                }
            }
        }
        if (rows.size() != 1) {
            throw new AssertionError("key " + key + " found " + rows.size() + " times");
        }
        return rows.getFirst();
    }

    private static long pairSum(Session session, long pair) {
        try (StatementResult.Rows result = (StatementResult.Rows) session.execute(
                "SELECT SUM(a) FROM t WHERE id = ? OR id = ?", List.of(pair, pair + PAIRS))) {
            long sum = 0;
            int rows = 0;
            for (Batch batch = result.next(); batch != null; batch = result.next()) {
                for (int index = 0; index < batch.selectedCount(); index++) {
                    sum += ((Number) VectorValues.get(batch.column(0), batch.selectedRow(index),
                            result.schema().column(0).type())).longValue();
                    rows++;
                }
            }
            if (rows != 1) {
                throw new AssertionError("SUM over pair " + pair + " gave " + rows + " rows");
            }
            return sum;
        }
    }
}
