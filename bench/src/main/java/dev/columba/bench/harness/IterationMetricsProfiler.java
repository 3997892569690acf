package dev.columba.bench.harness;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * Reports what benchmarks recorded in {@link IterationMetrics} as JMH secondary results, averaged
 * per iteration and then over iterations ({@link AggregationPolicy#AVG}): a per-scan figure stays a
 * per-scan figure however many scans are measured. {@code @AuxCounters} cannot do this in
 * {@code SingleShotTime} mode: its event counters are summed over iterations, and its operation
 * counters are reported as times.
 *
 * <p>JMH runs the iteration's {@code @TearDown} fixtures before {@link #afterIteration}, so every
 * invocation of the iteration has recorded by then. Instantiated by JMH through its public no-argument
 * constructor; add it with {@code OptionsBuilder.addProfiler(IterationMetricsProfiler.class)}.
 */
public final class IterationMetricsProfiler implements InternalProfiler {

    public IterationMetricsProfiler() {
    }

    @Override
    public String getDescription() {
        return "Columba's per-invocation benchmark figures (I/O counters, rates) as secondary results";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        IterationMetrics.clear();
    }

    @Override
    public Collection<? extends Result<?>> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                          IterationResult result) {
        List<Result<?>> results = new ArrayList<>();
        for (IterationMetrics.Average average : IterationMetrics.drain()) {
            results.add(new ScalarResult(average.metric().name(), average.mean(), average.metric().unit(),
                    AggregationPolicy.AVG));
        }
        return results;
    }
}
