package dev.columba.bench.tpch;

import static dev.columba.bench.harness.ReportCells.number;
import static dev.columba.bench.harness.ReportCells.quotient;

import dev.columba.bench.harness.BarChart;
import dev.columba.bench.harness.Configuration;
import dev.columba.bench.harness.Metric;
import dev.columba.bench.harness.ReportCells;
import dev.columba.bench.harness.ReportCharts;
import dev.columba.bench.harness.ScanIoMetrics;
import dev.columba.bench.peers.LineitemDatabases;
import dev.columba.bench.peers.Peer;
import dev.columba.bench.peers.PeerQueryBenchmark;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import org.openjdk.jmh.results.RunResult;

/**
 * The tpch suite's part of the report: each query's median elapsed time on Columba's columnstore
 * and DuckDB, warm and cold, their ratio, the geometric mean of the ratios, each engine's planning
 * time, and charts of the ratios and planning times. The run section lists what the check found
 * for every text (which queries Columba rejects verbatim and why). States figures; judges nothing.
 */
public final class TpchSummary {
    private static final List<PeerQueryBenchmark.Cache> CACHES = List.of(PeerQueryBenchmark.Cache.values());
    /** The planning times the table and the chart show: the first (the JVM's first statement, with forks) and the warm one. */
    private static final List<Metric> PLANNINGS = List.of(TpchQueryBenchmark.PLANNING, TpchQueryBenchmark.PLANNING_WARM);

    private TpchSummary() {
    }

    /** Lines describing the databases and the check of every text, for the report's run section. */
    public static List<String> describe(TpchDatabases.Description databases) {
        List<String> lines = new ArrayList<>();
        StringBuilder loaded = new StringBuilder();
        for (Peer engine : TpchDatabases.ENGINES) {
            loaded.append(loaded.isEmpty() ? "" : "; ").append(engine.label())
                    .append(String.format(Locale.ROOT, " %,.0f MB (loaded in %.0f s)",
                            databases.bytes().get(engine) / ScanIoMetrics.MEGABYTE, databases.loadSeconds().get(engine)));
        }
        lines.add(String.format(Locale.ROOT, "The eight TPC-H tables at scale factor %s (lineitem %,d rows), %s by %s"
                        + " into `%s`: %s.", LineitemDatabases.scaleText(databases.scaleFactor()), databases.lineitemRows(),
                databases.loadedNow() ? "loaded" : "reused, as loaded", databases.loadedNow() ? "this run" : "an earlier run",
                databases.directory(), loaded));
        lines.add("The queries are DuckDB's tpch extension's texts verbatim (bench resources `dev/columba/bench/tpch`),"
                + " without the terminating semicolon. Before timing, both engines ran every text and Columba's answer"
                + " had to agree with DuckDB's (numbers to the cent or a trillionth); every measured answer is checked"
                + " again. DuckDB runs with threads = 1, as Columba runs a query on one thread; each engine has "
                + "2 GB for its cache.");
        for (TpchDatabases.Check check : databases.checks().values()) {
            String verdict = switch (check.verdict()) {
                case AGREED -> check.text().verbatim() ? null : "agreed with DuckDB and is measured as an adapted text,"
                        + " labelled so (" + replacements(check.text()) + ")";
                case REJECTED -> "Columba rejects it: " + check.detail();
                case DISAGREED -> "Columba's answer differs from DuckDB's (" + check.detail() + "): not measured";
                case NOT_NEEDED, UNCHECKED -> null;
            };
            if (verdict != null) {
                lines.add(check.text().title() + ": " + verdict + ".");
            }
        }
        lines.add("Cold, Columba: DBCC DROPCLEANBUFFERS on the open connection. Cold, DuckDB: the database closed,"
                + " its file dropped from the page cache, reopened, dropped again. Warm: the same query ran just before"
                + " on the same connection.");
        return lines;
    }

    private static String replacements(TpchText text) {
        List<String> replaced = new ArrayList<>();
        for (TpchText.Replacement replacement : text.replacements()) {
            replaced.add("`" + replacement.from().replaceAll("\\s+", " ") + "` → `"
                    + replacement.to().replaceAll("\\s+", " ") + "`");
        }
        return String.join(", ", replaced);
    }

