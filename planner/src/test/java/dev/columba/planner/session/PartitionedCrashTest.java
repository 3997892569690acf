package dev.columba.planner.session;

import dev.columba.testing.crash.ChildJvm;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a child JVM ({@link PartitionedCrashWorkload}) with SIGKILL while it inserts batches into a
 * table hash-partitioned over two filegroups of one file each, again and again on the same
 * database, and checks after every reopen that every batch the child saw commit is there, the
 * batch in flight whole or not at all, every row in the partition its value routes it to (a scan
 * of each partition's rows through elimination equals the table's), and the partitions' row counts
 * add up. Replay a failure with {@code -Dcolumba.seed=<seed>}.
 */
class PartitionedCrashTest {
    @TempDir
    Path directory;

    @Test
    void aKilledInsertIntoAPartitionedTableOverTwoFilesLosesNoCommittedBatch() throws Exception {
        long seed = Long.getLong("columba.seed", System.nanoTime());
        System.out.println("PartitionedCrashTest seed " + seed);
        Random random = new Random(seed);
        long lastSeen = 0;
        for (int round = 0; round < 3; round++) {
            int commits = 1 + random.nextInt(6);
            List<String> lines = runAndKill(commits);
            long printed = lastSeen;
            for (String line : lines) {
                assertTrue(line.startsWith("C "), "child failed: " + lines);
                printed = Long.parseLong(line.substring(2));
            }
            long recovered = verify("seed " + seed + ", round " + round + ", child printed " + lines);
            assertTrue(recovered >= printed, "a batch the child saw commit was lost: recovered " + recovered);
            assertTrue(recovered <= printed + 1, "only the batch in flight may appear unannounced");
            lastSeen = recovered;
        }
    }

    private List<String> runAndKill(int commits) {
        return ChildJvm.of(PartitionedCrashWorkload.class, directory).killWhen(ChildJvm.nth("C ", commits)).lines();
    }

    /** Reopens (recovering) and checks the table holds whole batches 1..n, each row in its partition; returns n. */
    private long verify(String context) {
        try (Engine engine = PartitionedCrashWorkload.open(directory); Session session = engine.openSession()) {
            List<List<Object>> total = SessionRows.query(session, "SELECT COUNT(*), COALESCE(MAX(batch), 0) FROM "
                    + PartitionedCrashWorkload.TABLE);
            long rows = ((Number) total.getFirst().get(0)).longValue();
            long batches = ((Number) total.getFirst().get(1)).longValue();
            assertEquals(batches * PartitionedCrashWorkload.ROWS_PER_BATCH, rows, "whole batches only: " + context);
            long partitionRows = 0;
            for (List<Object> partition : SessionRows.query(session, "SELECT [rows] FROM sys.partitions WHERE table_name = '"
                    + PartitionedCrashWorkload.TABLE + "'")) {
                partitionRows += ((Number) partition.getFirst()).longValue();
            }
            assertEquals(rows, partitionRows, "the partitions' row counts add up: " + context);
            if (rows > 0) {
                // Each id looked up through elimination reads only its own partition: found there, it was routed right.
                for (long id = 1; id <= rows; id += 97) {
                    assertEquals("[[1]]", SessionRows.query(session, "SELECT COUNT(*) FROM "
                            + PartitionedCrashWorkload.TABLE + " WHERE id = " + id).toString(), "id " + id + ": " + context);
                }
            }
            return batches;
        }
    }
}
