package dev.columba.bench;

import static dev.columba.bench.SuiteRuns.count;
import static dev.columba.bench.SuiteRuns.figure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.bench.harness.RunResults;
import dev.columba.bench.harness.ScanIoMetrics;
import dev.columba.bench.sql.Seed002ScanBenchmark;
import dev.columba.bench.sql.Seed002Tables;
import dev.columba.core.stats.WaitType;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.RunResult;

/**
 * Runs the seed002 suite end to end through JMH at a small scale (TPC-H scale factor 0.1 against a
 * 16 MB pool), one scan per layout, in this JVM (forks 0), and checks what a run must get right
 * whatever the machine: every scan counts every row and reads the table from storage, the
 * partitioned scan runs on MAXDOP = 2 workers, the device read reads the whole file, and the report
 * comes out with the article's figures. It asserts no timing.
 */
class Seed002SuiteTest {
    @TempDir
    Path directory;

    @Test
    void everyLayoutIsScannedColdWithCountersThatAddUp() throws Exception {
        Path data = directory.resolve("data");
        BenchOptions options = BenchOptions.parse("seed002", "--short", "-p", "maxdop=2", "-p", "partitions=4",
                "-p", "filegroups=2", "--forks", "0", "--warmup", "0", "--iterations", "1",
                "--data-dir", data.toString(), "--results-dir", directory.resolve("results").toString());
        BenchMain.Completed run = SuiteRuns.run(options);
        assertEquals(5, run.results().size(), "the device and four layouts");
        Seed002Tables.Description tables = Seed002Tables.prepare(data, 0.1, 4, 2,
                new PrintStream(PrintStream.nullOutputStream()));
        assertFalse(tables.loadedNow(), "the suite's tables are reused");
        assertTrue(tables.pagesPage() < tables.pagesHash(), "PAGE compression: " + tables.pagesPage() + " pages, "
                + tables.pagesHash() + " without");
        for (Seed002ScanBenchmark.Layout layout : List.of(Seed002ScanBenchmark.Layout.ONE_FILE,
                Seed002ScanBenchmark.Layout.TWO_FILES, Seed002ScanBenchmark.Layout.HASH_PARTITIONED,
                Seed002ScanBenchmark.Layout.PAGE_COMPRESSED)) {
            RunResult scan = result(run, layout);
            assertEquals(tables.rows(), count(scan, Seed002ScanBenchmark.ROWS), layout.name());
            long pages = count(scan, ScanIoMetrics.PHYSICAL_READS) + count(scan, ScanIoMetrics.READ_AHEAD_READS);
            assertTrue(pages >= (layout == Seed002ScanBenchmark.Layout.PAGE_COMPRESSED ? 2048 : 4 * 2048),
                    layout + " reads its pages from storage: " + pages);
            assertTrue(figure(scan, Seed002ScanBenchmark.PAGE_IO_LATCH_WAITS) > 0, layout + " waits for page reads");
            assertTrue(RunResults.figure(scan, ScanIoMetrics.COUNTERS_TO_PROCESS).isPresent(), layout.name());
            assertEquals(layout == Seed002ScanBenchmark.Layout.HASH_PARTITIONED
                            || layout == Seed002ScanBenchmark.Layout.PAGE_COMPRESSED ? 2 : 1,
                    count(scan, Seed002ScanBenchmark.DEGREE), layout.name());
        }
        // The gather above the partitioned scan's two workers waits for their partial counts while they scan.
        assertTrue(figure(result(run, Seed002ScanBenchmark.Layout.HASH_PARTITIONED),
                Seed002ScanBenchmark.WAIT_COUNTS.get(WaitType.CXCONSUMER)) > 0, "the gather waited for its workers");
        RunResult device = result(run, Seed002ScanBenchmark.Layout.DEVICE);
        assertTrue(figure(device, Seed002ScanBenchmark.DEVICE_RATE) > 0);
        String report = Files.readString(run.directory().resolve(BenchMain.REPORT));
        assertTrue(report.contains("### Seed 002: the article's figures beside Columba's"), report);
        assertTrue(report.contains("| 3d / (d) hash partitions, PAGE compression | 6.20 | 0.20 |"), report);
        assertTrue(report.contains("| 3c / (c) hash partitions, several filegroups | 19.9 | 0.64 |"), report);
        assertTrue(report.contains("| top waits: waits / ms |") && report.contains("PAGEIOLATCH_SH "), report);
        SuiteRuns.assertReportRewritesTheSame(run);
    }

    private static RunResult result(BenchMain.Completed run, Seed002ScanBenchmark.Layout layout) {
        List<RunResult> selected = RunResults.select(run.results(), Seed002ScanBenchmark.class, "layout", layout.name());
        assertEquals(1, selected.size(), layout.name());
        return selected.getFirst();
    }
}
