package dev.columba.bench.peers;

import static dev.columba.bench.harness.ReportCells.bytes;
import static dev.columba.bench.harness.ReportCells.number;
import static dev.columba.bench.harness.ReportCells.quotient;
import static dev.columba.bench.harness.ReportCells.threeDecimals;

import dev.columba.bench.harness.BarChart;
import dev.columba.bench.harness.Configuration;
import dev.columba.bench.harness.Metric;
import dev.columba.bench.harness.ReportCells;
import dev.columba.bench.harness.ReportCharts;
import dev.columba.bench.harness.ScanIoMetrics;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.function.Function;
import org.openjdk.jmh.results.RunResult;

/**
 * The peers suite's part of the report: each query's elapsed time on the four engines, warm and
 * cold, with the ratios of Columba's columnstore to DuckDB and to its rowstore; the bytes each
 * engine read from storage cold; Columba's own I/O counters; charts of each. States figures;
 * judges nothing.
 */
public final class PeersSummary {
    private static final List<Peer> PEERS = List.of(Peer.values());
    private static final List<TpchQuery> QUERIES = List.of(TpchQuery.values());
    private static final List<PeerQueryBenchmark.Cache> CACHES = List.of(PeerQueryBenchmark.Cache.values());

    private PeersSummary() {
    }

    /** Lines describing the databases, for the report's run section. */
    public static List<String> describe(LineitemDatabases.Description databases) {
        List<String> lines = new ArrayList<>();
        StringBuilder loaded = new StringBuilder();
        for (LineitemDatabases.LoadedDatabase database : databases.databases().values()) {
            loaded.append(loaded.isEmpty() ? "" : "; ").append(database.peer().label()).append(" ")
                    .append(String.format(Locale.ROOT, "%,.0f MB", database.bytes() / ScanIoMetrics.MEGABYTE))
                    .append(String.format(Locale.ROOT, " (loaded in %.0f s)", database.loadSeconds()));
        }
        lines.add(String.format(Locale.ROOT, "TPC-H lineitem at scale factor %s: %,d rows, %s by %s into `%s`: %s.",
                LineitemDatabases.scaleText(databases.scaleFactor()), databases.rows(),
                databases.loadedNow() ? "loaded" : "reused, as loaded", databases.loadedNow() ? "this run" : "an earlier run",
                databases.directory(), loaded));
        lines.add("Before timing, every engine ran every query and agreed on the result (numbers to the cent: the"
                + " engines type averages differently); every measured run is checked against it again.");
        lines.add("Each engine has " + Peer.CACHE + " for its own cache (Columba's buffer pool, DuckDB's memory_limit, H2's"
                + " CACHE_SIZE); DuckDB runs with threads = 1, as Columba and H2 run a query on one thread; DuckDB and H2"
                + " open their databases read-only.");
        lines.add("Cold, Columba: DBCC DROPCLEANBUFFERS (buffer pool emptied, idle columnstore segments unmapped,"
                + " every database file dropped from the page cache with POSIX_FADV_DONTNEED), the connection kept"
                + " open. Cold, DuckDB and H2: the"
                + " connection (and with it the database and its cache) closed, POSIX_FADV_DONTNEED on every database"
                + " file, the connection opened again (the engine reads its header and catalog), the files dropped"
                + " once more. Warm: the same query ran just before on the same connection.");
        return lines;
    }

