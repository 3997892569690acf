package dev.columba.bench.columnstore;

import static dev.columba.bench.harness.ReportCells.number;
import static dev.columba.bench.harness.ReportCells.threeDecimals;
import static dev.columba.bench.harness.RunResults.format;

import dev.columba.bench.harness.BarChart;
import dev.columba.bench.harness.Metric;
import dev.columba.bench.harness.ReportCells;
import dev.columba.bench.harness.ReportCharts;
import dev.columba.bench.harness.RunResults;
import dev.columba.bench.harness.ScanIoMetrics;
import dev.columba.columnstore.build.TrimReason;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.function.Function;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.util.Statistics;

/**
 * The seed001 suite's part of the report: the tables (how they loaded, how the columnstore laid
 * them out), every cold scan's time, CPU, read-ahead and counters, and the article's comparisons
 * beside Columba's — rowgroup count and size with and without Text, and the columnstore-to-rowstore
 * time ratios with and without dictionary pressure. States figures; judges nothing.
 */
public final class Seed001Summary {
    /** The article's figures (SQL Server 2014, 36,585,420 rows, a USB disk of 90 MB/s sequential). */
    private static final double ARTICLE_ROWGROUP_COUNT_RATIO = 10;
    private static final double ARTICLE_ROWGROUP_SIZE_RATIO = 8;
    private static final double ARTICLE_COLUMNSTORE_WITHOUT_TEXT_SECONDS = 12.900;
    private static final double ARTICLE_ROWSTORE_WITHOUT_TEXT_SECONDS = 31.899;
    private static final double ARTICLE_COLUMNSTORE_WITH_TEXT_SECONDS = 261.031;
    private static final double ARTICLE_ROWSTORE_WITH_TEXT_SECONDS = 260.157;
    private static final double ARTICLE_COLUMNSTORE_WITHOUT_TEXT_CPU = 8.687;
    private static final double ARTICLE_ROWSTORE_WITHOUT_TEXT_CPU = 19.235;
    private static final double ARTICLE_COLUMNSTORE_WITH_TEXT_CPU = 69.640;
    private static final double ARTICLE_ROWSTORE_WITH_TEXT_CPU = 26.953;

    private static final List<CommentsTables.Layout> COLUMNSTORES =
            List.of(CommentsTables.Layout.COLUMNSTORE_TRIM, CommentsTables.Layout.COLUMNSTORE_FALLBACK);

    private Seed001Summary() {
    }

    /** Lines describing the tables and their loads, for the report's run section. */
    public static List<String> describe(CommentsTables.Description tables) {
        List<String> lines = new ArrayList<>();
        CommentsTables.RowgroupSize size = tables.rowgroupSize();
        lines.add(String.format(Locale.ROOT, "Tables (seed 001): StackOverflow comments from `CommentsGenerator` "
                        + "(seed %d), %,d rows each, with Text (`Id, CreationDate, PostId, Score, Text VARCHAR(700), "
                        + "UserId`) and without (`_Modified`); columnstore rowgroups of at most %,d rows, dictionary "
                        + "cap %s (`%s`); rowstore clustered on `Id`.", CommentsTables.SEED, tables.rows(),
                size.rowgroupMaxRows(), bytes(size.dictionaryCapBytes()), size.name()));
        StringBuilder loads = new StringBuilder(tables.loadedNow() ? "Loaded by this run into `" : "Reused from `")
                .append(tables.directory()).append("`").append(tables.loadedNow() ? "" : " (load figures from then)")
                .append(": ");
        boolean first = true;
        for (CommentsTables.LoadedTable table : tables.tables().values()) {
            loads.append(first ? "" : "; ").append(String.format(Locale.ROOT, "`%s` %s in %.0f s (%,.0f rows/s)",
                    table.name(), bytes(table.bytes()), table.loadSeconds(), table.rowsPerSecond(tables.rows())));
            first = false;
        }
        lines.add(loads.append(".").toString());
        return lines;
    }

