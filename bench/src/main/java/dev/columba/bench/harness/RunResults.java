package dev.columba.bench.harness;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.util.Statistics;

/** Reads JMH's results for reports: which benchmark and parameters, and the figures it recorded. */
public final class RunResults {
    private RunResults() {
    }

    /** The results of {@code benchmark}'s methods whose parameters have the given values (name, value, ...). */
    public static List<RunResult> select(Collection<RunResult> results, Class<?> benchmark, String... nameValuePairs) {
        if (nameValuePairs.length % 2 != 0) {
            throw new IllegalArgumentException("parameters come in name/value pairs: " + List.of(nameValuePairs));
        }
        List<RunResult> selected = new ArrayList<>();
        for (RunResult result : results) {
            if (!isOf(result, benchmark)) {
                continue;
            }
            boolean matches = true;
            for (int index = 0; index < nameValuePairs.length; index += 2) {
                matches &= nameValuePairs[index + 1].equals(result.getParams().getParam(nameValuePairs[index]));
            }
            if (matches) {
                selected.add(result);
            }
        }
        return selected;
    }

    /** Whether {@code result} is of a method of {@code benchmark}. */
    public static boolean isOf(RunResult result, Class<?> benchmark) {
        return result.getParams().getBenchmark().startsWith(benchmark.getName() + ".");
    }

    /** The mean of {@code metric} over the measured iterations, if the benchmark recorded it. */
    public static OptionalDouble figure(RunResult result, Metric metric) {
        Result<?> figure = result.getSecondaryResults().get(metric.name());
        return figure == null ? OptionalDouble.empty() : OptionalDouble.of(figure.getScore());
    }

    /**
     * The spread of {@code metric} over the measured iterations (one value per iteration, each the
     * mean of that iteration's invocations), if the benchmark recorded it.
     */
    public static Optional<Statistics> statistics(RunResult result, Metric metric) {
        Result<?> figure = result.getSecondaryResults().get(metric.name());
        return figure == null ? Optional.empty() : Optional.of(figure.getStatistics());
    }

    /** The median of {@code metric} over the measured iterations, if the benchmark recorded it. */
    public static OptionalDouble median(RunResult result, Metric metric) {
        Optional<Statistics> values = statistics(result, metric);
        return values.isPresent() ? OptionalDouble.of(values.get().getPercentile(50)) : OptionalDouble.empty();
    }

    /** The median score (e.g. seconds per scan in {@code SingleShotTime} mode) over the measured iterations. */
    public static double medianScore(RunResult result) {
        return result.getPrimaryResult().getStatistics().getPercentile(50);
    }

    /** A figure for a report: three significant digits, thousands separated, no exponent. */
    public static String format(double value) {
        if (Double.isNaN(value)) {
            return "";
        }
        double magnitude = Math.abs(value);
        if (magnitude >= 100 || value == Math.rint(value) && magnitude < 1e15) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        if (magnitude >= 10) {
            return String.format(Locale.ROOT, "%.1f", value);
        }
        if (magnitude >= 1) {
            return String.format(Locale.ROOT, "%.2f", value);
        }
        return String.format(Locale.ROOT, "%.3g", value);
    }
}
