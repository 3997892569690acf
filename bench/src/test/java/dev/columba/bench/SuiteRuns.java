package dev.columba.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.bench.harness.Metric;
import dev.columba.bench.harness.RunResults;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.RunnerException;

/** Runs a suite end to end from a test, in this JVM when the options say forks 0, and checks its report. */
final class SuiteRuns {
    private SuiteRuns() {
    }

    /**
     * {@link BenchMain#run(BenchOptions, java.io.PrintStream)} with JMH's machine-wide lock ignored:
     * JMH refuses to start while another JMH run on the machine holds its lock file, and a test run
     * measures nothing, so it need not wait for one.
     */
    static BenchMain.Completed run(BenchOptions options) throws RunnerException {
        String ignoreLock = System.setProperty("jmh.ignoreLock", "true");
        try {
            return BenchMain.run(options, System.out);
        } finally {
            if (ignoreLock == null) {
                System.clearProperty("jmh.ignoreLock");
            } else {
                System.setProperty("jmh.ignoreLock", ignoreLock);
            }
        }
    }

    /** The figure the run recorded for {@code metric}; fails if it did not record it. */
    static double figure(RunResult result, Metric metric) {
        return RunResults.figure(result, metric).orElseThrow(() -> new AssertionError(metric.name() + " missing"));
    }

    /** A page, I/O or row count: one scan measured, so the average is the count itself. */
    static long count(RunResult result, Metric metric) {
        double value = figure(result, metric);
        assertEquals(Math.rint(value), value, metric.name() + " is a count");
        return (long) value;
    }

    /**
     * Checks that the run drew exactly {@code expected} charts (file names), that each is a PNG
     * that decodes to an image of the report's chart size, that the report embeds each one, and
     * that the directory holds no other chart.
     */
    static void assertCharts(BenchMain.Completed run, String... expected) throws IOException {
        List<String> drawn = new ArrayList<>();
        for (Path chart : run.charts()) {
            drawn.add(chart.getFileName().toString());
            assertEquals(run.directory(), chart.getParent(), "charts go beside the report");
        }
        assertEquals(List.of(expected), drawn);
        try (Stream<Path> files = Files.list(run.directory())) {
            assertEquals(drawn.stream().sorted().toList(), files.map(file -> file.getFileName().toString())
                    .filter(name -> name.endsWith(".png")).sorted().toList(), "no chart but those drawn");
        }
        String report = Files.readString(run.directory().resolve(BenchMain.REPORT));
        for (Path chart : run.charts()) {
            BufferedImage image = ImageIO.read(chart.toFile());
            assertNotNull(image, chart + " decodes as an image");
            assertEquals(800, image.getWidth(), chart.toString());
            assertEquals(450, image.getHeight(), chart.toString());
            assertTrue(report.contains("](" + chart.getFileName() + ")\n"), "the report embeds " + chart.getFileName());
        }
    }

    /**
     * Writes the run's report again from its {@code jmh-result.json} ({@code ./columba bench report})
     * and checks that it comes out the same, with the same charts: the JSON holds all a report needs.
     */
    static void assertReportRewritesTheSame(BenchMain.Completed run) throws IOException {
        Path report = run.directory().resolve(BenchMain.REPORT);
        String written = Files.readString(report);
        BenchMain.Completed again = BenchMain.rewriteReport(run.directory());
        assertEquals(written, Files.readString(report));
        assertEquals(run.charts(), again.charts());
        assertEquals(run.results().size(), again.results().size());
    }
}
