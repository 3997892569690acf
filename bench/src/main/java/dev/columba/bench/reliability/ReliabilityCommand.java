package dev.columba.bench.reliability;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code ./columba bench reliability [options]}: the SQL fuzzing campaign ({@link SqlFuzzCampaign}),
 * byte flips after a clean close ({@link FileDamageCampaign}), and kill -9 of child JVMs with flips
 * in every kind of file of the crashed database ({@link KillCampaign}, {@link CrashFlipTargets}).
 * It prints the seed first, counts outcomes by SQLSTATE, lists every failure with the seed and index
 * that replay it, writes {@code reliability-<timestamp>.md} to the results directory, and exits 1
 * if anything failed. Not a JMH suite: it measures how often the engine breaks, not how fast it runs.
 */
public final class ReliabilityCommand {
    public static final String NAME = "reliability";
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private ReliabilityCommand() {
    }

    public static String usage() {
        return """
                usage: columba bench reliability [options]
                  --seed N            the run's seed (default: a random one, printed first)
                  --statements N      mutated statements to run (default 100000)
                  --first N           index of the first statement (default 0); with --statements 1,
                                      replays one statement a report listed
                  --timeout S         each statement's query timeout in seconds (default 10)
                  --flips N           byte flips in the files of a cleanly closed database (default 1000;
                                      0: none), each in a fresh copy, answers compared with those before
                  --kills N           child JVMs killed with SIGKILL at random moments of mixed work on one
                                      database, each reopen checked against the acknowledged units
                                      (default 100; 0: none)
                  --crash-flips N     byte flips in copies of crashed databases, spread over the kills,
                                      each file kind and data-page kind in turn: log, control file,
                                      catalog, rowstore and columnstore-metadata pages, rowgroup
                                      files, dictionaries, ... (default 300)
                  --workload W,...    what the killed children do, each workload a campaign of --kills kills
                                      on its own database: mixed (default), rowstore, columnstore, checkpoint
                                      (a CHECKPOINT in a third of the units), large (transactions larger than
                                      half a 4 MB buffer pool, which spill), or all
                  --work-dir DIR      where the campaigns' databases go (default bench/target/reliability)
                  --results-dir DIR   where the report goes (default bench/results)
                """;
    }

    /** Runs the command; the process's exit status: 0 no failure, 1 failures, 2 bad arguments. */
    public static int run(String[] arguments, PrintStream out, PrintStream err) {
        long seed = ThreadLocalRandom.current().nextLong();
        long statements = 100_000;
        long first = 0;
        int timeout = 10;
        Path results = Path.of("bench", "results");
        long flips = 1000;
        int kills = 100;
        int crashFlips = 300;
        List<KillWorkload.Kind> workloads = List.of(KillWorkload.Kind.MIXED);
        Path work = Path.of("bench", "target", "reliability");
        try {
            for (int index = 1; index < arguments.length; index++) {
                String value = index + 1 < arguments.length ? arguments[index + 1] : null;
                switch (arguments[index]) {
                    case "--seed" -> seed = Long.parseLong(required(value, "--seed"));
                    case "--statements" -> statements = positive(Long.parseLong(required(value, "--statements")), "--statements");
                    case "--first" -> first = Long.parseLong(required(value, "--first"));
                    case "--timeout" -> timeout = (int) positive(Integer.parseInt(required(value, "--timeout")), "--timeout");
                    case "--results-dir" -> results = Path.of(required(value, "--results-dir"));
                    case "--flips" -> flips = Long.parseLong(required(value, "--flips"));
                    case "--kills" -> kills = Integer.parseInt(required(value, "--kills"));
                    case "--crash-flips" -> crashFlips = Integer.parseInt(required(value, "--crash-flips"));
                    case "--workload" -> workloads = workloads(required(value, "--workload"));
                    case "--work-dir" -> work = Path.of(required(value, "--work-dir"));
                    default -> throw new IllegalArgumentException("unknown option " + arguments[index]);
                }
                index++;
            }
        } catch (IllegalArgumentException e) {
            err.println("columba bench reliability: " + e.getMessage());
            err.print(usage());
            return 2;
        }
        out.println("columba bench reliability: seed " + seed + ", statements " + first + " to " + (first + statements - 1)
                + ", timeout " + timeout + " s");
        SqlFuzzCampaign.Result result;
        FileDamageCampaign.Result damage = null;
        List<KillCampaign.Result> crashes = new ArrayList<>();
        try {
            result = new SqlFuzzCampaign(seed, timeout, out).run(first, statements);
            out.print(report(result, first, timeout));
            if (flips > 0) {
                out.println("columba bench reliability: " + flips + " byte flips, seed " + seed);
                damage = new FileDamageCampaign(seed, work, out).run(flips);
            }
            for (KillWorkload.Kind workload : kills > 0 ? workloads : List.<KillWorkload.Kind>of()) {
                String name = workload.name().toLowerCase(Locale.ROOT);
                out.println("columba bench reliability: " + kills + " kills of workload " + name + ", " + crashFlips
                        + " flips after a crash, seed " + seed);
                crashes.add(new KillCampaign(seed, work.resolve("kill-" + name), out).workload(workload).run(kills, crashFlips));
            }
        } catch (SQLException | IOException e) {
            err.println("columba bench reliability: the campaign could not run: " + e.getMessage());
            return 1;
        }
        StringBuilder report = new StringBuilder(report(result, first, timeout)).append(damage == null ? "" : report(damage));
        if (damage != null) {
            out.print(report(damage));
        }
        for (KillCampaign.Result crash : crashes) {
            report.append(report(crash));
            out.print(report(crash));
        }
        try {
            Files.createDirectories(results);
            Path file = results.resolve("reliability-" + LocalDateTime.now().format(TIMESTAMP) + ".md");
            Files.writeString(file, report);
            out.println("columba bench reliability: report in " + file);
        } catch (IOException e) {
            err.println("columba bench reliability: cannot write the report: " + e.getMessage());
            return 1;
        }
        return result.failures().isEmpty() && (damage == null || damage.failures().isEmpty())
                && crashes.stream().allMatch(crash -> crash.failures().isEmpty()) ? 0 : 1;
    }

