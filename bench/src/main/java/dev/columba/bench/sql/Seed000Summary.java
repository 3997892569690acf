package dev.columba.bench.sql;

import static dev.columba.bench.harness.ReportCells.bytes;
import static dev.columba.bench.harness.ReportCells.medianAndRange;
import static dev.columba.bench.harness.ReportCells.number;
import static dev.columba.bench.harness.ReportCells.quotient;
import static dev.columba.bench.harness.ReportCells.threeDecimals;

import dev.columba.bench.harness.BarChart;
import dev.columba.bench.harness.Configuration;
import dev.columba.bench.harness.ReportCells;
import dev.columba.bench.harness.ReportCharts;
import dev.columba.bench.harness.RunResults;
import dev.columba.bench.harness.ScanIoMetrics;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Properties;
import java.util.TreeSet;
import java.util.function.Function;
import org.openjdk.jmh.results.RunResult;

/**
 * The seed000 suite's part of the report: the article's elapsed times with read-ahead (trace flag
 * 652) and prefetch (8744) on and off, and their ratios, beside Columba's, for each background
 * load that was run; the counters of every configuration; charts. States figures; judges nothing.
 */
public final class Seed000Summary {
    /** The article's STATISTICS TIME figures, measured with diskspd loading the disk. */
    static final double ARTICLE_SCAN_OFF_MS = 13_978;
    static final double ARTICLE_SCAN_ON_MS = 2_587;
    static final double ARTICLE_JOIN_OFF_MS = 37_398;
    static final double ARTICLE_JOIN_ON_MS = 2_565;

    private Seed000Summary() {
    }