    /**
     * Markdown: the tables' layout and their rowgroup-size distribution, the cold scans with charts of
     * their times and read-ahead requests, the article's ratios beside Columba's, and how to read them.
     */
    public static String keyFigures(Collection<RunResult> results, ReportCharts charts) {
        StringBuilder text = new StringBuilder();
        appendLayout(text, results);
        appendRowgroupSizes(text, results, charts);
        appendScans(text, results);
        text.append(charts.embed(tableChart(results, "elapsed-and-cpu",
                "Cold scans: elapsed and CPU time per table (read-ahead on)", "seconds",
                List.of(new TableFigure("elapsed", "true", result -> OptionalDouble.of(RunResults.medianScore(result))),
                        new TableFigure("thread CPU", "true", result -> ReportCells.divided(RunResults.median(result,
                                CommentsScanBenchmark.THREAD_CPU), 1000)),
                        new TableFigure("process CPU", "true", result -> ReportCells.divided(RunResults.median(result,
                                CommentsScanBenchmark.PROCESS_CPU), 1000)),
                        new TableFigure("elapsed, read-ahead off", "false",
                                result -> OptionalDouble.of(RunResults.medianScore(result)))))));
        text.append(charts.embed(tableChart(results, "read-ahead-requests",
                "Read-ahead request sizes per table (columnstore: MADV_WILLNEED; rowstore: read I/Os)", "KB",
                List.of(new TableFigure("KB per read-ahead request", "true",
                                result -> RunResults.median(result, CommentsScanBenchmark.READ_AHEAD_PER_REQUEST)),
                        new TableFigure("largest request, KB", "true",
                                result -> RunResults.median(result, CommentsScanBenchmark.LARGEST_READ_AHEAD))))));
        appendComparison(text, results);
        text.append("""

                Medians over the measured iterations; ranges in brackets; ratios are of medians. MB = 2^20
                bytes. Every scan is cold (checkpoint and DROPCLEANBUFFERS first) and produces every column
                of every row. Thread CPU is the scanning thread's; process CPU adds the rowstore's read-ahead
                threads and the garbage collector. Columnstore segment reads are the lob counters (8 KB
                units); the non-lob counters are B+tree pages (the rowstore's table, the columnstore's
                rowgroup directory). Scan MB/s = logical reads of both kinds x 8 KB over the elapsed time.
                Counters / read_bytes = (physical + read-ahead reads of both kinds) x 8 KB over
                /proc/self/io read_bytes in the same window. The article's figures are SQL Server 2014 on
                36.6 million rows and a 90 MB/s USB disk; its columnstore-to-rowstore ratios compare the
                same engine's two storages, as Columba's do.
                """);
        return text.toString();
    }

    private static void appendLayout(StringBuilder text, Collection<RunResult> results) {
        text.append("### Tables\n\n");
        text.append("| table | storage | rows | MB | rowgroups | rows / rowgroup | MB / rowgroup | MB / rowgroup "
                + "without Text's segments | trim reasons | Text dictionaries: count, average / largest MB "
                + "| Text segments without a dictionary (of them fallbacks) |\n");
        text.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (CommentsTables.Layout layout : CommentsTables.Layout.values()) {
            for (boolean withText : new boolean[] {true, false}) {
                RunResult result = any(results, layout, withText);
                if (result == null) {
                    continue;
                }
                List<String> cells = new ArrayList<>();
                cells.add("`" + layout.tableName(withText) + "`");
                cells.add(layout.description());
                cells.add(number(RunResults.median(result, CommentsScanBenchmark.ROWS)));
                cells.add(number(RunResults.median(result, CommentsScanBenchmark.TABLE_SIZE)));
                if (layout.isColumnstore()) {
                    cells.add(number(RunResults.median(result, CommentsScanBenchmark.ROWGROUPS)));
                    cells.add(number(RunResults.median(result, CommentsScanBenchmark.ROWS_PER_ROWGROUP)));
                    cells.add(number(RunResults.median(result, CommentsScanBenchmark.MB_PER_ROWGROUP)));
                    cells.add(withText
                            ? number(RunResults.median(result, CommentsScanBenchmark.MB_PER_ROWGROUP_WITHOUT_TEXT))
                            : "no Text");
                    cells.add(trimReasons(result));
                    cells.add(withText ? number(RunResults.median(result, CommentsScanBenchmark.TEXT_DICTIONARIES))
                            + ", " + number(RunResults.median(result, CommentsScanBenchmark.TEXT_DICTIONARY_SIZE))
                            + " / " + number(RunResults.median(result, CommentsScanBenchmark.TEXT_DICTIONARY_MAX_SIZE))
                            : "no Text");
                    cells.add(withText
                            ? number(RunResults.median(result, CommentsScanBenchmark.TEXT_SEGMENTS_WITHOUT_DICTIONARY))
                            + " (" + number(RunResults.median(result, CommentsScanBenchmark.TEXT_FALLBACKS)) + ")"
                            : "no Text");
                } else {
                    for (int cell = 0; cell < 7; cell++) {
                        cells.add("—");
                    }
                }
                text.append("| ").append(String.join(" | ", cells)).append(" |\n");
            }
        }
        text.append("\n");
    }

