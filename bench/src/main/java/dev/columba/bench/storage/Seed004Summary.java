package dev.columba.bench.storage;

import static dev.columba.bench.harness.ReportCells.bytes;
import static dev.columba.bench.harness.ReportCells.divided;
import static dev.columba.bench.harness.ReportCells.medianAndRange;
import static dev.columba.bench.harness.ReportCells.number;
import static dev.columba.bench.harness.ReportCells.quotient;
import static dev.columba.bench.harness.ReportCells.threeDecimals;
import static dev.columba.bench.harness.RunResults.format;

import dev.columba.bench.harness.BarChart;
import dev.columba.bench.harness.Configuration;
import dev.columba.bench.harness.Metric;
import dev.columba.bench.harness.ReportCells;
import dev.columba.bench.harness.ReportCharts;
import dev.columba.bench.harness.ScanIoMetrics;
import dev.columba.storage.page.PageFormat;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;
import org.openjdk.jmh.results.RunResult;

/**
 * The seed004 suite's part of the report: the article's figures — elapsed time, bytes per read,
 * MB/s and read-ahead pages per second with read-ahead on and off, and their ratios — beside
 * Columba's, cold and warm, with charts; then the counters and their check against
 * {@code /proc/self/io}. States figures; judges nothing.
 */
public final class Seed004Summary {
    /** The article's figures: SQL Server 2008, 2,000,000 rows of 8 KB pages, about 16,000 MB. */
    static final double ARTICLE_ELAPSED_ON_SECONDS = 80;
    static final double ARTICLE_ELAPSED_OFF_SECONDS = 210;
    static final double ARTICLE_BYTES_PER_READ_ON_KB = 350;
    static final double ARTICLE_BYTES_PER_READ_OFF_KB = 8;
    static final double ARTICLE_MB_PER_SECOND_ON_LOW = 180;
    static final double ARTICLE_MB_PER_SECOND_ON_HIGH = 200;
    static final double ARTICLE_MB_PER_SECOND_OFF = 80;
    static final double ARTICLE_READ_AHEAD_PAGES_PER_SECOND = 20_000;

    private static final List<LargeTableScanBenchmark.Cache> CACHES = List.of(LargeTableScanBenchmark.Cache.values());

    private Seed004Summary() {
    }

    /** Lines describing the table and the pool, for the report's run section. */
    public static List<String> describe(ScanTable.Description table, int bufferPoolMb) {
        List<String> lines = new ArrayList<>(RowstoreScanSummary.describe(table));
        lines.add(String.format(Locale.ROOT, "Buffer pool %,d MB: the table's %,d pages are %.1fx the pool (the suite "
                        + "needs at least %dx, so that a warm scan still reads the table from storage).", bufferPoolMb,
                table.pages(), (double) table.pages() * PageFormat.PAGE_SIZE / ((long) bufferPoolMb << 20),
                LargeTableScanBenchmark.TABLE_TO_POOL));
        return lines;
    }

