package dev.columba.bench.peers;

import dev.columba.bench.harness.PreparedDatabase;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.datagen.RowCursor;
import dev.columba.datagen.TpchGenerator;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import dev.columba.storage.txn.Transaction;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * TPC-H lineitem at one scale factor ({@link TpchGenerator}, dbgen's rows) in four databases, one
 * per {@link Peer}, each loaded through the engine's own bulk path:
 *
 * <ul>
 *   <li>Columba columnstore and DuckDB: as {@link TpchLoading} loads them;</li>
 *   <li>Columba rowstore: a B+tree clustered on the unique key {@code (l_orderkey, l_linenumber)},
 *       rows inserted in key order, {@value #ROWS_PER_TRANSACTION} per transaction;</li>
 *   <li>H2: batched prepared INSERTs into an MVStore table without a primary key (H2 keeps rows in
 *       insertion order by an internal row id, here key order), then {@code SHUTDOWN COMPACT}.</li>
 * </ul>
 *
 * <p>Every engine gets the same column types (the generator's schema, DDL as written by
 * {@code SqlType.sqlName()}). After loading, and again before every run measures anything, each
 * engine runs every {@link TpchQuery} and the results must agree ({@link #checkAgreement}); the
 * first load's agreed results are recorded in the marker as what every benchmark checks against.
 *
 * <p>The databases live in {@code <dataDirectory>/peers-sf<scale factor>/} and are reused by later
 * runs ({@link PreparedDatabase}).
 */
public final class LineitemDatabases {
    /** The default scale factor: 6,001,215 rows. */
    public static final String FULL_SCALE_FACTOR = "1";
    /** Short runs: 60,175 rows. */
    public static final String SHORT_SCALE_FACTOR = "0.01";
    static final String TABLE = "lineitem";
    /** Changes whenever the databases or their loading change, so that older ones are reloaded. */
    static final String SHAPE = "peers-v1";
    static final int ROWS_PER_TRANSACTION = 8192;
    private static final int H2_BATCH_ROWS = 10_000;
    private static final int H2_ROWS_PER_COMMIT = 100_000;
    /** The key of the rowstore table: l_orderkey, l_linenumber. */
    private static final List<Integer> ROWSTORE_KEY = List.of(0, 3);

    private LineitemDatabases() {
    }

    /** One engine's database as loaded. */
    public record LoadedDatabase(Peer peer, double loadSeconds, long bytes) {
    }

    /**
     * The prepared databases.
     *
     * @param directory the parent of the four databases
     * @param expected  each query's result, agreed by every engine when the databases were loaded
     * @param loadedNow whether this call loaded them (else a previous run did)
     */
    public record Description(Path directory, double scaleFactor, long rows, Map<Peer, LoadedDatabase> databases,
                              Map<TpchQuery, QueryResult> expected, boolean loadedNow) {
        public Description {
            databases = Collections.unmodifiableMap(new EnumMap<>(databases));
            expected = Collections.unmodifiableMap(new EnumMap<>(expected));
        }
    }

    /**
     * Fails unless {@code actual} agrees with {@code expected} ({@link QueryResult#difference}).
     *
     * @throws ColumbaException INTERNAL naming the engine, the query and the difference
     */
    public static void check(QueryResult actual, QueryResult expected, Peer peer, TpchQuery query, String when) {
        Optional<String> difference = actual.difference(expected);
        if (difference.isPresent()) {
            throw new ColumbaException(ErrorCode.INTERNAL, peer.label() + " computed " + query.title() + " " + when
                    + " differently from the agreed result: " + difference.get() + "; got " + actual + ", expected "
                    + expected);
        }
    }

    /**
     * Lineitem at {@code scaleFactor} in the four databases under {@code dataDirectory}: reused if a
     * previous run finished loading them, loaded otherwise (progress on {@code progress}).
     *
     * @throws ColumbaException INVALID_ARGUMENT for a scale factor out of range or a directory in the
     *         way; INTERNAL if the engines' results disagree after loading
     */
    public static Description prepare(Path dataDirectory, double scaleFactor, PrintStream progress) {
        TpchGenerator generator = TpchGenerator.of(TpchGenerator.Table.LINEITEM, scaleFactor);
        String scale = scaleText(scaleFactor);
        PreparedDatabase database = PreparedDatabase.in(dataDirectory, "peers-sf" + scale);
        Map<String, String> identity = Map.of("shape", SHAPE, "scaleFactor", scale);
        Properties recorded = database.reusable(identity);
        boolean loadedNow = recorded == null;
        if (loadedNow) {
            database.startLoad(identity);
            recorded = load(database.directory(), generator, progress);
            database.finishLoad(identity, recorded, "TPC-H lineitem at scale factor " + scale + " in four engines");
        }
        boolean answersMissing = false;
        for (TpchQuery query : TpchQuery.values()) {
            answersMissing |= recorded.getProperty("expected." + query.name()) == null;
        }
        if (answersMissing) {
            // Databases loaded by an earlier version of the suite, before a query was added: agree on every answer again.
            progress.println("bench: the loaded databases have no agreed answer for a query added since they were loaded;"
                    + " running every query on every engine again");
            agreeAfterLoad(database.directory(), recorded, progress);
            database.finishLoad(identity, recorded, "TPC-H lineitem at scale factor " + scale + " in four engines");
        }
        Map<Peer, LoadedDatabase> databases = new EnumMap<>(Peer.class);
        for (Peer peer : Peer.values()) {
            databases.put(peer, new LoadedDatabase(peer, database.number(recorded, peer.name() + ".loadSeconds"),
                    database.wholeNumber(recorded, peer.name() + ".bytes")));
        }
        Map<TpchQuery, QueryResult> expected = new EnumMap<>(TpchQuery.class);
        for (TpchQuery query : TpchQuery.values()) {
            String key = "expected." + query.name();
            expected.put(query, QueryResult.fromJson(recorded.getProperty(key), key + " in " + database.marker()));
        }
        return new Description(database.directory(), scaleFactor, generator.rowCount(), databases, expected, loadedNow);
    }

    /**
     * Runs every query on every engine and fails unless each result agrees with the recorded one.
     *
     * @throws ColumbaException INTERNAL naming the engine, the query and the difference
     */
    public static void checkAgreement(Description description, PrintStream progress) {
        for (Peer peer : Peer.values()) {
            try (PeerConnection connection = new PeerConnection(peer, description.directory())) {
                for (TpchQuery query : TpchQuery.values()) {
                    long start = System.nanoTime();
                    QueryResult result = connection.run(query);
                    check(result, description.expected().get(query), peer, query, "in the check before timing");
                    progress.printf(Locale.ROOT, "bench: %s agrees on %s (%.1f s)%n", peer.label(), query.title(),
                            seconds(start));
                }
            }
        }
    }

    /** The scale factor as written in directory names and reports: {@code 1}, {@code 0.01}, {@code 10}. */
    public static String scaleText(double scaleFactor) {
        return BigDecimal.valueOf(scaleFactor).stripTrailingZeros().toPlainString();
    }

    private static Properties load(Path directory, TpchGenerator generator, PrintStream progress) {
        progress.printf(Locale.ROOT, "bench: loading TPC-H lineitem at scale factor %s (%,d rows) into four engines"
                + " under %s%n", scaleText(generator.scaleFactor()), generator.rowCount(), directory);
        Properties loaded = new Properties();
        for (Peer peer : Peer.values()) {
            Path peerDirectory = peer.directory(directory);
            createDirectories(peerDirectory);
            progress.printf(Locale.ROOT, "bench: loading %s%n", peer.label());
            long start = System.nanoTime();
            switch (peer) {
                case COLUMBA_COLUMNSTORE -> TpchLoading.columnstore(peerDirectory, List.of(generator));
                case COLUMBA_ROWSTORE -> loadRowstore(peerDirectory, generator);
                case DUCKDB -> TpchLoading.duckDb(peerDirectory.resolve(Peer.DUCKDB_FILE), List.of(generator));
                case H2 -> loadH2(peerDirectory, generator);
            }
            double seconds = seconds(start);
            long bytes = PeerConnection.sizeOf(peerDirectory);
            loaded.setProperty(peer.name() + ".loadSeconds", String.format(Locale.ROOT, "%.1f", seconds));
            loaded.setProperty(peer.name() + ".bytes", String.valueOf(bytes));
            progress.printf(Locale.ROOT, "bench: loaded %s: %,.0f MB in %.0f s (%,.0f rows/s)%n", peer.label(),
                    bytes / (double) (1 << 20), seconds, generator.rowCount() / seconds);
        }
        agreeAfterLoad(directory, loaded, progress);
        return loaded;
    }

    /** Runs every query on every engine, requires one answer per query, and records it. */
    private static void agreeAfterLoad(Path directory, Properties loaded, PrintStream progress) {
        Map<TpchQuery, QueryResult> agreed = new EnumMap<>(TpchQuery.class);
        Map<TpchQuery, Peer> agreedBy = new EnumMap<>(TpchQuery.class);
        for (Peer peer : Peer.values()) {
            try (PeerConnection connection = new PeerConnection(peer, directory)) {
                for (TpchQuery query : TpchQuery.values()) {
                    QueryResult result = connection.run(query);
                    QueryResult first = agreed.putIfAbsent(query, result);
                    if (first == null) {
                        agreedBy.put(query, peer);
                        continue;
                    }
                    Optional<String> difference = result.difference(first);
                    if (difference.isPresent()) {
                        throw new ColumbaException(ErrorCode.INTERNAL, peer.label() + " and "
                                + agreedBy.get(query).label() + " disagree on " + query.title() + " after loading: "
                                + difference.get() + "; " + peer.label() + " " + result + ", "
                                + agreedBy.get(query).label() + " " + first);
                    }
                }
            }
        }
        for (Map.Entry<TpchQuery, QueryResult> result : agreed.entrySet()) {
            loaded.setProperty("expected." + result.getKey().name(), result.getValue().toJson());
            progress.printf(Locale.ROOT, "bench: all four engines agree on %s%n", result.getKey().title());
        }
    }

    private static void loadRowstore(Path directory, TpchGenerator generator) {
        try (Database database = Database.open(directory, TpchLoading.loadSettings(), NativeFilesFacade.INSTANCE)) {
            IoCounters counters = new IoCounters();
            TableStore table;
            try (Transaction transaction = database.begin()) {
                table = new Tables(database).createTable(transaction, TABLE, generator.schema(), ROWSTORE_KEY, true,
                        Map.of());
                transaction.commit();
            }
            Iterator<Object[]> rows = generator.rows();
            while (rows.hasNext()) {
                try (Transaction transaction = database.begin()) {
                    for (int row = 0; row < ROWS_PER_TRANSACTION && rows.hasNext(); row++) {
                        table.insert(transaction, rows.next(), counters);
                    }
                    transaction.commit();
                }
                database.checkpointIfDue();
            }
            database.checkpoint();
        }
    }

    private static void loadH2(Path directory, TpchGenerator generator) {
        String url = "jdbc:h2:file:" + directory.toAbsolutePath().resolve(Peer.DATABASE_FILE);
        TableSchema schema = generator.schema();
        try (Connection connection = DriverManager.getConnection(url)) {
            try (Statement statement = connection.createStatement()) {
                statement.execute(TpchLoading.createTable(TABLE, schema));
            }
            connection.setAutoCommit(false);
            StringBuilder insert = new StringBuilder("INSERT INTO " + TABLE + " VALUES (");
            for (int column = 0; column < schema.size(); column++) {
                insert.append(column == 0 ? "?" : ", ?");
            }
            try (PreparedStatement statement = connection.prepareStatement(insert.append(")").toString())) {
                RowCursor cursor = generator.cursor();
                long rows = 0;
                while (cursor.next()) {
                    Object[] row = cursor.row();
                    for (int column = 0; column < schema.size(); column++) {
                        statement.setObject(column + 1, row[column]);
                    }
                    statement.addBatch();
                    rows++;
                    if (rows % H2_BATCH_ROWS == 0) {
                        statement.executeBatch();
                    }
                    if (rows % H2_ROWS_PER_COMMIT == 0) {
                        connection.commit();
                    }
                }
                statement.executeBatch();
                connection.commit();
            }
            try (Statement statement = connection.createStatement()) {
                statement.execute("SHUTDOWN COMPACT");
            }
        } catch (SQLException e) {
            throw new ColumbaException(ErrorCode.INTERNAL, "loading H2 at " + url + " failed: " + e.getMessage(), e);
        }
    }

    private static void createDirectories(Path directory) {
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot create " + directory + ": " + e.getMessage(), e);
        }
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
