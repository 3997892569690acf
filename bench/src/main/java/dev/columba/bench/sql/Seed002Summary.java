package dev.columba.bench.sql;

import static dev.columba.bench.harness.ReportCells.NONE;
import static dev.columba.bench.harness.ReportCells.number;
import static dev.columba.bench.harness.ReportCells.percent;
import static dev.columba.bench.harness.ReportCells.ratio;
import static dev.columba.bench.harness.ReportCells.threeDecimals;

import dev.columba.bench.harness.Configuration;
import dev.columba.bench.harness.ReportCharts;
import dev.columba.bench.harness.ScanIoMetrics;
import dev.columba.core.stats.WaitType;
import dev.columba.storage.page.PageFormat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import org.openjdk.jmh.results.RunResult;

/**
 * The seed002 suite's part of the report: the article's elapsed times for tests 3a–3d beside
 * Columba's cold {@code SELECT COUNT(*)} of LineItem in one file, two files, hash partitions and
 * hash partitions with PAGE compression,
 * with MB/s against the device's sequential read speed measured in the same run, pages read, the
 * check against {@code /proc/self/io}, and the waits. States figures; judges nothing.
 */
public final class Seed002Summary {
    /** The article's figures: SQL Server 2008 R2, 400 million rows, 46 GB, a DSI 3500 SSD, 96 cores. */
    static final double ARTICLE_ONE_FILE_SECONDS = 31.2;
    static final double ARTICLE_TWO_FILES_SECONDS = 36.9;
    static final double ARTICLE_PARTITIONED_SECONDS = 19.88;
    static final double ARTICLE_PAGE_COMPRESSED_SECONDS = 6.2;

    private Seed002Summary() {
    }

