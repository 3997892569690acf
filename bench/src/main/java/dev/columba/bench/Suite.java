package dev.columba.bench;

import dev.columba.bench.columnstore.CommentsScanBenchmark;
import dev.columba.bench.columnstore.CommentsTables;
import dev.columba.bench.columnstore.Seed001Summary;
import dev.columba.bench.harness.ReportCharts;
import dev.columba.bench.peers.LineitemDatabases;
import dev.columba.bench.peers.PeerQueryBenchmark;
import dev.columba.bench.peers.PeersSummary;
import dev.columba.bench.storage.DeviceSequentialReadBenchmark;
import dev.columba.bench.storage.LargeTableScanBenchmark;
import dev.columba.bench.storage.RowstoreScanBenchmark;
import dev.columba.bench.storage.RowstoreScanSummary;
import dev.columba.bench.storage.ScanTable;
import dev.columba.bench.storage.Seed004Summary;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;

/**
 * The benchmark suites {@code ./columba bench} runs by name. Each one prepares its data in the
 * runner's JVM before JMH starts (so loading never counts against a fork's time limits) and
 * summarizes its results in the report's key figures.
 */
enum Suite {
    ROWSTORE_SCAN("rowstore-scan",
            "seed 004: clustered-index scan, read-ahead on/off, cold/warm, against the device's sequential bandwidth",
            List.of(RowstoreScanBenchmark.class, DeviceSequentialReadBenchmark.class)),
    SEED001("seed001",
            "seed 001: cold full scans of the comments table as columnstore (dictionary_overflow = trim, and the"
                    + " default fallback) and as rowstore, with and without the wide Text column",
            List.of(CommentsScanBenchmark.class)),
    SEED004("seed004",
            "seed 004: a clustered-index scan of a table at least 4x the buffer pool, read-ahead on and off (trace"
                    + " flag 652), cold and warm: elapsed, bytes per read, MB/s, beside the article's",
            List.of(LargeTableScanBenchmark.class)),
    PEERS("peers",
            "TPC-H Q1, Q6 and a full-scan aggregate over lineitem (scale factor 1; -p scaleFactor=10) on Columba"
                    + " columnstore and rowstore, DuckDB and H2 through JDBC in one JVM, warm and cold, with the bytes"
                    + " each read from storage",
            List.of(PeerQueryBenchmark.class));

    /** Seed 001's parameters the runner must know before JMH starts, to load the tables. */
    private static final String ROWS = "rows";
    private static final String ROWGROUP_SIZE = "rowgroupSize";
    /** Seed 004's buffer pool, which the runner must know to describe the run. */
    private static final String BUFFER_POOL_MB = "bufferPoolMb";
    /** Seed 004's pool unless set: 256 MB, or a quarter of a smaller table. */
    private static final int SEED004_BUFFER_POOL_MB = 256;
    /** The peers suite's TPC-H scale factor, which the runner must know to load the databases. */
    private static final String SCALE_FACTOR = "scaleFactor";

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

    /**
     * Unmeasured iterations per fork unless {@code --warmup} says otherwise: 1, or none for the peers,
     * whose benchmark runs its query once on the measured connection before measuring (to check the
     * result), which warms the code and, for warm runs, the caches as a warm-up iteration would.
     */
    int warmupIterations() {
        return switch (this) {
            case ROWSTORE_SCAN, SEED001, SEED004 -> 1;
            case PEERS -> 0;
        };
    }

    /**
     * Measured iterations per fork unless {@code --iterations} says otherwise: 2 in short runs; in
     * full runs 5, or 3 for the peers, whose 24 configurations include H2's row-at-a-time scans.
     */
    int measurementIterations(boolean shortMode) {
        if (shortMode) {
            return 2;
        }
        return switch (this) {
            case ROWSTORE_SCAN, SEED001, SEED004 -> 5;
            case PEERS -> 3;
        };
    }

    /**
     * The JMH parameters of the run: the suite's own for the mode (short or full), then those given
     * on the command line, which win.
     */
    Map<String, List<String>> parameters(BenchOptions options) {
        Map<String, List<String>> parameters = new LinkedHashMap<>();
        switch (this) {
            case ROWSTORE_SCAN -> {
                // Sized by --size-mb, which the runner passes to every benchmark as sizeMb.
            }
            case SEED001 -> {
                parameters.put(ROWS, List.of(options.shortMode() ? CommentsTables.SHORT_ROWS : CommentsTables.FULL_ROWS));
                parameters.put(ROWGROUP_SIZE, List.of((options.shortMode() ? CommentsTables.RowgroupSize.TINY
                        : CommentsTables.RowgroupSize.FULL).name()));
            }
            case SEED004 -> parameters.put(BUFFER_POOL_MB, List.of(String.valueOf(
                    Math.max(1, Math.min(SEED004_BUFFER_POOL_MB, options.sizeMb() / LargeTableScanBenchmark.TABLE_TO_POOL)))));
            case PEERS -> parameters.put(SCALE_FACTOR, List.of(options.shortMode() ? LineitemDatabases.SHORT_SCALE_FACTOR
                    : LineitemDatabases.FULL_SCALE_FACTOR));
        }
        parameters.putAll(options.parameters());
        return parameters;
    }