    /** Markdown: the article's figures beside Columba's, the charts, the counters, and how to read them. */
    public static String keyFigures(Collection<RunResult> results, ReportCharts charts) {
        Scans scans = new Scans(results);
        StringBuilder text = new StringBuilder();
        text.append("### Seed 004: the article's figures beside Columba's\n\n");
        text.append("| figure | article (SQL Server, 16,000 MB table) | Columba, cold | Columba, warm |\n");
        text.append("|---|---|---|---|\n");
        row(text, "elapsed s per scan, read-ahead on", format(ARTICLE_ELAPSED_ON_SECONDS),
                cache -> scoreCell(scans.on(cache)));
        row(text, "elapsed s per scan, read-ahead off", format(ARTICLE_ELAPSED_OFF_SECONDS),
                cache -> scoreCell(scans.off(cache)));
        row(text, "elapsed, off / on", times(ARTICLE_ELAPSED_OFF_SECONDS / ARTICLE_ELAPSED_ON_SECONDS),
                cache -> times(scans.elapsedRatio(cache)));
        row(text, "bytes per read, read-ahead on", "> " + format(ARTICLE_BYTES_PER_READ_ON_KB) + " KB",
                cache -> bytes(scans.on(cache).median(ScanIoMetrics.BYTES_PER_IO)));
        row(text, "bytes per read, read-ahead off", "~" + format(ARTICLE_BYTES_PER_READ_OFF_KB) + " KB",
                cache -> bytes(scans.off(cache).median(ScanIoMetrics.BYTES_PER_IO)));
        row(text, "bytes per read, on / off", "> " + times(ARTICLE_BYTES_PER_READ_ON_KB / ARTICLE_BYTES_PER_READ_OFF_KB),
                cache -> times(scans.bytesPerReadRatio(cache)));
        row(text, "MB/s from storage, read-ahead on", format(ARTICLE_MB_PER_SECOND_ON_LOW) + "–"
                + format(ARTICLE_MB_PER_SECOND_ON_HIGH), cache -> rangeCell(scans.on(cache), ScanIoMetrics.STORAGE_RATE));
        row(text, "MB/s from storage, read-ahead off", "~" + format(ARTICLE_MB_PER_SECOND_OFF),
                cache -> rangeCell(scans.off(cache), ScanIoMetrics.STORAGE_RATE));
        row(text, "MB/s, on / off", times(ARTICLE_MB_PER_SECOND_ON_LOW / ARTICLE_MB_PER_SECOND_OFF) + "–"
                + times(ARTICLE_MB_PER_SECOND_ON_HIGH / ARTICLE_MB_PER_SECOND_OFF), cache -> times(scans.rateRatio(cache)));
        row(text, "read-ahead pages/s, read-ahead on", "~" + format(ARTICLE_READ_AHEAD_PAGES_PER_SECOND),
                cache -> number(scans.on(cache).median(LargeTableScanBenchmark.READ_AHEAD_RATE)));
        row(text, "read-ahead pages/s, read-ahead off", "0",
                cache -> number(scans.off(cache).median(LargeTableScanBenchmark.READ_AHEAD_RATE)));
        text.append("\n");

        text.append(charts.embed(byCache(scans, "elapsed", "Elapsed time of one scan, read-ahead on and off",
                "seconds", Configuration::medianScore)));
        text.append(charts.embed(byCache(scans, "storage-rate", "MB/s from storage, read-ahead on and off", "MB/s",
                scan -> scan.median(ScanIoMetrics.STORAGE_RATE))));
        text.append(charts.embed(byCache(scans, "bytes-per-read", "Average bytes per read, read-ahead on and off", "KB",
                scan -> divided(scan.median(ScanIoMetrics.BYTES_PER_IO), 1024))));
        List<BarChart.Series> ratios = new ArrayList<>();
        ratios.add(new BarChart.Series("article (SQL Server)", List.of(
                OptionalDouble.of(ARTICLE_ELAPSED_OFF_SECONDS / ARTICLE_ELAPSED_ON_SECONDS),
                OptionalDouble.of((ARTICLE_MB_PER_SECOND_ON_LOW + ARTICLE_MB_PER_SECOND_ON_HIGH) / 2
                        / ARTICLE_MB_PER_SECOND_OFF),
                OptionalDouble.of(ARTICLE_BYTES_PER_READ_ON_KB / ARTICLE_BYTES_PER_READ_OFF_KB))));
        for (LargeTableScanBenchmark.Cache cache : CACHES) {
            ratios.add(new BarChart.Series("Columba, " + name(cache), List.of(scans.elapsedRatio(cache),
                    scans.rateRatio(cache), scans.bytesPerReadRatio(cache))));
        }
        text.append(charts.embed(new BarChart("article-ratios",
                "Read-ahead on against off: the article's ratios beside Columba's (logarithmic)", "ratio",
                List.of("elapsed, off / on", "MB/s, on / off", "bytes per read, on / off"), ratios,
                BarChart.Scale.LOGARITHMIC)));

        text.append("### Counters\n\n");
        text.append("| scan | read I/Os | physical / read-ahead reads (pages) | read-ahead used / wasted "
                + "| pages found in the pool | logical reads | (physical + read-ahead) x 8 KB / `read_bytes` |\n");
        text.append("|---|---|---|---|---|---|---|\n");
        for (LargeTableScanBenchmark.Cache cache : CACHES) {
            for (boolean readAhead : new boolean[] {true, false}) {
                Configuration scan = scans.of(cache, readAhead);
                text.append("| ").append(name(cache)).append(", read-ahead ").append(readAhead ? "on" : "off");
                if (scan.result() == null) {
                    text.append(" | ").append(scan.problem()).append(" | | | | | |\n");
                    continue;
                }
                text.append(" | ").append(number(scan.median(ScanIoMetrics.READ_IOS)))
                        .append(" | ").append(number(scan.median(ScanIoMetrics.PHYSICAL_READS))).append(" / ")
                        .append(number(scan.median(ScanIoMetrics.READ_AHEAD_READS)))
                        .append(" | ").append(number(scan.median(ScanIoMetrics.READ_AHEAD_USED))).append(" / ")
                        .append(number(scan.median(ScanIoMetrics.READ_AHEAD_WASTED)))
                        .append(" | ").append(number(scan.median(LargeTableScanBenchmark.POOL_HITS)))
                        .append(" | ").append(number(scan.median(ScanIoMetrics.LOGICAL_READS)))
                        .append(" | ").append(threeDecimals(scan.median(ScanIoMetrics.COUNTERS_TO_PROCESS)))
                        .append(" |\n");
            }
        }
        text.append("""

                Medians over the measured iterations, with the range in brackets; ratios are of medians.
                MB = 2^20 bytes. Read-ahead off is Columba's trace flag 652: one synchronous 8 KB read per
                page (the data file is opened with POSIX_FADV_RANDOM, so the kernel adds none of its own).
                Bytes per read = bytes requested from the operating system per read request; MB/s from
                storage = (physical + read-ahead reads) x 8 KB over the scan's elapsed time, what the
                article's disk counters measured. Cold: checkpoint and DROPCLEANBUFFERS before each scan,
                as in the article. Warm: the scan follows another scan of the table in the same buffer
                pool, with only the operating system's cache of the data file dropped (SQL Server reads
                unbuffered); the table is at least four times the pool, so it still comes from storage.
                Pages found in the pool = logical reads - physical reads - read-ahead pages used. The
                article's table has one 5,000-byte row per page, Columba's four 1,800-byte rows (its rows
                hold at most a quarter page); both scan full 8 KB pages. The article's disk is not this
                machine's: compare ratios, not times.
                """);
        return text.toString();
    }

