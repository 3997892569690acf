package dev.columba.bench.tpch;

import dev.columba.bench.harness.PreparedDatabase;
import dev.columba.bench.peers.LineitemDatabases;
import dev.columba.bench.peers.Peer;
import dev.columba.bench.peers.PeerConnection;
import dev.columba.bench.peers.QueryResult;
import dev.columba.bench.peers.TpchLoading;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.datagen.TpchGenerator;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The eight TPC-H tables at one scale factor in two databases, Columba's columnstore and DuckDB,
 * loaded as the peers suite loads lineitem ({@link TpchLoading}), and what each {@link TpchText}
 * did on them when last checked ({@link #check}): both engines run it, and it is measured only if
 * Columba accepts it and its answer agrees with DuckDB's ({@link QueryResult#difference}: numbers to
 * the cent or a trillionth). The check's verdicts and DuckDB's answers are recorded in the marker,
 * which the benchmark forks read.
 *
 * <p>The databases live in {@code <dataDirectory>/tpch-sf<scale factor>/} and are reused by later
 * runs ({@link PreparedDatabase}); the check runs again in every run, since the planner may have
 * changed since the load.
 */
public final class TpchDatabases {
    /** The engines the suite measures. */
    public static final List<Peer> ENGINES = List.of(Peer.COLUMBA_COLUMNSTORE, Peer.DUCKDB);
    /** The database's name: DuckDB's file {@code tpch.duckdb}; Columba's database is the engine's directory. */
    static final String NAME = "tpch";
    /** Changes whenever the databases or their loading change, so that older ones are reloaded. */
    static final String SHAPE = "tpch-v1";
    private static final int DETAIL_CHARACTERS = 400;

    private TpchDatabases() {
    }

    /** What a check found for one text. */
    public enum Verdict {
        /** Columba ran it and agreed with DuckDB: measured. */
        AGREED,
        /** Columba refused or failed it: reported with its error, not measured. */
        REJECTED,
        /** Columba answered differently from DuckDB: reported with the difference, not measured. */
        DISAGREED,
        /** An adapted text whose verbatim text agreed: not needed, not measured. */
        NOT_NEEDED,
        /** Not checked yet (the databases were loaded or reused and {@link #check} has not run). */
        UNCHECKED
    }

    /**
     * One text's check.
     *
     * @param detail Columba's error, or the difference; empty otherwise
     */
    public record Check(TpchText text, Verdict verdict, String detail) {
    }

    /**
     * The prepared databases.
     *
     * @param directory   the parent of the two databases
     * @param loadSeconds each engine's load time
     * @param bytes       each engine's database size
     * @param checks      each text's last check
     * @param expected    DuckDB's answer to each text that agreed
     * @param loadedNow   whether this call loaded them (else a previous run did)
     */
    public record Description(Path directory, double scaleFactor, long lineitemRows, Map<Peer, Double> loadSeconds,
                              Map<Peer, Long> bytes, Map<TpchText, Check> checks, Map<TpchText, QueryResult> expected,
                              boolean loadedNow) {
        public Description {
            loadSeconds = Collections.unmodifiableMap(new EnumMap<>(loadSeconds));
            bytes = Collections.unmodifiableMap(new EnumMap<>(bytes));
            checks = Collections.unmodifiableMap(new EnumMap<>(checks));
            expected = Collections.unmodifiableMap(new EnumMap<>(expected));
        }

        /** The texts that agreed, in order: what the suite measures. */
        public List<TpchText> measured() {
            return checks.values().stream().filter(check -> check.verdict() == Verdict.AGREED).map(Check::text).toList();
        }
    }

    /**
     * The tables at {@code scaleFactor} in both databases under {@code dataDirectory}: reused if a
     * previous run finished loading them, loaded otherwise (progress on {@code progress}), with the
     * checks last recorded.
     *
     * @throws ColumbaException INVALID_ARGUMENT for a scale factor out of range or a directory in the way
     */
    public static Description prepare(Path dataDirectory, double scaleFactor, PrintStream progress) {
        String scale = LineitemDatabases.scaleText(scaleFactor);
        PreparedDatabase database = database(dataDirectory, scale);
        Map<String, String> identity = identity(scale);
        Properties recorded = database.reusable(identity);
        boolean loadedNow = recorded == null;
        if (loadedNow) {
            database.startLoad(identity);
            recorded = load(database.directory(), scaleFactor, progress);
            database.finishLoad(identity, recorded, description(scale));
        }
        return describe(database, recorded, scaleFactor, loadedNow);
    }

    /** The databases as a finished load and the last check left them, without loading; empty if not loaded. */
    public static Optional<Description> recorded(Path dataDirectory, double scaleFactor) {
        String scale = LineitemDatabases.scaleText(scaleFactor);
        PreparedDatabase database = database(dataDirectory, scale);
        Properties recorded = database.reusable(identity(scale));
        return recorded == null ? Optional.empty() : Optional.of(describe(database, recorded, scaleFactor, false));
    }

    /**
     * Runs every text on both engines, records each verdict and DuckDB's answers in the marker, and
     * returns the description with them. An adapted text is checked only when its verbatim text did
     * not agree.
     *
     * @throws ColumbaException INTERNAL if DuckDB fails a query (the reference must answer every one)
     */
    public static Description check(Description description, PrintStream progress) {
        String scale = LineitemDatabases.scaleText(description.scaleFactor());
        PreparedDatabase database = database(description.directory().getParent(), scale);
        Map<String, String> identity = identity(scale);
        Properties recorded = database.reusable(identity);
        if (recorded == null) {
            throw new ColumbaException(ErrorCode.INTERNAL, database.directory() + " is not loaded; prepare it first");
        }
        Map<TpchText, Verdict> verdicts = new EnumMap<>(TpchText.class);
        try (PeerConnection columba = new PeerConnection(Peer.COLUMBA_COLUMNSTORE, description.directory(), NAME);
             PeerConnection duckDb = new PeerConnection(Peer.DUCKDB, description.directory(), NAME)) {
            for (TpchText text : TpchText.values()) {
                if (!text.verbatim() && verdicts.get(text.original()) == Verdict.AGREED) {
                    record(recorded, text, Verdict.NOT_NEEDED, "", null);
                    verdicts.put(text, Verdict.NOT_NEEDED);
                    continue;
                }
                long start = System.nanoTime();
                QueryResult reference = duckDb.run(text.original().title(), text.original().sql());
                double duckDbSeconds = seconds(start);
                start = System.nanoTime();
                Verdict verdict;
                String detail;
                try {
                    Optional<String> difference = columba.run(text.title(), text.sql()).difference(reference);
                    verdict = difference.isPresent() ? Verdict.DISAGREED : Verdict.AGREED;
                    detail = difference.orElse("");
                } catch (ColumbaException e) {
                    verdict = Verdict.REJECTED;
                    detail = driverMessage(e);
                }
                verdicts.put(text, verdict);
                record(recorded, text, verdict, detail, verdict == Verdict.AGREED ? reference : null);
                progress.printf(Locale.ROOT, "bench: %s: %s%s (Columba %.1f s, DuckDB %.1f s)%n", text.title(),
                        verdict.name().toLowerCase(Locale.ROOT), detail.isEmpty() ? "" : ", " + detail, seconds(start),
                        duckDbSeconds);
            }
        }
        database.finishLoad(identity, recorded, description(scale));
        return describe(database, recorded, description.scaleFactor(), description.loadedNow());
    }

    private static void record(Properties recorded, TpchText text, Verdict verdict, String detail, QueryResult expected) {
        recorded.setProperty("verdict." + text.name(), verdict.name());
        recorded.setProperty("detail." + text.name(), detail);
        if (expected == null) {
            recorded.remove("expected." + text.name());
        } else {
            recorded.setProperty("expected." + text.name(), expected.toJson());
        }
    }

    /** The driver's SQLSTATE and first line of its message, shortened: what a user of the driver would see. */
    private static String driverMessage(ColumbaException failure) {
        Throwable cause = failure.getCause() == null ? failure : failure.getCause();
        String message = String.valueOf(cause.getMessage()).lines().findFirst().orElse("").strip();
        if (message.length() > DETAIL_CHARACTERS) {
            message = message.substring(0, DETAIL_CHARACTERS) + "...";
        }
        return cause instanceof SQLException sql ? "SQLSTATE " + sql.getSQLState() + ": " + message : message;
    }

    private static Description describe(PreparedDatabase database, Properties recorded, double scaleFactor,
                                        boolean loadedNow) {
        Map<Peer, Double> loadSeconds = new EnumMap<>(Peer.class);
        Map<Peer, Long> bytes = new EnumMap<>(Peer.class);
        for (Peer engine : ENGINES) {
            loadSeconds.put(engine, database.number(recorded, engine.name() + ".loadSeconds"));
            bytes.put(engine, database.wholeNumber(recorded, engine.name() + ".bytes"));
        }
        Map<TpchText, Check> checks = new EnumMap<>(TpchText.class);
        Map<TpchText, QueryResult> expected = new EnumMap<>(TpchText.class);
        for (TpchText text : TpchText.values()) {
            String verdict = recorded.getProperty("verdict." + text.name());
            checks.put(text, new Check(text, verdict == null ? Verdict.UNCHECKED : Verdict.valueOf(verdict),
                    recorded.getProperty("detail." + text.name(), "")));
            String answer = recorded.getProperty("expected." + text.name());
            if (answer != null) {
                expected.put(text, QueryResult.fromJson(answer, "expected." + text.name() + " in " + database.marker()));
            }
        }
        return new Description(database.directory(), scaleFactor,
                TpchGenerator.of(TpchGenerator.Table.LINEITEM, scaleFactor).rowCount(), loadSeconds, bytes, checks,
                expected, loadedNow);
    }

    private static Properties load(Path directory, double scaleFactor, PrintStream progress) {
        List<TpchGenerator> generators = TpchGenerator.all(scaleFactor);
        progress.printf(Locale.ROOT, "bench: loading the TPC-H tables at scale factor %s into Columba's columnstore"
                + " and DuckDB under %s%n", LineitemDatabases.scaleText(scaleFactor), directory);
        Properties loaded = new Properties();
        for (Peer engine : ENGINES) {
            Path engineDirectory = engine.directory(directory);
            try {
                Files.createDirectories(engineDirectory);
            } catch (IOException e) {
                throw new ColumbaException(ErrorCode.IO_ERROR, "cannot create " + engineDirectory + ": " + e.getMessage(), e);
            }
            long start = System.nanoTime();
            switch (engine) {
                case COLUMBA_COLUMNSTORE -> TpchLoading.columnstore(engineDirectory, generators);
                case DUCKDB -> TpchLoading.duckDb(engineDirectory.resolve(Peer.duckDbFile(NAME)), generators);
                default -> throw new ColumbaException(ErrorCode.INTERNAL, "the tpch suite does not load " + engine);
            }
            double seconds = seconds(start);
            long bytes = PeerConnection.sizeOf(engineDirectory);
            loaded.setProperty(engine.name() + ".loadSeconds", String.format(Locale.ROOT, "%.1f", seconds));
            loaded.setProperty(engine.name() + ".bytes", String.valueOf(bytes));
            progress.printf(Locale.ROOT, "bench: loaded %s: %,.0f MB in %.0f s%n", engine.label(),
                    bytes / (double) (1 << 20), seconds);
        }
        return loaded;
    }

    private static PreparedDatabase database(Path dataDirectory, String scale) {
        return PreparedDatabase.in(dataDirectory, "tpch-sf" + scale);
    }

    private static Map<String, String> identity(String scale) {
        return Map.of("shape", SHAPE, "scaleFactor", scale);
    }

    private static String description(String scale) {
        return "the TPC-H tables at scale factor " + scale + " in Columba's columnstore and DuckDB";
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