    /** How large the run's data is, for the report's run section. */
    String size(BenchOptions options) {
        return switch (this) {
            case ROWSTORE_SCAN -> options.sizeMb() + " MB table";
            case SEED001 -> {
                Map<String, List<String>> parameters = parameters(options);
                yield "tables of " + String.join(" / ", parameters.get(ROWS)) + " rows, "
                        + String.join(" / ", parameters.get(ROWGROUP_SIZE)) + " rowgroups";
            }
            case SEED004 -> options.sizeMb() + " MB table, " + String.join(" / ", parameters(options).get(BUFFER_POOL_MB))
                    + " MB buffer pool";
            case PEERS -> "TPC-H lineitem at scale factor " + String.join(" / ", parameters(options).get(SCALE_FACTOR));
        };
    }

    /** Loads or reuses the suite's data; returns lines describing it for the report. */
    List<String> prepare(BenchOptions options, PrintStream progress) {
        return switch (this) {
            case ROWSTORE_SCAN -> RowstoreScanSummary.describe(ScanTable.prepare(options.dataDirectory(),
                    options.sizeMb(), progress));
            case SEED001 -> {
                Map<String, List<String>> parameters = parameters(options);
                List<String> lines = new ArrayList<>();
                for (String rows : parameters.get(ROWS)) {
                    for (String rowgroupSize : parameters.get(ROWGROUP_SIZE)) {
                        lines.addAll(Seed001Summary.describe(CommentsTables.prepare(options.dataDirectory(),
                                wholeNumber(ROWS, rows), rowgroupSize(rowgroupSize), progress)));
                    }
                }
                yield lines;
            }
            case SEED004 -> {
                ScanTable.Description table = ScanTable.prepare(options.dataDirectory(), options.sizeMb(), progress);
                List<String> lines = new ArrayList<>();
                for (String bufferPoolMb : parameters(options).get(BUFFER_POOL_MB)) {
                    lines.addAll(Seed004Summary.describe(table, wholeNumber(BUFFER_POOL_MB, bufferPoolMb)));
                }
                yield lines.stream().distinct().toList();
            }
            case PEERS -> {
                List<String> lines = new ArrayList<>();
                for (String scaleFactor : parameters(options).get(SCALE_FACTOR)) {
                    LineitemDatabases.Description databases = LineitemDatabases.prepare(options.dataDirectory(),
                            scaleFactor(scaleFactor), progress);
                    if (!databases.loadedNow()) {
                        // Loading ends with the same check; a reused database is checked again here.
                        LineitemDatabases.checkAgreement(databases, progress);
                    }
                    lines.addAll(PeersSummary.describe(databases));
                }
                yield lines;
            }
        };
    }

    /** The report's key figures, in Markdown, with their charts drawn by {@code charts}. */
    String keyFigures(Collection<RunResult> results, ReportCharts charts) {
        return switch (this) {
            case ROWSTORE_SCAN -> RowstoreScanSummary.keyFigures(results, charts);
            case SEED001 -> Seed001Summary.keyFigures(results, charts);
            case SEED004 -> Seed004Summary.keyFigures(results, charts);
            case PEERS -> PeersSummary.keyFigures(results, charts);
        };
    }

    private static int wholeNumber(String parameter, String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "parameter " + parameter
                    + " needs a whole number, got '" + text + "'");
        }
    }

    private static double scaleFactor(String text) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "parameter " + SCALE_FACTOR
                    + " needs a TPC-H scale factor such as 1 or 0.01, got '" + text + "'");
        }
    }

    private static CommentsTables.RowgroupSize rowgroupSize(String text) {
        for (CommentsTables.RowgroupSize size : CommentsTables.RowgroupSize.values()) {
            if (size.name().equals(text)) {
                return size;
            }
        }
        throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "parameter " + ROWGROUP_SIZE + " is FULL or TINY, got '"
                + text + "'");
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