    /** The four scans of a run: cold and warm, read-ahead on and off. */
    private record Scans(Collection<RunResult> results) {
        Configuration of(LargeTableScanBenchmark.Cache cache, boolean readAhead) {
            return Configuration.of(results, LargeTableScanBenchmark.class, "cache", cache.name(), "readAhead",
                    String.valueOf(readAhead));
        }

        Configuration on(LargeTableScanBenchmark.Cache cache) {
            return of(cache, true);
        }

        Configuration off(LargeTableScanBenchmark.Cache cache) {
            return of(cache, false);
        }

        OptionalDouble elapsedRatio(LargeTableScanBenchmark.Cache cache) {
            return quotient(off(cache).medianScore(), on(cache).medianScore());
        }

        OptionalDouble rateRatio(LargeTableScanBenchmark.Cache cache) {
            return quotient(on(cache).median(ScanIoMetrics.STORAGE_RATE), off(cache).median(ScanIoMetrics.STORAGE_RATE));
        }

        OptionalDouble bytesPerReadRatio(LargeTableScanBenchmark.Cache cache) {
            return quotient(on(cache).median(ScanIoMetrics.BYTES_PER_IO), off(cache).median(ScanIoMetrics.BYTES_PER_IO));
        }
    }

    /** A chart with cold and warm side by side, read-ahead on and off in each. */
    private static BarChart byCache(Scans scans, String name, String title, String valueAxis,
                                    Function<Configuration, OptionalDouble> figure) {
        List<BarChart.Series> series = new ArrayList<>();
        for (boolean readAhead : new boolean[] {true, false}) {
            List<OptionalDouble> values = new ArrayList<>();
            for (LargeTableScanBenchmark.Cache cache : CACHES) {
                values.add(figure.apply(scans.of(cache, readAhead)));
            }
            series.add(new BarChart.Series("read-ahead " + (readAhead ? "on" : "off"), values));
        }
        List<String> categories = CACHES.stream().map(Seed004Summary::name).toList();
        return new BarChart(name, title, valueAxis, categories, series, BarChart.Scale.LINEAR);
    }

    private interface CacheCell {
        String of(LargeTableScanBenchmark.Cache cache);
    }

    private static void row(StringBuilder text, String figure, String article, CacheCell columba) {
        text.append("| ").append(figure).append(" | ").append(article);
        for (LargeTableScanBenchmark.Cache cache : CACHES) {
            text.append(" | ").append(columba.of(cache));
        }
        text.append(" |\n");
    }

    private static String name(LargeTableScanBenchmark.Cache cache) {
        return cache.name().toLowerCase(Locale.ROOT);
    }

    private static String scoreCell(Configuration scan) {
        return scan.result() == null ? scan.problem()
                : medianAndRange(Optional.of(scan.result().getPrimaryResult().getStatistics()));
    }

    private static String rangeCell(Configuration scan, Metric metric) {
        return scan.result() == null ? scan.problem() : medianAndRange(scan.statistics(metric));
    }

    private static String times(OptionalDouble ratio) {
        return ratio.isPresent() ? times(ratio.getAsDouble()) : ReportCells.NONE;
    }

    private static String times(double ratio) {
        return String.format(Locale.ROOT, "%.1fx", ratio);
    }
}