    /** Lines describing the tables and the plans of the two queries, for the report's run section. */
    public static List<String> describe(Seed000Tables.Description tables, long scanBelow, long joinBelow) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "Tables `TestTable` (unique clustered on `ID`) and `Testtable2` (unique "
                        + "clustered on `IDvarchar`, plus unique index `ix_IDVARCHAR`) as seed 000 makes them, %,d rows each: "
                        + "%,d and %,d pages (%,d and %,d leaves), the index %,d pages.", tables.rows(),
                tables.testTablePages(), tables.testtable2Pages(), tables.testTableLeafPages(),
                tables.testtable2LeafPages(), tables.indexPages()));
        lines.add(String.format(Locale.ROOT, "%s in %.0f s into `%s`.", tables.loadedNow() ? "Loaded by this run"
                : "Reused; loaded earlier", tables.loadSeconds(), tables.directory()));
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", "16MB");
        try (SqlDatabase database = SqlDatabase.open(tables.directory(), settings)) {
            lines.add("Plan of `" + RangeScanBenchmark.sql(scanBelow) + "`: " + plan(database.explain(
                    RangeScanBenchmark.sql(scanBelow))) + ".");
            String join = PrefetchJoinBenchmark.sql(joinBelow);
            lines.add("Plan of the join (`ID < " + joinBelow + "`, `OPTION (RECOMPILE, LOOP JOIN, MAXDOP 1)`): "
                    + plan(database.explain(join)) + "; after `DBCC TRACEON (8744)` the same without "
                    + "`WithUnorderedPrefetch`.");
        }
        return lines;
    }

    private static String plan(List<String> lines) {
        List<String> operators = new ArrayList<>();
        for (String line : lines) {
            operators.add("`" + line.strip() + "`");
        }
        return String.join(" over ", operators);
    }

    /** Markdown: the article's figures beside Columba's, the counters, the charts. */
    public static String keyFigures(Collection<RunResult> results, ReportCharts charts) {
        List<Integer> loads = backgroundLoads(results);
        StringBuilder text = new StringBuilder();
        text.append("### Seed 000: the article's figures beside Columba's\n\n");
        text.append("| figure | article (SQL Server, diskspd loading the disk)");
        for (int load : loads) {
            text.append(" | Columba, ").append(loadName(load));
        }
        text.append(" |\n|---|---").append("|---".repeat(loads.size())).append("|\n");
        row(text, "`ID < 300000` scan, s, read-ahead off (652)", seconds(ARTICLE_SCAN_OFF_MS), loads,
                load -> scoreCell(scan(results, false, load)));
        row(text, "`ID < 300000` scan, s, read-ahead on", seconds(ARTICLE_SCAN_ON_MS), loads,
                load -> scoreCell(scan(results, true, load)));
        row(text, "scan, off / on", times(ARTICLE_SCAN_OFF_MS / ARTICLE_SCAN_ON_MS), loads,
                load -> times(scanRatio(results, load)));
        row(text, "scan bytes per I/O, on / off", "—", loads, load -> bytes(scan(results, true, load)
                .median(ScanIoMetrics.BYTES_PER_IO)) + " / " + bytes(scan(results, false, load)
                .median(ScanIoMetrics.BYTES_PER_IO)));
        row(text, "scan MB/s from storage, on / off", "—", loads, load -> number(scan(results, true, load)
                .median(ScanIoMetrics.STORAGE_RATE)) + " / " + number(scan(results, false, load)
                .median(ScanIoMetrics.STORAGE_RATE)));
        row(text, "loop join `ID < 1000`, s, prefetch off (8744)", seconds(ARTICLE_JOIN_OFF_MS), loads,
                load -> scoreCell(join(results, false, load)));
        row(text, "loop join, s, prefetch on", seconds(ARTICLE_JOIN_ON_MS), loads,
                load -> scoreCell(join(results, true, load)));
        row(text, "join, off / on", times(ARTICLE_JOIN_OFF_MS / ARTICLE_JOIN_ON_MS), loads,
                load -> times(joinRatio(results, load)));
        row(text, "join: Testtable2 pages prefetched, on", "—", loads,
                load -> number(join(results, true, load).median(PrefetchJoinBenchmark.INNER_READ_AHEAD_READS)));
        row(text, "join: Testtable2 physical reads, on / off", "—", loads,
                load -> number(join(results, true, load).median(PrefetchJoinBenchmark.INNER_PHYSICAL_READS)) + " / "
                        + number(join(results, false, load).median(PrefetchJoinBenchmark.INNER_PHYSICAL_READS)));
        text.append("\n");

        List<String> categories = new ArrayList<>();
        List<OptionalDouble> articleRatios = new ArrayList<>();
        List<BarChart.Series> ratios = new ArrayList<>();
        categories.add("scan, off / on");
        categories.add("loop join, off / on");
        articleRatios.add(OptionalDouble.of(ARTICLE_SCAN_OFF_MS / ARTICLE_SCAN_ON_MS));
        articleRatios.add(OptionalDouble.of(ARTICLE_JOIN_OFF_MS / ARTICLE_JOIN_ON_MS));
        ratios.add(new BarChart.Series("article (SQL Server)", articleRatios));
        for (int load : loads) {
            ratios.add(new BarChart.Series("Columba, " + loadName(load), List.of(scanRatio(results, load),
                    joinRatio(results, load))));
        }
        text.append(charts.embed(new BarChart("article-ratios",
                "Elapsed with read-ahead / prefetch off over on: the article's ratios beside Columba's", "ratio",
                categories, ratios, BarChart.Scale.LINEAR)));
        for (int load : loads) {
            List<BarChart.Series> series = new ArrayList<>();
            for (boolean on : new boolean[] {true, false}) {
                series.add(new BarChart.Series(on ? "read-ahead / prefetch on" : "off (652 / 8744)", List.of(
                        scan(results, on, load).medianScore(), join(results, on, load).medianScore())));
            }
            text.append(charts.embed(new BarChart("elapsed-" + (load == 0 ? "idle" : load + "-background-readers"),
                    "Cold elapsed time, " + loadName(load), "seconds", List.of("scan ID < 300000", "loop join ID < 1000"),
                    series, BarChart.Scale.LINEAR)));
        }

        text.append("### Counters\n\n");
        text.append("| query | setting | load | logical reads | physical reads | read-ahead reads | read-ahead used / "
                + "wasted | read I/Os | bytes per I/O | MB/s from storage | (physical + read-ahead) x 8 KB / `read_bytes` |\n");
        text.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (int load : loads) {
            for (boolean on : new boolean[] {true, false}) {
                counters(text, "scan", on ? "read-ahead on" : "read-ahead off", load, scan(results, on, load));
            }
            for (boolean on : new boolean[] {true, false}) {
                counters(text, "loop join", on ? "prefetch on" : "prefetch off", load, join(results, on, load));
            }
        }
        text.append("""

                Medians over the measured iterations, with the range in brackets; ratios are of medians. Every
                run is cold: CHECKPOINT and DBCC DROPCLEANBUFFERS before it (the pool emptied, the data files
                dropped from the page cache), outside the timed call; a run is timed from the statement's start
                to its last row. Read-ahead off is `DBCC TRACEON (652)` in the session (one synchronous 8 KB
                read per page), prefetch off `DBCC TRACEON (8744)`. Background readers: threads reading random
                8 KB blocks of a scratch file with O_DIRECT while the statement runs, the article's diskspd;
                the check against `read_bytes` is made only without them (their reads are the process's too).
                Bytes per I/O = bytes requested from the operating system per read request; MB/s from storage
                = (physical + read-ahead reads) x 8 KB over the statement's time. The article's disk and load
                are not this machine's: compare ratios, not times.
                """);
        return text.toString();
    }

    private static void counters(StringBuilder text, String query, String setting, int load, Configuration run) {
        text.append("| ").append(query).append(" | ").append(setting).append(" | ").append(loadName(load));
        if (run.result() == null) {
            text.append(" | ").append(run.problem()).append(" | | | | | | | |\n");
            return;
        }
        text.append(" | ").append(number(run.median(ScanIoMetrics.LOGICAL_READS)))
                .append(" | ").append(number(run.median(ScanIoMetrics.PHYSICAL_READS)))
                .append(" | ").append(number(run.median(ScanIoMetrics.READ_AHEAD_READS)))
                .append(" | ").append(number(run.median(ScanIoMetrics.READ_AHEAD_USED))).append(" / ")
                .append(number(run.median(ScanIoMetrics.READ_AHEAD_WASTED)))
                .append(" | ").append(number(run.median(ScanIoMetrics.READ_IOS)))
                .append(" | ").append(bytes(run.median(ScanIoMetrics.BYTES_PER_IO)))
                .append(" | ").append(number(run.median(ScanIoMetrics.STORAGE_RATE)))
                .append(" | ").append(threeDecimals(run.median(ScanIoMetrics.COUNTERS_TO_PROCESS)))
                .append(" |\n");
    }

    /** The background loads the run measured (0 for none), in increasing order. */
    private static List<Integer> backgroundLoads(Collection<RunResult> results) {
        TreeSet<Integer> loads = new TreeSet<>();
        for (RunResult result : results) {
            if (RunResults.isOf(result, RangeScanBenchmark.class) || RunResults.isOf(result, PrefetchJoinBenchmark.class)) {
                loads.add(Integer.parseInt(result.getParams().getParam("backgroundThreads")));
            }
        }
        return loads.isEmpty() ? List.of(0) : List.copyOf(loads);
    }

    private static String loadName(int load) {
        return load == 0 ? "idle disk" : load + " background reader" + (load == 1 ? "" : "s");
    }

    private static Configuration scan(Collection<RunResult> results, boolean readAhead, int load) {
        return Configuration.of(results, RangeScanBenchmark.class, "readAhead", String.valueOf(readAhead),
                "backgroundThreads", String.valueOf(load));
    }

    private static Configuration join(Collection<RunResult> results, boolean prefetch, int load) {
        return Configuration.of(results, PrefetchJoinBenchmark.class, "prefetch", String.valueOf(prefetch),
                "backgroundThreads", String.valueOf(load));
    }

    private static OptionalDouble scanRatio(Collection<RunResult> results, int load) {
        return quotient(scan(results, false, load).medianScore(), scan(results, true, load).medianScore());
    }

    private static OptionalDouble joinRatio(Collection<RunResult> results, int load) {
        return quotient(join(results, false, load).medianScore(), join(results, true, load).medianScore());
    }

    private static void row(StringBuilder text, String figure, String article, List<Integer> loads,
                            Function<Integer, String> columba) {
        text.append("| ").append(figure).append(" | ").append(article);
        for (int load : loads) {
            text.append(" | ").append(columba.apply(load));
        }
        text.append(" |\n");
    }

    private static String scoreCell(Configuration run) {
        return run.result() == null ? run.problem()
                : medianAndRange(Optional.of(run.result().getPrimaryResult().getStatistics()));
    }

    private static String seconds(double milliseconds) {
        return RunResults.format(milliseconds / 1000);
    }

    static String times(OptionalDouble ratio) {
        return ratio.isPresent() ? times(ratio.getAsDouble()) : ReportCells.NONE;
    }

    static String times(double ratio) {
        return String.format(Locale.ROOT, "%.1fx", ratio);
    }
}
