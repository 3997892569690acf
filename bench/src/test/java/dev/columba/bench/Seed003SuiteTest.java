package dev.columba.bench;

import static dev.columba.bench.SuiteRuns.count;
import static dev.columba.bench.SuiteRuns.figure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.bench.harness.RunResults;
import dev.columba.bench.harness.ScanIoMetrics;
import dev.columba.bench.sql.AccountsTable;
import dev.columba.bench.sql.OltpScanBenchmark;
import dev.columba.bench.sql.OltpWorkloadBenchmark;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.RunResult;

/**
 * Runs the seed003 suite end to end through JMH in short mode (40,000 accounts, about 10 MB,
 * against a 2 MB pool; 40 statements per iteration), in this JVM (forks 0), and checks what a run
 * must get right whatever the machine: every statement's result (checked by the benchmark), point
 * reads and updates through the secondary index read nothing ahead whatever the setting, the range
 * reads read ahead only with read-ahead on and waste most of it, every page read ahead is used or
 * wasted, the table comes from storage (it is five times the pool), the cold scan counts every row,
 * and the report, its charts and its rewrite from the JSON come out. It asserts no timing.
 */
class Seed003SuiteTest {
    private static final long ROWS = 40_000;

    @TempDir
    Path directory;

    @Test
    void onlyTheDeclaredScansReadAheadAndTheRangeReadsWasteIt() throws Exception {
        Path data = directory.resolve("data");
        BenchOptions options = BenchOptions.parse("seed003", "--short",
                "--forks", "0", "--warmup", "0", "--iterations", "1",
                "--data-dir", data.toString(), "--results-dir", directory.resolve("results").toString());
        BenchMain.Completed run = SuiteRuns.run(options);
        assertEquals(6, run.results().size(), "two mixes and the scan, read-ahead on and off");
        AccountsTable.Description table = AccountsTable.prepare(data, ROWS, new PrintStream(PrintStream.nullOutputStream()));
        assertFalse(table.loadedNow(), "the suite's table is reused");
        assertTrue(table.pages() >= 4 * 256, table.pages() + " pages, at least four 2 MB pools");

        for (String readAhead : List.of("true", "false")) {
            RunResult point = workload(run, "POINT", readAhead);
            String name = "point mix, read-ahead " + readAhead;
            assertEquals(0, count(point, OltpWorkloadBenchmark.RANGE_READS), name);
            assertEquals(0, figure(point, OltpWorkloadBenchmark.READ_AHEAD_READS_PER_OPERATION), name
                    + ": index seeks and key lookups read nothing ahead");
            assertTrue(figure(point, OltpWorkloadBenchmark.PHYSICAL_READS_PER_OPERATION) > 0, name + ": reads from storage");
            assertTrue(figure(point, OltpWorkloadBenchmark.OPERATIONS_PER_SECOND) > 0, name);

            RunResult range = workload(run, "RANGE", readAhead);
            name = "range mix, read-ahead " + readAhead;
            assertTrue(count(range, OltpWorkloadBenchmark.RANGE_READS) > 0, name + ": the stream drew range reads");
            double readAheadPerOperation = figure(range, OltpWorkloadBenchmark.READ_AHEAD_READS_PER_OPERATION);
            assertEquals(readAheadPerOperation, figure(range, OltpWorkloadBenchmark.READ_AHEAD_USED_PER_OPERATION)
                    + figure(range, OltpWorkloadBenchmark.READ_AHEAD_WASTED_PER_OPERATION), 1e-9,
                    name + ": each page read ahead is used or wasted");
            if (readAhead.equals("true")) {
                assertTrue(figure(range, OltpWorkloadBenchmark.READ_AHEAD_WASTED_PER_OPERATION) > 0, name + ": wastes");
            } else {
                assertEquals(0, readAheadPerOperation, name);
            }

            RunResult scan = RunResults.select(run.results(), OltpScanBenchmark.class, "readAhead", readAhead).getFirst();
            name = "cold scan, read-ahead " + readAhead;
            assertEquals(ROWS, count(scan, OltpScanBenchmark.ROWS), name);
            assertEquals(readAhead.equals("true"), count(scan, ScanIoMetrics.READ_AHEAD_READS) > 0, name);
            assertTrue(count(scan, ScanIoMetrics.PHYSICAL_READS) + count(scan, ScanIoMetrics.READ_AHEAD_READS)
                    >= table.leafPages(), name + ": the table comes from storage");
        }

        String report = Files.readString(run.directory().resolve(BenchMain.REPORT));
        assertTrue(report.contains("### Seed 003: the article's observations beside Columba's"), report);
        assertTrue(report.contains("| cold full scan, elapsed read-ahead off / on | 1.4x"), report);
        assertTrue(report.contains("O_DIRECT"), report);
        assertTrue(report.contains("### OltpWorkloadBenchmark") && report.contains("### OltpScanBenchmark"), report);
        SuiteRuns.assertCharts(run, "article-ratios.png", "throughput.png", "pages-per-operation.png");
        SuiteRuns.assertReportRewritesTheSame(run);
    }

    private static RunResult workload(BenchMain.Completed run, String mix, String readAhead) {
        List<RunResult> selected = RunResults.select(run.results(), OltpWorkloadBenchmark.class, "mix", mix,
                "readAhead", readAhead);
        assertEquals(1, selected.size(), mix + ", read-ahead " + readAhead);
        return selected.getFirst();
    }
}
