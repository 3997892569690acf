package dev.columba.bench.harness;

import static dev.columba.bench.harness.RunResults.format;

import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import org.openjdk.jmh.util.Statistics;

/**
 * Figures written into the cells of a report's Markdown tables, alike in every suite's report: a
 * dash where there is no figure, three significant digits ({@link RunResults#format}) otherwise.
 */
public final class ReportCells {
    /** The cell of a figure that is missing (a configuration not run, a figure not recorded). */
    public static final String NONE = "—";

    private ReportCells() {
    }

    /** The value, or a dash. */
    public static String number(OptionalDouble value) {
        return value.isPresent() ? format(value.getAsDouble()) : NONE;
    }

    /** The value with three decimals (ratios near 1, such as counters over {@code read_bytes}), or a dash. */
    public static String threeDecimals(OptionalDouble value) {
        return value.isPresent() ? String.format(Locale.ROOT, "%.3f", value.getAsDouble()) : NONE;
    }

    /** "median (min–max)" of the values, or a dash. */
    public static String medianAndRange(Optional<Statistics> values) {
        if (values.isEmpty()) {
            return NONE;
        }
        Statistics statistics = values.get();
        return format(statistics.getPercentile(50)) + " (" + format(statistics.getMin()) + "–"
                + format(statistics.getMax()) + ")";
    }

    /** A byte count as "425 KB" from 1 KB on, as "512 bytes" below; or a dash. */
    public static String bytes(OptionalDouble value) {
        if (value.isEmpty()) {
            return NONE;
        }
        double bytes = value.getAsDouble();
        return bytes >= 1024 ? format(bytes / 1024) + " KB" : format(bytes) + " bytes";
    }

    /** {@code numerator / denominator} formatted by {@code pattern} (e.g. {@code "%.1fx"}), or a dash. */
    public static String ratio(OptionalDouble numerator, OptionalDouble denominator, String pattern) {
        OptionalDouble quotient = quotient(numerator, denominator);
        return quotient.isPresent() ? String.format(Locale.ROOT, pattern, quotient.getAsDouble()) : NONE;
    }

    /** {@code part} as a whole percentage of {@code whole}, or a dash. */
    public static String percent(OptionalDouble part, OptionalDouble whole) {
        OptionalDouble quotient = quotient(part, whole);
        return quotient.isPresent() ? String.format(Locale.ROOT, "%.0f%%", 100 * quotient.getAsDouble()) : NONE;
    }

    /** {@code value / divisor} (bytes to KB, milliseconds to seconds), or empty. */
    public static OptionalDouble divided(OptionalDouble value, double divisor) {
        return value.isPresent() ? OptionalDouble.of(value.getAsDouble() / divisor) : value;
    }

    /** {@code numerator / denominator}; empty if either is missing or the denominator is not positive. */
    public static OptionalDouble quotient(OptionalDouble numerator, OptionalDouble denominator) {
        return numerator.isPresent() && denominator.isPresent() && denominator.getAsDouble() > 0
                ? OptionalDouble.of(numerator.getAsDouble() / denominator.getAsDouble()) : OptionalDouble.empty();
    }
}
