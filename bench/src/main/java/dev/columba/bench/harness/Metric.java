package dev.columba.bench.harness;

/**
 * A named figure a benchmark records per invocation, reported by JMH as a secondary result under
 * {@code name} (the key in JMH's JSON and in the Markdown report).
 *
 * @param name camelCase, unique within a benchmark
 * @param unit what the figure counts, e.g. {@code pages}, {@code MB/s}
 */
public record Metric(String name, String unit) {
    public Metric {
        if (name == null || name.isBlank() || !name.chars().allMatch(Character::isLetterOrDigit)) {
            throw new IllegalArgumentException("a metric name is a non-empty camelCase word, was '" + name + "'");
        }
        if (unit == null || unit.isBlank()) {
            throw new IllegalArgumentException("metric " + name + " needs a unit");
        }
    }
}
