package dev.columba.bench.storage;

import static dev.columba.bench.harness.RunResults.format;

import dev.columba.bench.harness.Metric;
import dev.columba.bench.harness.ReportCharts;
import dev.columba.bench.harness.RunResults;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.util.Statistics;

/**
 * The rowstore-scan suite's part of the report: the table it scanned, and the figures seed 004 is
 * about — cold scan bandwidth with read-ahead on and off and their ratio, bytes per I/O, the scan as
 * a share of the device's sequential bandwidth (the issue asks for at least 70%), warm bandwidth,
 * and how Columba's counters compare with {@code /proc/self/io}. States figures; judges nothing.
 */
public final class RowstoreScanSummary {
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

    /** Markdown: a table of the key figures, then how to read them. */
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
        rows.add(row("cold on / off", ratio(coldOnRate, coldOff.median(RowstoreScanBenchmark.SCAN_RATE))));
        rows.add(row("bytes per I/O, cold on / off", bytes(coldOn.median(RowstoreScanBenchmark.BYTES_PER_IO)) + " / "
                + bytes(coldOff.median(RowstoreScanBenchmark.BYTES_PER_IO))));
        rows.add(row("device sequential read, O_DIRECT / buffered with the kernel's read-ahead",
                rate(direct, DeviceSequentialReadBenchmark.DEVICE_RATE) + " / "
                        + rate(buffered, DeviceSequentialReadBenchmark.DEVICE_RATE)));
        rows.add(row("cold on as % of the device (the better of the two; the issue asks >= 70%)",
                percent(coldOnRate, deviceBest)));
        rows.add(row("warm scan, read-ahead on", scanRate(warmOn)));
        rows.add(row("warm scan, read-ahead off", scanRate(warmOff)));
        rows.add(row("(physical + read-ahead) x 8 KB / `read_bytes`, cold on / off",
                withThreeDecimals(coldOn.median(RowstoreScanBenchmark.COUNTERS_TO_PROCESS)) + " / "
                        + withThreeDecimals(coldOff.median(RowstoreScanBenchmark.COUNTERS_TO_PROCESS))));
        rows.add(row("read-ahead pages used / wasted, cold on",
                number(coldOn.median(RowstoreScanBenchmark.READ_AHEAD_USED)) + " / "
                        + number(coldOn.median(RowstoreScanBenchmark.READ_AHEAD_WASTED))));

        StringBuilder text = new StringBuilder("| figure | value |\n|---|---|\n");
        for (String[] cells : rows) {
            text.append("| ").append(cells[0]).append(" | ").append(cells[1]).append(" |\n");
        }
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

    /** One benchmark configuration's results, or why there is none to summarize. */
    private record Configuration(RunResult result, String problem) {
        OptionalDouble median(Metric metric) {
            Optional<Statistics> values = statistics(metric);
            return values.isPresent() ? OptionalDouble.of(values.get().getPercentile(50)) : OptionalDouble.empty();
        }

        Optional<Statistics> statistics(Metric metric) {
            return result == null ? Optional.empty() : RunResults.statistics(result, metric);
        }

        double medianSeconds() {
            return result.getPrimaryResult().getStatistics().getPercentile(50);
        }
    }

    private static Configuration scan(Collection<RunResult> results, boolean readAhead, String cache) {
        return only(RunResults.select(results, RowstoreScanBenchmark.class,
                "readAhead", String.valueOf(readAhead), "cache", cache));
    }

    private static Configuration device(Collection<RunResult> results, String access) {
        return only(RunResults.select(results, DeviceSequentialReadBenchmark.class, "access", access));
    }

    private static Configuration only(List<RunResult> selected) {
        return switch (selected.size()) {
            case 0 -> new Configuration(null, "not run");
            case 1 -> new Configuration(selected.getFirst(), null);
            default -> new Configuration(null, selected.size() + " configurations, see all results");
        };
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
        return scan.result() == null ? rate : rate + ", " + format(scan.medianSeconds()) + " s per scan";
    }

    /** "median MB/s (min–max)", or why there is no figure. */
    private static String rate(Configuration configuration, Metric metric) {
        if (configuration.result() == null) {
            return configuration.problem();
        }
        Optional<Statistics> statistics = configuration.statistics(metric);
        if (statistics.isEmpty()) {
            return "—";
        }
        Statistics values = statistics.get();
        return format(values.getPercentile(50)) + " MB/s (" + format(values.getMin()) + "–" + format(values.getMax()) + ")";
    }

    private static String ratio(OptionalDouble numerator, OptionalDouble denominator) {
        return numerator.isPresent() && denominator.isPresent() && denominator.getAsDouble() > 0
                ? String.format(Locale.ROOT, "%.1fx", numerator.getAsDouble() / denominator.getAsDouble()) : "—";
    }

    private static String percent(OptionalDouble part, OptionalDouble whole) {
        return part.isPresent() && whole.isPresent() && whole.getAsDouble() > 0
                ? String.format(Locale.ROOT, "%.0f%%", 100 * part.getAsDouble() / whole.getAsDouble()) : "—";
    }

    private static String bytes(OptionalDouble value) {
        if (value.isEmpty()) {
            return "—";
        }
        double bytes = value.getAsDouble();
        return bytes >= 1024 ? format(bytes / 1024) + " KB" : format(bytes) + " bytes";
    }

    private static String withThreeDecimals(OptionalDouble value) {
        return value.isPresent() ? String.format(Locale.ROOT, "%.3f", value.getAsDouble()) : "—";
    }

    private static String number(OptionalDouble value) {
        return value.isPresent() ? format(value.getAsDouble()) : "—";
    }
}
