package dev.columba.bench.storage;

import static dev.columba.bench.harness.RunResults.format;

import dev.columba.bench.harness.BarChart;
import dev.columba.bench.harness.Configuration;
import dev.columba.bench.harness.Metric;
import dev.columba.bench.harness.ReportCells;
import dev.columba.bench.harness.ReportCharts;
import dev.columba.bench.harness.RunResults;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.SortedSet;
import java.util.TreeSet;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.util.Statistics;

/**
 * The rowstore-scan suite's part of the report: the table it scanned, and the figures seed 004 is
 * about — cold scan bandwidth with read-ahead on and off and their ratio, bytes per I/O, the scan as
 * a share of the device's sequential bandwidth (the issue asks for at least 70%), warm bandwidth,
 * and how Columba's counters compare with {@code /proc/self/io}. States figures; judges nothing.
 */
public final class RowstoreScanSummary {
    private static final String DEPTH = "readAheadDepthPages";
    private static final String LARGEST_IO = "readAheadMaxPagesPerIo";

    private RowstoreScanSummary() {
    }

    /** Lines describing the table, for the report's run section. */
    public static List<String> describe(ScanTable.Description table) {
        return List.of(
                String.format(Locale.ROOT, "Table `%s` (seed 004 adapted): %,d rows of `i INT, j INT, dt TIMESTAMP, "
                                + "filler CHAR(%d)`, clustered on `i`; %,d leaf pages (%.2f rows per leaf, %.1f%% full), "
                                + "%,d pages above the leaves.", ScanTable.TABLE_NAME, table.rows(), ScanTable.FILLER_LENGTH,
                        table.leafPages(), table.rowsPerLeaf(), table.averagePageDensityPercent(), table.internalPages()),
                String.format(Locale.ROOT, "Leaf order vs file order: %,d fragments, %.1f pages each on average "
                                + "(a read-ahead I/O cannot span a fragment boundary).",
                        table.fragments(), table.averageFragmentPages()),
                table.loadedNow()
                        ? String.format(Locale.ROOT, "Loaded by this run in %.0f s into `%s`.", table.loadSeconds(),
                        table.directory())
                        : String.format(Locale.ROOT, "Reused from `%s` (loaded earlier in %.0f s).", table.directory(),
                        table.loadSeconds()));
    }

    /** Markdown: a table of the key figures, its charts, then how to read them. */
    public static String keyFigures(Collection<RunResult> results, ReportCharts charts) {
        Configuration coldOn = scan(results, true, "COLD");
        Configuration coldOff = scan(results, false, "COLD");
        Configuration warmOn = scan(results, true, "WARM");
        Configuration warmOff = scan(results, false, "WARM");
        Configuration direct = device(results, "DIRECT");
        Configuration buffered = device(results, "BUFFERED");
        OptionalDouble coldOnRate = coldOn.median(RowstoreScanBenchmark.SCAN_RATE);
        OptionalDouble deviceBest = max(direct.median(DeviceSequentialReadBenchmark.DEVICE_RATE),
                buffered.median(DeviceSequentialReadBenchmark.DEVICE_RATE));

        List<String[]> rows = new ArrayList<>();
        rows.add(row("cold scan, read-ahead on", scanRate(coldOn)));
        rows.add(row("cold scan, read-ahead off", scanRate(coldOff)));
        rows.add(row("cold on / off", ReportCells.ratio(coldOnRate, coldOff.median(RowstoreScanBenchmark.SCAN_RATE),
                "%.1fx")));
        rows.add(row("bytes per I/O, cold on / off", ReportCells.bytes(coldOn.median(RowstoreScanBenchmark.BYTES_PER_IO))
                + " / " + ReportCells.bytes(coldOff.median(RowstoreScanBenchmark.BYTES_PER_IO))));
        rows.add(row("device sequential read, O_DIRECT / buffered with the kernel's read-ahead",
                rate(direct, DeviceSequentialReadBenchmark.DEVICE_RATE) + " / "
                        + rate(buffered, DeviceSequentialReadBenchmark.DEVICE_RATE)));
        rows.add(row("cold on as % of the device (the better of the two; the issue asks >= 70%)",
                ReportCells.percent(coldOnRate, deviceBest)));
        rows.add(row("warm scan, read-ahead on", scanRate(warmOn)));
        rows.add(row("warm scan, read-ahead off", scanRate(warmOff)));
        rows.add(row("(physical + read-ahead) x 8 KB / `read_bytes`, cold on / off",
                ReportCells.threeDecimals(coldOn.median(RowstoreScanBenchmark.COUNTERS_TO_PROCESS)) + " / "
                        + ReportCells.threeDecimals(coldOff.median(RowstoreScanBenchmark.COUNTERS_TO_PROCESS))));
        rows.add(row("read-ahead pages used / wasted, cold on",
                ReportCells.number(coldOn.median(RowstoreScanBenchmark.READ_AHEAD_USED)) + " / "
                        + ReportCells.number(coldOn.median(RowstoreScanBenchmark.READ_AHEAD_WASTED))));

        StringBuilder text = new StringBuilder("| figure | value |\n|---|---|\n");
        for (String[] cells : rows) {
            text.append("| ").append(cells[0]).append(" | ").append(cells[1]).append(" |\n");
        }
        text.append("\n");
        text.append(charts.embed(new BarChart("cold-scan-rate",
                "Cold scan MB/s, read-ahead on and off, beside the device's sequential read", "MB/s",
                List.of("scan, read-ahead on", "scan, read-ahead off", "device, O_DIRECT", "device, buffered"),
                List.of(new BarChart.Series("MB/s", List.of(coldOnRate, coldOff.median(RowstoreScanBenchmark.SCAN_RATE),
                        direct.median(DeviceSequentialReadBenchmark.DEVICE_RATE),
                        buffered.median(DeviceSequentialReadBenchmark.DEVICE_RATE)))),
                BarChart.Scale.LINEAR)));
        text.append(charts.embed(new BarChart("bytes-per-io", "Bytes per I/O of a cold scan, read-ahead on and off",
                "KB per I/O", List.of("read-ahead on", "read-ahead off"),
                List.of(new BarChart.Series("KB per I/O", List.of(ReportCells.divided(coldOn.median(RowstoreScanBenchmark.BYTES_PER_IO), 1024),
                        ReportCells.divided(coldOff.median(RowstoreScanBenchmark.BYTES_PER_IO), 1024)))),
                BarChart.Scale.LINEAR)));
        text.append(charts.embed(new BarChart("warm-scan-rate", "Warm scan MB/s (the table in the buffer pool), "
                + "read-ahead on and off", "MB/s", List.of("read-ahead on", "read-ahead off"),
                List.of(new BarChart.Series("MB/s", List.of(warmOn.median(RowstoreScanBenchmark.SCAN_RATE),
                        warmOff.median(RowstoreScanBenchmark.SCAN_RATE)))),
                BarChart.Scale.LINEAR)));
        text.append(charts.embed(depthSweep(results)));
        text.append("""
                Medians over the measured iterations, with the range in brackets; ratios are of medians.
                MB = 2^20 bytes. Scan MB/s = pages the scan requested x 8 KB over the scan's time (cold: all
                of them came from the device). The device figures read the same data file with one
                synchronous request at a time, so a read-ahead keeping several I/Os in flight can exceed
                them. Read-ahead off is one synchronous 8 KB read per page (the data file is opened with
                POSIX_FADV_RANDOM, so the kernel adds none of its own).
                """);
        return text.toString();
    }

