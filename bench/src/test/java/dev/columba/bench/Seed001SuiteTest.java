package dev.columba.bench;

import static dev.columba.bench.SuiteRuns.count;
import static dev.columba.bench.SuiteRuns.figure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.bench.columnstore.CommentsScanBenchmark;
import dev.columba.bench.columnstore.CommentsTables;
import dev.columba.bench.columnstore.CommentsTables.Layout;
import dev.columba.bench.harness.RunResults;
import dev.columba.bench.harness.ScanIoMetrics;
import dev.columba.columnstore.build.TrimReason;
import dev.columba.core.settings.StandardSettings;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.results.RunResult;

/**
 * Runs the seed001 suite end to end through JMH in its short mode — 20,000 rows per table,
 * rowgroups of 8,192 rows with a 128 KB dictionary cap — one cold scan per configuration, read-ahead
 * on and off, in this JVM (forks 0), and checks what a run must get right whatever the machine:
 * every scan produced every row, the layouts differ as seed 001 says (trim cuts the Text table's
 * rowgroups short, fallback keeps them full, without Text both are the same), and the counters add
 * up. It asserts no timing.
 */
class Seed001SuiteTest {
    private static final int ROWS = Integer.parseInt(CommentsTables.SHORT_ROWS);
    private static final int TINY_ROWGROUP_ROWS = CommentsTables.RowgroupSize.TINY.rowgroupMaxRows();
    private static final int FULL_ROWGROUPS = (ROWS + TINY_ROWGROUP_ROWS - 1) / TINY_ROWGROUP_ROWS;

    @TempDir
    Path directory;