    /**
     * The chart of how many rows the columnstore tables' rowgroups hold, in power-of-two bins from
     * the smallest to the largest bin any table uses; a note instead if the run did not record it.
     */
    private static void appendRowgroupSizes(StringBuilder text, Collection<RunResult> results, ReportCharts charts) {
        List<String> tables = new ArrayList<>();
        List<RunResult> tableResults = new ArrayList<>();
        int smallestBin = CommentsScanBenchmark.LARGEST_ROWGROUP_SIZE_BIN + 1;
        int largestBin = -1;
        for (CommentsTables.Layout layout : COLUMNSTORES) {
            for (boolean withText : new boolean[] {true, false}) {
                RunResult result = any(results, layout, withText);
                if (result == null) {
                    continue;
                }
                tables.add(layout.tableName(withText));
                tableResults.add(result);
                for (int bin = 0; bin <= CommentsScanBenchmark.LARGEST_ROWGROUP_SIZE_BIN; bin++) {
                    if (RunResults.figure(result, CommentsScanBenchmark.rowgroupSizeBin(bin)).isPresent()) {
                        smallestBin = Math.min(smallestBin, bin);
                        largestBin = Math.max(largestBin, bin);
                    }
                }
            }
        }
        if (tables.isEmpty()) {
            return;
        }
        if (largestBin < 0) {
            text.append("This run did not record the rowgroup-size distribution (its benchmark predates it).\n\n");
            return;
        }
        List<String> bins = new ArrayList<>();
        for (int bin = smallestBin; bin <= largestBin; bin++) {
            bins.add("≤ " + format(1 << bin));
        }
        List<BarChart.Series> series = new ArrayList<>();
        for (int table = 0; table < tables.size(); table++) {
            List<OptionalDouble> counts = new ArrayList<>();
            for (int bin = smallestBin; bin <= largestBin; bin++) {
                OptionalDouble count = RunResults.median(tableResults.get(table), CommentsScanBenchmark.rowgroupSizeBin(bin));
                counts.add(count); // an empty bin has no bar
            }
            series.add(new BarChart.Series(tables.get(table), counts));
        }
        text.append(charts.embed(new BarChart("rowgroup-sizes", "Rowgroups per table by rows per rowgroup",
                "rowgroups", bins, series, BarChart.Scale.LINEAR)));
        text.append("Rows per rowgroup in power-of-two bins: a bin \"≤ N\" holds the rowgroups of more than N/2 and"
                + " at most N rows.\n\n");
    }

    /** A figure of one table's scan for a chart: its name, the scans' read-ahead, and how it is read. */
    private record TableFigure(String name, String readAhead, Function<RunResult, OptionalDouble> value) {
    }

    /**
     * A chart with one group of bars per table that was scanned and one series per figure; a figure
     * is empty for a table unless exactly one configuration of it was run with the figure's read-ahead.
     */
    private static BarChart tableChart(Collection<RunResult> results, String name, String title, String valueAxis,
                                       List<TableFigure> figures) {
        List<String> tables = new ArrayList<>();
        List<List<OptionalDouble>> values = new ArrayList<>();
        for (int figure = 0; figure < figures.size(); figure++) {
            values.add(new ArrayList<>());
        }
        for (CommentsTables.Layout layout : CommentsTables.Layout.values()) {
            for (boolean withText : new boolean[] {true, false}) {
                if (any(results, layout, withText) == null) {
                    continue;
                }
                tables.add(layout.tableName(withText));
                for (int figure = 0; figure < figures.size(); figure++) {
                    List<RunResult> selected = RunResults.select(results, CommentsScanBenchmark.class, "layout",
                            layout.name(), "text", String.valueOf(withText), "readAhead", figures.get(figure).readAhead());
                    values.get(figure).add(selected.size() == 1
                            ? figures.get(figure).value().apply(selected.getFirst()) : OptionalDouble.empty());
                }
            }
        }
        if (tables.isEmpty()) {
            tables.add("not run");
            values.forEach(figure -> figure.add(OptionalDouble.empty()));
        }
        List<BarChart.Series> series = new ArrayList<>();
        for (int figure = 0; figure < figures.size(); figure++) {
            series.add(new BarChart.Series(figures.get(figure).name(), values.get(figure)));
        }
        return new BarChart(name, title, valueAxis, tables, series, BarChart.Scale.LINEAR);
    }

