package dev.columba.bench.harness;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.util.Statistics;

/**
 * The results of the one benchmark configuration a report's figure is about, or why there is none
 * to show: not run, or several configurations matched (a parameter swept on the command line),
 * which the report's full tables show instead.
 *
 * @param result  the configuration's results; null when there is none
 * @param problem why there is none ({@code "not run"}, {@code "3 configurations, see all results"}); null with a result
 */
public record Configuration(RunResult result, String problem) {
    public Configuration {
        if ((result == null) == (problem == null)) {
            throw new IllegalArgumentException("a configuration has a result or a problem, not both nor neither");
        }
    }

    /** The configuration of {@code benchmark} with the given parameter values (name, value, ...). */
    public static Configuration of(Collection<RunResult> results, Class<?> benchmark, String... nameValuePairs) {
        List<RunResult> selected = RunResults.select(results, benchmark, nameValuePairs);
        return switch (selected.size()) {
            case 0 -> new Configuration(null, "not run");
            case 1 -> new Configuration(selected.getFirst(), null);
            default -> new Configuration(null, selected.size() + " configurations, see all results");
        };
    }

    /** The median of {@code metric} over the measured iterations; empty without a result or the metric. */
    public OptionalDouble median(Metric metric) {
        Optional<Statistics> values = statistics(metric);
        return values.isPresent() ? OptionalDouble.of(values.get().getPercentile(50)) : OptionalDouble.empty();
    }

    /** The spread of {@code metric} over the measured iterations; empty without a result or the metric. */
    public Optional<Statistics> statistics(Metric metric) {
        return result == null ? Optional.empty() : RunResults.statistics(result, metric);
    }

    /** The median score, e.g. seconds per scan; empty without a result. */
    public OptionalDouble medianScore() {
        return result == null ? OptionalDouble.empty() : OptionalDouble.of(RunResults.medianScore(result));
    }
}
