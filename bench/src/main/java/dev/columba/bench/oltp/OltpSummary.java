package dev.columba.bench.oltp;

import static dev.columba.bench.harness.ReportCells.number;
import static dev.columba.bench.harness.ReportCells.quotient;

import dev.columba.bench.harness.BarChart;
import dev.columba.bench.harness.Configuration;
import dev.columba.bench.harness.ReportCells;
import dev.columba.bench.harness.ReportCharts;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import org.openjdk.jmh.results.RunResult;

/**
 * The oltp suite's part of the report: statements (or rows) per second of every workload on the
 * four engines at one and four clients, Columba's ratio to each peer, and latency percentiles;
 * charts of the one-client throughput and of the ratios. States figures; judges nothing.
 */
public final class OltpSummary {
    private static final List<OltpEngine> ENGINES = List.of(OltpEngine.values());
    private static final List<OltpEngine> PEERS = List.of(OltpEngine.H2, OltpEngine.SQLITE, OltpEngine.DUCKDB);
    private static final List<OltpWorkload> WORKLOADS = List.of(OltpWorkload.values());
    private static final List<Class<?>> CLIENTS = List.of(OltpOneClientBenchmark.class, OltpFourClientsBenchmark.class);

    private OltpSummary() {
    }

    /** Lines describing the run's data and the engines' settings, for the report's run section. */
    public static List<String> describe(List<String> rows) {
        return List.of(
                "Table `t (id BIGINT PRIMARY KEY, v INT, s VARCHAR(20))` of " + String.join(" / ", rows) + " rows (SQLite:"
                        + " `id INTEGER PRIMARY KEY`, its 64-bit rowid), checked before every configuration; inserts go to"
                        + " a table `ins` of the same shape, with keys above those it holds; keys uniformly random.",
                "Durability: Columba syncs its log at every commit; SQLite runs journal_mode = WAL, synchronous = FULL;"
                        + " DuckDB syncs its WAL at commit; H2 writes commits to its file without fsync (it has no"
                        + " durable-commit setting). The insert with commits not synced: Columba delayed_durability = on"
                        + " (synced within 5 ms), SQLite synchronous = NORMAL (synced at its checkpoints), H2 as always,"
                        + " DuckDB synced (it has no such setting); the same for the executeBatch insert with commits not synced. Every engine runs in this JVM through its JDBC driver; DuckDB with"
                        + " threads = 1, its clients on duplicates of one connection; DuckDB's write conflicts between"
                        + " concurrent clients are retried.",
                "Each client runs statements back to back for the configured time per iteration; statements/s adds up"
                        + " all clients; latency is per statement, from execute to the last row read.",
                "Columba over pgwire: a database of its own served by Columba's PostgreSQL-wire server in this JVM on"
                        + " a loopback port, each client a pgJDBC connection with default settings (server-side prepared"
                        + " statements from the fifth execution); the appender workload runs executeBatch there.");
    }

