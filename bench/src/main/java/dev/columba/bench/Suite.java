package dev.columba.bench;

import dev.columba.bench.storage.DeviceSequentialReadBenchmark;
import dev.columba.bench.storage.RowstoreScanBenchmark;
import dev.columba.bench.storage.RowstoreScanSummary;
import dev.columba.bench.storage.ScanTable;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.io.PrintStream;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.results.RunResult;

/**
 * The benchmark suites {@code ./columba bench} runs by name. Each one prepares its data in the
 * runner's JVM before JMH starts (so loading never counts against a fork's time limits) and
 * summarizes its results in the report's key figures.
 */
enum Suite {
    ROWSTORE_SCAN("rowstore-scan",
            "seed 004: clustered-index scan, read-ahead on/off, cold/warm, against the device's sequential bandwidth",
            List.of(RowstoreScanBenchmark.class, DeviceSequentialReadBenchmark.class));

    private final String label;
    private final String description;
    private final List<Class<?>> benchmarks;

    Suite(String label, String description, List<Class<?>> benchmarks) {
        this.label = label;
        this.description = description;
        this.benchmarks = benchmarks;
    }

    String label() {
        return label;
    }

    String description() {
        return description;
    }

    /** The benchmark classes, each run with every one of its {@code @Param} combinations. */
    List<Class<?>> benchmarks() {
        return benchmarks;
    }

    /** Loads or reuses the suite's data; returns lines describing it for the report. */
    List<String> prepare(BenchOptions options, PrintStream progress) {
        return switch (this) {
            case ROWSTORE_SCAN -> RowstoreScanSummary.describe(ScanTable.prepare(options.dataDirectory(),
                    options.sizeMb(), progress));
        };
    }

    /** The report's key figures, in Markdown. */
    String keyFigures(Collection<RunResult> results) {
        return switch (this) {
            case ROWSTORE_SCAN -> RowstoreScanSummary.keyFigures(results);
        };
    }

    /**
     * @throws ColumbaException INVALID_ARGUMENT naming the label and the suites there are
     */
    static Suite byLabel(String label) {
        for (Suite suite : values()) {
            if (suite.label.equals(label)) {
                return suite;
            }
        }
        StringBuilder known = new StringBuilder();
        for (Suite suite : values()) {
            known.append(known.isEmpty() ? "" : ", ").append(suite.label);
        }
        throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "unknown suite '" + label + "'; suites: " + known);
    }
}
