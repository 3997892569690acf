package dev.columba.bench.load;

import static dev.columba.bench.harness.ReportCells.number;
import static dev.columba.bench.harness.ReportCells.quotient;

import dev.columba.bench.harness.BarChart;
import dev.columba.bench.harness.Configuration;
import dev.columba.bench.harness.ReportCharts;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import org.openjdk.jmh.results.RunResult;

/**
 * The load suite's part of the report: rows per second of each target at one thread and at all
 * processors, and each Columba target's ratio to DuckDB at the same thread count. States figures;
 * judges nothing.
 */
public final class LoadSummary {
    private static final List<String> THREADS = List.of("1", "0");

    private LoadSummary() {
    }

    /** Lines describing the run's file, for the report's run section. */
    public static List<String> describe(LineitemCsv.Description csv) {
        return List.of(String.format(Locale.ROOT, "TPC-H lineitem at scale factor %s: %,d rows, %,.1f MB of CSV with a"
                        + " header line (`%s`), and the same rows as Parquet written from it by DuckDB; every engine loads the same file with its own `COPY` through JDBC in"
                        + " this JVM, into a new database per iteration.", LineitemCsv.scaleText(csv.scaleFactor()),
                csv.rows(), csv.bytes() / (double) (1 << 20), csv.file()),
                "Threads: 1, or all " + Runtime.getRuntime().availableProcessors() + " available processors (Columba:"
                        + " `COPY ... WITH (MAXDOP = n)`; DuckDB: `SET threads = n`).");
    }

    /** Markdown: rows per second and ratios, a chart of rows per second. */
    public static String keyFigures(Collection<RunResult> results, ReportCharts charts) {
        StringBuilder text = new StringBuilder();
        text.append("### Rows per second (median)\n\n| file | target | threads | rows/s | file MB/s | CPU ms | ÷ DuckDB"
                        + " | ÷ same target from CSV |\n")
                .append("|---|---|---|---|---|---|---|---|\n");
        for (LoadFormat format : LoadFormat.values()) {
            for (LoadTarget target : LoadTarget.values()) {
                for (String threads : THREADS) {
                    Configuration run = of(results, format, target, threads);
                    OptionalDouble rows = run.median(CopyLoadBenchmark.ROWS_PER_SECOND);
                    text.append("| ").append(format.label()).append(" | ").append(target.label()).append(" | ")
                            .append(threadLabel(threads)).append(" | ")
                            .append(number(rows)).append(" | ")
                            .append(number(run.median(CopyLoadBenchmark.MEGABYTES_PER_SECOND))).append(" | ")
                            .append(number(run.median(CopyLoadBenchmark.PROCESS_CPU))).append(" | ")
                            .append(target == LoadTarget.DUCKDB ? "1" : ratioText(quotient(rows,
                                    of(results, format, LoadTarget.DUCKDB, threads).median(CopyLoadBenchmark.ROWS_PER_SECOND))))
                            .append(" | ")
                            .append(format == LoadFormat.CSV ? "1" : ratioText(quotient(rows,
                                    of(results, LoadFormat.CSV, target, threads).median(CopyLoadBenchmark.ROWS_PER_SECOND))))
                            .append(" |\n");
                }
            }
        }
        text.append("\n");
        List<BarChart.Series> series = new ArrayList<>();
        for (LoadFormat format : LoadFormat.values()) {
            for (LoadTarget target : LoadTarget.values()) {
                List<OptionalDouble> values = new ArrayList<>();
                for (String threads : THREADS) {
                    values.add(of(results, format, target, threads).median(CopyLoadBenchmark.ROWS_PER_SECOND));
                }
                series.add(new BarChart.Series(target.label() + " from " + format.label(), values));
            }
        }
        text.append(charts.embed(new BarChart("load-rows-per-second", "COPY lineitem from CSV and Parquet, rows per second",
                "rows/s", THREADS.stream().map(LoadSummary::threadLabel).toList(), series, BarChart.Scale.LINEAR)));
        text.append("""

                Medians over the measured iterations; a ratio is the target's median rows per second over
                DuckDB's from the same file at the same thread count (above 1, the target loaded faster), or
                over its own from the CSV file (above 1, Parquet loaded faster). CPU is the whole
                process's during the statement. The machine is shared and noisy: compare ratios of one run,
                not absolute figures across runs.
                """);
        return text.toString();
    }

    private static String threadLabel(String threads) {
        return threads.equals("0") ? "all (" + Runtime.getRuntime().availableProcessors() + ")" : threads;
    }

    private static String ratioText(OptionalDouble ratio) {
        return ratio.isPresent() ? String.format(Locale.ROOT, "%.2f", ratio.getAsDouble()) : "—";
    }

    private static Configuration of(Collection<RunResult> results, LoadFormat format, LoadTarget target, String threads) {
        return Configuration.of(results, CopyLoadBenchmark.class, "format", format.name(), "target", target.name(),
                "threads", threads);
    }
}