    /** Markdown: throughput with ratios, latency percentiles, charts. */
    public static String keyFigures(Collection<RunResult> results, ReportCharts charts) {
        StringBuilder text = new StringBuilder();
        text.append("### Statements per second (median; executeBatch and appender: rows per second)\n\n");
        text.append("| workload | clients |");
        for (OltpEngine engine : ENGINES) {
            text.append(" ").append(engine.label()).append(" |");
        }
        for (OltpEngine peer : PEERS) {
            text.append(" Columba ÷ ").append(peer.label()).append(" |");
        }
        text.append(" over pgwire ÷ embedded |");
        text.append("\n|---|---|").append("---|".repeat(ENGINES.size() + PEERS.size() + 1)).append("\n");
        for (OltpWorkload workload : WORKLOADS) {
            for (Class<?> clients : CLIENTS) {
                text.append("| ").append(workload.title()).append(" | ").append(clientCount(clients)).append(" |");
                for (OltpEngine engine : ENGINES) {
                    text.append(" ").append(number(throughput(results, clients, engine, workload))).append(" |");
                }
                for (OltpEngine peer : PEERS) {
                    text.append(" ").append(times(ratio(results, clients, peer, workload))).append(" |");
                }
                text.append(" ").append(times(quotient(throughput(results, clients, OltpEngine.COLUMBA_WIRE, workload),
                        throughput(results, clients, OltpEngine.COLUMBA, workload)))).append(" |");
                text.append("\n");
            }
        }
        text.append("\n");
        for (Class<?> clients : CLIENTS) {
            List<BarChart.Series> series = new ArrayList<>();
            for (OltpEngine engine : ENGINES) {
                List<OptionalDouble> values = new ArrayList<>();
                for (OltpWorkload workload : WORKLOADS) {
                    values.add(throughput(results, clients, engine, workload));
                }
                series.add(new BarChart.Series(engine.label(), values));
            }
            int count = clientCount(clients);
            text.append(charts.embed(new BarChart("throughput-" + count, "Statements per second, " + count + " client"
                    + (count == 1 ? "" : "s") + " (executeBatch, appender: rows; logarithmic)", "per second", categories(), series,
                    BarChart.Scale.LOGARITHMIC)));
        }
        List<BarChart.Series> ratios = new ArrayList<>();
        for (OltpEngine peer : PEERS) {
            List<OptionalDouble> values = new ArrayList<>();
            for (OltpWorkload workload : WORKLOADS) {
                values.add(ratio(results, OltpOneClientBenchmark.class, peer, workload));
            }
            ratios.add(new BarChart.Series("Columba ÷ " + peer.label(), values));
        }
        text.append(charts.embed(new BarChart("ratios-1", "Columba's throughput over each peer's, 1 client (logarithmic)",
                "ratio", categories(), ratios, BarChart.Scale.LOGARITHMIC)));

        text.append("### Four clients over one, and Columba's commits per log sync\n\n");
        text.append("| workload |");
        for (OltpEngine engine : ENGINES) {
            text.append(" ").append(engine.label()).append(" 4 ÷ 1 |");
        }
        text.append(" Columba commits per sync, 1 client | 4 clients |\n|---|")
                .append("---|".repeat(ENGINES.size() + 2)).append("\n");
        for (OltpWorkload workload : WORKLOADS) {
            if (!workload.writes()) {
                continue;
            }
            text.append("| ").append(workload.title()).append(" |");
            for (OltpEngine engine : ENGINES) {
                text.append(" ").append(times(quotient(throughput(results, OltpFourClientsBenchmark.class, engine, workload),
                        throughput(results, OltpOneClientBenchmark.class, engine, workload)))).append(" |");
            }
            for (Class<?> clients : CLIENTS) {
                OptionalDouble perSync = of(results, clients, OltpEngine.COLUMBA, workload).median(OltpDatabase.COMMITS_PER_SYNC);
                text.append(" ").append(perSync.isPresent() ? String.format(Locale.ROOT, "%.2f", perSync.getAsDouble())
                        : ReportCells.NONE).append(" |");
            }
            text.append("\n");
        }
        text.append("""

                A sync is an fdatasync of Columba's log: by a committer (group commit: the others whose commit
                records it covers wait for it), by the flusher of delayed commits, or by a checkpoint.

                """);

        text.append("### Latency per statement, p50 / p99 (median over iterations, µs)\n\n");
        text.append("| workload | clients |");
        for (OltpEngine engine : ENGINES) {
            text.append(" ").append(engine.label()).append(" |");
        }
        text.append("\n|---|---|").append("---|".repeat(ENGINES.size())).append("\n");
        for (OltpWorkload workload : WORKLOADS) {
            for (Class<?> clients : CLIENTS) {
                text.append("| ").append(workload.title()).append(" | ").append(clientCount(clients)).append(" |");
                for (OltpEngine engine : ENGINES) {
                    Configuration run = of(results, clients, engine, workload);
                    OptionalDouble p50 = run.median(OltpDatabase.LATENCY_P50);
                    OptionalDouble p99 = run.median(OltpDatabase.LATENCY_P99);
                    text.append(" ").append(p50.isPresent() ? number(p50) + " / " + number(p99) : ReportCells.NONE)
                            .append(" |");
                }
                text.append("\n");
            }
        }
        text.append("""

                Medians over the measured iterations; a ratio is Columba's median statements per second over
                the peer's (above 1, Columba ran more). An executeBatch or an appender flush is 1,000 rows: its row is
                rows per second. JMH's score for these benchmarks is the length of a shot (the configured
                time) and means nothing; the figures above are the benchmarks' secondary results. The
                machine is shared and noisy: compare ratios of one run, not absolute figures across runs.
                """);
        return text.toString();
    }

    private static List<String> categories() {
        return WORKLOADS.stream().map(workload -> workload.name().toLowerCase(Locale.ROOT).replace('_', ' ')).toList();
    }

    private static int clientCount(Class<?> clients) {
        return clients == OltpOneClientBenchmark.class ? 1 : 4;
    }

    private static Configuration of(Collection<RunResult> results, Class<?> clients, OltpEngine engine,
                                    OltpWorkload workload) {
        return Configuration.of(results, clients, "engine", engine.name(), "workload", workload.name());
    }

    /** Statements per second, or rows per second for executeBatch and the appender. */
    private static OptionalDouble throughput(Collection<RunResult> results, Class<?> clients, OltpEngine engine,
                                             OltpWorkload workload) {
        Configuration run = of(results, clients, engine, workload);
        return run.median(workload.countsRows() ? OltpDatabase.ROWS_PER_SECOND
                : OltpDatabase.STATEMENTS_PER_SECOND);
    }

    private static OptionalDouble ratio(Collection<RunResult> results, Class<?> clients, OltpEngine peer,
                                        OltpWorkload workload) {
        return quotient(throughput(results, clients, OltpEngine.COLUMBA, workload),
                throughput(results, clients, peer, workload));
    }

    private static String times(OptionalDouble ratio) {
        return ratio.isPresent() ? String.format(Locale.ROOT, "%.3gx", ratio.getAsDouble()) : ReportCells.NONE;
    }
}