    /** The kill workloads named in {@code list}: comma-separated kinds, or {@code all}. */
    static List<KillWorkload.Kind> workloads(String list) {
        if (list.equals("all")) {
            return List.of(KillWorkload.Kind.values());
        }
        List<KillWorkload.Kind> kinds = new ArrayList<>();
        for (String name : list.split(",")) {
            try {
                kinds.add(KillWorkload.Kind.valueOf(name.strip().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown kill workload " + name + " (mixed, rowstore, columnstore, "
                        + "checkpoint, large or all)");
            }
        }
        return kinds;
    }

    /** The run's counts and failures as Markdown. */
    static String report(SqlFuzzCampaign.Result result, long first, int timeout) {
        StringBuilder text = new StringBuilder("## SQL fuzzing\n\n");
        long parsed = result.statements() - result.count("42601");
        text.append("Seed ").append(result.seed()).append(", statements ").append(first).append(" to ")
                .append(first + result.statements() - 1).append(" (").append(result.statements()).append("), timeout ")
                .append(timeout).append(" s, ").append(String.format("%.1f s", result.elapsedNanos() / 1e9)).append(".\n")
                .append("Parsed (not 42601): ").append(parsed).append(" (")
                .append(String.format("%.1f", 100.0 * parsed / Math.max(1, result.statements()))).append("%); ")
                .append("failures: ").append(result.failures().size()).append(".\n\n")
                .append("| outcome | statements |\n|---|---:|\n");
        for (Map.Entry<String, Long> outcome : result.bySqlState().entrySet()) {
            text.append("| ").append(outcome.getKey()).append(" | ").append(outcome.getValue()).append(" |\n");
        }
        text.append("\n");
        if (!result.failures().isEmpty()) {
            text.append("Failures (replay one with `--seed ").append(result.seed())
                    .append(" --first <index> --statements 1`):\n\n");
            for (SqlFuzzCampaign.Failure failure : result.failures()) {
                text.append("- ").append(failure.line()).append("\n");
            }
            text.append("\n");
        }
        return text.toString();
    }

    /** The flip campaign's counts by file kind and its failures as Markdown. */
    static String report(FileDamageCampaign.Result result) {
        StringBuilder text = new StringBuilder("## Byte flips after a clean close\n\n");
        text.append("Seed ").append(result.seed()).append(", ").append(result.flips())
                .append(" flips (one bit each, in a fresh copy of the database); failures: ")
                .append(result.failures().size()).append(".\n\n| file kind |");
        outcomesByKind(text, FileDamageCampaign.Outcome.values(), result.byFileKind());
        text.append("Detected flips whose damaged bytes were still there afterwards (the file untouched, or kept in"
                + " `damaged/`): ").append(result.preserved()).append(" of ").append(result.detected()).append(".\n\n");
        if (!result.failures().isEmpty()) {
            text.append("Failures:\n\n");
            for (FileDamageCampaign.Flip flip : result.failures()) {
                text.append("- ").append(flip.line()).append('\n');
            }
            text.append('\n');
        }
        return text.toString();
    }

    /** What the children of a workload do, for the report. */
    static String describe(KillWorkload.Kind workload) {
        return switch (workload) {
            case MIXED -> "autocommit and multi-row rowstore inserts, columnstore inserts with the tuple mover, "
                    + "updates and deletes of whole units, CHECKPOINT, REORGANIZE";
            case ROWSTORE -> "rowstore only: autocommit and multi-row inserts into a B+tree table and a heap with "
                    + "out-of-row strings (overflow pages), updates and deletes of whole units";
            case COLUMNSTORE -> "columnstore only: inserts into small rowgroups the tuple mover compresses, updates and "
                    + "deletes of whole units, REORGANIZE";
            case CHECKPOINT -> "writes to both kinds of table with a CHECKPOINT in about a third of the units, the "
                    + "rowstore table on a filegroup of two files";
            case LARGE -> "transactions of 60,000-160,000 rows, larger than half the 4 MB buffer pool (they spill): "
                    + "rowstore inserts, updates and deletes of whole units";
        };
    }

    /** The kill -9 campaign's counts, the flips after a crash by outcome, and its failures as Markdown. */
    static String report(KillCampaign.Result result) {
        StringBuilder text = new StringBuilder("## kill -9 of a child JVM: workload " + result.workload().name().toLowerCase(Locale.ROOT)
                + "\n\n");
        text.append("Seed ").append(result.seed()).append(", ").append(result.kills()).append(" kills of ")
                .append("`KillWorkload` (").append(describe(result.workload())).append(") on one database, ")
                .append(String.format("%.1f s", result.elapsedNanos() / 1e9)).append("; failures: ")
                .append(result.failures().size()).append(".\n\n| count | value |\n|---|---:|\n")
                .append("| kills | ").append(result.kills()).append(" |\n")
                .append("| kills before the child was ready (starting or recovering) | ").append(result.killedBeforeReady()).append(" |\n")
                .append("| units acknowledged | ").append(result.acknowledged()).append(" |\n")
                .append("| reopens ok | ").append(result.reopensOk()).append(" |\n")
                .append("| reopens failed | ").append(result.reopensFailed()).append(" |\n")
                .append("| acknowledged rows lost | ").append(result.rowsLost()).append(" |\n")
                .append("| transactions half visible | ").append(result.halfVisible()).append(" |\n")
                .append("| units there that must not be | ").append(result.unexpected()).append(" |\n");
        if (result.workload() == KillWorkload.Kind.LARGE) {
            text.append("| children whose transactions spilled before the kill | ").append(result.childrenSpilled()).append(" |\n")
                    .append("| pages those children spilled | ").append(result.spilledPages()).append(" |\n");
        }
        text.append('\n');
        if (result.flipCount() > 0) {
            text.append("Flips in a copy of the crashed database (one bit, before its reopen; the kinds take turns): ")
                    .append(result.flipCount()).append("; damaged bytes still there afterwards (the file or page untouched, ")
                    .append("or kept in `damaged/`): ").append(result.flipsPreserved())
                    .append("; overwritten or removed by the open with every answer right (a page written again from ")
                    .append("its image in the log, a file no committed state refers to): ").append(result.flipsOverwritten())
                    .append(".\n\n| file kind |");
            outcomesByKind(text, KillCampaign.FlipOutcome.values(), result.flipsByKind());
            if (!result.overwrittenByKind().isEmpty()) {
                text.append("Of the same answers, overwritten or removed by the open: ");
                result.overwrittenByKind().forEach((kind, count) -> text.append(kind).append(' ').append(count).append("; "));
                text.setLength(text.length() - 2);
                text.append(". The rest were not read after the open, their bytes still there.\n\n");
            }
        }
        if (!result.failures().isEmpty()) {
            text.append("Failures:\n\n");
            for (String failure : result.failures()) {
                text.append("- ").append(failure.replace('\n', ' ')).append('\n');
            }
            text.append('\n');
        }
        return text.toString();
    }

    /** The rest of a table's header row (after "| file kind |"), then a row per file kind: its count of each outcome. */
    private static <O extends Enum<O>> void outcomesByKind(StringBuilder text, O[] outcomes, Map<String, Map<O, Long>> byKind) {
        for (O outcome : outcomes) {
            text.append(' ').append(outcome.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')).append(" |");
        }
        text.append("\n|---|").append("---:|".repeat(outcomes.length)).append('\n');
        for (Map.Entry<String, Map<O, Long>> kind : byKind.entrySet()) {
            text.append("| ").append(kind.getKey()).append(" |");
            for (O outcome : outcomes) {
                text.append(' ').append(kind.getValue().getOrDefault(outcome, 0L)).append(" |");
            }
            text.append('\n');
        }
        text.append('\n');
    }

    private static String required(String value, String option) {
        if (value == null) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }

    private static long positive(long value, String option) {
        if (value <= 0) {
            throw new IllegalArgumentException(option + " must be 1 or more, got " + value);
        }
        return value;
    }
}
