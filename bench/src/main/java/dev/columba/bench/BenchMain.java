package dev.columba.bench;

import dev.columba.bench.harness.IterationMetricsProfiler;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * {@code ./columba bench <suite> [options]}: prepares the suite's data, runs its benchmarks through
 * JMH's Runner API in forks started with Columba's JVM options ({@link JvmOptions}), and writes
 * {@code jmh-result.json} and {@code report.md} to {@code <results>/<yyyyMMdd-HHmmss>/}.
 */
public final class BenchMain {
    static final String JSON_RESULT = "jmh-result.json";
    static final String REPORT = "report.md";
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    /** A cold scan without read-ahead of a large table takes minutes; JMH's default limit is 10. */
    private static final TimeValue ITERATION_TIMEOUT = TimeValue.minutes(60);

    private BenchMain() {
    }

    /** A finished run: where its report is, and JMH's results. */
    record Completed(Path directory, Collection<RunResult> results) {
    }

    public static void main(String[] arguments) {
        System.exit(run(arguments, System.out, System.err));
    }

    static int run(String[] arguments, PrintStream out, PrintStream err) {
        if (arguments.length == 0 || List.of(arguments).contains("--help") || List.of(arguments).contains("-h")) {
            (arguments.length == 0 ? err : out).print(BenchOptions.usage());
            return arguments.length == 0 ? 2 : 0;
        }
        BenchOptions options;
        try {
            options = BenchOptions.parse(arguments);
        } catch (ColumbaException e) {
            err.println("columba bench: " + e.getMessage());
            err.print(BenchOptions.usage());
            return 2;
        }
        try {
            Completed run = run(options, out);
            out.println("columba bench: report in " + run.directory().resolve(REPORT));
            return 0;
        } catch (RunnerException | ColumbaException e) {
            err.println("columba bench: the run failed: " + e.getMessage());
            return 1;
        }
    }

    /**
     * Runs {@code options.suite()} and writes its report.
     *
     * @throws RunnerException if a benchmark fails (a wrong scan result fails its benchmark)
     */
    static Completed run(BenchOptions options, PrintStream progress) throws RunnerException {
        String timestamp = LocalDateTime.now().format(TIMESTAMP);
        Path directory = options.resultsDirectory().resolve(timestamp);
        createDirectories(directory);
        List<String> notes = options.suite().prepare(options, progress);

        ChainedOptionsBuilder jmh = new OptionsBuilder()
                .forks(options.forks())
                .warmupIterations(options.warmupIterations())
                .measurementIterations(options.measurementIterations())
                .jvmArgs(JvmOptions.read().toArray(String[]::new))
                .param("sizeMb", String.valueOf(options.sizeMb()))
                .param("dataDirectory", options.dataDirectory().toAbsolutePath().toString())
                .addProfiler(IterationMetricsProfiler.class)
                .timeout(ITERATION_TIMEOUT)
                .shouldFailOnError(true)
                .resultFormat(ResultFormatType.JSON)
                .result(directory.resolve(JSON_RESULT).toString());
        for (Class<?> benchmark : options.suite().benchmarks()) {
            jmh.include("^" + Pattern.quote(benchmark.getName()) + "\\.");
        }
        for (Map.Entry<String, List<String>> parameter : options.suite().parameters(options).entrySet()) {
            jmh.param(parameter.getKey(), parameter.getValue().toArray(String[]::new));
        }
        Collection<RunResult> results = new Runner(jmh.build()).run();

        String markdown = MarkdownReport.render(options, timestamp, Machine.describe(options.dataDirectory()), notes,
                results);
        try {
            Files.writeString(directory.resolve(REPORT), markdown);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot write " + directory.resolve(REPORT) + ": "
                    + e.getMessage(), e);
        }
        return new Completed(directory, results);
    }

    private static void createDirectories(Path directory) {
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot create " + directory + ": " + e.getMessage(), e);
        }
    }
}
