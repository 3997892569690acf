package dev.columba.storage.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.stats.IoCounters;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.table.TableCursor;
import dev.columba.storage.table.TableScan;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import dev.columba.testing.crash.ChildJvm;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a child JVM ({@link DelayedDurabilityCrashWorkload}) with SIGKILL while it commits, two
 * delayed commits to one full one, again and again on the same database, and checks after every
 * reopen: each transaction is there whole or not at all; the transactions there are a prefix of the
 * commit order (1 to m); every full commit the child saw return is there; nothing is there beyond
 * the commit in flight at the kill. The contract allows delayed commits the child saw return to be
 * missing (the tail of the order), which a SIGKILL alone does not cause here: a delayed commit has
 * reached the operating system's page cache when it returns, and only a crash of the machine loses
 * that ({@link DelayedDurabilityTest} simulates one). Replay a failure with {@code -Dcolumba.seed=<seed>}.
 */
class DelayedDurabilityCrashTest {
    @TempDir
    Path directory;

    @Test
    void killedProcessKeepsAPrefixOfWholeTransactionsWithEveryFullCommit() throws Exception {
        long seed = Long.getLong("columba.seed", System.nanoTime());
        System.out.println("DelayedDurabilityCrashTest seed " + seed);
        Random random = new Random(seed);
        long recoveredBefore = 0;
        for (int round = 0; round < 5; round++) {
            int commits = 1 + random.nextInt(120);
            List<String> lines = runAndKill(commits);
            long lastPrinted = recoveredBefore;
            long lastFull = recoveredBefore;
            long lastDelayed = recoveredBefore;
            for (String line : lines) {
                long txn = Long.parseLong(line.substring(2));
                lastPrinted = txn;
                if (line.startsWith("F ")) {
                    lastFull = txn;
                } else {
                    lastDelayed = Math.max(lastDelayed, txn);
                }
            }
            String context = "seed " + seed + ", round " + round + ", child printed " + lines.size()
                    + " commits up to " + lastPrinted;
            long recovered = verify(context);
            assertTrue(recovered >= lastFull, "a full commit the child saw return was lost: " + context
                    + ", recovered up to " + recovered);
            assertTrue(recovered <= lastPrinted + 1, "only the commit in flight may appear unannounced: " + context
                    + ", recovered up to " + recovered);
            System.out.println("round " + round + ": last full commit " + lastFull + ", last delayed " + lastDelayed
                    + ", recovered up to " + recovered);
            recoveredBefore = recovered;
        }
    }

    /** Starts the child, kills it once it printed {@code commits} commits, returns what it printed. */
    private List<String> runAndKill(int commits) {
        int[] printed = {0};
        return ChildJvm.of(DelayedDurabilityCrashWorkload.class, directory)
                .killWhen(line -> ++printed[0] >= commits)
                .requireOnly(line -> line.matches("[FD] \\d+"))
                .lines();
    }

    /** Reopens (recovering), checks every transaction whole and the set a prefix 1..m, returns m. */
    private long verify(String context) {
        IoCounters counters = new IoCounters();
        try (Database database = Database.open(directory, DelayedDurabilityCrashWorkload.settings(),
                NativeFilesFacade.INSTANCE)) {
            Tables tables = new Tables(database);
            TableStore transactions = tables.find(database.bufferPool(), DelayedDurabilityCrashWorkload.TRANSACTIONS,
                    counters).orElse(null);
            if (transactions == null) {
                return 0;
            }
            TableStore rows = tables.find(database.bufferPool(), DelayedDurabilityCrashWorkload.ROWS, counters)
                    .orElseThrow();
            Map<Long, Integer> rowCounts = new TreeMap<>();
            try (TableCursor cursor = rows.scan(database.bufferPool(), TableScan.all(ReadAheadOptions.OFF), counters)) {
                while (cursor.next()) {
                    Object[] row = cursor.row();
                    long txn = (Long) row[1];
                    int rowInTransaction = (int) ((Long) row[0] - txn * 100);
                    assertEquals(DelayedDurabilityCrashWorkload.payload(txn, rowInTransaction), row[2], context);
                    rowCounts.merge(txn, 1, Integer::sum);
                }
            }
            long expected = 1;
            try (TableCursor cursor = transactions.scan(database.bufferPool(), TableScan.all(ReadAheadOptions.OFF),
                    counters)) {
                while (cursor.next()) {
                    Object[] row = cursor.row();
                    long txn = (Long) row[0];
                    assertEquals(expected, txn, "the transactions there are 1 to m, with no gap: " + context);
                    assertEquals(DelayedDurabilityCrashWorkload.rowCount(txn), row[1], context);
                    assertEquals(DelayedDurabilityCrashWorkload.rowCount(txn), rowCounts.remove(txn),
                            "transaction " + txn + " is there whole: " + context);
                    expected++;
                }
            }
            assertEquals(Map.of(), rowCounts, "no row of a transaction that is not there: " + context);
            return expected - 1;
        }
    }
}
