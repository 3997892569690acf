package dev.columba.bench.sql;

import static dev.columba.bench.harness.ReportCells.bytes;
import static dev.columba.bench.harness.ReportCells.medianAndRange;
import static dev.columba.bench.harness.ReportCells.number;
import static dev.columba.bench.harness.ReportCells.quotient;
import static dev.columba.bench.harness.ReportCells.threeDecimals;
import static dev.columba.bench.sql.Seed000Summary.times;

import dev.columba.bench.harness.BarChart;
import dev.columba.bench.harness.Configuration;
import dev.columba.bench.harness.Metric;
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
 * The seed003 suite's part of the report: the article's observations (InnoDB, 2009: a full scan
 * 35% slower without prefetch; tpcc-mysql 12% to 20% faster without it, with many more pages read
 * with it) beside Columba's throughput, pages read per operation and read-ahead pages used and
 * wasted per operation, for both workload mixes; the cold full scan; charts. States figures;
 * judges nothing.
 */
public final class Seed003Summary {
    /** "It was 35% slower with prefetch disabled." */
    static final double ARTICLE_SCAN_OFF_OVER_ON = 1.35;
    /** "tpcc-mysql is 12% to 20% faster with prefetch disabled." */
    static final double ARTICLE_OLTP_OFF_OVER_ON_LOW = 1.12;
    static final double ARTICLE_OLTP_OFF_OVER_ON_HIGH = 1.20;

    private static final List<OltpWorkloadBenchmark.Mix> MIXES = List.of(OltpWorkloadBenchmark.Mix.values());

    private Seed003Summary() {
    }

