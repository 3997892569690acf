package dev.columba.cli.demo;

import dev.columba.core.stats.IoStats;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * The demo's summary: the cold runs side by side, in pairs (feature off, then on), with the
 * ratios the seed talks about, and the check of the counters against the operating system. The
 * elapsed ratio is one machine's at one moment: a shared machine and its disk vary by up to 2x
 * between repeats, which is why the demo compares medians.
 */
final class ComparisonTable {
    private static final long PAGE_BYTES = 8192;

    private final List<Measurement> measurements;

    ComparisonTable(List<Measurement> measurements) {
        if (measurements.size() % 2 != 0) {
            throw new IllegalArgumentException("measurements come in pairs (off, on), got " + measurements.size());
        }
        this.measurements = List.copyOf(measurements);
    }

    void print(PrintStream out) {
        out.println();
        out.println("== Comparison of the cold runs (each side's run of median elapsed time), from the driver's typed");
        out.println("   statistics: pages of 8 KB, logical = requested, physical = waited for, read-ahead = read before");
        out.println("   they were requested; I/Os = read requests");
        out.printf(Locale.ROOT, "%-34s %-10s %9s %9s %10s %7s %10s %10s%n", "", "table", "logical", "physical", "read-ahead",
                "I/Os", "KB per I/O", "elapsed ms");
        for (int pair = 0; pair < measurements.size(); pair += 2) {
            Measurement off = measurements.get(pair);
            Measurement on = measurements.get(pair + 1);
            row(out, off);
            row(out, on);
            IoStats onStats = on.tableStats();
            out.printf(Locale.ROOT, "  elapsed off / on: %.1fx (on took %s of the time); read-ahead brought %s of the pages "
                            + "read from storage, in I/Os of %.0f KB against %.0f KB%n",
                    ratio(off.elapsedNanos(), on.elapsedNanos()), percent(on.elapsedNanos(), off.elapsedNanos()),
                    percent(onStats.readAheadReads(), onStats.pagesFromStorage()), onStats.averageBytesPerIo() / 1024,
                    off.tableStats().averageBytesPerIo() / 1024);
        }
        out.println();
        out.println("Check against the OS: (physical + read-ahead) x 8 KB of all tables vs /proc/self/io read_bytes");
        for (Measurement measurement : measurements) {
            long counted = measurement.allTables().pagesFromStorage() * PAGE_BYTES;
            if (measurement.processReadBytes().isEmpty()) {
                out.printf(Locale.ROOT, "  %-34s %,13d bytes; this system has no /proc/self/io to check them against%n",
                        measurement.label(), counted);
                continue;
            }
            long osBytes = measurement.processReadBytes().getAsLong();
            out.printf(Locale.ROOT, "  %-34s %,13d vs %,13d bytes (ratio %.3f)%n", measurement.label(), counted, osBytes,
                    ratio(counted, osBytes));
        }
    }

    private static void row(PrintStream out, Measurement measurement) {
        IoStats stats = measurement.tableStats();
        out.printf(Locale.ROOT, "%-34s %-10s %,9d %,9d %,10d %,7d %10.1f %,10d%n", measurement.label(), measurement.table(),
                stats.logicalReads(), stats.physicalReads(), stats.readAheadReads(), stats.readIos(),
                stats.averageBytesPerIo() / 1024, measurement.elapsedNanos() / 1_000_000);
    }

    private static double ratio(double numerator, double denominator) {
        return denominator == 0 ? 0 : numerator / denominator;
    }

    private static String percent(long part, long whole) {
        return String.format(Locale.ROOT, "%.0f%%", 100.0 * ratio(part, whole));
    }
}
