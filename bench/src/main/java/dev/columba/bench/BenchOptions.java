package dev.columba.bench;

import dev.columba.bench.columnstore.CommentsTables;
import dev.columba.bench.harness.BenchDirectories;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one {@code ./columba bench} run does.
 *
 * @param suite                 the benchmarks to run
 * @param shortMode             a quick run: a small table, fewer iterations
 * @param sizeMb                table size in MB (2^20 bytes) for suites sized in MB (rowstore-scan, seed004)
 * @param dataDirectory         parent of the benchmark databases, reused across runs
 * @param resultsDirectory      parent of the per-run report directories
 * @param forks                 JVMs per benchmark configuration; 0 runs in this JVM (tests only)
 * @param warmupIterations      unmeasured iterations per fork
 * @param measurementIterations measured iterations per fork
 * @param parameters            extra JMH {@code @Param} values by name ({@code -p name=v1,v2})
 */
record BenchOptions(Suite suite, boolean shortMode, int sizeMb, Path dataDirectory, Path resultsDirectory, int forks,
                    int warmupIterations, int measurementIterations, Map<String, List<String>> parameters) {

    static final int FULL_SIZE_MB = 1024;
    static final int SHORT_SIZE_MB = 64;
    static final int MAX_SIZE_MB = 64 * 1024;
    /** Parameters the runner sets from its own options; {@code -p} may not set them too. */
    static final Set<String> RUNNER_PARAMETERS = Set.of("sizeMb", "dataDirectory");

    BenchOptions {
        parameters = Map.copyOf(parameters);
    }

    static String usage() {
        StringBuilder text = new StringBuilder("""
                usage: columba bench <suite> [options]
                       columba bench report <results-dir>
                                      write a finished run's report.md and charts again from its
                                      jmh-result.json (its title and run section are kept)
                       columba bench reliability [--seed N] [--statements N] [--first N] [--timeout S]
                                      the SQL fuzzing campaign: mutated statements, outcomes by
                                      SQLSTATE, every internal error or hang listed with its seed
                  --short             quick run: small tables, 1 warm-up and 2 measured iterations
                                      (rowstore-scan, seed004: %d MB; seed001: %s rows, TINY rowgroups;
                                      peers, tpch: TPC-H scale factor 0.01)
                  --size-mb N         rowstore-scan's and seed004's table size in MB (default %d, or %d with --short)
                  --data-dir DIR      where benchmark databases live and are reused (default bench/target/data)
                  --results-dir DIR   where each run's report directory goes (default bench/results)
                  --forks N           JVMs per benchmark configuration (default 1)
                  --warmup N          unmeasured iterations per fork (default 1; peers and tpch 0, whose check run
                                      before measuring already runs each query once)
                  --iterations N      measured iterations per fork (default 5, peers and tpch 3, or 2 with --short)
                  -p NAME=V1,V2       values of a benchmark @Param, e.g. -p readAheadDepthPages=100,500;
                                      seed001: -p rows=N (default %s), -p readAhead=true,false,
                                      -p readAheadDepth=0,134217728 (the columnstore's window, bytes);
                                      seed004: -p bufferPoolMb=N (default 256, at most a quarter of the table);
                                      seed000: -p rows=N, -p backgroundThreads=0,4 (random O_DIRECT readers
                                      beside each run, the article's diskspd; default 0);
                                      seed003: -p rows=N, -p bufferPoolMb=N, -p operations=N (per iteration),
                                      -p delayedDurability=true (updates do not wait for the log's flush);
                                      peers: -p scaleFactor=N (TPC-H; default 1, 0.01 with --short);
                                      oltp: -p rows=N (default 300000, 2000 with --short), -p millis=N
                                      (per client and iteration; 2000, 100 with --short),
                                      -p engine=COLUMBA,H2, -p workload=POINT_PREPARED,...
                                      tpch: -p scaleFactor=N as peers, -p query=Q1,Q7 (default: every
                                      text the check before timing found measurable)
                  -h, --help          this text
                  -V, --version       the version of Columba and of Java
                suites:
                """.formatted(SHORT_SIZE_MB, CommentsTables.SHORT_ROWS, FULL_SIZE_MB, SHORT_SIZE_MB,
                CommentsTables.FULL_ROWS));
        for (Suite suite : Suite.values()) {
            text.append(String.format("  %-20s%s%n", suite.label(), suite.description()));
        }
        return text.toString();
    }

    /**
     * Parses the arguments after {@code bench}.
     *
     * @throws ColumbaException INVALID_ARGUMENT naming the bad argument
     */
    static BenchOptions parse(String... arguments) {
        Suite suite = null;
        boolean shortMode = false;
        Integer sizeMb = null;
        Path dataDirectory = null;
        Path resultsDirectory = null;
        int forks = 1;
        Integer warmup = null;
        Integer iterations = null;
        Map<String, List<String>> parameters = new LinkedHashMap<>();
        for (int index = 0; index < arguments.length; index++) {
            String argument = arguments[index];
            switch (argument) {
                case "--short" -> shortMode = true;
                case "--size-mb" -> sizeMb = number(argument, value(arguments, ++index, argument), 1, MAX_SIZE_MB);
                case "--data-dir" -> dataDirectory = Path.of(value(arguments, ++index, argument));
                case "--results-dir" -> resultsDirectory = Path.of(value(arguments, ++index, argument));
                case "--forks" -> forks = number(argument, value(arguments, ++index, argument), 0, 100);
                case "--warmup" -> warmup = number(argument, value(arguments, ++index, argument), 0, 1000);
                case "--iterations" -> iterations = number(argument, value(arguments, ++index, argument), 1, 1000);
                case "-p" -> addParameter(parameters, value(arguments, ++index, argument));
                default -> {
                    if (argument.startsWith("-")) {
                        throw invalid("unknown option '" + argument + "'");
                    }
                    if (suite != null) {
                        throw invalid("one suite per run: '" + suite.label() + "' and '" + argument + "'");
                    }
                    suite = Suite.byLabel(argument);
                }
            }
        }
        if (suite == null) {
            throw invalid("no suite given");
        }
        return new BenchOptions(suite, shortMode, sizeMb != null ? sizeMb : shortMode ? SHORT_SIZE_MB : FULL_SIZE_MB,
                dataDirectory != null ? dataDirectory : BenchDirectories.data(null),
                resultsDirectory != null ? resultsDirectory : BenchDirectories.results(),
                forks, warmup != null ? warmup : suite.warmupIterations(),
                iterations != null ? iterations : suite.measurementIterations(shortMode), parameters);
    }

    private static String value(String[] arguments, int index, String option) {
        if (index >= arguments.length) {
            throw invalid("option " + option + " needs a value");
        }
        return arguments[index];
    }

    private static int number(String option, String text, int min, int max) {
        int value;
        try {
            value = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw invalid("option " + option + " needs a whole number, got '" + text + "'");
        }
        if (value < min || value > max) {
            throw invalid("option " + option + " must be between " + min + " and " + max + ", got " + value);
        }
        return value;
    }

    private static void addParameter(Map<String, List<String>> parameters, String assignment) {
        int equals = assignment.indexOf('=');
        if (equals <= 0 || equals == assignment.length() - 1) {
            throw invalid("-p needs NAME=V1,V2..., got '" + assignment + "'");
        }
        String name = assignment.substring(0, equals);
        if (RUNNER_PARAMETERS.contains(name)) {
            throw invalid("parameter " + name + " is set by the runner; use --size-mb or --data-dir");
        }
        parameters.put(name, Arrays.asList(assignment.substring(equals + 1).split(",")));
    }

    private static ColumbaException invalid(String message) {
        return new ColumbaException(ErrorCode.INVALID_ARGUMENT, message);
    }
}
