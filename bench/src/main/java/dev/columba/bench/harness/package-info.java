/**
 * JMH plumbing shared by every benchmark: where benchmark data and results live, the figures a
 * benchmark records per invocation and the profiler that hands them to JMH as secondary results,
 * and reading those results back for reports. It owns no benchmark and no report layout.
 */
package dev.columba.bench.harness;
