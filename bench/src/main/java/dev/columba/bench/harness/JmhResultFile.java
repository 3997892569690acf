package dev.columba.bench.harness;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.IterationResultMetaData;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.results.SingleShotResult;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Reads a run's {@code jmh-result.json} back into JMH's {@link RunResult}s, so that the report of a
 * finished run can be written again ({@code ./columba bench report}) by the very code that wrote
 * it. JMH writes this JSON but has no reader for it.
 *
 * <p>The JSON keeps every measured value ({@code rawData}: per fork, one value per iteration, for
 * the score and each secondary result, printed with full double precision), so the results rebuilt
 * from it have the statistics of the originals: the same medians, ranges and errors. Only what a
 * report uses is rebuilt: parameters, scores and secondary results, not JMH's timing metadata.
 * Every Columba benchmark runs in {@code SingleShotTime} mode, the only mode read here; a score is
 * rebuilt as the single shot's duration, in nanoseconds as JMH measured it.
 */
public final class JmhResultFile {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JmhResultFile() {
    }

    /**
     * The results in {@code file}, in the order JMH wrote them.
     *
     * @throws ColumbaException IO_ERROR if the file cannot be read; INVALID_ARGUMENT naming the file,
     *         the benchmark and the field if it is not JMH's JSON of single-shot results
     */
    public static List<RunResult> read(Path file) {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(file));
        } catch (JacksonException e) {
            throw invalid(file, "is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot read " + file + ": " + e.getMessage(), e);
        }
        if (root == null || !root.isArray()) {
            throw invalid(file, "is not a JSON array of JMH results");
        }
        List<RunResult> results = new ArrayList<>(root.size());
        for (JsonNode benchmark : root) {
            results.add(runResult(file, benchmark));
        }
        return results;
    }

    private static RunResult runResult(Path file, JsonNode benchmark) {
        String name = text(file, benchmark, "benchmark", "a result");
        String modeLabel = text(file, benchmark, "mode", name);
        if (!modeLabel.equals(Mode.SingleShotTime.shortLabel())) {
            throw invalid(file, "has " + name + " in mode '" + modeLabel + "'; only SingleShotTime ('"
                    + Mode.SingleShotTime.shortLabel() + "') results can be read");
        }
        Mode mode = Mode.SingleShotTime;
        JsonNode primary = field(file, benchmark, "primaryMetric", name);
        String scoreUnit = text(file, primary, "scoreUnit", name);
        TimeUnit timeUnit = timeUnit(file, name, scoreUnit);
        int threads = number(file, benchmark, "threads", name);
        WorkloadParams parameters = new WorkloadParams();
        JsonNode params = benchmark.get("params");
        if (params != null) {
            int order = 0;
            for (Iterator<Map.Entry<String, JsonNode>> entries = params.properties().iterator(); entries.hasNext(); ) {
                Map.Entry<String, JsonNode> entry = entries.next();
                parameters.put(entry.getKey(), entry.getValue().asText(), order++);
            }
        }
        List<String> jvmArgs = new ArrayList<>();
        JsonNode arguments = benchmark.get("jvmArgs");
        if (arguments != null) {
            arguments.forEach(argument -> jvmArgs.add(argument.asText()));
        }
        BenchmarkParams benchmarkParams = new BenchmarkParams(name, name, true, threads, new int[] {threads}, List.of(),
                number(file, benchmark, "forks", name), 0,
                iterations(file, benchmark, IterationType.WARMUP, "warmupIterations", "warmupBatchSize", name),
                iterations(file, benchmark, IterationType.MEASUREMENT, "measurementIterations",
                        "measurementBatchSize", name),
                mode, parameters, timeUnit, 1, benchmark.path("jvm").asText(), jvmArgs,
                benchmark.path("jdkVersion").asText(), benchmark.path("vmName").asText(),
                benchmark.path("vmVersion").asText(), benchmark.path("jmhVersion").asText(), TimeValue.NONE);

        List<List<Double>> scores = rawData(file, primary, name + " score");
        List<List<IterationResult>> forks = new ArrayList<>();
        String label = name.substring(name.lastIndexOf('.') + 1);
        long nanosPerUnit = TimeUnit.NANOSECONDS.convert(1, timeUnit);
        for (List<Double> fork : scores) {
            List<IterationResult> iterations = new ArrayList<>(fork.size());
            for (double score : fork) {
                IterationResult iteration = new IterationResult(benchmarkParams, benchmarkParams.getMeasurement(),
                        new IterationResultMetaData(1, 1));
                iteration.addResult(new SingleShotResult(ResultRole.PRIMARY, label, Math.round(score * nanosPerUnit),
                        timeUnit));
                iterations.add(iteration);
            }
            forks.add(iterations);
        }
        JsonNode secondaries = benchmark.get("secondaryMetrics");
        if (secondaries != null) {
            for (Iterator<Map.Entry<String, JsonNode>> entries = secondaries.properties().iterator(); entries.hasNext(); ) {
                Map.Entry<String, JsonNode> entry = entries.next();
                String unit = text(file, entry.getValue(), "scoreUnit", name + " " + entry.getKey());
                List<List<Double>> values = rawData(file, entry.getValue(), name + " " + entry.getKey());
                if (values.size() > forks.size()) {
                    throw invalid(file, "has " + values.size() + " forks of " + name + " " + entry.getKey() + " but "
                            + forks.size() + " of its score");
                }
                for (int fork = 0; fork < values.size(); fork++) {
                    List<Double> ofFork = values.get(fork);
                    if (ofFork.size() > forks.get(fork).size()) {
                        throw invalid(file, "has " + ofFork.size() + " values of " + name + " " + entry.getKey()
                                + " in fork " + (fork + 1) + " but " + forks.get(fork).size() + " iterations");
                    }
                    // A figure recorded in some iterations only may have fewer values than the fork has
                    // iterations, and the JSON does not say which: JMH's statistics count the others as
                    // zero whichever they are, for these results as for the run's own.
                    for (int iteration = 0; iteration < ofFork.size(); iteration++) {
                        forks.get(fork).get(iteration).addResult(new ScalarResult(entry.getKey(), ofFork.get(iteration),
                                unit, AggregationPolicy.AVG));
                    }
                }
            }
        }
        List<BenchmarkResult> benchmarkResults = new ArrayList<>(forks.size());
        for (List<IterationResult> fork : forks) {
            benchmarkResults.add(new BenchmarkResult(benchmarkParams, fork));
        }
        return new RunResult(benchmarkParams, benchmarkResults);
    }

    private static IterationParams iterations(Path file, JsonNode benchmark, IterationType type, String countField,
                                              String batchField, String name) {
        return new IterationParams(type, number(file, benchmark, countField, name), TimeValue.NONE,
                number(file, benchmark, batchField, name));
    }

    private static List<List<Double>> rawData(Path file, JsonNode metric, String what) {
        JsonNode forks = metric.get("rawData");
        if (forks == null || !forks.isArray()) {
            throw invalid(file, "has no rawData for " + what);
        }
        List<List<Double>> values = new ArrayList<>(forks.size());
        for (JsonNode fork : forks) {
            List<Double> ofFork = new ArrayList<>(fork.size());
            for (JsonNode value : fork) {
                if (!value.isNumber()) {
                    throw invalid(file, "has the value '" + value + "' in the rawData of " + what);
                }
                ofFork.add(value.asDouble());
            }
            values.add(ofFork);
        }
        return values;
    }

    /** The unit of a single-shot score, as JMH names it ({@code TimeValue.tuToString}): "s/op", "ms/op", ... */
    private static TimeUnit timeUnit(Path file, String name, String scoreUnit) {
        for (TimeUnit unit : TimeUnit.values()) {
            if ((TimeValue.tuToString(unit) + "/op").equals(scoreUnit)) {
                return unit;
            }
        }
        throw invalid(file, "has the score unit '" + scoreUnit + "' for " + name + ", not a time per operation");
    }

    private static JsonNode field(Path file, JsonNode node, String field, String what) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw invalid(file, "has no " + field + " for " + what);
        }
        return value;
    }

    private static String text(Path file, JsonNode node, String field, String what) {
        JsonNode value = field(file, node, field, what);
        if (!value.isTextual()) {
            throw invalid(file, "has " + field + " = " + value + " for " + what + ", not a string");
        }
        return value.asText();
    }

    private static int number(Path file, JsonNode node, String field, String what) {
        JsonNode value = field(file, node, field, what);
        if (!value.canConvertToInt()) {
            throw invalid(file, "has " + field + " = " + value + " for " + what + ", not a whole number");
        }
        return value.asInt();
    }

    private static ColumbaException invalid(Path file, String problem) {
        return new ColumbaException(ErrorCode.INVALID_ARGUMENT, file + " " + problem);
    }
}
