package dev.columba.columnstore.table;

import dev.columba.testing.crash.ChildJvm;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.scan.ColumnstoreScan;
import dev.columba.columnstore.scan.ScanOptions;
import dev.columba.core.batch.Batch;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.Transaction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a child JVM ({@link CompressionCrashWorkload}) with SIGKILL while it inserts into a
 * columnstore table and compresses its delta rowgroups, and checks after every reopen that every
 * committed row is there exactly once — in a delta rowgroup or a compressed one, never both, never
 * neither — and that files a killed compression left behind are removed by the next write.
 * Replay with {@code -Dcolumba.seed=<seed>}.
 */
class CompressionCrashTest {
    @TempDir
    Path directory;

    @Test
    void aCompressionKilledMidwayLosesNothing() throws Exception {
        long seed = Long.getLong("columba.seed", System.nanoTime());
        System.out.println("CompressionCrashTest seed " + seed);
        Random random = new Random(seed);
        long committed = 0;
        for (int round = 0; round < 5; round++) {
            int lines = 2 + random.nextInt(12);
            List<String> output = runAndKill(lines);
            for (String line : output) {
                if (line.startsWith("I ")) {
                    committed = Math.max(committed, Long.parseLong(line.substring(2)));
                }
            }
            long recovered = verify("seed " + seed + ", round " + round + ", output " + output);
            assertTrue(recovered >= committed && recovered <= committed + CompressionCrashWorkload.BATCH,
                    "seed " + seed + ": " + recovered + " rows recovered, " + committed + " committed");
            committed = recovered;
        }
    }

    private List<String> runAndKill(int lines) {
        int[] printed = {0};
        return ChildJvm.of(CompressionCrashWorkload.class, directory)
                .killWhen(line -> ++printed[0] >= lines)
                .requireOnly(line -> line.startsWith("I ") || line.startsWith("M "))
                .lines();
    }

    /** Reopens, checks ids 1..n each appear once, checks orphan files are cleaned by a write; returns n. */
    private long verify(String context) throws Exception {
        try (Database database = Database.open(directory, CompressionCrashWorkload.settings(), NativeFilesFacade.INSTANCE);
             RootAllocator allocator = new RootAllocator(1L << 30)) {
            ColumnstoreTable table = ColumnstoreTable.find(database, database.bufferPool(), CompressionCrashWorkload.TABLE,
                    new IoCounters()).orElse(null);
            if (table == null) {
                return 0;
            }
            BitSet seen = new BitSet();
            long rows = 0;
            try (ColumnstoreScan scan = new ColumnstoreScan(table, database.bufferPool(),
                    ScanOptions.all(2).withProjection(0), new IoCounters(), allocator)) {
                Batch batch;
                while ((batch = scan.next()) != null) {
                    IntVector ids = (IntVector) batch.column(0);
                    for (int index = 0; index < batch.selectedCount(); index++) {
                        int id = ids.get(batch.selectedRow(index));
                        assertTrue(!seen.get(id), "row " + id + " seen twice: " + context);
                        seen.set(id);
                        rows++;
                    }
                }
            }
            if (rows > 0) {
                assertEquals(1, seen.nextSetBit(0), "ids start at 1: " + context);
                assertEquals(rows, seen.length() - 1, "ids are dense, 1.." + rows + ": " + context);
            }
            // A write to the table removes files no committed rowgroup refers to.
            try (Transaction transaction = database.begin()) {
                table.removeOrphanFiles(transaction.writes(), transaction.systemCounters());
                transaction.rollback();
            }
            long referenced = table.rowgroups(database.bufferPool(), new IoCounters()).stream()
                    .filter(entry -> entry.state() == RowgroupState.COMPRESSED).count();
            if (Files.isDirectory(table.fileDirectory())) {
                try (Stream<Path> files = Files.list(table.fileDirectory())) {
                    assertEquals(referenced, files.filter(path -> path.toString().endsWith(".crg")).count(), context);
                }
            }
            return rows;
        }
    }
}
