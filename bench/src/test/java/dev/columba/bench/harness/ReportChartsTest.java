package dev.columba.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportChartsTest {
    @TempDir
    Path directory;

    @Test
    void drawsAPngBesideTheReportAndEmbedsIt() throws Exception {
        ReportCharts charts = new ReportCharts(directory);
        BarChart chart = new BarChart("scan-rate", "Scan MB/s", "MB/s", List.of("cold", "warm"), List.of(
                new BarChart.Series("read-ahead on", List.of(OptionalDouble.of(683), OptionalDouble.of(6547))),
                new BarChart.Series("read-ahead off", List.of(OptionalDouble.of(90.4), OptionalDouble.empty())),
                new BarChart.Series("not run", List.of(OptionalDouble.empty(), OptionalDouble.empty()))),
                BarChart.Scale.LINEAR);

        assertEquals("![Scan MB/s](scan-rate.png)\n\n", charts.embed(chart));

        Path file = directory.resolve("scan-rate.png");
        assertEquals(List.of(file), charts.drawn());
        BufferedImage image = ImageIO.read(file.toFile());
        assertNotNull(image);
        assertEquals(ReportCharts.WIDTH, image.getWidth());
        assertEquals(ReportCharts.HEIGHT, image.getHeight());
        assertFalse(Files.exists(directory.resolve("scan-rate.png.tmp")), "the temporary file is renamed");

        // Drawn again (a report written again), the file is replaced.
        Files.writeString(file, "stale");
        charts.embed(chart);
        assertNotNull(ImageIO.read(file.toFile()));
    }

    @Test
    void aChartWithoutAnyValueIsNotDrawn() {
        ReportCharts charts = new ReportCharts(directory);
        BarChart empty = new BarChart("depth-sweep", "Depth sweep", "MB/s", List.of("not run"),
                List.of(new BarChart.Series("MB/s", List.of(OptionalDouble.empty()))), BarChart.Scale.LINEAR);
        assertFalse(empty.hasValues());
        assertEquals("", charts.embed(empty));
        assertEquals(List.of(), charts.drawn());
        assertFalse(Files.exists(directory.resolve("depth-sweep.png")));
    }

    @Test
    void aLogarithmicChartLeavesOutValuesItCannotShow() throws Exception {
        ReportCharts charts = new ReportCharts(directory);
        BarChart ratios = new BarChart("ratios", "Ratios", "ratio", List.of("elapsed", "bytes per read", "none"),
                List.of(new BarChart.Series("article", List.of(OptionalDouble.of(2.6), OptionalDouble.of(43.8),
                        OptionalDouble.of(0)))), BarChart.Scale.LOGARITHMIC);
        charts.embed(ratios);
        assertNotNull(ImageIO.read(directory.resolve("ratios.png").toFile()));
    }

    @Test
    void aChartIsCheckedWhenMade() {
        List<BarChart.Series> one = List.of(new BarChart.Series("s", List.of(OptionalDouble.of(1))));
        assertEquals("a chart name is lowercase words joined by hyphens, was 'Scan rate'", assertThrows(
                IllegalArgumentException.class, () -> new BarChart("Scan rate", "t", "MB/s", List.of("a"), one,
                        BarChart.Scale.LINEAR)).getMessage());
        assertEquals("series 's' of chart rate has 1 values for 2 categories", assertThrows(
                IllegalArgumentException.class, () -> new BarChart("rate", "t", "MB/s", List.of("a", "b"), one,
                        BarChart.Scale.LINEAR)).getMessage());
        assertEquals("chart rate needs at least one category and one series", assertThrows(
                IllegalArgumentException.class, () -> new BarChart("rate", "t", "MB/s", List.of(), List.of(),
                        BarChart.Scale.LINEAR)).getMessage());
        assertTrue(new BarChart("rate", "t", "MB/s", List.of("a"), one, BarChart.Scale.LINEAR).hasValues());
    }
}