    /** Markdown: elapsed times, ratios and their geometric means, planning times, charts. */
    public static String keyFigures(Collection<RunResult> results, ReportCharts charts) {
        List<TpchText> texts = new ArrayList<>();
        for (TpchText text : TpchText.values()) {
            if (Configuration.of(results, TpchQueryBenchmark.class, "query", text.name(), "engine",
                    Peer.COLUMBA_COLUMNSTORE.name(), "cache", PeerQueryBenchmark.Cache.WARM.name()).result() != null
                    || text.verbatim()) {
                texts.add(text);
            }
        }
        StringBuilder text = new StringBuilder();
        text.append("### Elapsed time per query (median seconds) and Columba ÷ DuckDB\n\n");
        text.append("| query | CS warm | DuckDB warm | CS ÷ DuckDB warm | CS cold | DuckDB cold | CS ÷ DuckDB cold "
                + "| CS planning, first (ms) | DuckDB planning, first (ms) | CS planning, warm (ms) "
                + "| DuckDB planning, warm (ms) |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (TpchText query : texts) {
            text.append("| ").append(query.title());
            for (PeerQueryBenchmark.Cache cache : List.of(PeerQueryBenchmark.Cache.WARM, PeerQueryBenchmark.Cache.COLD)) {
                text.append(" | ").append(number(of(results, Peer.COLUMBA_COLUMNSTORE, query, cache).medianScore()))
                        .append(" | ").append(number(of(results, Peer.DUCKDB, query, cache).medianScore()))
                        .append(" | ").append(times(ratio(results, query, cache)));
            }
            for (Metric planning : PLANNINGS) {
                text.append(" | ").append(number(planning(results, Peer.COLUMBA_COLUMNSTORE, query, planning)))
                        .append(" | ").append(number(planning(results, Peer.DUCKDB, query, planning)));
            }
            text.append(" |\n");
        }
        text.append("\n");
        for (PeerQueryBenchmark.Cache cache : CACHES) {
            text.append(geometricMeanLine(results, texts, cache, true));
            if (texts.stream().anyMatch(query -> !query.verbatim())) {
                text.append(geometricMeanLine(results, texts, cache, false));
            }
        }
        text.append("\n");

        List<BarChart.Series> ratios = new ArrayList<>();
        for (PeerQueryBenchmark.Cache cache : CACHES) {
            ratios.add(new BarChart.Series("CS ÷ DuckDB " + name(cache),
                    texts.stream().map(query -> ratio(results, query, cache)).toList()));
        }
        List<String> categories = texts.stream().map(TpchSummary::category).toList();
        text.append(charts.embed(new BarChart("ratios", "Elapsed time, Columba columnstore ÷ DuckDB, one thread each"
                + " (logarithmic)", "ratio", categories, ratios, BarChart.Scale.LOGARITHMIC)));
        List<BarChart.Series> planning = new ArrayList<>();
        for (Metric metric : PLANNINGS) {
            for (Peer engine : TpchDatabases.ENGINES) {
                planning.add(new BarChart.Series(engine.label() + (metric == TpchQueryBenchmark.PLANNING ? ", first" : ", warm"),
                        texts.stream().map(query -> planning(results, engine, query, metric)).toList()));
            }
        }
        text.append(charts.embed(new BarChart("planning", "Planning time (EXPLAIN: the JVM's first, and warm) per query"
                + " (logarithmic)", "milliseconds", categories, planning, BarChart.Scale.LOGARITHMIC)));
        text.append("""

                Medians over the measured iterations; CS ÷ DuckDB is the ratio of the medians (above 1, DuckDB
                was faster). The geometric mean is over the queries with both figures. Planning time is the
                elapsed time of `EXPLAIN <query>` (Columba parses, validates, optimizes and instantiates the plan
                without opening it). *First*: the first time the connection saw the query, before its first run;
                with forks, each configuration has a JVM of its own, and this is that JVM's first planned
                statement, without a start-up cache (class loading and code not yet compiled by the JIT included:
                what a program's first statement costs). *Warm*: the median of 9 more `EXPLAIN`s after the first
                run (what later statements cost). A dash: not measured, because the query was rejected or answered differently (see the run
                section) or not selected. The machine is shared and noisy: compare ratios of one run, not
                absolute times across runs.
                """);
        return text.toString();
    }

    private static String geometricMeanLine(Collection<RunResult> results, List<TpchText> texts,
                                            PeerQueryBenchmark.Cache cache, boolean verbatimOnly) {
        double logSum = 0;
        int count = 0;
        for (TpchText query : texts) {
            OptionalDouble ratio = ratio(results, query, cache);
            if (ratio.isPresent() && (query.verbatim() || !verbatimOnly)) {
                logSum += Math.log(ratio.getAsDouble());
                count++;
            }
        }
        String over = verbatimOnly ? "verbatim texts" : "verbatim and adapted texts";
        return count == 0 ? "- Geometric mean of CS ÷ DuckDB, " + name(cache) + ", " + over + ": " + ReportCells.NONE + "\n"
                : String.format(Locale.ROOT, "- Geometric mean of CS ÷ DuckDB, %s, over %d %s: **%.2fx**%n", name(cache),
                count, over, Math.exp(logSum / count));
    }

    private static Configuration of(Collection<RunResult> results, Peer engine, TpchText query,
                                    PeerQueryBenchmark.Cache cache) {
        return Configuration.of(results, TpchQueryBenchmark.class, "engine", engine.name(), "query", query.name(),
                "cache", cache.name());
    }

    private static OptionalDouble ratio(Collection<RunResult> results, TpchText query, PeerQueryBenchmark.Cache cache) {
        return quotient(of(results, Peer.COLUMBA_COLUMNSTORE, query, cache).medianScore(),
                of(results, Peer.DUCKDB, query, cache).medianScore());
    }

    /**
     * A planning time ({@link #PLANNINGS}), the same in every iteration of a configuration: the warm
     * configuration's, else the cold one's.
     */
    private static OptionalDouble planning(Collection<RunResult> results, Peer engine, TpchText query, Metric metric) {
        OptionalDouble warm = of(results, engine, query, PeerQueryBenchmark.Cache.WARM).median(metric);
        return warm.isPresent() ? warm : of(results, engine, query, PeerQueryBenchmark.Cache.COLD).median(metric);
    }

    /** A chart's category: {@code Q7}, or {@code Q11a} for an adapted text. */
    private static String category(TpchText text) {
        return "Q" + text.number() + (text.verbatim() ? "" : "a");
    }

    private static String name(PeerQueryBenchmark.Cache cache) {
        return cache.name().toLowerCase(Locale.ROOT);
    }

    private static String times(OptionalDouble ratio) {
        return ratio.isPresent() ? String.format(Locale.ROOT, "%.2fx", ratio.getAsDouble()) : ReportCells.NONE;
    }
}
