/**
 * JMH plumbing shared by every benchmark and report: where benchmark data and results live, the
 * figures a benchmark records per invocation and the profiler that hands them to JMH as secondary
 * results, reading those results back (from a run or from its {@code jmh-result.json}), and the
 * pieces every report is written with (cells, bar charts drawn as PNG). It owns no benchmark and no
 * suite's report layout.
 */
package dev.columba.bench.harness;
