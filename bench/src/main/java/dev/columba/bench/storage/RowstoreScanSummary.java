package dev.columba.bench.storage;

import static dev.columba.bench.harness.RunResults.figure;
import static dev.columba.bench.harness.RunResults.format;

import dev.columba.bench.harness.Metric;
import dev.columba.bench.harness.RunResults;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import org.openjdk.jmh.results.RunResult;

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
    public static String keyFigures(Collection<RunResult> results) {
        Scenario coldOn = scenario(results, true, "COLD");
        Scenario coldOff = scenario(results, false, "COLD");
        Scenario warmOn = scenario(results, true, "WARM");
        Scenario warmOff = scenario(results, false, "WARM");
        OptionalDouble direct = device(results, "DIRECT");
        OptionalDouble buffered = device(results, "BUFFERED");
        OptionalDouble deviceBest = max(direct, buffered);

        List<String[]> rows = new ArrayList<>();
        rows.add(row("cold scan, read-ahead on", rate(coldOn)));
        rows.add(row("cold scan, read-ahead off", rate(coldOff)));
        rows.add(row("cold on / off", ratio(coldOn.rate(), coldOff.rate())));
        rows.add(row("bytes per I/O, on / off", bytes(coldOn.bytesPerIo()) + " / " + bytes(coldOff.bytesPerIo())));
        rows.add(row("device sequential read, O_DIRECT / buffered with the kernel's read-ahead",
                megabytesPerSecond(direct) + " / " + megabytesPerSecond(buffered)));
        rows.add(row("cold on as % of the device (the better of the two; the issue asks >= 70%)",
                percent(coldOn.rate(), deviceBest)));
        rows.add(row("warm scan, read-ahead on / off", rate(warmOn) + " / " + rate(warmOff)));
        rows.add(row("(physical + read-ahead) x 8 KB / `read_bytes`, cold on / off",
                withThreeDecimals(coldOn.countersToProcess()) + " / " + withThreeDecimals(coldOff.countersToProcess())));
        rows.add(row("read-ahead pages used / wasted, cold on",
                number(coldOn.figure(RowstoreScanBenchmark.READ_AHEAD_USED)) + " / "
                        + number(coldOn.figure(RowstoreScanBenchmark.READ_AHEAD_WASTED))));

        StringBuilder text = new StringBuilder("| figure | value |\n|---|---|\n");
        for (String[] cells : rows) {
            text.append("| ").append(cells[0]).append(" | ").append(cells[1]).append(" |\n");
        }
        text.append("""

                MB = 2^20 bytes. Scan MB/s = pages the scan requested x 8 KB over the scan's time (cold: all of
                them came from the device), averaged over the measured scans. The device figures read the same
                data file with one synchronous request at a time, so a read-ahead keeping several I/Os in
                flight can exceed them. Read-ahead off is one synchronous 8 KB read per page (the data file is
                opened with POSIX_FADV_RANDOM, so the kernel adds none of its own).
                """);
        return text.toString();
    }

    /** The figures of one read-ahead/cache combination, or empty when it was not run or run several ways. */
    private record Scenario(RunResult result, String problem) {
        OptionalDouble figure(Metric metric) {
            return result == null ? OptionalDouble.empty() : RunResults.figure(result, metric);
        }

        OptionalDouble rate() {
            return figure(RowstoreScanBenchmark.SCAN_RATE);
        }

        OptionalDouble bytesPerIo() {
            return figure(RowstoreScanBenchmark.BYTES_PER_IO);
        }

        OptionalDouble countersToProcess() {
            return figure(RowstoreScanBenchmark.COUNTERS_TO_PROCESS);
        }

        double seconds() {
            return result.getPrimaryResult().getScore();
        }
    }

    private static Scenario scenario(Collection<RunResult> results, boolean readAhead, String cache) {
        List<RunResult> selected = RunResults.select(results, RowstoreScanBenchmark.class,
                "readAhead", String.valueOf(readAhead), "cache", cache);
        return switch (selected.size()) {
            case 0 -> new Scenario(null, "not run");
            case 1 -> new Scenario(selected.getFirst(), null);
            default -> new Scenario(null, selected.size() + " configurations, see all results");
        };
    }

    private static OptionalDouble device(Collection<RunResult> results, String access) {
        List<RunResult> selected = RunResults.select(results, DeviceSequentialReadBenchmark.class, "access", access);
        return selected.size() == 1 ? figure(selected.getFirst(), DeviceSequentialReadBenchmark.DEVICE_RATE)
                : OptionalDouble.empty();
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

    private static String rate(Scenario scenario) {
        if (scenario.result() == null) {
            return scenario.problem();
        }
        return megabytesPerSecond(scenario.rate()) + " (" + format(scenario.seconds()) + " s per scan)";
    }

    private static String megabytesPerSecond(OptionalDouble value) {
        return value.isPresent() ? format(value.getAsDouble()) + " MB/s" : "—";
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
