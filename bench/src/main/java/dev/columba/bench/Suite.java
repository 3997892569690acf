package dev.columba.bench;

import dev.columba.bench.columnstore.CommentsScanBenchmark;
import dev.columba.bench.columnstore.CommentsTables;
import dev.columba.bench.columnstore.Seed001Summary;
import dev.columba.bench.harness.ReportCharts;
import dev.columba.bench.load.CopyLoadBenchmark;
import dev.columba.bench.load.LineitemCsv;
import dev.columba.bench.load.LoadSummary;
import dev.columba.bench.oltp.OltpDatabase;
import dev.columba.bench.oltp.OltpDatabases;
import dev.columba.bench.oltp.OltpFourClientsBenchmark;
import dev.columba.bench.oltp.OltpOneClientBenchmark;
import dev.columba.bench.oltp.OltpSummary;
import dev.columba.bench.sql.AccountsTable;
import dev.columba.bench.sql.OltpScanBenchmark;
import dev.columba.bench.sql.OltpWorkloadBenchmark;
import dev.columba.bench.sql.PrefetchJoinBenchmark;
import dev.columba.bench.sql.RangeScanBenchmark;
import dev.columba.bench.sql.Seed000Summary;
import dev.columba.bench.sql.Seed000Tables;
import dev.columba.bench.sql.Seed002ScanBenchmark;
import dev.columba.bench.sql.Seed002Summary;
import dev.columba.bench.sql.Seed002Tables;
import dev.columba.bench.sql.Seed003Summary;
import dev.columba.bench.peers.LineitemDatabases;
import dev.columba.bench.peers.PeerQueryBenchmark;
import dev.columba.bench.peers.PeersSummary;
import dev.columba.bench.storage.DeviceSequentialReadBenchmark;
import dev.columba.bench.storage.LargeTableScanBenchmark;
import dev.columba.bench.storage.RowstoreScanBenchmark;
import dev.columba.bench.storage.RowstoreScanSummary;
import dev.columba.bench.storage.ScanTable;
import dev.columba.bench.storage.Seed004Summary;
import dev.columba.bench.tpch.TpchDatabases;
import dev.columba.bench.tpch.TpchQueryBenchmark;
import dev.columba.bench.tpch.TpchSummary;
import dev.columba.bench.tpch.TpchText;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.datagen.TestTableGenerator;
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
    SEED002("seed002",
            "seed 002 through SQL: a cold SELECT COUNT(*) of TPC-H lineitem (scale factor 1; -p scaleFactor=N) in one"
                    + " file, in two files of one filegroup, hash-partitioned over several filegroups at MAXDOP ="
                    + " cores and the same with DATA_COMPRESSION = PAGE, beside the device's sequential read speed: elapsed, MB/s, pages read, read_bytes, waits,"
                    + " and the article's figures",
            List.of(Seed002ScanBenchmark.class)),
    SEED000("seed000",
            "seed 000 through SQL: the cold `ID < 300000` range scan with read-ahead on and off (trace flag 652) and"
                    + " the cold nested-loop join `ID < 1000` with prefetch on and off (8744), optionally beside random"
                    + " background reads (the article's diskspd): elapsed, reads, bytes per I/O, MB/s, beside the article's",
            List.of(RangeScanBenchmark.class, PrefetchJoinBenchmark.class)),
    SEED003("seed003",
            "seed 003 through SQL: an OLTP workload (point reads and updates through a secondary index, with and"
                    + " without short range reads) on a table several times the buffer pool, read-ahead on and off:"
                    + " throughput, pages read and read-ahead wasted per operation; and a cold full scan, beside the"
                    + " article's observations",
            List.of(OltpWorkloadBenchmark.class, OltpScanBenchmark.class)),
    PEERS("peers",
            "TPC-H Q1, Q6 and a full-scan aggregate over lineitem (scale factor 1; -p scaleFactor=10) on Columba"
                    + " columnstore and rowstore, DuckDB and H2 through JDBC in one JVM, warm and cold, with the bytes"
                    + " each read from storage",
            List.of(PeerQueryBenchmark.class)),
    OLTP("oltp",
            "statement latency: prepared and ad hoc point selects, prepared inserts in autocommit, executeBatch"
                    + " inserts, appenders, 100-row range selects and updates by key on Columba, H2, SQLite and DuckDB"
                    + " through JDBC in one JVM, 1 and 4 clients: statements per second, p50 and p99 latency",
            List.of(OltpOneClientBenchmark.class, OltpFourClientsBenchmark.class)),
    TPCH("tpch",
            "the 22 TPC-H queries, verbatim as DuckDB's tpch extension ships them, on Columba columnstore and DuckDB"
                    + " through JDBC in one JVM, one thread each, warm and cold (scale factor 1; -p scaleFactor=10),"
                    + " answers checked before timing, with each engine's planning time",
            List.of(TpchQueryBenchmark.class)),
    LOAD("load",
            "COPY of TPC-H lineitem from one CSV file and from one Parquet file (scale factor 0.1; -p scaleFactor=1)"
                    + " into a Columba columnstore"
                    + " table, a Columba rowstore table and DuckDB through JDBC in one JVM, one thread and all"
                    + " processors: rows per second and the ratio to DuckDB",
            List.of(CopyLoadBenchmark.class));

    /** Seed 001's parameters the runner must know before JMH starts, to load the tables. */
    private static final String ROWS = "rows";
    private static final String ROWGROUP_SIZE = "rowgroupSize";
    /** Seed 004's buffer pool, which the runner must know to describe the run. */
    private static final String BUFFER_POOL_MB = "bufferPoolMb";
    /** Seed 004's pool unless set: 256 MB, or a quarter of a smaller table. */
    private static final int SEED004_BUFFER_POOL_MB = 256;
    /** Seeds 000 and 003 (rows above is theirs too): seed 000's query bounds, seed 003's statements per iteration. */
    private static final String SCAN_BELOW = "scanBelow";
    private static final String JOIN_BELOW = "joinBelow";
    private static final String BACKGROUND_FILE_MB = "backgroundFileMb";
    private static final String OPERATIONS = "operations";
    private static final String READ_AHEAD_DEPTH_PAGES = "readAheadDepthPages";
    /** The seed's row count, about 6.25 million, and the article's bounds. */
    private static final String SEED000_FULL_ROWS = String.valueOf(TestTableGenerator.SEED_ROW_COUNT);
    private static final String SEED000_SHORT_ROWS = "20000";
    /** Seed 003: about 500 MB against a 64 MB pool; short, about 10 MB against 2 MB. */
    private static final String SEED003_FULL_ROWS = "2000000";
    private static final String SEED003_SHORT_ROWS = "40000";
    /**
     * Seed 002's scale factor: 1 here (lineitem about 1 GB as a heap against a 128 MB pool; the
     * issue's SF 10 by -p scaleFactor=10 and a pool to match); 0.1 in short runs against a 16 MB
     * pool (two workers each keep up to 500 pages read ahead, which a 4 MB pool cannot hold).
     */
    private static final String SEED002_FULL_SCALE_FACTOR = "1";
    private static final String SEED002_SHORT_SCALE_FACTOR = "0.1";
    /** Seed 002's partitions and filegroups of (c), which the runner must know to load the table. */
    private static final String PARTITIONS = "partitions";
    private static final String FILEGROUPS = "filegroups";
    /** The peers suite's TPC-H scale factor, which the runner must know to load the databases. */
    private static final String SCALE_FACTOR = "scaleFactor";
    /** The load suite's scale factors: 0.1 (600,572 rows) on this class of machine, 0.01 in short runs. */
    private static final String LOAD_FULL_SCALE_FACTOR = "0.1";
    private static final String LOAD_SHORT_SCALE_FACTOR = "0.01";
    /** The oltp suite's milliseconds per client and iteration: 2 s, or 100 ms in short runs. */
    private static final String MILLIS = "millis";
    /** The tpch suite's texts to measure, which the runner narrows to those its check found measurable. */
    private static final String QUERY = "query";

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
     * result), which warms the code and, for warm runs, the caches as a warm-up iteration would; the same for tpch.
     */
    int warmupIterations() {
        return switch (this) {
            case ROWSTORE_SCAN, SEED001, SEED004, SEED002, SEED000, SEED003, OLTP, LOAD -> 1;
            case PEERS, TPCH -> 0;
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
            case ROWSTORE_SCAN, SEED001, SEED004, SEED000, SEED003 -> 5;
            case SEED002 -> 3;
            case PEERS, OLTP, TPCH, LOAD -> 3;
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
            case SEED002 -> {
                parameters.put(SCALE_FACTOR, List.of(options.shortMode() ? SEED002_SHORT_SCALE_FACTOR
                        : SEED002_FULL_SCALE_FACTOR));
                parameters.put(BUFFER_POOL_MB, List.of(options.shortMode() ? "16" : "128"));
            }
            case SEED000 -> {
                parameters.put(ROWS, List.of(options.shortMode() ? SEED000_SHORT_ROWS : SEED000_FULL_ROWS));
                parameters.put(SCAN_BELOW, List.of(options.shortMode() ? "15000" : "300000"));
                parameters.put(JOIN_BELOW, List.of("1000"));
                parameters.put(BACKGROUND_FILE_MB, List.of(options.shortMode() ? "8" : "512"));
                parameters.put(BUFFER_POOL_MB, List.of(options.shortMode() ? "16" : "256"));
            }
            case SEED003 -> {
                parameters.put(ROWS, List.of(options.shortMode() ? SEED003_SHORT_ROWS : SEED003_FULL_ROWS));
                parameters.put(BUFFER_POOL_MB, List.of(options.shortMode() ? "2" : "64"));
                parameters.put(OPERATIONS, List.of(options.shortMode() ? "40" : "250"));
                parameters.put(READ_AHEAD_DEPTH_PAGES, List.of(options.shortMode() ? "64" : "500"));
            }
            case PEERS -> parameters.put(SCALE_FACTOR, List.of(options.shortMode() ? LineitemDatabases.SHORT_SCALE_FACTOR
                    : LineitemDatabases.FULL_SCALE_FACTOR));
            case OLTP -> {
                parameters.put(ROWS, List.of(options.shortMode() ? OltpDatabase.SHORT_ROWS : OltpDatabase.FULL_ROWS));
                parameters.put(MILLIS, List.of(options.shortMode() ? "100" : "2000"));
            }
            case TPCH -> {
                List<String> scaleFactors = options.parameters().getOrDefault(SCALE_FACTOR, List.of(
                        options.shortMode() ? LineitemDatabases.SHORT_SCALE_FACTOR : LineitemDatabases.FULL_SCALE_FACTOR));
                parameters.put(SCALE_FACTOR, scaleFactors);
                parameters.put(QUERY, measuredTexts(options.dataDirectory(), scaleFactors));
            }
            case LOAD -> parameters.put(SCALE_FACTOR, List.of(options.shortMode() ? LOAD_SHORT_SCALE_FACTOR
                    : LOAD_FULL_SCALE_FACTOR));
        }
        parameters.putAll(options.parameters());
        return parameters;
    }

    /**
     * The tpch texts the last check found measurable at every one of the scale factors ({@link #prepare}
     * runs the check before JMH starts); all of them where the databases are not loaded yet.
     */
    private static List<String> measuredTexts(java.nio.file.Path dataDirectory, List<String> scaleFactors) {
        List<String> texts = new ArrayList<>();
        for (TpchText text : TpchText.values()) {
            boolean measured = true;
            for (String scaleFactor : scaleFactors) {
                measured &= TpchDatabases.recorded(dataDirectory, scaleFactor(scaleFactor))
                        .map(databases -> databases.measured().contains(text)).orElse(true);
            }
            if (measured) {
                texts.add(text.name());
            }
        }
        return texts;
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
            case SEED002 -> "TPC-H lineitem at scale factor " + String.join(" / ", parameters(options).get(SCALE_FACTOR))
                    + ", " + String.join(" / ", parameters(options).get(BUFFER_POOL_MB)) + " MB buffer pool";
            case SEED000 -> {
                Map<String, List<String>> parameters = parameters(options);
                yield "TestTable and Testtable2 of " + String.join(" / ", parameters.get(ROWS)) + " rows each, scan `ID < "
                        + String.join(" / ", parameters.get(SCAN_BELOW)) + "`, join `ID < "
                        + String.join(" / ", parameters.get(JOIN_BELOW)) + "`";
            }
            case SEED003 -> {
                Map<String, List<String>> parameters = parameters(options);
                yield "accounts of " + String.join(" / ", parameters.get(ROWS)) + " rows, "
                        + String.join(" / ", parameters.get(BUFFER_POOL_MB)) + " MB buffer pool, "
                        + String.join(" / ", parameters.get(OPERATIONS)) + " statements per measured iteration";
            }
            case PEERS -> "TPC-H lineitem at scale factor " + String.join(" / ", parameters(options).get(SCALE_FACTOR));
            case OLTP -> "t of " + String.join(" / ", parameters(options).get(ROWS)) + " rows, "
                    + String.join(" / ", parameters(options).get(MILLIS)) + " ms per client and iteration";
            case TPCH -> "the TPC-H tables at scale factor " + String.join(" / ", parameters(options).get(SCALE_FACTOR));
            case LOAD -> "TPC-H lineitem as CSV and Parquet at scale factor " + String.join(" / ", parameters(options).get(SCALE_FACTOR));
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
            case SEED002 -> {
                Map<String, List<String>> parameters = parameters(options);
                int partitions = Seed002ScanBenchmark.partitionsFor(wholeNumber(PARTITIONS,
                        parameters.getOrDefault(PARTITIONS, List.of("0")).getFirst()));
                int filegroups = Seed002ScanBenchmark.filegroupsFor(wholeNumber(FILEGROUPS,
                        parameters.getOrDefault(FILEGROUPS, List.of("0")).getFirst()));
                List<String> lines = new ArrayList<>();
                for (String scaleFactor : parameters.get(SCALE_FACTOR)) {
                    Seed002Tables.Description tables = Seed002Tables.prepare(options.dataDirectory(),
                            scaleFactor(scaleFactor), partitions, filegroups, progress);
                    for (String bufferPoolMb : parameters.get(BUFFER_POOL_MB)) {
                        lines.addAll(Seed002Summary.describe(tables, wholeNumber(BUFFER_POOL_MB, bufferPoolMb)));
                    }
                }
                yield lines.stream().distinct().toList();
            }
            case SEED000 -> {
                Map<String, List<String>> parameters = parameters(options);
                List<String> lines = new ArrayList<>();
                for (String rows : parameters.get(ROWS)) {
                    lines.addAll(Seed000Summary.describe(Seed000Tables.prepare(options.dataDirectory(),
                            longNumber(ROWS, rows), progress), longNumber(SCAN_BELOW, parameters.get(SCAN_BELOW)
                            .getFirst()), longNumber(JOIN_BELOW, parameters.get(JOIN_BELOW).getFirst())));
                }
                yield lines;
            }
            case SEED003 -> {
                Map<String, List<String>> parameters = parameters(options);
                List<String> lines = new ArrayList<>();
                for (String rows : parameters.get(ROWS)) {
                    AccountsTable.Description table = AccountsTable.prepare(options.dataDirectory(),
                            longNumber(ROWS, rows), progress);
                    for (String bufferPoolMb : parameters.get(BUFFER_POOL_MB)) {
                        lines.addAll(Seed003Summary.describe(table, wholeNumber(BUFFER_POOL_MB, bufferPoolMb)));
                    }
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
            case OLTP -> {
                List<String> lines = new ArrayList<>(OltpSummary.describe(parameters(options).get(ROWS)));
                for (String rows : parameters(options).get(ROWS)) {
                    lines.add(OltpDatabases.prepare(options.dataDirectory(), longNumber(ROWS, rows), progress));
                }
                yield lines;
            }
            case TPCH -> {
                List<String> lines = new ArrayList<>();
                for (String scaleFactor : parameters(options).get(SCALE_FACTOR)) {
                    TpchDatabases.Description databases = TpchDatabases.prepare(options.dataDirectory(),
                            scaleFactor(scaleFactor), progress);
                    lines.addAll(TpchSummary.describe(TpchDatabases.check(databases, progress)));
                }
                yield lines;
            }
            case LOAD -> {
                List<String> lines = new ArrayList<>();
                for (String scaleFactor : parameters(options).get(SCALE_FACTOR)) {
                    lines.addAll(LoadSummary.describe(LineitemCsv.prepare(options.dataDirectory(),
                            scaleFactor(scaleFactor), progress)));
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
            case SEED002 -> Seed002Summary.keyFigures(results, charts);
            case SEED000 -> Seed000Summary.keyFigures(results, charts);
            case SEED003 -> Seed003Summary.keyFigures(results, charts);
            case PEERS -> PeersSummary.keyFigures(results, charts);
            case OLTP -> OltpSummary.keyFigures(results, charts);
            case TPCH -> TpchSummary.keyFigures(results, charts);
            case LOAD -> LoadSummary.keyFigures(results, charts);
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

    private static long longNumber(String parameter, String text) {
        try {
            return Long.parseLong(text);
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
