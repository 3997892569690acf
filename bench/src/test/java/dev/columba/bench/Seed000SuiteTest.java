package dev.columba.bench;

import static dev.columba.bench.SuiteRuns.count;
import static dev.columba.bench.SuiteRuns.figure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.bench.harness.RunResults;
import dev.columba.bench.harness.ScanIoMetrics;
import dev.columba.bench.sql.BackgroundReads;
import dev.columba.bench.sql.PrefetchJoinBenchmark;
import dev.columba.bench.sql.RangeScanBenchmark;
import dev.columba.bench.sql.Seed000Tables;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.RunResult;

/**
 * Runs the seed000 suite end to end through JMH in short mode (tables of 20,000 rows, the scan
 * {@code ID < 15000}, the join {@code ID < 1000}), one cold run per configuration, idle and beside
 * one background reader, in this JVM (forks 0), and checks what a run must get right whatever the
 * machine: both queries return their rows (checked by the benchmarks, counted here), every run is
 * cold, read-ahead on reads ahead in multi-page I/Os and off in none, prefetch on prefetches the
 * inner table and off does not, read-ahead pages are used or wasted, the background reader read,
 * and the report, its charts and its rewrite from the JSON come out. It asserts no timing.
 */
class Seed000SuiteTest {
    private static final long ROWS = 20_000;

    @TempDir
    Path directory;

    @Test
    void coldQueriesReadAheadAndPrefetchOnlyWhenOn() throws Exception {
        Path data = directory.resolve("data");
        BenchOptions options = BenchOptions.parse("seed000", "--short", "-p", "backgroundThreads=0,1",
                "--forks", "0", "--warmup", "0", "--iterations", "1",
                "--data-dir", data.toString(), "--results-dir", directory.resolve("results").toString());
        BenchMain.Completed run = SuiteRuns.run(options);
        assertEquals(8, run.results().size(), "scan and join, on and off, idle and loaded");
        Seed000Tables.Description tables = Seed000Tables.prepare(data, ROWS, new PrintStream(PrintStream.nullOutputStream()));
        assertFalse(tables.loadedNow(), "the suite's tables are reused");

        for (String load : List.of("0", "1")) {
            RunResult on = result(run, RangeScanBenchmark.class, "readAhead", "true", load);
            String name = "scan, read-ahead on, background " + load;
            assertEquals(14_999, count(on, RangeScanBenchmark.ROWS), name);
            long readAhead = count(on, ScanIoMetrics.READ_AHEAD_READS);
            long physical = count(on, ScanIoMetrics.PHYSICAL_READS);
            assertTrue(readAhead > 0, name + ": reads ahead");
            assertTrue(figure(on, ScanIoMetrics.BYTES_PER_IO) > 8192, name + ": more than a page per I/O");
            assertEquals(readAhead, count(on, ScanIoMetrics.READ_AHEAD_USED) + count(on, ScanIoMetrics.READ_AHEAD_WASTED),
                    name + ": each page read ahead is used or wasted");
            assertTrue(physical + readAhead >= count(on, ScanIoMetrics.LOGICAL_READS) / 2, name + ": cold");

            RunResult off = result(run, RangeScanBenchmark.class, "readAhead", "false", load);
            name = "scan, read-ahead off, background " + load;
            assertEquals(14_999, count(off, RangeScanBenchmark.ROWS), name);
            assertEquals(0, count(off, ScanIoMetrics.READ_AHEAD_READS), name);
            assertEquals(count(off, ScanIoMetrics.PHYSICAL_READS), count(off, ScanIoMetrics.READ_IOS), name + ": one I/O per page");
            assertEquals(count(off, ScanIoMetrics.LOGICAL_READS), count(off, ScanIoMetrics.PHYSICAL_READS), name + ": cold");

            RunResult prefetch = result(run, PrefetchJoinBenchmark.class, "prefetch", "true", load);
            name = "join, prefetch on, background " + load;
            assertEquals(999, count(prefetch, PrefetchJoinBenchmark.ROWS), name);
            assertTrue(count(prefetch, PrefetchJoinBenchmark.INNER_READ_AHEAD_READS) > 0, name + ": prefetches Testtable2");
            assertEquals(count(prefetch, ScanIoMetrics.READ_AHEAD_READS), count(prefetch, ScanIoMetrics.READ_AHEAD_USED)
                    + count(prefetch, ScanIoMetrics.READ_AHEAD_WASTED), name);
            RunResult noPrefetch = result(run, PrefetchJoinBenchmark.class, "prefetch", "false", load);
            name = "join, prefetch off, background " + load;
            assertEquals(999, count(noPrefetch, PrefetchJoinBenchmark.ROWS), name);
            assertEquals(0, count(noPrefetch, PrefetchJoinBenchmark.INNER_READ_AHEAD_READS), name);
            assertTrue(count(noPrefetch, PrefetchJoinBenchmark.INNER_PHYSICAL_READS) > 0, name + ": reads Testtable2 cold");

            for (RunResult result : List.of(on, off, prefetch, noPrefetch)) {
                // The check against read_bytes is made without background reads only.
                assertEquals(load.equals("0"), RunResults.figure(result, ScanIoMetrics.COUNTERS_TO_PROCESS).isPresent());
                assertEquals(load.equals("1"), RunResults.figure(result, BackgroundReads.BACKGROUND_IOPS)
                        .isPresent());
            }
        }

        String report = Files.readString(run.directory().resolve(BenchMain.REPORT));
        assertTrue(report.contains("### Seed 000: the article's figures beside Columba's"), report);
        assertTrue(report.contains("| scan, off / on | 5.4x | "), report);
        assertTrue(report.contains("| join, off / on | 14.6x | "), report);
        assertTrue(report.contains("Columba, 1 background reader"), report);
        assertTrue(report.contains("WithUnorderedPrefetch"), report);
        assertTrue(report.contains("### RangeScanBenchmark") && report.contains("### PrefetchJoinBenchmark"), report);
        SuiteRuns.assertCharts(run, "article-ratios.png", "elapsed-idle.png", "elapsed-1-background-readers.png");
        SuiteRuns.assertReportRewritesTheSame(run);
    }

    private static RunResult result(BenchMain.Completed run, Class<?> benchmark, String setting, String on, String load) {
        List<RunResult> selected = RunResults.select(run.results(), benchmark, setting, on, "backgroundThreads", load);
        assertEquals(1, selected.size(), benchmark.getSimpleName() + " " + setting + " " + on + " background " + load);
        return selected.getFirst();
    }
}
