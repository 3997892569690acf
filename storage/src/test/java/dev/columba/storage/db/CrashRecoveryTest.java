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
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a child JVM ({@link CrashWorkload}) with SIGKILL in the middle of committed and uncommitted
 * work, again and again on the same database, and checks after every reopen that every commit the
 * child saw return is there, that the commit in flight at the kill is there whole or not at all,
 * and that no row of an uncommitted transaction is. The kills land wherever the child happens to be:
 * appending to the log, syncing it, writing evicted pages, checkpointing. Replay a failure with
 * {@code -Dcolumba.seed=<seed>}.
 */
class CrashRecoveryTest {
    @TempDir
    Path directory;

    @Test
    void killedProcessLosesNoCommittedWorkAndKeepsNoUncommittedWork() throws Exception {
        killAndVerify(6, "one-file");
    }

    /**
     * The same over a table placed on a filegroup of two files: each commit writes pages of both,
     * recovery replays into both, and the table's extents alternate between them.
     */
    @Test
    void killedProcessLosesNothingOfATableSpreadOverTwoFiles() throws Exception {
        killAndVerify(4, CrashWorkload.TWO_FILES);
        try (Database database = Database.open(directory, CrashWorkload.settings(), NativeFilesFacade.INSTANCE)) {
            TableStore table = new Tables(database).table(database.bufferPool(), CrashWorkload.TABLE, new IoCounters());
            java.util.Set<Integer> files = new java.util.TreeSet<>();
            for (var extent : dev.columba.storage.alloc.Allocator.extents(database.bufferPool(),
                    table.definition().firstOamPage(), new IoCounters())) {
                files.add(dev.columba.storage.page.PageFormat.fileOf(extent.firstPage()));
            }
            assertEquals(java.util.Set.of(1, 2), files, "the table's extents lie in both files of its filegroup");
        }
    }

    private void killAndVerify(int rounds, String placement) throws Exception {
        long seed = Long.getLong("columba.seed", System.nanoTime());
        System.out.println("CrashRecoveryTest seed " + seed);
        Random random = new Random(seed);
        long lastSeen = 0;
        for (int round = 0; round < rounds; round++) {
            boolean uncommitted = round % 2 == 1;
            int commits = 1 + random.nextInt(uncommitted ? 8 : 40);
            List<String> lines = runAndKill(uncommitted ? "uncommitted" : "forever", commits, uncommitted ? "U" : null,
                    placement);
            String context = "seed " + seed + ", round " + round + ", child printed " + lines;
            long printed = lastSeen;
            for (String line : lines) {
                if (line.startsWith("C ")) {
                    printed = Long.parseLong(line.substring(2));
                }
            }
            if (uncommitted) {
                assertTrue(lines.contains("U"), context);
            }
            long recovered = verify(context);
            assertTrue(recovered >= printed, "a commit the child saw return was lost: " + context + ", recovered "
                    + recovered);
            assertTrue(recovered <= printed + 1, "only the commit in flight may appear unannounced: " + context);
            lastSeen = recovered;
        }
    }

    /** Starts the child, kills it after {@code commits} commit lines (or on {@code marker}), returns its output. */
    private List<String> runAndKill(String mode, int commits, String marker, String placement) {
        return ChildJvm.of(CrashWorkload.class, directory, mode, commits, placement)
                .killWhen(marker == null ? ChildJvm.nth("C ", commits) : line -> line.equals(marker))
                .requireOnly(line -> line.startsWith("C ") || line.equals("U"))
                .lines();
    }

    /** Reopens (recovering), checks the table is exactly batches 1..n plus the counter, returns n. */
    private long verify(String context) {
        IoCounters counters = new IoCounters();
        try (Database database = Database.open(directory, CrashWorkload.settings(), NativeFilesFacade.INSTANCE)) {
            System.out.println("recovery: " + database.recoveryReport());
            TableStore table = new Tables(database).find(database.bufferPool(), CrashWorkload.TABLE, counters).orElse(null);
            if (table == null) {
                return 0;
            }
            long batch = (Long) table.get(database.bufferPool(), new Object[] {0}, counters)[1];
            long rows = 0;
            int expectedId = 0;
            try (TableCursor cursor = table.scan(database.bufferPool(), TableScan.all(ReadAheadOptions.OFF), counters)) {
                while (cursor.next()) {
                    Object[] row = cursor.row();
                    int id = (Integer) row[0];
                    assertEquals(expectedId, id, "ids are dense from 0, no uncommitted (negative) ids: " + context);
                    if (id > 0) {
                        assertEquals((long) (id - 1) / CrashWorkload.ROWS_PER_BATCH + 1, row[1], context);
                        assertEquals(CrashWorkload.payload(id), row[2], context);
                    }
                    expectedId++;
                    rows++;
                }
            }
            assertEquals(batch * CrashWorkload.ROWS_PER_BATCH + 1, rows, "whole batches only: " + context);
            return batch;
        }
    }
}
