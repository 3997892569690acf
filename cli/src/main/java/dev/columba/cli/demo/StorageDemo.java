package dev.columba.cli.demo;

import dev.columba.core.stats.IoCounters;
import dev.columba.core.stats.IoStats;
import dev.columba.datagen.RowCursor;
import dev.columba.datagen.TestTableGenerator;
import dev.columba.storage.btree.IndexPhysicalStats;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.io.ProcSelfIo;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.table.TableCursor;
import dev.columba.storage.table.TableScan;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import dev.columba.storage.txn.Transaction;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The storage engine's own demonstration, until SQL exists: seed 000's TestTable loaded into a
 * clustered B+tree, then cold and warm scans with read-ahead on and off, reported in SQL Server's
 * STATISTICS IO vocabulary and checked against the operating system's read_bytes.
 */
public final class StorageDemo {
    private static final int ROWS_PER_TRANSACTION = 20_000;

    private final PrintStream out;
    private final long rows;
    private final Path directory;
    private final boolean keep;

    public StorageDemo(PrintStream out, long rows, Path directory, boolean keep) {
        this.out = out;
        this.rows = rows;
        this.directory = directory;
        this.keep = keep;
    }

    public int run() throws IOException {
        Path dir = directory != null ? directory : Files.createTempDirectory("columba-demo-");
        try {
            return runIn(dir);
        } finally {
            if (!keep && directory == null) {
                deleteRecursively(dir);
            }
        }
    }

    private int runIn(Path dir) {
        long tableBytesEstimate = rows * 70;
        long poolBytes = Math.max(64L << 20, Long.highestOneBit(tableBytesEstimate * 2) << 1);
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", (poolBytes >> 20) + "MB");
        out.printf(Locale.ROOT, "Columba storage demonstration: seed 000's TestTable in a clustered B+tree%n");
        out.printf(Locale.ROOT, "database %s, buffer pool %d MB%n%n", dir, poolBytes >> 20);
        try (Database database = Database.open(dir, settings, NativeFilesFacade.INSTANCE)) {
            Tables tables = new Tables(database);
            IoCounters loadCounters = new IoCounters();
            TableStore table = tables.find(database.bufferPool(), "TestTable", loadCounters).orElse(null);
            if (table == null) {
                table = load(database, tables);
            }
            IndexPhysicalStats shape = IndexPhysicalStats.of(table.tree(), database.bufferPool(), loadCounters);
            long tableBytes = shape.pageCount() * PageFormat.PAGE_SIZE;
            out.printf(Locale.ROOT, "TestTable: %,d rows on %,d pages (%.1f MB), %d levels, %.0f%% full, %,d fragments%n%n",
                    shape.entries(), shape.pageCount(), tableBytes / 1048576.0, shape.height(),
                    shape.averagePageDensityPercent(), shape.fragments());
            database.checkpoint();

            ReadAheadOptions on = ReadAheadOptions.from(database.settings());
            out.println("SELECT * FROM TestTable WHERE ID < 300, cold then warm (SET STATISTICS IO ON):");
            TableScan below300 = TableScan.below(new Object[] {300}, false, on);
            database.dropCleanBuffers();
            out.println("  " + scan(database, table, below300).stats().statisticsIoLine("TestTable"));
            out.println("  " + scan(database, table, below300).stats().statisticsIoLine("TestTable"));
            out.println();

            out.printf(Locale.ROOT, "Full scans of TestTable (%,d pages):%n", shape.pageCount());
            out.printf(Locale.ROOT, "  %-22s %9s %9s %10s %7s %10s %9s %9s%n", "", "logical", "physical", "read-ahead",
                    "I/Os", "KB per I/O", "ms", "MB/s");
            Result coldOn = report("cold, read-ahead on", database, table, TableScan.all(on), true);
            Result coldOff = report("cold, read-ahead off", database, table, TableScan.all(ReadAheadOptions.OFF), true);
            report("warm, read-ahead on", database, table, TableScan.all(on), false);
            report("warm, read-ahead off", database, table, TableScan.all(ReadAheadOptions.OFF), false);
            out.println();
            out.printf(Locale.ROOT, "Cold scan with read-ahead is %.1fx faster than without (%.0f vs %.0f MB/s);%n",
                    coldOff.millis() / Math.max(0.001, coldOn.millis()), coldOn.megabytesPerSecond(tableBytes),
                    coldOff.megabytesPerSecond(tableBytes));
            out.printf(Locale.ROOT, "its I/Os average %.0f KB against %.0f KB without.%n",
                    coldOn.stats().averageBytesPerIo() / 1024, coldOff.stats().averageBytesPerIo() / 1024);
            for (Result result : List.of(coldOn, coldOff)) {
                long counted = result.stats().pagesFromStorage() * PageFormat.PAGE_SIZE;
                out.printf(Locale.ROOT, "Check against the OS: (physical + read-ahead) x 8 KB = %,d bytes, /proc/self/io "
                        + "read_bytes grew by %,d (ratio %.3f)%n", counted, result.readBytes(),
                        result.readBytes() == 0 ? 0 : (double) counted / result.readBytes());
            }
        }
        return 0;
    }

    private TableStore load(Database database, Tables tables) {
        TestTableGenerator generator = new TestTableGenerator(rows, 2017);
        long start = System.nanoTime();
        IoCounters counters = new IoCounters();
        TableStore table;
        try (Transaction transaction = database.begin()) {
            table = tables.createTable(transaction, "TestTable", generator.schema(), List.of(0), true, Map.of());
            transaction.commit();
        }
        RowCursor cursor = generator.cursor();
        boolean more = true;
        while (more) {
            try (Transaction transaction = database.begin()) {
                for (int row = 0; row < ROWS_PER_TRANSACTION && (more = cursor.next()); row++) {
                    table.insert(transaction, cursor.row(), counters);
                }
                transaction.commit();
            }
            database.checkpointIfDue();
        }
        out.printf(Locale.ROOT, "loaded %,d rows in %.1f s%n", rows, (System.nanoTime() - start) / 1e9);
        return table;
    }

    private record Result(IoStats stats, long rows, long nanos, long readBytes) {
        double millis() {
            return nanos / 1e6;
        }

        double megabytesPerSecond(long bytes) {
            return bytes / 1048576.0 / (nanos / 1e9);
        }
    }

    private Result scan(Database database, TableStore table, TableScan scan) {
        IoCounters counters = new IoCounters();
        ProcSelfIo before = ProcSelfIo.read();
        long start = System.nanoTime();
        long count = 0;
        try (TableCursor cursor = table.scan(database.bufferPool(), scan, counters)) {
            while (cursor.next()) {
                count++;
            }
        }
        long nanos = System.nanoTime() - start;
        return new Result(counters.snapshot(), count, nanos, ProcSelfIo.read().minus(before).readBytes());
    }

    private Result report(String label, Database database, TableStore table, TableScan scan, boolean cold) {
        if (cold) {
            database.dropCleanBuffers();
        } else {
            scan(database, table, scan);
        }
        Result result = scan(database, table, scan);
        IoStats stats = result.stats();
        long bytes = (stats.logicalReads()) * (long) PageFormat.PAGE_SIZE;
        out.printf(Locale.ROOT, "  %-22s %9d %9d %10d %7d %10.0f %9.0f %9.0f%n", label, stats.logicalReads(),
                stats.physicalReads(), stats.readAheadReads(), stats.readIos(), stats.averageBytesPerIo() / 1024,
                result.millis(), result.megabytesPerSecond(bytes));
        return result;
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