    /** Lines describing the tables and the pool, for the report's run section. */
    public static List<String> describe(Seed002Tables.Description tables, int bufferPoolMb) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "LineItem at TPC-H scale factor %s: %,d rows, loaded as heaps by COPY%s.",
                dev.columba.bench.load.LineitemCsv.scaleText(tables.scaleFactor()), tables.rows(),
                tables.loadedNow() ? String.format(Locale.ROOT, " in %.0f s (this run)", tables.loadSeconds())
                        : " (reused from an earlier run)"));
        lines.add(String.format(Locale.ROOT, "(a) %s: %,d pages in one file; (b) %s: %,d pages in two files of one"
                        + " filegroup; (c) %s: %,d pages in %d hash partitions on %d filegroups of one file each;"
                        + " (d) %s: (c) with DATA_COMPRESSION = PAGE, %,d pages (%.2fx (c)'s).",
                Seed002Tables.ONE_FILE, tables.pagesOneFile(), Seed002Tables.TWO_FILES, tables.pagesTwoFiles(),
                Seed002Tables.HASH_PARTITIONED, tables.pagesHash(), tables.partitions(), tables.filegroups(),
                Seed002Tables.PAGE_COMPRESSED, tables.pagesPage(), (double) tables.pagesPage() / tables.pagesHash()));
        lines.add(String.format(Locale.ROOT, "Buffer pool %,d MB: (a)'s pages are %.1fx the pool.", bufferPoolMb,
                (double) tables.pagesOneFile() * PageFormat.PAGE_SIZE / ((long) bufferPoolMb << 20)));
        return lines;
    }

    /** Markdown: the article's figures beside Columba's, the counters, and how to read them. */
    public static String keyFigures(Collection<RunResult> results, ReportCharts charts) {
        Configuration device = of(results, Seed002ScanBenchmark.Layout.DEVICE);
        Configuration one = of(results, Seed002ScanBenchmark.Layout.ONE_FILE);
        Configuration two = of(results, Seed002ScanBenchmark.Layout.TWO_FILES);
        Configuration hash = of(results, Seed002ScanBenchmark.Layout.HASH_PARTITIONED);
        Configuration page = of(results, Seed002ScanBenchmark.Layout.PAGE_COMPRESSED);
        OptionalDouble deviceRate = device.median(Seed002ScanBenchmark.DEVICE_RATE);
        StringBuilder text = new StringBuilder();
        text.append("### Seed 002: the article's figures beside Columba's\n\n");
        text.append("| test | article s | article ÷ 3a | Columba s | Columba ÷ (a) | MAXDOP | MB/s from storage "
                + "| of the device's | pages read | `read_bytes` MB | counters ÷ `read_bytes` | top waits: waits / ms |\n");
        text.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        row(text, "3a / (a) one file", ARTICLE_ONE_FILE_SECONDS, one, one, deviceRate);
        row(text, "3b / (b) two files, one filegroup", ARTICLE_TWO_FILES_SECONDS, two, one, deviceRate);
        row(text, "3c / (c) hash partitions, several filegroups", ARTICLE_PARTITIONED_SECONDS, hash, one, deviceRate);
        row(text, "3d / (d) hash partitions, PAGE compression", ARTICLE_PAGE_COMPRESSED_SECONDS, page, one, deviceRate);
        text.append(String.format(Locale.ROOT, "| device: (a)'s file, 1 MB O_DIRECT reads | | | %s | | | %s | 100%% | | %s | | |%n",
                number(device.medianScore()),
                number(deviceRate), number(device.median(ScanIoMetrics.PROCESS_READ))));
        text.append("""

                Medians over the measured iterations; ratios are of medians. Each scan
                is cold: checkpoint and DBCC DROPCLEANBUFFERS (the pool emptied, every data file dropped
                from the operating system's page cache with POSIX_FADV_DONTNEED) before it. MB/s from
                storage = (physical + read-ahead reads) x 8 KB over the scan's elapsed time; the device's
                figure is (a)'s file read whole with 1 MB O_DIRECT reads in the same run. Top waits are the
                (at most three) wait types that sys.wait_stats gained the most time in during the scan,
                medians: PAGEIOLATCH_SH (a thread blocked on a page read), LATCH_EX (on the buffer pool's
                replacement-list latch, I/O threads included), CXPACKET / CXCONSUMER (a worker waiting for
                the gather, the gather for its workers; the gather waits while workers scan, so its time is
                about the scan's) and HTBUILD (a shared hash build). Only (c) and (d) run on several workers: a scan of one rowstore
                object is serial whatever the MAXDOP. The article's table is 46 GB on an SSD array read at
                1,300–1,400 MB/s by 96 cores; this machine has 2 vCPUs and one virtual disk, so several
                files and filegroups spread the I/O over files, not devices. Compare ratios, not times.
                """);
        return text.toString();
    }

    private static Configuration of(Collection<RunResult> results, Seed002ScanBenchmark.Layout layout) {
        return Configuration.of(results, Seed002ScanBenchmark.class, "layout", layout.name());
    }

    private static void row(StringBuilder text, String name, double articleSeconds, Configuration scan,
                            Configuration baseline, OptionalDouble deviceRate) {
        text.append("| ").append(name)
                .append(" | ").append(dev.columba.bench.harness.RunResults.format(articleSeconds))
                .append(" | ").append(String.format(Locale.ROOT, "%.2f", articleSeconds / ARTICLE_ONE_FILE_SECONDS));
        if (scan.result() == null) {
            text.append(" | ").append(scan.problem()).append(" | | | | | | | | |\n");
            return;
        }
        OptionalDouble rate = scan.median(ScanIoMetrics.STORAGE_RATE);
        text.append(" | ").append(number(scan.medianScore()))
                .append(" | ").append(ratio(scan.medianScore(), baseline.medianScore(), "%.2f"))
                .append(" | ").append(number(scan.median(Seed002ScanBenchmark.DEGREE)))
                .append(" | ").append(number(rate))
                .append(" | ").append(percent(rate, deviceRate))
                .append(" | ").append(pages(scan))
                .append(" | ").append(number(scan.median(ScanIoMetrics.PROCESS_READ)))
                .append(" | ").append(threeDecimals(scan.median(ScanIoMetrics.COUNTERS_TO_PROCESS)))
                .append(" | ").append(topWaits(scan))
                .append(" |\n");
    }

    /** The (at most three) wait types with the longest median time, each as "TYPE waits / ms". */
    static String topWaits(Configuration scan) {
        List<String> cells = new ArrayList<>();
        Arrays.stream(WaitType.values())
                .filter(type -> scan.median(Seed002ScanBenchmark.WAIT_COUNTS.get(type)).orElse(0) > 0)
                .sorted(Comparator.comparingDouble((WaitType type) -> scan.median(Seed002ScanBenchmark.WAIT_MS.get(type))
                        .orElse(0)).reversed())
                .limit(3)
                .forEach(type -> cells.add(type.name() + " " + number(scan.median(Seed002ScanBenchmark.WAIT_COUNTS.get(type)))
                        + " / " + number(scan.median(Seed002ScanBenchmark.WAIT_MS.get(type)))));
        return cells.isEmpty() ? NONE : String.join("; ", cells);
    }

    private static String pages(Configuration scan) {
        OptionalDouble physical = scan.median(ScanIoMetrics.PHYSICAL_READS);
        OptionalDouble readAhead = scan.median(ScanIoMetrics.READ_AHEAD_READS);
        return physical.isPresent() && readAhead.isPresent()
                ? number(OptionalDouble.of(physical.getAsDouble() + readAhead.getAsDouble())) : NONE;
    }
}
