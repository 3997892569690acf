package dev.columba.bench;

import static dev.columba.bench.SuiteRuns.figure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.bench.harness.RunResults;
import dev.columba.bench.oltp.OltpDatabase;
import dev.columba.bench.oltp.OltpDatabases;
import dev.columba.bench.oltp.OltpEngine;
import dev.columba.bench.oltp.OltpFourClientsBenchmark;
import dev.columba.bench.oltp.OltpOneClientBenchmark;
import dev.columba.bench.oltp.OltpWorkload;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.RunResult;

/**
 * Runs the oltp suite end to end through JMH in short mode (2,000 rows, 100 ms per client and
 * iteration) in this JVM (forks 0) and checks what a run must get right whatever the machine: every
 * workload ran on every engine at one and four clients with every statement's result checked, the
 * figures are consistent (p50 at most p99, rows per second = statements per second times the
 * workload's rows), the databases are kept for the next run, and the report, its charts and its
 * rewrite from the JSON come out. It asserts
 * no timing.
 */
class OltpSuiteTest {
    @TempDir
    Path directory;

    @Test
    void everyEngineRunsEveryWorkloadAtOneAndFourClients() throws Exception {
        BenchOptions options = BenchOptions.parse("oltp", "--short", "--forks", "0", "--warmup", "0",
                "--iterations", "1", "--data-dir", directory.resolve("data").toString(), "--results-dir",
                directory.resolve("results").toString());
        BenchMain.Completed run = SuiteRuns.run(options);
        assertEquals(2 * OltpEngine.values().length * OltpWorkload.values().length, run.results().size());
        for (Class<?> clients : List.of(OltpOneClientBenchmark.class, OltpFourClientsBenchmark.class)) {
            for (OltpEngine engine : OltpEngine.values()) {
                for (OltpWorkload workload : OltpWorkload.values()) {
                    List<RunResult> selected = RunResults.select(run.results(), clients, "engine", engine.name(),
                            "workload", workload.name());
                    String name = clients.getSimpleName() + " " + engine + " " + workload;
                    assertEquals(1, selected.size(), name);
                    RunResult result = selected.getFirst();
                    double statements = figure(result, OltpDatabase.STATEMENTS_PER_SECOND);
                    assertTrue(statements > 0, name);
                    assertEquals(statements * workload.rowsPerStatement(), figure(result, OltpDatabase.ROWS_PER_SECOND),
                            statements * 1e-9, name);
                    if (engine.columba() && workload.writes()) {
                        assertTrue(RunResults.figure(result, OltpDatabase.COMMITS_PER_SYNC).orElseThrow(
                                () -> new AssertionError("commitsPerSync missing: " + name)) > 0, name);
                    }
                    double p50 = figure(result, OltpDatabase.LATENCY_P50);
                    assertTrue(p50 > 0 && p50 <= figure(result, OltpDatabase.LATENCY_P99), name);
                }
            }
        }
        String again = OltpDatabases.prepare(directory.resolve("data"), 2000, new PrintStream(PrintStream.nullOutputStream()));
        assertTrue(again.contains("Columba reused, H2 reused, SQLite reused, DuckDB reused, Columba over pgwire reused"), again);
        String report = Files.readString(run.directory().resolve(BenchMain.REPORT));
        assertTrue(report.contains("Short mode: t of 2000 rows, 100 ms per client and iteration"), report);
        assertTrue(report.contains("### Statements per second"), report);
        assertTrue(report.contains("| prepared point select | 1 |"), report);
        assertTrue(report.contains("### Four clients over one, and Columba's commits per log sync"), report);
        assertTrue(report.contains("### Latency per statement, p50 / p99"), report);
        SuiteRuns.assertCharts(run, "throughput-1.png", "throughput-4.png", "ratios-1.png");
        SuiteRuns.assertReportRewritesTheSame(run);
    }
}
