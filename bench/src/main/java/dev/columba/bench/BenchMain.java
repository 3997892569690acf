package dev.columba.bench;

import dev.columba.bench.harness.IterationMetricsProfiler;
import dev.columba.bench.harness.JmhResultFile;
import dev.columba.bench.harness.ReportCharts;
import dev.columba.bench.reliability.ReliabilityCommand;
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
 * {@code jmh-result.json}, {@code report.md} and the report's charts ({@code *.png}) to
 * {@code <results>/<yyyyMMdd-HHmmss>/}. {@code ./columba bench report <directory>} writes a finished
 * run's report and charts again from its {@code jmh-result.json}, e.g. after the report's code changed.
 */
public final class BenchMain {
    static final String JSON_RESULT = "jmh-result.json";
    static final String REPORT = "report.md";
    static final String REPORT_COMMAND = "report";
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    /** A cold scan without read-ahead of a large table takes minutes; JMH's default limit is 10. */
    private static final TimeValue ITERATION_TIMEOUT = TimeValue.minutes(60);

    private BenchMain() {
    }

    /** A finished run: where its report is, JMH's results, and the charts the report embeds. */
    record Completed(Path directory, Collection<RunResult> results, List<Path> charts) {
    }

    public static void main(String[] arguments) {
        System.exit(run(arguments, System.out, System.err));
    }

    static int run(String[] arguments, PrintStream out, PrintStream err) {
        if (arguments.length == 0 || List.of(arguments).contains("--help") || List.of(arguments).contains("-h")) {
            (arguments.length == 0 ? err : out).print(BenchOptions.usage());
            return arguments.length == 0 ? 2 : 0;
        }
        if (List.of(arguments).contains("--version") || List.of(arguments).contains("-V")) {
            out.println("columba bench " + dev.columba.jdbc.ColumbaDriver.version() + " (Java " + Runtime.version() + ")");
            return 0;
        }
        if (arguments[0].equals(REPORT_COMMAND)) {
            return report(arguments, out, err);
        }
        if (arguments[0].equals(ReliabilityCommand.NAME)) {
            return ReliabilityCommand.run(arguments, out, err);
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

        ReportCharts charts = new ReportCharts(directory);
        writeReport(directory, MarkdownReport.render(options, timestamp, Machine.describe(options.dataDirectory()),
                notes, results, charts));
        return new Completed(directory, results, charts.drawn());
    }

    /**
     * Writes the report of the finished run in {@code directory} again, and its charts, from its
     * {@code jmh-result.json}; the report's title and run section are kept as the run wrote them.
     *
     * @throws ColumbaException INVALID_ARGUMENT if the directory holds no report and results of a run,
     *         IO_ERROR if they cannot be read or written
     */
    static Completed rewriteReport(Path directory) {
        Path reportFile = directory.resolve(REPORT);
        Path resultFile = directory.resolve(JSON_RESULT);
        if (!Files.isRegularFile(reportFile) || !Files.isRegularFile(resultFile)) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, directory + " is not a run's directory: it needs "
                    + REPORT + " and " + JSON_RESULT);
        }
        String report;
        try {
            report = Files.readString(reportFile);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot read " + reportFile + ": " + e.getMessage(), e);
        }
        List<RunResult> results = JmhResultFile.read(resultFile);
        ReportCharts charts = new ReportCharts(directory);
        writeReport(directory, MarkdownReport.rewrite(reportFile, report, results, charts));
        return new Completed(directory, results, charts.drawn());
    }

    private static int report(String[] arguments, PrintStream out, PrintStream err) {
        if (arguments.length != 2 || arguments[1].startsWith("-")) {
            err.println("columba bench: " + REPORT_COMMAND + " needs one argument, a run's results directory");
            err.print(BenchOptions.usage());
            return 2;
        }
        try {
            Completed run = rewriteReport(Path.of(arguments[1]));
            out.println("columba bench: report in " + run.directory().resolve(REPORT) + ", " + run.charts().size()
                    + " chart(s)");
            return 0;
        } catch (ColumbaException e) {
            err.println("columba bench: cannot write the report again: " + e.getMessage());
            return 1;
        }
    }

    private static void writeReport(Path directory, String markdown) {
        try {
            Files.writeString(directory.resolve(REPORT), markdown);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot write " + directory.resolve(REPORT) + ": "
                    + e.getMessage(), e);
        }
    }

    private static void createDirectories(Path directory) {
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot create " + directory + ": " + e.getMessage(), e);
        }
    }
}