    /**
     * Cold scan MB/s with read-ahead on by read-ahead depth, one series per largest I/O, when the
     * run swept the depth ({@code -p readAheadDepthPages=100,500,...}); a chart without values otherwise.
     */
    private static BarChart depthSweep(Collection<RunResult> results) {
        List<RunResult> sweep = RunResults.select(results, RowstoreScanBenchmark.class, "readAhead", "true",
                "cache", "COLD");
        SortedSet<Integer> depths = new TreeSet<>();
        SortedSet<Integer> largestIos = new TreeSet<>();
        for (RunResult result : sweep) {
            depths.add(Integer.parseInt(result.getParams().getParam(DEPTH)));
            largestIos.add(Integer.parseInt(result.getParams().getParam(LARGEST_IO)));
        }
        List<String> categories = new ArrayList<>();
        for (int depth : depths) {
            categories.add(format(depth) + " pages");
        }
        List<BarChart.Series> series = new ArrayList<>();
        for (int largestIo : largestIos) {
            List<OptionalDouble> values = new ArrayList<>();
            for (int depth : depths) {
                Configuration scan = Configuration.of(sweep, RowstoreScanBenchmark.class, DEPTH, String.valueOf(depth),
                        LARGEST_IO, String.valueOf(largestIo));
                values.add(depths.size() > 1 ? scan.median(RowstoreScanBenchmark.SCAN_RATE) : OptionalDouble.empty());
            }
            series.add(new BarChart.Series("up to " + format(largestIo) + " pages per I/O", values));
        }
        if (categories.isEmpty()) {
            categories.add("not run");
            series.add(new BarChart.Series("MB/s", List.of(OptionalDouble.empty())));
        }
        return new BarChart("depth-sweep", "Cold scan MB/s with read-ahead, by read-ahead depth", "MB/s", categories,
                series, BarChart.Scale.LINEAR);
    }

    private static Configuration scan(Collection<RunResult> results, boolean readAhead, String cache) {
        return Configuration.of(results, RowstoreScanBenchmark.class, "readAhead", String.valueOf(readAhead),
                "cache", cache);
    }

    private static Configuration device(Collection<RunResult> results, String access) {
        return Configuration.of(results, DeviceSequentialReadBenchmark.class, "access", access);
    }

    private static OptionalDouble max(OptionalDouble left, OptionalDouble right) {
        if (left.isEmpty()) {
            return right;
        }
        return right.isEmpty() ? left : OptionalDouble.of(Math.max(left.getAsDouble(), right.getAsDouble()));
    }

    private static String[] row(String figure, String value) {
        return new String[] {figure, value};
    }

    private static String scanRate(Configuration scan) {
        String rate = rate(scan, RowstoreScanBenchmark.SCAN_RATE);
        return scan.result() == null ? rate : rate + ", " + format(scan.medianScore().getAsDouble()) + " s per scan";
    }

    /** "median MB/s (min–max)", or why there is no figure. */
    private static String rate(Configuration configuration, Metric metric) {
        if (configuration.result() == null) {
            return configuration.problem();
        }
        Optional<Statistics> statistics = configuration.statistics(metric);
        if (statistics.isEmpty()) {
            return ReportCells.NONE;
        }
        Statistics values = statistics.get();
        return format(values.getPercentile(50)) + " MB/s (" + format(values.getMin()) + "–" + format(values.getMax()) + ")";
    }
}
