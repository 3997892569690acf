package dev.columba.bench.harness;

import java.util.List;
import java.util.OptionalDouble;
import java.util.regex.Pattern;

/**
 * A bar chart of a report, as data: categories along the horizontal axis and, in each, one bar per
 * series. A missing value (a configuration that was not run) leaves its bar out; {@link ReportCharts}
 * draws it.
 *
 * @param name       the file's name without {@code .png}: lowercase words joined by hyphens, unique in a report
 * @param title      the chart's title, also its alternative text in the Markdown
 * @param valueAxis  what the bars measure, with the unit, e.g. {@code MB/s}
 * @param categories the groups of bars, left to right
 * @param series     the bars of each group, each with one value per category
 * @param scale      how values map to bar heights
 */
public record BarChart(String name, String title, String valueAxis, List<String> categories, List<Series> series,
                       Scale scale) {

    private static final Pattern NAME = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");

    /** How values map to bar heights. */
    public enum Scale {
        LINEAR,
        /** For figures spanning orders of magnitude (ratios of 2 beside ratios of 50); values must be positive. */
        LOGARITHMIC
    }

    /**
     * One bar per category.
     *
     * @param name   the legend's label
     * @param values one per category, in order; empty where there is no figure
     */
    public record Series(String name, List<OptionalDouble> values) {
        public Series {
            values = List.copyOf(values);
        }
    }

    public BarChart {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("a chart name is lowercase words joined by hyphens, was '" + name + "'");
        }
        categories = List.copyOf(categories);
        series = List.copyOf(series);
        if (categories.isEmpty() || series.isEmpty()) {
            throw new IllegalArgumentException("chart " + name + " needs at least one category and one series");
        }
        for (Series one : series) {
            if (one.values().size() != categories.size()) {
                throw new IllegalArgumentException("series '" + one.name() + "' of chart " + name + " has "
                        + one.values().size() + " values for " + categories.size() + " categories");
            }
        }
    }

    /** Whether any bar has a value: a chart without one is not drawn. */
    public boolean hasValues() {
        return series.stream().anyMatch(one -> one.values().stream().anyMatch(OptionalDouble::isPresent));
    }

    /** The file the chart is drawn to, relative to the report. */
    public String fileName() {
        return name + ".png";
    }
}