    /** Markdown: elapsed times and ratios, bytes from storage, Columba's counters, charts, notes. */
    public static String keyFigures(Collection<RunResult> results, ReportCharts charts) {
        Runs runs = new Runs(results);
        StringBuilder text = new StringBuilder();
        text.append("### Elapsed time per query (median seconds)\n\n");
        text.append("| query | cache |");
        for (Peer peer : PEERS) {
            text.append(" ").append(peer.label()).append(" |");
        }
        text.append(" CS ÷ DuckDB | RS ÷ CS | H2 ÷ CS |\n|---|---|").append("---|".repeat(PEERS.size() + 3)).append("\n");
        for (TpchQuery query : QUERIES) {
            for (PeerQueryBenchmark.Cache cache : CACHES) {
                text.append("| ").append(query.title()).append(" | ").append(name(cache)).append(" |");
                for (Peer peer : PEERS) {
                    text.append(" ").append(number(runs.of(peer, query, cache).medianScore())).append(" |");
                }
                text.append(" ").append(times(runs.ratio(Peer.COLUMBA_COLUMNSTORE, Peer.DUCKDB, query, cache)))
                        .append(" | ").append(times(runs.ratio(Peer.COLUMBA_ROWSTORE, Peer.COLUMBA_COLUMNSTORE, query, cache)))
                        .append(" | ").append(times(runs.ratio(Peer.H2, Peer.COLUMBA_COLUMNSTORE, query, cache)))
                        .append(" |\n");
            }
        }
        text.append("\n");
        for (PeerQueryBenchmark.Cache cache : CACHES) {
            text.append(charts.embed(byQuery(runs, "elapsed-" + name(cache), "Elapsed time per query, " + name(cache)
                    + " (logarithmic)", "seconds", cache, Configuration::medianScore, BarChart.Scale.LOGARITHMIC)));
        }
        List<String> ratioCategories = new ArrayList<>();
        List<OptionalDouble> columnstoreToDuckDb = new ArrayList<>();
        List<OptionalDouble> rowstoreToColumnstore = new ArrayList<>();
        for (TpchQuery query : QUERIES) {
            for (PeerQueryBenchmark.Cache cache : CACHES) {
                ratioCategories.add(query.name() + " " + name(cache));
                columnstoreToDuckDb.add(runs.ratio(Peer.COLUMBA_COLUMNSTORE, Peer.DUCKDB, query, cache));
                rowstoreToColumnstore.add(runs.ratio(Peer.COLUMBA_ROWSTORE, Peer.COLUMBA_COLUMNSTORE, query, cache));
            }
        }
        text.append(charts.embed(new BarChart("ratios", "Elapsed-time ratios: Columba CS to DuckDB, Columba RS to CS"
                + " (logarithmic)", "ratio", ratioCategories, List.of(
                new BarChart.Series("CS ÷ DuckDB", columnstoreToDuckDb),
                new BarChart.Series("RS ÷ CS", rowstoreToColumnstore)), BarChart.Scale.LOGARITHMIC)));

        text.append("### CPU time per query (the process's CPU seconds, median)\n\n");
        text.append("| query | cache |");
        for (Peer peer : PEERS) {
            text.append(" ").append(peer.label()).append(" |");
        }
        text.append(" CS ÷ DuckDB |\n|---|---|").append("---|".repeat(PEERS.size() + 1)).append("\n");
        for (TpchQuery query : QUERIES) {
            for (PeerQueryBenchmark.Cache cache : CACHES) {
                text.append("| ").append(query.title()).append(" | ").append(name(cache)).append(" |");
                for (Peer peer : PEERS) {
                    text.append(" ").append(number(runs.cpuSeconds(peer, query, cache))).append(" |");
                }
                text.append(" ").append(times(quotient(runs.cpuSeconds(Peer.COLUMBA_COLUMNSTORE, query, cache),
                        runs.cpuSeconds(Peer.DUCKDB, query, cache)))).append(" |\n");
            }
        }
        text.append("\n");

        text.append("### Bytes read from storage, cold (`/proc/self/io` read_bytes, MB per query)\n\n");
        text.append("| query |");
        for (Peer peer : PEERS) {
            text.append(" ").append(peer.label()).append(" |");
        }
        text.append("\n|---|").append("---|".repeat(PEERS.size())).append("\n");
        for (TpchQuery query : QUERIES) {
            text.append("| ").append(query.title()).append(" |");
            for (Peer peer : PEERS) {
                text.append(" ").append(number(runs.of(peer, query, PeerQueryBenchmark.Cache.COLD)
                        .median(ScanIoMetrics.PROCESS_READ))).append(" |");
            }
            text.append("\n");
        }
        text.append("| *database size* |");
        for (Peer peer : PEERS) {
            text.append(" ").append(number(runs.any(peer).median(PeerQueryBenchmark.DATABASE_SIZE))).append(" |");
        }
        text.append("\n\n");
        text.append(charts.embed(byQuery(runs, "read-cold", "MB read from storage per query, cold", "MB",
                PeerQueryBenchmark.Cache.COLD, run -> run.median(ScanIoMetrics.PROCESS_READ), BarChart.Scale.LINEAR)));

        text.append("### Columba's I/O counters, cold\n\n");
        text.append("| query | table | physical reads (pages) | read-ahead reads (pages) | read I/Os | bytes per I/O "
                + "| MB/s from storage | (physical + read-ahead) x 8 KB / `read_bytes` |\n");
        text.append("|---|---|---|---|---|---|---|---|\n");
        for (TpchQuery query : QUERIES) {
            for (Peer peer : List.of(Peer.COLUMBA_COLUMNSTORE, Peer.COLUMBA_ROWSTORE)) {
                Configuration run = runs.of(peer, query, PeerQueryBenchmark.Cache.COLD);
                text.append("| ").append(query.title()).append(" | ").append(peer.label());
                if (run.result() == null) {
                    text.append(" | ").append(run.problem()).append(" | | | | | |\n");
                    continue;
                }
                text.append(" | ").append(number(sum(run, ScanIoMetrics.PHYSICAL_READS, ScanIoMetrics.LOB_PHYSICAL_READS)))
                        .append(" | ").append(number(sum(run, ScanIoMetrics.READ_AHEAD_READS,
                                ScanIoMetrics.LOB_READ_AHEAD_READS)))
                        .append(" | ").append(number(run.median(ScanIoMetrics.READ_IOS)))
                        .append(" | ").append(bytes(run.median(ScanIoMetrics.BYTES_PER_IO)))
                        .append(" | ").append(number(run.median(ScanIoMetrics.STORAGE_RATE)))
                        .append(" | ").append(threeDecimals(run.median(ScanIoMetrics.COUNTERS_TO_PROCESS)))
                        .append(" |\n");
            }
        }
        text.append("""

                Medians over the measured iterations; ratios are of medians: CS ÷ DuckDB is Columba
                columnstore's time over DuckDB's (above 1, DuckDB was faster), RS ÷ CS and H2 ÷ CS are the
                rowstore's and H2's time over the columnstore's (above 1, the columnstore was faster). MB =
                2^20 bytes. Bytes read from storage are the process's `read_bytes` over the query: the four
                engines run in the same JVM, so one referee counts them all, DuckDB's native threads
                included. Columba's counters add the columnstore's segment reads (lob) to the page reads;
                bytes per I/O = bytes requested from the operating system per read request; MB/s from
                storage = (physical + read-ahead reads) x 8 KB over the query's elapsed time. CPU time is
                the whole process's (every thread, DuckDB's native ones too) over the query: where elapsed
                time is well above it, the query waited, for storage or for a core that other processes of
                the shared machine held. What cold means for each engine is in the run section above; the
                JVM's compiled code stays warm in both. The disk is shared and noisy: compare ratios of one
                run, not absolute times.
                """);
        return text.toString();
    }

