package dev.columba.bench;

import static dev.columba.bench.SuiteRuns.count;
import static dev.columba.bench.SuiteRuns.figure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.bench.harness.RunResults;
import dev.columba.bench.harness.ScanIoMetrics;
import dev.columba.bench.peers.LineitemDatabases;
import dev.columba.bench.peers.Peer;
import dev.columba.bench.peers.PeerQueryBenchmark;
import dev.columba.bench.peers.TpchQuery;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.RunResult;

/**
 * Runs the peers suite end to end through JMH in short mode (TPC-H scale factor 0.01), one query
 * per configuration, in this JVM (forks 0), and checks what a run must get right whatever the
 * machine: all 24 configurations ran (every result was checked against the one the four engines
 * agreed on), a cold run starts with the engine's files out of the page cache and reads from
 * storage, Columba reports its counters and the peers do not, and the report, its charts and its
 * rewrite from the JSON come out. It asserts no timing.
 */
class PeersSuiteTest {
    @TempDir
    Path directory;

    @Test
    void everyEngineRunsEveryQueryWarmAndColdWithItsReadsCounted() throws Exception {
        Path data = directory.resolve("data");
        BenchOptions options = BenchOptions.parse("peers", "--short", "--forks", "0", "--warmup", "0",
                "--iterations", "1", "--data-dir", data.toString(), "--results-dir", directory.resolve("results").toString());
        BenchMain.Completed run = SuiteRuns.run(options);
        assertEquals(Peer.values().length * TpchQuery.values().length * 2, run.results().size());
        LineitemDatabases.Description databases = LineitemDatabases.prepare(data, 0.01,
                new PrintStream(PrintStream.nullOutputStream()));
        assertFalse(databases.loadedNow(), "the suite's databases are reused");
        assertEquals(60_175, databases.rows(), "dbgen's lineitem at scale factor 0.01");

        for (Peer peer : Peer.values()) {
            for (TpchQuery query : TpchQuery.values()) {
                RunResult cold = result(run, peer, query, PeerQueryBenchmark.Cache.COLD);
                String name = peer + " " + query + " cold";
                double databaseMb = figure(cold, PeerQueryBenchmark.DATABASE_SIZE);
                assertTrue(databaseMb > 0, name);
                assertTrue(figure(cold, PeerQueryBenchmark.RESIDENT_BEFORE) < databaseMb / 20,
                        name + ": starts with the database's files out of the page cache");
                assertTrue(figure(cold, ScanIoMetrics.PROCESS_READ) > 0, name + ": reads from storage");
                // A query of a few milliseconds may fall between the CPU clock's ticks: present, not positive.
                assertTrue(RunResults.figure(cold, PeerQueryBenchmark.PROCESS_CPU).isPresent(), name);
                if (peer.isColumba()) {
                    long fromStorage = count(cold, ScanIoMetrics.PHYSICAL_READS) + count(cold, ScanIoMetrics.LOB_PHYSICAL_READS)
                            + count(cold, ScanIoMetrics.READ_AHEAD_READS) + count(cold, ScanIoMetrics.LOB_READ_AHEAD_READS);
                    assertTrue(fromStorage > 0, name + ": Columba counts its reads");
                    assertTrue(RunResults.figure(cold, ScanIoMetrics.COUNTERS_TO_PROCESS).isPresent(), name);
                } else {
                    assertTrue(RunResults.figure(cold, ScanIoMetrics.PHYSICAL_READS).isEmpty(), name
                            + ": a peer has no Columba counters");
                }
                RunResult warm = result(run, peer, query, PeerQueryBenchmark.Cache.WARM);
                assertTrue(RunResults.figure(warm, ScanIoMetrics.PROCESS_READ).isPresent(), peer + " " + query + " warm");
            }
        }
        // A warm Columba rowstore query finds every page in the buffer pool: nothing comes from storage.
        RunResult warmRowstore = result(run, Peer.COLUMBA_ROWSTORE, TpchQuery.SCAN, PeerQueryBenchmark.Cache.WARM);
        assertEquals(0, count(warmRowstore, ScanIoMetrics.PHYSICAL_READS) + count(warmRowstore, ScanIoMetrics.READ_AHEAD_READS));

        String report = Files.readString(run.directory().resolve(BenchMain.REPORT));
        assertTrue(report.contains("Short mode: TPC-H lineitem at scale factor 0.01"), report);
        assertTrue(report.contains("### Elapsed time per query (median seconds)"), report);
        assertTrue(report.contains("| TPC-H Q1 | cold |"), report);
        assertTrue(report.contains("### CPU time per query"), report);
        assertTrue(report.contains("### Bytes read from storage, cold"), report);
        assertTrue(report.contains("### Columba's I/O counters, cold"), report);
        assertTrue(report.contains("### PeerQueryBenchmark"), report);
        SuiteRuns.assertCharts(run, "elapsed-cold.png", "elapsed-warm.png", "ratios.png", "read-cold.png");
        SuiteRuns.assertReportRewritesTheSame(run);
    }

    private static RunResult result(BenchMain.Completed run, Peer peer, TpchQuery query, PeerQueryBenchmark.Cache cache) {
        List<RunResult> selected = RunResults.select(run.results(), PeerQueryBenchmark.class, "engine", peer.name(),
                "query", query.name(), "cache", cache.name());
        assertEquals(1, selected.size(), peer + " " + query + " " + cache);
        return selected.getFirst();
    }
}
