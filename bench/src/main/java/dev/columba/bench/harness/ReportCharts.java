package dev.columba.bench.harness;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.CategoryStyler;
import org.knowm.xchart.style.Styler;

/**
 * Draws a report's {@link BarChart}s as PNG files into the report's directory (with XChart, no
 * display needed: the JVM runs headless) and hands back the Markdown that embeds each one beside
 * its table. Every suite draws through this one class, so all reports' charts look alike.
 *
 * <p>A chart whose bars all lack a value (its configurations were not run) is not drawn, and its
 * Markdown is empty. Drawing the same chart again replaces its file, which is how
 * {@code ./columba bench report} redraws a finished run's charts.
 */
public final class ReportCharts {
    static final int WIDTH = 800;
    static final int HEIGHT = 450;
    /** About the width of a category name's character at XChart's default font, in pixels. */
    private static final int CHARACTER_WIDTH = 8;

    private final Path directory;
    private final List<Path> drawn = new ArrayList<>();

    /** Charts drawn into {@code directory}, the directory of the report that embeds them. */
    public ReportCharts(Path directory) {
        this.directory = directory;
    }

    /**
     * Draws {@code chart} to {@code <directory>/<name>.png} and returns the Markdown image that
     * embeds it (a paragraph of its own), or an empty string if the chart has no value to show.
     *
     * @throws ColumbaException IO_ERROR naming the file if it cannot be written
     */
    public String embed(BarChart chart) {
        if (!chart.hasValues()) {
            return "";
        }
        Path file = directory.resolve(chart.fileName());
        Path temporary = directory.resolve(chart.fileName() + ".tmp");
        try (OutputStream out = Files.newOutputStream(temporary)) {
            BitmapEncoder.saveBitmap(draw(chart), out, BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot write chart " + temporary + ": " + e.getMessage(), e);
        }
        try {
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot move chart " + temporary + " to " + file + ": "
                    + e.getMessage(), e);
        }
        drawn.add(file);
        return "![" + chart.title() + "](" + chart.fileName() + ")\n\n";
    }

    /** The files drawn so far, in order. */
    public List<Path> drawn() {
        return List.copyOf(drawn);
    }

    static CategoryChart draw(BarChart chart) {
        CategoryChart drawing = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(chart.title())
                .yAxisTitle(chart.valueAxis()).build();
        CategoryStyler styler = drawing.getStyler();
        styler.setChartBackgroundColor(java.awt.Color.WHITE);
        styler.setLegendVisible(chart.series().size() > 1);
        styler.setLegendPosition(Styler.LegendPosition.OutsideS);
        styler.setLegendLayout(Styler.LegendLayout.Horizontal);
        styler.setLabelsVisible(true);
        styler.setLabelsFontColorAutomaticEnabled(false);
        styler.setLabelsPosition(1.0);
        styler.setXAxisTitleVisible(false);
        int longestCategory = chart.categories().stream().mapToInt(String::length).max().orElse(0);
        if (longestCategory * chart.categories().size() * CHARACTER_WIDTH > WIDTH - 100) {
            // Side by side the category names would overlap; slanted they do not.
            styler.setXAxisLabelRotation(30);
        }
        styler.setDecimalPattern(decimalPattern(chart));
        boolean logarithmic = chart.scale() == BarChart.Scale.LOGARITHMIC;
        styler.setYAxisLogarithmic(logarithmic);
        // Bars rise from the axis's minimum: zero, or on a logarithmic axis the decade below the smallest value.
        styler.setYAxisMin(logarithmic ? Math.pow(10, Math.floor(Math.log10(smallestPositive(chart)))) : 0.0);
        for (BarChart.Series series : chart.series()) {
            if (series.values().stream().noneMatch(OptionalDouble::isPresent)) {
                continue; // a configuration that was not run has no place in the legend
            }
            List<Double> values = new ArrayList<>(series.values().size());
            for (OptionalDouble value : series.values()) {
                // XChart leaves a null bar out; a logarithmic axis has no place for zero or less.
                boolean shown = value.isPresent() && (!logarithmic || value.getAsDouble() > 0);
                values.add(shown ? value.getAsDouble() : null);
            }
            drawing.addSeries(series.name(), chart.categories(), values);
        }
        return drawing;
    }

    private static double smallestPositive(BarChart chart) {
        double smallest = Double.MAX_VALUE;
        for (BarChart.Series series : chart.series()) {
            for (OptionalDouble value : series.values()) {
                if (value.isPresent() && value.getAsDouble() > 0) {
                    smallest = Math.min(smallest, value.getAsDouble());
                }
            }
        }
        return smallest == Double.MAX_VALUE ? 1 : smallest;
    }

    /**
     * Labels with about three significant digits at the chart's largest magnitude, like the report's
     * tables; counts (every value whole) without decimals.
     */
    private static String decimalPattern(BarChart chart) {
        double largest = 0;
        boolean whole = true;
        for (BarChart.Series series : chart.series()) {
            for (OptionalDouble value : series.values()) {
                if (value.isPresent()) {
                    largest = Math.max(largest, Math.abs(value.getAsDouble()));
                    whole &= value.getAsDouble() == Math.rint(value.getAsDouble());
                }
            }
        }
        if (whole || largest >= 100) {
            return "#,##0";
        }
        if (largest >= 10) {
            return "#,##0.0";
        }
        return largest >= 1 ? "#,##0.00" : "0.000";
    }
}
