package dev.columba.bench;

import static dev.columba.bench.harness.RunResults.format;

import dev.columba.bench.harness.RunResults;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/**
 * The short Markdown report of a run, written next to JMH's JSON: how the run was made, the
 * suite's key figures, and every configuration's score and secondary results in one table per
 * benchmark. It states figures; it asserts nothing about them.
 */
final class MarkdownReport {
    /** Parameters every configuration shares, stated once in the run section instead of per row. */
    private static final List<String> RUN_PARAMETERS = List.of("sizeMb", "dataDirectory");

    private MarkdownReport() {
    }

    static String render(BenchOptions options, String timestamp, String machine, List<String> notes,
                         Collection<RunResult> results) {
        Suite suite = options.suite();
        StringBuilder text = new StringBuilder();
        text.append("# Columba bench: ").append(suite.label()).append(", ").append(timestamp).append("\n\n");
        text.append(suite.description()).append(".\n\n");
        text.append("## Run\n\n");
        text.append("- ").append(options.shortMode() ? "Short" : "Full").append(" mode: ").append(suite.size(options))
                .append("; ").append(options.forks()).append(" fork(s) per configuration, ")
                .append(options.warmupIterations()).append(" warm-up and ").append(options.measurementIterations())
                .append(" measured iteration(s), one operation each (JMH SingleShotTime).\n");
        if (!options.parameters().isEmpty()) {
            text.append("- Parameters set on the command line: ").append(options.parameters()).append(".\n");
        }
        text.append("- Machine: ").append(machine).append(".\n");
        text.append("- The machine is shared (other builds may run meanwhile) and its virtual disk is noisy, up to 2x"
                + " between repeats seconds apart: compare the ratios within this run, not absolute numbers across"
                + " runs.\n");
        for (String note : notes) {
            text.append("- ").append(note).append("\n");
        }
        text.append("- JMH's own results: `jmh-result.json` in this directory.\n\n");
        text.append("## Key figures\n\n").append(suite.keyFigures(results)).append("\n");
        text.append("## All results\n");
        for (Class<?> benchmark : suite.benchmarks()) {
            List<RunResult> ofBenchmark = new ArrayList<>();
            for (RunResult result : results) {
                if (RunResults.isOf(result, benchmark)) {
                    ofBenchmark.add(result);
                }
            }
            if (!ofBenchmark.isEmpty()) {
                text.append("\n### ").append(benchmark.getSimpleName()).append("\n\n");
                appendTable(text, ofBenchmark);
            }
        }
        return text.toString();
    }

    private static void appendTable(StringBuilder text, List<RunResult> results) {
        List<String> parameters = new ArrayList<>();
        for (Object key : results.getFirst().getParams().getParamsKeys()) {
            if (!RUN_PARAMETERS.contains(key.toString())) {
                parameters.add(key.toString());
            }
        }
        Map<String, String> secondaryUnits = new LinkedHashMap<>();
        for (RunResult result : results) {
            for (String name : result.getSecondaryResults().keySet()) {
                Result<?> figure = result.getSecondaryResults().get(name);
                secondaryUnits.putIfAbsent(name, figure.getScoreUnit());
            }
        }
        List<String> header = new ArrayList<>(parameters);
        header.add("score (" + results.getFirst().getPrimaryResult().getScoreUnit() + ")");
        header.add("± (99.9%)");
        for (Map.Entry<String, String> secondary : secondaryUnits.entrySet()) {
            header.add(secondary.getKey() + " (" + secondary.getValue() + ")");
        }
        text.append("| ").append(String.join(" | ", header)).append(" |\n");
        text.append("|").append("---|".repeat(header.size())).append("\n");
        for (RunResult result : results) {
            List<String> cells = new ArrayList<>();
            for (String parameter : parameters) {
                cells.add(result.getParams().getParam(parameter));
            }
            cells.add(format(result.getPrimaryResult().getScore()));
            cells.add(format(result.getPrimaryResult().getScoreError()));
            for (String secondary : secondaryUnits.keySet()) {
                Result<?> figure = result.getSecondaryResults().get(secondary);
                cells.add(figure == null ? "—" : format(figure.getScore()));
            }
            text.append("| ").append(String.join(" | ", cells)).append(" |\n");
        }
    }
}