    private static void appendScans(StringBuilder text, Collection<RunResult> results) {
        text.append("### Cold scans\n\n");
        text.append("| table | read-ahead | elapsed s | thread CPU s | process CPU s | scan MB/s | storage MB/s "
                + "| read-ahead requests | largest request KB | KB per request | lob logical / physical / read-ahead "
                + "| logical / physical / read-ahead | read I/Os, KB per I/O | counters / read_bytes |\n");
        text.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (CommentsTables.Layout layout : CommentsTables.Layout.values()) {
            for (boolean withText : new boolean[] {true, false}) {
                for (String readAhead : List.of("true", "false")) {
                    for (RunResult result : RunResults.select(results, CommentsScanBenchmark.class,
                            "layout", layout.name(), "text", String.valueOf(withText), "readAhead", readAhead)) {
                        text.append("| ").append(String.join(" | ", scanCells(result, layout, withText, readAhead)))
                                .append(" |\n");
                    }
                }
            }
        }
        text.append("\n");
    }

    private static List<String> scanCells(RunResult result, CommentsTables.Layout layout, boolean withText,
                                          String readAhead) {
        List<String> cells = new ArrayList<>();
        cells.add("`" + layout.tableName(withText) + "`");
        cells.add(readAheadLabel(result, layout, readAhead));
        Statistics score = result.getPrimaryResult().getStatistics();
        cells.add(format(score.getPercentile(50)) + " (" + format(score.getMin()) + "–" + format(score.getMax()) + ")");
        cells.add(seconds(RunResults.median(result, CommentsScanBenchmark.THREAD_CPU)));
        cells.add(seconds(RunResults.median(result, CommentsScanBenchmark.PROCESS_CPU)));
        cells.add(number(RunResults.median(result, ScanIoMetrics.SCAN_RATE)));
        cells.add(number(RunResults.median(result, ScanIoMetrics.STORAGE_RATE)));
        OptionalDouble ahead = RunResults.median(result, CommentsScanBenchmark.READ_AHEAD_REQUESTS_AHEAD);
        cells.add(number(RunResults.median(result, CommentsScanBenchmark.READ_AHEAD_REQUESTS))
                + (ahead.isPresent() ? " (" + format(ahead.getAsDouble()) + " ahead)" : ""));
        cells.add(number(RunResults.median(result, CommentsScanBenchmark.LARGEST_READ_AHEAD)));
        cells.add(number(RunResults.median(result, CommentsScanBenchmark.READ_AHEAD_PER_REQUEST)));
        cells.add(triple(result, ScanIoMetrics.LOB_LOGICAL_READS, ScanIoMetrics.LOB_PHYSICAL_READS,
                ScanIoMetrics.LOB_READ_AHEAD_READS));
        cells.add(triple(result, ScanIoMetrics.LOGICAL_READS, ScanIoMetrics.PHYSICAL_READS,
                ScanIoMetrics.READ_AHEAD_READS));
        OptionalDouble bytesPerIo = RunResults.median(result, ScanIoMetrics.BYTES_PER_IO);
        cells.add(number(RunResults.median(result, ScanIoMetrics.READ_IOS)) + ", "
                + (bytesPerIo.isPresent() ? format(bytesPerIo.getAsDouble() / 1024) : "—"));
        cells.add(threeDecimals(RunResults.median(result, ScanIoMetrics.COUNTERS_TO_PROCESS)));
        return cells;
    }

