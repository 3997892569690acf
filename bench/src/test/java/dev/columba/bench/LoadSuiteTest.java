package dev.columba.bench;

import static dev.columba.bench.SuiteRuns.figure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.bench.harness.RunResults;
import dev.columba.bench.load.CopyLoadBenchmark;
import dev.columba.bench.load.LoadFormat;
import dev.columba.bench.load.LoadTarget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.RunResult;

/**
 * Runs the load suite end to end through JMH in short mode (lineitem at TPC-H scale factor 0.01)
 * in this JVM (forks 0) and checks what a run must get right whatever the machine: every target
 * loaded the file at one thread and at all processors (the benchmark checks each load's row
 * count), with rows per second, CSV MB/s and CPU recorded, and the report gives every row. It
 * asserts no timing.
 */
class LoadSuiteTest {
    @TempDir
    Path directory;

    @Test
    void everyTargetLoadsTheFileAtOneThreadAndAtAllProcessors() throws Exception {
        BenchOptions options = BenchOptions.parse("load", "--short", "--forks", "0", "--warmup", "0",
                "--iterations", "1", "--data-dir", directory.resolve("data").toString(), "--results-dir",
                directory.resolve("results").toString());
        BenchMain.Completed run = SuiteRuns.run(options);
        assertEquals(LoadFormat.values().length * LoadTarget.values().length * 2, run.results().size());
        for (LoadFormat format : LoadFormat.values()) {
            for (LoadTarget target : LoadTarget.values()) {
                for (String threads : List.of("1", "0")) {
                    List<RunResult> selected = RunResults.select(run.results(), CopyLoadBenchmark.class, "format",
                            format.name(), "target", target.name(), "threads", threads);
                    String name = format + " " + target + " threads " + threads;
                    assertEquals(1, selected.size(), name);
                    assertTrue(figure(selected.getFirst(), CopyLoadBenchmark.ROWS_PER_SECOND) > 0, name);
                    assertTrue(figure(selected.getFirst(), CopyLoadBenchmark.MEGABYTES_PER_SECOND) > 0, name);
                }
            }
        }
        String report = Files.readString(run.directory().resolve(BenchMain.REPORT));
        assertTrue(report.contains("### Rows per second (median)"), report);
        for (LoadTarget target : LoadTarget.values()) {
            for (LoadFormat format : LoadFormat.values()) {
                assertTrue(report.contains("| " + format.label() + " | " + target.label() + " | "), target.label());
            }
        }
    }
}