    /** The runs of the suite, one per engine, query and cache. */
    private record Runs(Collection<RunResult> results) {
        Configuration of(Peer peer, TpchQuery query, PeerQueryBenchmark.Cache cache) {
            return Configuration.of(results, PeerQueryBenchmark.class, "engine", peer.name(), "query", query.name(),
                    "cache", cache.name());
        }

        /** A run of {@code peer}, for figures every run of it records alike (the database's size). */
        Configuration any(Peer peer) {
            for (TpchQuery query : QUERIES) {
                for (PeerQueryBenchmark.Cache cache : CACHES) {
                    Configuration run = of(peer, query, cache);
                    if (run.result() != null) {
                        return run;
                    }
                }
            }
            return of(peer, QUERIES.getFirst(), CACHES.getFirst());
        }

        /** The process's median CPU time during the query, in seconds. */
        OptionalDouble cpuSeconds(Peer peer, TpchQuery query, PeerQueryBenchmark.Cache cache) {
            return ReportCells.divided(of(peer, query, cache).median(PeerQueryBenchmark.PROCESS_CPU), 1000);
        }

        /** {@code numerator}'s median time over {@code denominator}'s. */
        OptionalDouble ratio(Peer numerator, Peer denominator, TpchQuery query, PeerQueryBenchmark.Cache cache) {
            return quotient(of(numerator, query, cache).medianScore(), of(denominator, query, cache).medianScore());
        }
    }

    private static BarChart byQuery(Runs runs, String name, String title, String valueAxis,
                                    PeerQueryBenchmark.Cache cache, Function<Configuration, OptionalDouble> figure,
                                    BarChart.Scale scale) {
        List<BarChart.Series> series = new ArrayList<>();
        for (Peer peer : PEERS) {
            List<OptionalDouble> values = new ArrayList<>();
            for (TpchQuery query : QUERIES) {
                values.add(figure.apply(runs.of(peer, query, cache)));
            }
            series.add(new BarChart.Series(peer.label(), values));
        }
        return new BarChart(name, title, valueAxis, QUERIES.stream().map(TpchQuery::title).toList(), series, scale);
    }

    private static OptionalDouble sum(Configuration run, Metric pages, Metric lobPages) {
        OptionalDouble first = run.median(pages);
        OptionalDouble second = run.median(lobPages);
        return first.isPresent() && second.isPresent() ? OptionalDouble.of(first.getAsDouble() + second.getAsDouble())
                : OptionalDouble.empty();
    }

    private static String name(PeerQueryBenchmark.Cache cache) {
        return cache.name().toLowerCase(Locale.ROOT);
    }

    private static String times(OptionalDouble ratio) {
        return ratio.isPresent() ? String.format(Locale.ROOT, "%.2fx", ratio.getAsDouble()) : ReportCells.NONE;
    }
}
