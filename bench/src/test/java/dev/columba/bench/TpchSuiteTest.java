package dev.columba.bench;

import static dev.columba.bench.SuiteRuns.figure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.bench.harness.RunResults;
import dev.columba.bench.peers.Peer;
import dev.columba.bench.peers.PeerQueryBenchmark;
import dev.columba.bench.tpch.TpchDatabases;
import dev.columba.bench.tpch.TpchQueryBenchmark;
import dev.columba.bench.tpch.TpchText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.RunResult;

/**
 * Runs the tpch suite end to end through JMH in short mode (TPC-H scale factor 0.01), in this JVM
 * (forks 0), and checks what a run must get right whatever the machine: every text was checked on
 * both engines before timing; every text the check found measurable ran on both engines warm and
 * cold with its planning time (each answer checked against DuckDB's); a text Columba does not run
 * verbatim is named in the report with Columba's error and, if an adaptation agrees, measured as
 * an adapted text; the report gives the ratios, their geometric mean and the charts. It asserts no
 * timing.
 */
class TpchSuiteTest {
    @TempDir
    Path directory;

    @Test
    void everyMeasurableQueryRunsOnBothEnginesAndTheRestAreReportedWithTheirErrors() throws Exception {
        Path data = directory.resolve("data");
        BenchOptions options = BenchOptions.parse("tpch", "--short", "--forks", "0", "--warmup", "0",
                "--iterations", "1", "--data-dir", data.toString(), "--results-dir", directory.resolve("results").toString());
        BenchMain.Completed run = SuiteRuns.run(options);

        TpchDatabases.Description databases = TpchDatabases.recorded(data, 0.01).orElseThrow();
        List<TpchText> measured = databases.measured();
        assertTrue(measured.size() >= 20, "most of the 22 queries run on Columba: " + databases.checks());
        assertEquals(measured.size() * 2 * 2, run.results().size());
        String report = Files.readString(run.directory().resolve(BenchMain.REPORT));
        for (TpchText text : TpchText.values()) {
            TpchDatabases.Check check = databases.checks().get(text);
            switch (check.verdict()) {
                case AGREED -> {
                    for (Peer engine : TpchDatabases.ENGINES) {
                        for (PeerQueryBenchmark.Cache cache : PeerQueryBenchmark.Cache.values()) {
                            RunResult result = result(run, engine, text, cache);
                            assertTrue(figure(result, TpchQueryBenchmark.PLANNING) > 0, text + " " + engine);
                            assertTrue(figure(result, TpchQueryBenchmark.PLANNING_WARM) > 0, text + " " + engine);
                        }
                    }
                    assertTrue(report.contains("| " + text.title() + " | "), text.title());
                }
                case REJECTED, DISAGREED -> {
                    assertTrue(text.verbatim(), "an adaptation that fails is a bug in the adaptation: " + check);
                    assertFalse(check.detail().isEmpty(), text.title());
                    assertTrue(report.contains(text.title() + ": Columba "), report);
                    assertTrue(report.contains(check.detail().substring(0, Math.min(40, check.detail().length()))), report);
                }
                case NOT_NEEDED -> assertEquals(TpchDatabases.Verdict.AGREED, databases.checks().get(text.original()).verdict());
                case UNCHECKED -> throw new AssertionError(text + " was not checked");
            }
        }
        assertTrue(report.contains("Short mode: the TPC-H tables at scale factor 0.01"), report);
        assertTrue(report.contains("### Elapsed time per query (median seconds) and Columba ÷ DuckDB"), report);
        assertTrue(report.contains("- Geometric mean of CS ÷ DuckDB, warm, over "), report);
        assertTrue(report.contains("- Geometric mean of CS ÷ DuckDB, cold, over "), report);
        assertTrue(report.contains("### TpchQueryBenchmark"), report);
        SuiteRuns.assertCharts(run, "ratios.png", "planning.png");
        SuiteRuns.assertReportRewritesTheSame(run);
    }

    private static RunResult result(BenchMain.Completed run, Peer engine, TpchText text, PeerQueryBenchmark.Cache cache) {
        List<RunResult> selected = RunResults.select(run.results(), TpchQueryBenchmark.class, "engine", engine.name(),
                "query", text.name(), "cache", cache.name());
        assertEquals(1, selected.size(), engine + " " + text + " " + cache);
        return selected.getFirst();
    }
}
