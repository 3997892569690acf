package dev.columba.bench;

import static dev.columba.bench.SuiteRuns.count;
import static dev.columba.bench.SuiteRuns.figure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.bench.harness.RunResults;
import dev.columba.bench.harness.ScanIoMetrics;
import dev.columba.bench.storage.LargeTableScanBenchmark;
import dev.columba.bench.storage.ScanTable;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.RunResult;

/**
 * Runs the seed004 suite end to end through JMH on a 16 MB table and a 4 MB buffer pool, one scan
 * per scenario (cold and warm, read-ahead on and off), in this JVM (forks 0), and checks what a run
 * must get right whatever the machine: every scan visits every row and reads the table from
 * storage (a warm one too: the pool cannot hold it), read-ahead on issues multi-page requests and
 * off issues none, every page read ahead is used or wasted, and the report, its charts and its
 * rewrite from the JSON come out. It asserts no timing.
 */
class Seed004SuiteTest {
    private static final int SIZE_MB = 16;
    private static final int BUFFER_POOL_MB = 4;
    private static final int POOL_PAGES = BUFFER_POOL_MB * 128;

    @TempDir
    Path directory;

    @Test
    void everyScanReadsTheTableFromStorageWithCountersThatAddUp() throws Exception {
        Path data = directory.resolve("data");
        BenchOptions options = BenchOptions.parse("seed004", "--short", "--size-mb", String.valueOf(SIZE_MB),
                "-p", "bufferPoolMb=" + BUFFER_POOL_MB, "-p", "readAheadDepthPages=128",
                "--forks", "0", "--warmup", "0", "--iterations", "1",
                "--data-dir", data.toString(), "--results-dir", directory.resolve("results").toString());
        BenchMain.Completed run = SuiteRuns.run(options);
        assertEquals(4, run.results().size(), "cold and warm, read-ahead on and off");
        ScanTable.Description table = ScanTable.prepare(data, SIZE_MB, new PrintStream(PrintStream.nullOutputStream()));
        assertFalse(table.loadedNow(), "the suite's table is reused");
        long leaves = table.leafPages();
        assertTrue(leaves >= 4L * POOL_PAGES, leaves + " leaves, at least four pools' worth");

        for (String cache : List.of("COLD", "WARM")) {
            RunResult on = scan(run, true, cache);
            String name = cache + ", read-ahead on";
            assertEquals(ScanTable.rowsFor(SIZE_MB), count(on, LargeTableScanBenchmark.ROWS), name);
            assertTrue(count(on, ScanIoMetrics.LOGICAL_READS) >= leaves, name);
            long readAhead = count(on, ScanIoMetrics.READ_AHEAD_READS);
            long physical = count(on, ScanIoMetrics.PHYSICAL_READS);
            assertTrue(readAhead > 0, name + ": reads ahead");
            assertTrue(count(on, ScanIoMetrics.READ_IOS) - physical > 0, name + ": issues read-ahead requests");
            assertTrue(figure(on, ScanIoMetrics.BYTES_PER_IO) > 8192, name + ": more than a page per read");
            assertEquals(readAhead, count(on, ScanIoMetrics.READ_AHEAD_USED) + count(on, ScanIoMetrics.READ_AHEAD_WASTED),
                    name + ": each page read ahead is used or wasted");
            assertTrue(physical + readAhead >= leaves - POOL_PAGES, name + ": the table comes from storage");
            assertTrue(figure(on, LargeTableScanBenchmark.READ_AHEAD_RATE) > 0, name);
            assertTrue(RunResults.figure(on, ScanIoMetrics.COUNTERS_TO_PROCESS).isPresent(), name);

            RunResult off = scan(run, false, cache);
            name = cache + ", read-ahead off";
            assertEquals(ScanTable.rowsFor(SIZE_MB), count(off, LargeTableScanBenchmark.ROWS), name);
            assertEquals(0, count(off, ScanIoMetrics.READ_AHEAD_READS), name + ": reads nothing ahead");
            assertEquals(0, count(off, LargeTableScanBenchmark.READ_AHEAD_RATE), name);
            physical = count(off, ScanIoMetrics.PHYSICAL_READS);
            assertEquals(physical, count(off, ScanIoMetrics.READ_IOS), name + ": one I/O per page, no request ahead");
            assertEquals(8192, count(off, ScanIoMetrics.BYTES_PER_IO), name);
            assertTrue(physical >= leaves - POOL_PAGES, name + ": the table comes from storage");
        }
        // Cold scans find nothing in the pool; no scan finds more than the pool holds.
        assertEquals(0, count(scan(run, false, "COLD"), LargeTableScanBenchmark.POOL_HITS));
        for (RunResult result : run.results()) {
            assertTrue(count(result, LargeTableScanBenchmark.POOL_HITS) <= POOL_PAGES);
        }

        String report = Files.readString(run.directory().resolve(BenchMain.REPORT));
        assertTrue(report.contains("### Seed 004: the article's figures beside Columba's"), report);
        assertTrue(report.contains("| elapsed, off / on | 2.6x | "), report);
        assertTrue(report.contains("Short mode: 16 MB table, 4 MB buffer pool"), report);
        assertTrue(report.contains("the table's " + String.format(Locale.ROOT, "%,d", table.pages()) + " pages are 4.0x the pool"),
                report);
        assertTrue(report.contains("### LargeTableScanBenchmark"), report);
        SuiteRuns.assertCharts(run, "elapsed.png", "storage-rate.png", "bytes-per-read.png", "article-ratios.png");
        SuiteRuns.assertReportRewritesTheSame(run);
    }

    private static RunResult scan(BenchMain.Completed run, boolean readAhead, String cache) {
        List<RunResult> selected = RunResults.select(run.results(), LargeTableScanBenchmark.class,
                "readAhead", String.valueOf(readAhead), "cache", cache);
        assertEquals(1, selected.size(), "readAhead " + readAhead + ", " + cache);
        return selected.getFirst();
    }
}
