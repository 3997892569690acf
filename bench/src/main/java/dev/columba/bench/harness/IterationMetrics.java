package dev.columba.bench.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Figures recorded by a benchmark during one JMH iteration, averaged per metric when the iteration
 * ends. A benchmark records from its fixtures ({@code @TearDown(Level.Invocation)}); the
 * {@link IterationMetricsProfiler} drains them after the iteration and reports them as JMH
 * secondary results. Both run in the same JVM (the fork, or the host when forks are 0), which is
 * why the hand-over is a static: JMH gives profilers no reference to benchmark state.
 *
 * <p>Without the profiler the figures are simply never reported. Thread-safe.
 */
public final class IterationMetrics {
    private static final Map<Metric, Series> SERIES = new LinkedHashMap<>();

    private IterationMetrics() {
    }

    /** Records one observation of {@code metric} in the current iteration. */
    public static void record(Metric metric, double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("metric " + metric.name() + " recorded the non-finite value " + value);
        }
        synchronized (SERIES) {
            SERIES.computeIfAbsent(metric, ignored -> new Series()).add(value);
        }
    }

    /** Forgets what a previous iteration left behind (e.g. its warm-up invocations). */
    static void clear() {
        synchronized (SERIES) {
            SERIES.clear();
        }
    }

    /** The mean of each metric recorded since the last drain, in the order first recorded; then forgets them. */
    static List<Average> drain() {
        synchronized (SERIES) {
            List<Average> averages = new ArrayList<>(SERIES.size());
            for (Map.Entry<Metric, Series> entry : SERIES.entrySet()) {
                averages.add(new Average(entry.getKey(), entry.getValue().sum / entry.getValue().count,
                        entry.getValue().count));
            }
            SERIES.clear();
            return averages;
        }
    }

    /** The mean of {@code observations} values of {@code metric}. */
    record Average(Metric metric, double mean, int observations) {
    }

    private static final class Series {
        private double sum;
        private int count;

        void add(double value) {
            sum += value;
            count++;
        }
    }
}