    @Test
    void everyTableScansColdWithTheLayoutSeed001DescribesAndCountersThatAddUp() throws Exception {
        Path data = directory.resolve("data");
        BenchOptions options = BenchOptions.parse("seed001", "--short", "--forks", "0", "--warmup", "0",
                "--iterations", "1", "-p", "readAhead=true,false",
                "--data-dir", data.toString(), "--results-dir", directory.resolve("results").toString());
        BenchMain.Completed run = SuiteRuns.run(options);
        assertEquals(12, run.results().size(), "3 layouts x with/without Text x read-ahead on/off");
        CommentsTables.Description tables = CommentsTables.prepare(data, ROWS, CommentsTables.RowgroupSize.TINY,
                new PrintStream(PrintStream.nullOutputStream()));
        assertFalse(tables.loadedNow(), "the suite's tables are reused");

        for (Layout layout : Layout.values()) {
            for (boolean text : new boolean[] {true, false}) {
                for (boolean readAhead : new boolean[] {true, false}) {
                    RunResult scan = scan(run, layout, text, readAhead);
                    String name = layout.tableName(text) + ", read-ahead " + readAhead;
                    assertEquals(ROWS, count(scan, CommentsScanBenchmark.ROWS), name);
                    assertTrue(figure(scan, CommentsScanBenchmark.THREAD_CPU) > 0, name);
                    assertTrue(figure(scan, CommentsScanBenchmark.TABLE_SIZE) > 0, name);
                    assertTrue(RunResults.figure(scan, ScanIoMetrics.PROCESS_READ).isPresent(), name);
                }
            }
        }

        // Without Text nothing overflows: trim and fallback lay the table out alike, full rowgroups and a partial last one.
        for (Layout layout : List.of(Layout.COLUMNSTORE_TRIM, Layout.COLUMNSTORE_FALLBACK)) {
            RunResult narrow = scan(run, layout, false, true);
            assertEquals(FULL_ROWGROUPS, count(narrow, CommentsScanBenchmark.ROWGROUPS), layout.name());
            assertEquals(FULL_ROWGROUPS - 1, count(narrow,
                            CommentsScanBenchmark.rowgroupSizeBin(Integer.numberOfTrailingZeros(TINY_ROWGROUP_ROWS))),
                    layout.name() + ": the full rowgroups are in the bin of at most their size");
            assertEquals(FULL_ROWGROUPS - 1, count(narrow, CommentsScanBenchmark.trimMetric(TrimReason.NO_TRIM)));
            assertEquals(1, count(narrow, CommentsScanBenchmark.trimMetric(TrimReason.BULKLOAD)));
        }
        // With Text, fallback keeps the rowgroups full and gives every Text segment's dictionary up ...
        RunResult fallback = scan(run, Layout.COLUMNSTORE_FALLBACK, true, true);
        assertEquals(FULL_ROWGROUPS, count(fallback, CommentsScanBenchmark.ROWGROUPS));
        assertEquals(FULL_ROWGROUPS, count(fallback, CommentsScanBenchmark.TEXT_FALLBACKS));
        // ... and trim cuts them short for the Text dictionary: many more, much smaller rowgroups.
        RunResult trim = scan(run, Layout.COLUMNSTORE_TRIM, true, true);
        long trimmed = count(trim, CommentsScanBenchmark.ROWGROUPS);
        assertTrue(trimmed >= 5L * FULL_ROWGROUPS, trimmed + " rowgroups under trim");
        assertEquals(trimmed - 1, count(trim, CommentsScanBenchmark.trimMetric(TrimReason.DICTIONARY_SIZE)),
                "every rowgroup but the last is cut by the dictionary");
        assertEquals((double) ROWS / trimmed, figure(trim, CommentsScanBenchmark.ROWS_PER_ROWGROUP), 1e-6);
        assertEquals(0, count(trim, CommentsScanBenchmark.TEXT_FALLBACKS));
        assertTrue(figure(trim, CommentsScanBenchmark.TEXT_DICTIONARY_MAX_SIZE) * ScanIoMetrics.MEGABYTE
                <= CommentsTables.RowgroupSize.TINY.dictionaryCapBytes(), "no dictionary outgrows its cap");

        for (Layout layout : List.of(Layout.COLUMNSTORE_TRIM, Layout.COLUMNSTORE_FALLBACK)) {
            for (boolean text : new boolean[] {true, false}) {
                String name = layout.tableName(text);
                RunResult on = scan(run, layout, text, true);
                long binned = 0;
                for (int bin = 0; bin <= CommentsScanBenchmark.LARGEST_ROWGROUP_SIZE_BIN; bin++) {
                    OptionalDouble rowgroups = RunResults.figure(on, CommentsScanBenchmark.rowgroupSizeBin(bin));
                    binned += rowgroups.isPresent() ? count(on, CommentsScanBenchmark.rowgroupSizeBin(bin)) : 0;
                }
                assertEquals(count(on, CommentsScanBenchmark.ROWGROUPS), binned, name + ": every rowgroup in one bin");
                long readAhead = count(on, ScanIoMetrics.LOB_READ_AHEAD_READS);
                assertTrue(readAhead > 0, name + ": a cold columnstore scan reads segments ahead");
                assertTrue(count(on, CommentsScanBenchmark.READ_AHEAD_REQUESTS) > 0, name);
                assertTrue(count(on, CommentsScanBenchmark.READ_AHEAD_REQUESTS_AHEAD) > 0,
                        name + ": the default window reads the next rowgroups ahead");
                assertTrue(figure(on, CommentsScanBenchmark.LARGEST_READ_AHEAD) <= 8192, name + ": at most 8 MB a request");
                assertEquals(readAhead + count(on, ScanIoMetrics.READ_AHEAD_READS),
                        count(on, ScanIoMetrics.READ_AHEAD_USED) + count(on, ScanIoMetrics.READ_AHEAD_WASTED),
                        name + ": each page read ahead is used or wasted");
                assertTrue(count(on, ScanIoMetrics.LOB_LOGICAL_READS) > 0, name);

                RunResult off = scan(run, layout, text, false);
                assertEquals(0, count(off, CommentsScanBenchmark.READ_AHEAD_REQUESTS), name + ": no MADV_WILLNEED");
                assertEquals(0, count(off, CommentsScanBenchmark.READ_AHEAD_REQUESTS_AHEAD), name);
                assertEquals(0, count(off, ScanIoMetrics.LOB_READ_AHEAD_READS), name);
                assertTrue(count(off, ScanIoMetrics.LOB_PHYSICAL_READS) > 0, name + ": every segment page faults in");
                assertEquals(count(on, ScanIoMetrics.LOB_LOGICAL_READS), count(off, ScanIoMetrics.LOB_LOGICAL_READS),
                        name + ": read-ahead changes how segments arrive, not how many are read");
            }
        }

        for (boolean text : new boolean[] {true, false}) {
            String name = Layout.ROWSTORE.tableName(text);
            long leaves = tables.table(Layout.ROWSTORE, text).leafPages();
            RunResult on = scan(run, Layout.ROWSTORE, text, true);
            assertTrue(count(on, ScanIoMetrics.READ_AHEAD_READS) > 0, name);
            assertTrue(count(on, ScanIoMetrics.PHYSICAL_READS) + count(on, ScanIoMetrics.READ_AHEAD_READS) >= leaves,
                    name + ": every leaf of a cold scan comes from storage");
            assertEquals(0, count(on, ScanIoMetrics.LOB_LOGICAL_READS), name + ": Text stays in row");
            RunResult off = scan(run, Layout.ROWSTORE, text, false);
            assertEquals(0, count(off, ScanIoMetrics.READ_AHEAD_READS), name);
            assertEquals(0, count(off, CommentsScanBenchmark.READ_AHEAD_REQUESTS), name);
            assertEquals(count(off, ScanIoMetrics.PHYSICAL_READS), count(off, ScanIoMetrics.READ_IOS),
                    name + ": one I/O per page without read-ahead");
        }

        assertTrue(Files.readString(run.directory().resolve(BenchMain.JSON_RESULT))
                .contains("dev.columba.bench.columnstore.CommentsScanBenchmark.scan"));
        String report = Files.readString(run.directory().resolve(BenchMain.REPORT));
        assertTrue(report.contains("### Seed 001: the article's ratios beside Columba's"), report);
        assertTrue(report.contains("| `Comments_CCI_Trim` | columnstore, dictionary_overflow = trim | 20,000 |"), report);
        assertTrue(report.contains("Short mode: tables of 20000 rows, TINY rowgroups"), report);
        SuiteRuns.assertCharts(run, "rowgroup-sizes.png", "elapsed-and-cpu.png", "read-ahead-requests.png");
        SuiteRuns.assertReportRewritesTheSame(run);
    }

    @Test
    void theWindowParameterDefaultsToTheSetting() throws NoSuchFieldException {
        Param depth = CommentsScanBenchmark.class.getField("readAheadDepth").getAnnotation(Param.class);
        assertEquals(List.of(String.valueOf(StandardSettings.COLUMNSTORE_READ_AHEAD_DEPTH.defaultValue())),
                List.of(depth.value()));
    }

    private static RunResult scan(BenchMain.Completed run, Layout layout, boolean text, boolean readAhead) {
        List<RunResult> selected = RunResults.select(run.results(), CommentsScanBenchmark.class, "layout",
                layout.name(), "text", String.valueOf(text), "readAhead", String.valueOf(readAhead));
        assertEquals(1, selected.size(), layout + ", text " + text + ", read-ahead " + readAhead);
        return selected.getFirst();
    }
}