    private static void appendComparison(StringBuilder text, Collection<RunResult> results) {
        text.append("### Seed 001: the article's ratios beside Columba's (read-ahead on)\n\n");
        text.append("| figure | article (SQL Server) | Columba, `trim` | Columba, `fallback` |\n");
        text.append("|---|---|---|---|\n");
        comparison(text, "rowgroups, with Text / without Text", "≈" + format(ARTICLE_ROWGROUP_COUNT_RATIO) + "x",
                layout -> ratio(figure(results, layout, true, CommentsScanBenchmark.ROWGROUPS),
                        figure(results, layout, false, CommentsScanBenchmark.ROWGROUPS)));
        comparison(text, "rows per rowgroup, without Text / with Text", "≈" + format(ARTICLE_ROWGROUP_COUNT_RATIO) + "x",
                layout -> ratio(figure(results, layout, false, CommentsScanBenchmark.ROWS_PER_ROWGROUP),
                        figure(results, layout, true, CommentsScanBenchmark.ROWS_PER_ROWGROUP)));
        comparison(text, "MB per rowgroup, without Text / with Text", "≈" + format(ARTICLE_ROWGROUP_SIZE_RATIO) + "x",
                layout -> ratio(figure(results, layout, false, CommentsScanBenchmark.MB_PER_ROWGROUP),
                        figure(results, layout, true, CommentsScanBenchmark.MB_PER_ROWGROUP)));
        comparison(text, "MB per rowgroup, without Text / with Text counting its other columns' segments only",
                "—", layout -> ratio(figure(results, layout, false, CommentsScanBenchmark.MB_PER_ROWGROUP),
                        figure(results, layout, true, CommentsScanBenchmark.MB_PER_ROWGROUP_WITHOUT_TEXT)));
        comparison(text, "largest read-ahead request with Text, KB", "—",
                layout -> number(figure(results, layout, true, CommentsScanBenchmark.LARGEST_READ_AHEAD)));
        comparison(text, "KB per read-ahead request, with Text / without Text", "—",
                layout -> number(figure(results, layout, true, CommentsScanBenchmark.READ_AHEAD_PER_REQUEST)) + " / "
                        + number(figure(results, layout, false, CommentsScanBenchmark.READ_AHEAD_PER_REQUEST)));
        comparison(text, "elapsed, columnstore / rowstore, without Text",
                articleRatio(ARTICLE_COLUMNSTORE_WITHOUT_TEXT_SECONDS, ARTICLE_ROWSTORE_WITHOUT_TEXT_SECONDS),
                layout -> ratio(elapsed(results, layout, false), elapsed(results, CommentsTables.Layout.ROWSTORE, false)));
        comparison(text, "elapsed, columnstore / rowstore, with Text",
                articleRatio(ARTICLE_COLUMNSTORE_WITH_TEXT_SECONDS, ARTICLE_ROWSTORE_WITH_TEXT_SECONDS),
                layout -> ratio(elapsed(results, layout, true), elapsed(results, CommentsTables.Layout.ROWSTORE, true)));
        comparison(text, "thread CPU, columnstore / rowstore, without Text",
                articleRatio(ARTICLE_COLUMNSTORE_WITHOUT_TEXT_CPU, ARTICLE_ROWSTORE_WITHOUT_TEXT_CPU),
                layout -> ratio(figure(results, layout, false, CommentsScanBenchmark.THREAD_CPU),
                        figure(results, CommentsTables.Layout.ROWSTORE, false, CommentsScanBenchmark.THREAD_CPU)));
        comparison(text, "thread CPU, columnstore / rowstore, with Text",
                articleRatio(ARTICLE_COLUMNSTORE_WITH_TEXT_CPU, ARTICLE_ROWSTORE_WITH_TEXT_CPU),
                layout -> ratio(figure(results, layout, true, CommentsScanBenchmark.THREAD_CPU),
                        figure(results, CommentsTables.Layout.ROWSTORE, true, CommentsScanBenchmark.THREAD_CPU)));
        comparison(text, "elapsed, columnstore with Text / without Text",
                articleRatio(ARTICLE_COLUMNSTORE_WITH_TEXT_SECONDS, ARTICLE_COLUMNSTORE_WITHOUT_TEXT_SECONDS),
                layout -> ratio(elapsed(results, layout, true), elapsed(results, layout, false)));
        comparison(text, "table size, columnstore / rowstore, with Text", "0.88 (5.6 GB / 6.4 GB)",
                layout -> ratio(figure(results, layout, true, CommentsScanBenchmark.TABLE_SIZE),
                        figure(results, CommentsTables.Layout.ROWSTORE, true, CommentsScanBenchmark.TABLE_SIZE)));
    }

