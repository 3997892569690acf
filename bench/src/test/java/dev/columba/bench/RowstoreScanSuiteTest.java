package dev.columba.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.bench.harness.Metric;
import dev.columba.bench.harness.RunResults;
import dev.columba.bench.storage.DeviceSequentialReadBenchmark;
import dev.columba.bench.storage.RowstoreScanBenchmark;
import dev.columba.bench.storage.ScanTable;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.RunResult;

/**
 * Runs the rowstore-scan suite end to end through JMH on an 8 MB table, one scan per scenario, in
 * this JVM (forks 0), and checks what a run must get right whatever the machine: every scenario
 * ran and checked its result, the counters add up, and the report files are written. It asserts
 * no timing.
 */
class RowstoreScanSuiteTest {
    private static final int SIZE_MB = 8;

    @TempDir
    Path directory;

    @Test
    void everyScenarioScansOnceWithCountersThatAddUp() throws Exception {
        Path data = directory.resolve("data");
        BenchOptions options = BenchOptions.parse("rowstore-scan", "--short", "--size-mb", String.valueOf(SIZE_MB),
                "--forks", "0", "--warmup", "0", "--iterations", "1",
                "--data-dir", data.toString(), "--results-dir", directory.resolve("results").toString());
        BenchMain.Completed run = SuiteRuns.run(options);
        assertEquals(6, run.results().size(), "4 scan scenarios and 2 device reads");
        ScanTable.Description table = ScanTable.prepare(data, SIZE_MB, new PrintStream(PrintStream.nullOutputStream()));
        assertFalse(table.loadedNow(), "the suite's table is reused");
        long leaves = table.leafPages();

        RunResult coldOn = scan(run, true, "COLD");
        long readAhead = figure(coldOn, RowstoreScanBenchmark.READ_AHEAD_READS);
        assertTrue(readAhead > 0, "a cold scan with read-ahead reads ahead");
        assertTrue(figure(coldOn, RowstoreScanBenchmark.PHYSICAL_READS) + readAhead >= leaves,
                "every leaf of a cold scan comes from storage");
        assertEquals(readAhead, figure(coldOn, RowstoreScanBenchmark.READ_AHEAD_USED)
                + figure(coldOn, RowstoreScanBenchmark.READ_AHEAD_WASTED), "each page read ahead is used or wasted");
        assertTrue(figure(coldOn, RowstoreScanBenchmark.LOGICAL_READS) >= leaves);

        RunResult coldOff = scan(run, false, "COLD");
        assertEquals(0, figure(coldOff, RowstoreScanBenchmark.READ_AHEAD_READS), "read-ahead off reads nothing ahead");
        long physical = figure(coldOff, RowstoreScanBenchmark.PHYSICAL_READS);
        assertTrue(physical >= leaves, "every leaf of a cold scan comes from storage");
        assertEquals(physical, figure(coldOff, RowstoreScanBenchmark.READ_IOS), "one I/O per page without read-ahead");
        assertEquals(8192, figure(coldOff, RowstoreScanBenchmark.BYTES_PER_IO));

        for (boolean on : new boolean[] {true, false}) {
            RunResult warm = scan(run, on, "WARM");
            assertEquals(0, figure(warm, RowstoreScanBenchmark.PHYSICAL_READS), "a warm scan reads nothing, read-ahead " + on);
            assertEquals(0, figure(warm, RowstoreScanBenchmark.READ_AHEAD_READS), "a warm scan reads nothing, read-ahead " + on);
            assertTrue(figure(warm, RowstoreScanBenchmark.LOGICAL_READS) >= leaves);
        }

        for (String access : List.of("DIRECT", "BUFFERED")) {
            List<RunResult> device = RunResults.select(run.results(), DeviceSequentialReadBenchmark.class, "access", access);
            assertEquals(1, device.size(), access);
            assertTrue(RunResults.figure(device.getFirst(), DeviceSequentialReadBenchmark.DEVICE_RATE).isPresent(), access);
        }

        assertTrue(Files.readString(run.directory().resolve(BenchMain.JSON_RESULT))
                .contains("dev.columba.bench.storage.RowstoreScanBenchmark.scan"));
        String report = Files.readString(run.directory().resolve(BenchMain.REPORT));
        assertTrue(report.contains("## Key figures"), report);
        assertTrue(report.contains("| cold scan, read-ahead on | "), report);
        assertTrue(report.contains("### DeviceSequentialReadBenchmark"), report);
    }

    private static RunResult scan(BenchMain.Completed run, boolean readAhead, String cache) {
        List<RunResult> selected = RunResults.select(run.results(), RowstoreScanBenchmark.class,
                "readAhead", String.valueOf(readAhead), "cache", cache);
        assertEquals(1, selected.size(), "readAhead " + readAhead + ", " + cache);
        return selected.getFirst();
    }

    /** A page or I/O count: one scan measured, so the average is the count itself. */
    private static long figure(RunResult result, Metric metric) {
        double value = RunResults.figure(result, metric).orElseThrow(() -> new AssertionError(metric.name() + " missing"));
        assertEquals(Math.rint(value), value, metric.name() + " is a count");
        return (long) value;
    }
}
