/**
 * JMH plumbing shared by every benchmark: the measurements a benchmark records per invocation
 * ({@link dev.columba.bench.harness.IterationMetrics}) and the profiler that hands them to JMH as
 * secondary results. It owns no benchmark and no report.
 */
package dev.columba.bench.harness;