    private interface ColumnstoreFigure {
        String of(CommentsTables.Layout layout);
    }

    private static void comparison(StringBuilder text, String figure, String article, ColumnstoreFigure columba) {
        text.append("| ").append(figure).append(" | ").append(article);
        for (CommentsTables.Layout layout : COLUMNSTORES) {
            text.append(" | ").append(columba.of(layout));
        }
        text.append(" |\n");
    }

    /**
     * The result of {@code layout} with or without Text, read-ahead on, if exactly one was run — or,
     * when the run varied the columnstore's window, the one with the default window.
     */
    private static RunResult onlyWithReadAhead(Collection<RunResult> results, CommentsTables.Layout layout,
                                               boolean withText) {
        List<RunResult> selected = RunResults.select(results, CommentsScanBenchmark.class, "layout", layout.name(),
                "text", String.valueOf(withText), "readAhead", "true");
        if (selected.size() > 1) {
            selected = RunResults.select(selected, CommentsScanBenchmark.class,
                    "readAheadDepth", CommentsScanBenchmark.DEFAULT_READ_AHEAD_DEPTH);
        }
        return selected.size() == 1 ? selected.getFirst() : null;
    }

    /** "on" or "off", and for a columnstore with read-ahead its window: how far it reads ahead. */
    private static String readAheadLabel(RunResult result, CommentsTables.Layout layout, String readAhead) {
        if (!readAhead.equals("true")) {
            return "off";
        }
        if (!layout.isColumnstore()) {
            return "on";
        }
        long depth = Long.parseLong(result.getParams().getParam("readAheadDepth"));
        return depth == 0 ? "on, current rowgroup only" : "on, window " + bytes(depth);
    }

    /** A result of the table, for its layout figures (the same whatever the scan's options). */
    private static RunResult any(Collection<RunResult> results, CommentsTables.Layout layout, boolean withText) {
        List<RunResult> selected = RunResults.select(results, CommentsScanBenchmark.class, "layout", layout.name(),
                "text", String.valueOf(withText));
        return selected.isEmpty() ? null : selected.getFirst();
    }

    private static OptionalDouble figure(Collection<RunResult> results, CommentsTables.Layout layout, boolean withText,
                                         Metric metric) {
        RunResult result = onlyWithReadAhead(results, layout, withText);
        return result == null ? OptionalDouble.empty() : RunResults.median(result, metric);
    }

    private static OptionalDouble elapsed(Collection<RunResult> results, CommentsTables.Layout layout, boolean withText) {
        RunResult result = onlyWithReadAhead(results, layout, withText);
        return result == null ? OptionalDouble.empty() : OptionalDouble.of(RunResults.medianScore(result));
    }

    private static String trimReasons(RunResult result) {
        List<String> reasons = new ArrayList<>();
        for (TrimReason reason : TrimReason.values()) {
            OptionalDouble count = RunResults.median(result, CommentsScanBenchmark.trimMetric(reason));
            if (count.isPresent() && count.getAsDouble() > 0) {
                reasons.add(reason.name() + " " + format(count.getAsDouble()));
            }
        }
        return reasons.isEmpty() ? "—" : String.join(", ", reasons);
    }

    private static String triple(RunResult result, Metric first, Metric second, Metric third) {
        return number(RunResults.median(result, first)) + " / " + number(RunResults.median(result, second)) + " / "
                + number(RunResults.median(result, third));
    }

    private static String articleRatio(double numerator, double denominator) {
        return String.format(Locale.ROOT, "%.2f (%.1f s / %.1f s)", numerator / denominator, numerator, denominator);
    }

    private static String ratio(OptionalDouble numerator, OptionalDouble denominator) {
        return ReportCells.ratio(numerator, denominator, "%.2f");
    }

    private static String seconds(OptionalDouble milliseconds) {
        return milliseconds.isPresent() ? format(milliseconds.getAsDouble() / 1000) : "—";
    }

    private static String bytes(long bytes) {
        if (bytes >= 1L << 20) {
            return format(bytes / ScanIoMetrics.MEGABYTE) + " MB";
        }
        return format(bytes / 1024.0) + " KB";
    }
}