    /** Lines describing the table and the pool, for the report's run section. */
    public static List<String> describe(AccountsTable.Description table, int bufferPoolMb) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "Table `accounts` (seed 003's OLTP table): %,d rows of `id BIGINT PRIMARY "
                        + "KEY, email VARCHAR(40), balance BIGINT, branch INT, filler CHAR(200)`, %,d pages (%,d leaves, "
                        + "%,d MB); unique index `ix_accounts_email` %,d pages. Buffer pool %,d MB: the table is %.1fx the "
                        + "pool. Data files opened with O_DIRECT (`direct_io = true`): every read the pool misses goes "
                        + "to the device.", table.rows(), table.pages(), table.leafPages(), table.megabytes(),
                table.indexPages(), bufferPoolMb, (double) table.pages() * PageFormat.PAGE_SIZE / ((long) bufferPoolMb << 20)));
        lines.add(String.format(Locale.ROOT, "%s in %.0f s into `%s`.", table.loadedNow() ? "Loaded by this run"
                : "Reused; loaded earlier", table.loadSeconds(), table.directory()));
        return lines;
    }

    /** Markdown: the article's observations beside Columba's figures, the charts, the counters. */
    public static String keyFigures(Collection<RunResult> results, ReportCharts charts) {
        StringBuilder text = new StringBuilder();
        text.append("### Seed 003: the article's observations beside Columba's\n\n");
        text.append("| figure | article (InnoDB, tpcc-mysql, 2009) | Columba |\n|---|---|---|\n");
        text.append("| cold full scan, elapsed read-ahead off / on | ").append(times(ARTICLE_SCAN_OFF_OVER_ON))
                .append(" (\"35% slower with prefetch disabled\") | ").append(times(scanRatio(results))).append(" |\n");
        for (OltpWorkloadBenchmark.Mix mix : MIXES) {
            text.append("| OLTP throughput, read-ahead off / on, ").append(mixName(mix)).append(" | ")
                    .append(times(ARTICLE_OLTP_OFF_OVER_ON_LOW)).append("–").append(times(ARTICLE_OLTP_OFF_OVER_ON_HIGH))
                    .append(" (\"12% to 20% faster with prefetch disabled\") | ")
                    .append(times(quotient(workload(results, mix, false).median(OltpWorkloadBenchmark.OPERATIONS_PER_SECOND),
                            workload(results, mix, true).median(OltpWorkloadBenchmark.OPERATIONS_PER_SECOND))))
                    .append(" |\n");
            text.append("| pages from storage per operation, read-ahead on / off, ").append(mixName(mix))
                    .append(" | \"the total number of pages read is much higher\" with it | ")
                    .append(perOperation(results, mix, true, OltpWorkloadBenchmark.PAGES_FROM_STORAGE_PER_OPERATION))
                    .append(" / ")
                    .append(perOperation(results, mix, false, OltpWorkloadBenchmark.PAGES_FROM_STORAGE_PER_OPERATION))
                    .append(" |\n");
            text.append("| read-ahead pages wasted per operation (evicted or left unread), ").append(mixName(mix))
                    .append(" | not measurable: \"no metrics in the server to determine whether it is effective\" | ")
                    .append(perOperation(results, mix, true, OltpWorkloadBenchmark.READ_AHEAD_WASTED_PER_OPERATION))
                    .append(" of ")
                    .append(perOperation(results, mix, true, OltpWorkloadBenchmark.READ_AHEAD_READS_PER_OPERATION))
                    .append(" read ahead |\n");
        }
        text.append("\n");

        List<BarChart.Series> ratios = new ArrayList<>();
        ratios.add(new BarChart.Series("article (InnoDB)", List.of(OptionalDouble.of(ARTICLE_SCAN_OFF_OVER_ON),
                OptionalDouble.of((ARTICLE_OLTP_OFF_OVER_ON_LOW + ARTICLE_OLTP_OFF_OVER_ON_HIGH) / 2),
                OptionalDouble.of((ARTICLE_OLTP_OFF_OVER_ON_LOW + ARTICLE_OLTP_OFF_OVER_ON_HIGH) / 2))));
        List<OptionalDouble> columba = new ArrayList<>();
        columba.add(scanRatio(results));
        for (OltpWorkloadBenchmark.Mix mix : MIXES) {
            columba.add(quotient(workload(results, mix, false).median(OltpWorkloadBenchmark.OPERATIONS_PER_SECOND),
                    workload(results, mix, true).median(OltpWorkloadBenchmark.OPERATIONS_PER_SECOND)));
        }
        ratios.add(new BarChart.Series("Columba", columba));
        text.append(charts.embed(new BarChart("article-ratios",
                "Read-ahead off against on: scan elapsed off / on, OLTP throughput off / on", "ratio",
                List.of("full scan, elapsed", "OLTP " + mixName(MIXES.get(0)), "OLTP " + mixName(MIXES.get(1))), ratios,
                BarChart.Scale.LINEAR)));
        text.append(charts.embed(byMix(results, "throughput", "OLTP throughput, read-ahead on and off", "operations/s",
                run -> run.median(OltpWorkloadBenchmark.OPERATIONS_PER_SECOND))));
        text.append(charts.embed(byMix(results, "pages-per-operation",
                "Pages from storage per operation (physical + read-ahead)", "pages",
                run -> run.median(OltpWorkloadBenchmark.PAGES_FROM_STORAGE_PER_OPERATION))));

        text.append("### OLTP workload, per operation\n\n");
        text.append("| mix | read-ahead | operations/s | logical reads | physical reads | read-ahead reads | read-ahead "
                + "used / wasted | pages from storage | read I/Os |\n|---|---|---|---|---|---|---|---|---|\n");
        for (OltpWorkloadBenchmark.Mix mix : MIXES) {
            for (boolean readAhead : new boolean[] {true, false}) {
                Configuration run = workload(results, mix, readAhead);
                text.append("| ").append(mixName(mix)).append(" | ").append(readAhead ? "on" : "off");
                if (run.result() == null) {
                    text.append(" | ").append(run.problem()).append(" | | | | | | |\n");
                    continue;
                }
                text.append(" | ").append(medianAndRange(run.statistics(OltpWorkloadBenchmark.OPERATIONS_PER_SECOND)))
                        .append(" | ").append(number(run.median(OltpWorkloadBenchmark.LOGICAL_READS_PER_OPERATION)))
                        .append(" | ").append(number(run.median(OltpWorkloadBenchmark.PHYSICAL_READS_PER_OPERATION)))
                        .append(" | ").append(number(run.median(OltpWorkloadBenchmark.READ_AHEAD_READS_PER_OPERATION)))
                        .append(" | ").append(number(run.median(OltpWorkloadBenchmark.READ_AHEAD_USED_PER_OPERATION)))
                        .append(" / ").append(number(run.median(OltpWorkloadBenchmark.READ_AHEAD_WASTED_PER_OPERATION)))
                        .append(" | ").append(number(run.median(OltpWorkloadBenchmark.PAGES_FROM_STORAGE_PER_OPERATION)))
                        .append(" | ").append(number(run.median(OltpWorkloadBenchmark.READ_IOS_PER_OPERATION)))
                        .append(" |\n");
            }
        }
        text.append("\n### Cold full scan\n\n");
        text.append("| read-ahead | elapsed s | physical reads | read-ahead reads | read-ahead used / wasted | bytes per I/O "
                + "| MB/s from storage | (physical + read-ahead) x 8 KB / `read_bytes` |\n|---|---|---|---|---|---|---|---|\n");
        for (boolean readAhead : new boolean[] {true, false}) {
            Configuration run = scan(results, readAhead);
            text.append("| ").append(readAhead ? "on" : "off");
            if (run.result() == null) {
                text.append(" | ").append(run.problem()).append(" | | | | | | |\n");
                continue;
            }
            text.append(" | ").append(medianAndRange(Optional.of(run.result().getPrimaryResult().getStatistics())))
                    .append(" | ").append(number(run.median(ScanIoMetrics.PHYSICAL_READS)))
                    .append(" | ").append(number(run.median(ScanIoMetrics.READ_AHEAD_READS)))
                    .append(" | ").append(number(run.median(ScanIoMetrics.READ_AHEAD_USED))).append(" / ")
                    .append(number(run.median(ScanIoMetrics.READ_AHEAD_WASTED)))
                    .append(" | ").append(bytes(run.median(ScanIoMetrics.BYTES_PER_IO)))
                    .append(" | ").append(number(run.median(ScanIoMetrics.STORAGE_RATE)))
                    .append(" | ").append(threeDecimals(run.median(ScanIoMetrics.COUNTERS_TO_PROCESS)))
                    .append(" |\n");
        }
        text.append("""

                Medians over the measured iterations, with the range in brackets; ratios are of medians. A
                measured iteration of the workload runs a fixed number of statements in one session
                (autocommit), drawn from one seeded random stream, against a pool warmed by the warm-up
                iteration. `point`: half point reads (`SELECT id, balance FROM accounts WHERE email = ?`),
                half updates (`UPDATE accounts SET balance = balance + 1 WHERE email = ?`), both through the
                secondary index. `point + range`: 45% each, and 10% keyset-pagination reads of the clustered
                index (`SELECT id, balance FROM accounts WHERE id > ? LIMIT 10`). Read-ahead off is
                `DBCC TRACEON (652)` in the session. Wasted = read ahead, then evicted or left unread when the
                statement ended. The full scan is cold (CHECKPOINT, DBCC DROPCLEANBUFFERS before each run). The
                article's engine and disk are not this machine's: compare ratios, not rates.
                """);
        return text.toString();
    }

    private static BarChart byMix(Collection<RunResult> results, String name, String title, String valueAxis,
                                  Function<Configuration, OptionalDouble> figure) {
        List<BarChart.Series> series = new ArrayList<>();
        for (boolean readAhead : new boolean[] {true, false}) {
            List<OptionalDouble> values = new ArrayList<>();
            for (OltpWorkloadBenchmark.Mix mix : MIXES) {
                values.add(figure.apply(workload(results, mix, readAhead)));
            }
            series.add(new BarChart.Series("read-ahead " + (readAhead ? "on" : "off"), values));
        }
        return new BarChart(name, title, valueAxis, MIXES.stream().map(Seed003Summary::mixName).toList(), series,
                BarChart.Scale.LINEAR);
    }

    private static String mixName(OltpWorkloadBenchmark.Mix mix) {
        return switch (mix) {
            case POINT -> "point";
            case RANGE -> "point + range";
        };
    }

    private static Configuration workload(Collection<RunResult> results, OltpWorkloadBenchmark.Mix mix, boolean readAhead) {
        return Configuration.of(results, OltpWorkloadBenchmark.class, "mix", mix.name(), "readAhead",
                String.valueOf(readAhead));
    }

    private static Configuration scan(Collection<RunResult> results, boolean readAhead) {
        return Configuration.of(results, OltpScanBenchmark.class, "readAhead", String.valueOf(readAhead));
    }

    private static OptionalDouble scanRatio(Collection<RunResult> results) {
        return quotient(scan(results, false).medianScore(), scan(results, true).medianScore());
    }

    private static String perOperation(Collection<RunResult> results, OltpWorkloadBenchmark.Mix mix, boolean readAhead,
                                       Metric metric) {
        return number(workload(results, mix, readAhead).median(metric));
    }
}
