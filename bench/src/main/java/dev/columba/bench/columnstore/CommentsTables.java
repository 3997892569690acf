package dev.columba.bench.columnstore;

import dev.columba.bench.harness.PreparedDatabase;
import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.datagen.CommentsGenerator;
import dev.columba.storage.btree.IndexPhysicalStats;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import dev.columba.storage.txn.Transaction;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * Seed 001's tables in one database: the StackOverflow comments ({@link CommentsGenerator}, seed
 * {@value #SEED}) stored three ways — columnstore under {@code dictionary_overflow = trim} (SQL
 * Server's behaviour), columnstore under the default {@code fallback}, and rowstore clustered on
 * {@code Id} — each with the wide {@code Text} column and without it (the article's
 * {@code Comments} and {@code Comments_Modified}): six tables of the same rows.
 *
 * <p>Columnstore tables are bulk loaded in one transaction each (rowgroups are compressed and
 * written as the rows arrive); rowstore tables in key order, {@value #ROWS_PER_TRANSACTION} rows per
 * transaction. Every load is timed, so the report can state load speeds. The rowgroup geometry is
 * {@link RowgroupSize#FULL} (SQL Server's 1,048,576 rows and 16 MB dictionary cap) or, for quick
 * runs, {@link RowgroupSize#TINY}, with the cap scaled by the same factor as the rows so that the
 * Text column puts its dictionary under the same pressure.
 *
 * <p>The database lives in {@code <dataDirectory>/seed001-<rows>-<size>} and is reused by later
 * runs ({@link PreparedDatabase}); its marker records the expected scan result, every table's load
 * time and size, and the rowstore tables' page counts.
 */
public final class CommentsTables {
    /** The generator's seed: the same rows on every machine. */
    public static final long SEED = 1;
    /**
     * Rows per table in a full run: 8 full rowgroups, about a fifth of the article's 36.6 million,
     * which loads in minutes here and still gives the trimmed table dozens of rowgroups.
     */
    public static final String FULL_ROWS = "8388608";
    /** Rows per table in a short run: 2 full {@link RowgroupSize#TINY} rowgroups and a partial one. */
    public static final String SHORT_ROWS = "20000";

    /** Changes whenever the tables or their rows change, so that older databases are reloaded. */
    static final String SHAPE = "seed001-v1";
    /** Rowstore rows per load transaction: a few hundred pages, well under the pool's per-transaction cap. */
    static final int ROWS_PER_TRANSACTION = 8192;
    private static final String LOAD_BUFFER_POOL = "256MB";

    private CommentsTables() {
    }

    /** How a table is stored. */
    public enum Layout {
        COLUMNSTORE_TRIM("Comments_CCI_Trim", "columnstore, dictionary_overflow = trim"),
        COLUMNSTORE_FALLBACK("Comments_CCI", "columnstore, dictionary_overflow = fallback"),
        ROWSTORE("Comments", "rowstore clustered on Id");

        private final String baseName;
        private final String description;

        Layout(String baseName, String description) {
            this.baseName = baseName;
            this.description = description;
        }

        /** The table's name; without Text it carries the article's {@code _Modified}. */
        public String tableName(boolean text) {
            return text ? baseName : baseName + "_Modified";
        }

        public String description() {
            return description;
        }

        public boolean isColumnstore() {
            return this != ROWSTORE;
        }
    }

    /** The columnstore's rowgroup geometry: rows per rowgroup, the dictionary cap, and the bulk-load threshold. */
    public enum RowgroupSize {
        /** SQL Server's (and Columba's default): 1,048,576 rows, 16 MB dictionaries, bulk loads from 102,400 rows. */
        FULL(1_048_576, 16L << 20, 102_400),
        /** For quick runs: 8,192 rows and a 128 KB cap (both 1/128 of FULL); bulk loads from 1,000 rows. */
        TINY(8_192, 128L << 10, 1_000);

        private final int rowgroupMaxRows;
        private final long dictionaryCapBytes;
        private final int bulkMinRows;

        RowgroupSize(int rowgroupMaxRows, long dictionaryCapBytes, int bulkMinRows) {
            this.rowgroupMaxRows = rowgroupMaxRows;
            this.dictionaryCapBytes = dictionaryCapBytes;
            this.bulkMinRows = bulkMinRows;
        }

        public int rowgroupMaxRows() {
            return rowgroupMaxRows;
        }

        public long dictionaryCapBytes() {
            return dictionaryCapBytes;
        }

        /** The columnstore table options of {@code layout} (a columnstore one) at this geometry. */
        Map<String, String> options(Layout layout) {
            String overflow = switch (layout) {
                case COLUMNSTORE_TRIM -> "trim";
                case COLUMNSTORE_FALLBACK -> "fallback";
                case ROWSTORE -> throw new IllegalArgumentException("a rowstore table has no columnstore options");
            };
            return Map.of("dictionary_overflow", overflow, "rowgroup_max_rows", String.valueOf(rowgroupMaxRows),
                    "dictionary_cap", String.valueOf(dictionaryCapBytes), "bulk_min_rows", String.valueOf(bulkMinRows));
        }
    }

    /** One table as loaded: how long it took and what it occupies. */
    public record LoadedTable(String name, double loadSeconds, long bytes, long leafPages, long internalPages,
                              long fragments) {
        /** Rows loaded per second. */
        public double rowsPerSecond(long rows) {
            return loadSeconds > 0 ? rows / loadSeconds : 0;
        }
    }

    /**
     * The prepared database.
     *
     * @param expected  what a scan of a table with Text computes ({@link CommentsScanResult#withoutTexts()} without)
     * @param tables    every table by name, in load order
     * @param loadedNow whether this call loaded them (else a previous run did)
     */
    public record Description(Path directory, int rows, RowgroupSize rowgroupSize, CommentsScanResult expected,
                              Map<String, LoadedTable> tables, boolean loadedNow) {
        public Description {
            tables = Collections.unmodifiableMap(new LinkedHashMap<>(tables));
        }

        /** What a full scan of the table with or without Text computes. */
        public CommentsScanResult expected(boolean text) {
            return text ? expected : expected.withoutTexts();
        }

        /** The table {@code layout} with or without Text. */
        public LoadedTable table(Layout layout, boolean text) {
            return tables.get(layout.tableName(text));
        }
    }

    /**
     * Fails unless {@code actual} is what a full scan computes.
     *
     * @throws ColumbaException INTERNAL naming both results and the scan
     */
    public static void check(CommentsScanResult actual, CommentsScanResult expected, String scan) {
        if (!expected.equals(actual)) {
            throw new ColumbaException(ErrorCode.INTERNAL, scan + " computed " + actual + ", expected " + expected);
        }
    }

    /** A {@code buffer_pool_size} for scanning the tables: read-ahead room, not a cache of the table (scans are cold). */
    public static String scanBufferPool() {
        return "256MB";
    }

    /**
     * The six tables of {@code rows} rows at {@code rowgroupSize} under {@code dataDirectory}: reused
     * if a previous run finished loading them, loaded otherwise (progress on {@code progress}).
     *
     * @throws ColumbaException INVALID_ARGUMENT for a row count out of range, or if a directory the
     *         bench did not create is in the way
     */
    public static Description prepare(Path dataDirectory, int rows, RowgroupSize rowgroupSize, PrintStream progress) {
        if (rows < 1) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "seed 001 needs at least one row, got " + rows);
        }
        PreparedDatabase database = PreparedDatabase.in(dataDirectory,
                "seed001-" + rows + "-" + rowgroupSize.name().toLowerCase(Locale.ROOT));
        Map<String, String> identity = Map.of("shape", SHAPE, "rows", String.valueOf(rows),
                "rowgroupSize", rowgroupSize.name(), "seed", String.valueOf(SEED));
        Properties recorded = database.reusable(identity);
        boolean loadedNow = recorded == null;
        if (loadedNow) {
            database.startLoad(identity);
            recorded = load(database.directory(), rows, rowgroupSize, progress);
            database.finishLoad(identity, recorded, "seed 001 comments tables");
        }
        return describe(database, rows, rowgroupSize, recorded, loadedNow);
    }

    /** Every table name in load order: the columnstore ones, then the rowstore ones. */
    static List<String> tableNames() {
        return List.of(Layout.COLUMNSTORE_TRIM.tableName(true), Layout.COLUMNSTORE_TRIM.tableName(false),
                Layout.COLUMNSTORE_FALLBACK.tableName(true), Layout.COLUMNSTORE_FALLBACK.tableName(false),
                Layout.ROWSTORE.tableName(true), Layout.ROWSTORE.tableName(false));
    }

    private static Properties load(Path directory, int rows, RowgroupSize rowgroupSize, PrintStream progress) {
        progress.printf(Locale.ROOT, "bench: loading seed 001's six comments tables of %,d rows into %s%n", rows,
                directory);
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", LOAD_BUFFER_POOL);
        Properties loaded = new Properties();
        try (Database database = Database.open(directory, settings, NativeFilesFacade.INSTANCE)) {
            CommentsScanResult expected = null;
            for (Layout layout : List.of(Layout.COLUMNSTORE_TRIM, Layout.COLUMNSTORE_FALLBACK)) {
                for (boolean text : new boolean[] {true, false}) {
                    CommentsScanResult folded = loadColumnstore(database, layout, text, rows, rowgroupSize, loaded,
                            progress);
                    if (expected == null) {
                        expected = folded;
                    }
                }
            }
            for (boolean text : new boolean[] {true, false}) {
                loadRowstore(database, text, rows, loaded, progress);
            }
            loaded.setProperty("expected.rows", String.valueOf(expected.rows()));
            loaded.setProperty("expected.sumOfIds", String.valueOf(expected.sumOfIds()));
            loaded.setProperty("expected.sumOfPostIds", String.valueOf(expected.sumOfPostIds()));
            loaded.setProperty("expected.sumOfScores", String.valueOf(expected.sumOfScores()));
            loaded.setProperty("expected.userIds", String.valueOf(expected.userIds()));
            loaded.setProperty("expected.texts", String.valueOf(expected.texts()));
        }
        return loaded;
    }

    private static CommentsGenerator generator(boolean text, int rows) {
        return text ? CommentsGenerator.withText(rows, SEED) : CommentsGenerator.withoutText(rows, SEED);
    }

    /** Loads one columnstore table; returns the fold of the rows it was given. */
    private static CommentsScanResult loadColumnstore(Database database, Layout layout, boolean text, int rows,
                                                      RowgroupSize rowgroupSize, Properties loaded, PrintStream progress) {
        String name = layout.tableName(text);
        CommentsGenerator generator = generator(text, rows);
        CommentsScans.RowFold fold = new CommentsScans.RowFold(generator.schema());
        Iterator<Object[]> generated = generator.rows();
        Iterator<Object[]> folding = new Iterator<>() {
            @Override
            public boolean hasNext() {
                return generated.hasNext();
            }

            @Override
            public Object[] next() {
                Object[] row = generated.next();
                fold.add(row);
                return row;
            }
        };
        progress.printf(Locale.ROOT, "bench: loading %s (%s)%n", name, layout.description());
        long start = System.nanoTime();
        ColumnstoreTable table;
        try (Transaction transaction = database.begin()) {
            table = ColumnstoreTable.create(database, transaction, name, generator.schema(),
                    rowgroupSize.options(layout));
            table.bulkInsert(transaction, folding);
            transaction.commit();
        }
        database.checkpoint();
        double seconds = seconds(start);
        List<RowgroupEntry> rowgroups = table.rowgroups(database.bufferPool(), new IoCounters());
        long stored = rowgroups.stream().mapToLong(RowgroupEntry::totalRows).sum();
        if (stored != rows) {
            throw new ColumbaException(ErrorCode.INTERNAL, "loaded " + rows + " rows into " + name + " but its "
                    + rowgroups.size() + " rowgroups hold " + stored);
        }
        record(loaded, new LoadedTable(name, seconds, directoryBytes(table.fileDirectory()), 0, 0, 0));
        progress.printf(Locale.ROOT, "bench: loaded %s: %d rowgroups in %.0f s (%,.0f rows/s)%n", name,
                rowgroups.size(), seconds, rows / seconds);
        return fold.result();
    }

    private static void loadRowstore(Database database, boolean text, int rows, Properties loaded,
                                     PrintStream progress) {
        String name = Layout.ROWSTORE.tableName(text);
        CommentsGenerator generator = generator(text, rows);
        progress.printf(Locale.ROOT, "bench: loading %s (%s)%n", name, Layout.ROWSTORE.description());
        long start = System.nanoTime();
        IoCounters counters = new IoCounters();
        TableStore table;
        try (Transaction transaction = database.begin()) {
            table = new Tables(database).createTable(transaction, name, generator.schema(), List.of(0), true, Map.of());
            transaction.commit();
        }
        Iterator<Object[]> generated = generator.rows();
        while (generated.hasNext()) {
            try (Transaction transaction = database.begin()) {
                for (int row = 0; row < ROWS_PER_TRANSACTION && generated.hasNext(); row++) {
                    table.insert(transaction, generated.next(), counters);
                }
                transaction.commit();
            }
            database.checkpointIfDue();
        }
        database.checkpoint();
        double seconds = seconds(start);
        IndexPhysicalStats stats = IndexPhysicalStats.of(table.tree(), database.bufferPool(), counters);
        if (stats.entries() != rows) {
            throw new ColumbaException(ErrorCode.INTERNAL, "loaded " + rows + " rows into " + name
                    + " but its B+tree holds " + stats.entries() + " entries");
        }
        record(loaded, new LoadedTable(name, seconds, stats.pageCount() * PageFormat.PAGE_SIZE, stats.leafPages(),
                stats.internalPages(), stats.fragments()));
        progress.printf(Locale.ROOT, "bench: loaded %s: %,d leaf pages in %.0f s (%,.0f rows/s)%n", name,
                stats.leafPages(), seconds, rows / seconds);
    }

    private static void record(Properties loaded, LoadedTable table) {
        String prefix = table.name() + ".";
        loaded.setProperty(prefix + "loadSeconds", String.format(Locale.ROOT, "%.1f", table.loadSeconds()));
        loaded.setProperty(prefix + "bytes", String.valueOf(table.bytes()));
        loaded.setProperty(prefix + "leafPages", String.valueOf(table.leafPages()));
        loaded.setProperty(prefix + "internalPages", String.valueOf(table.internalPages()));
        loaded.setProperty(prefix + "fragments", String.valueOf(table.fragments()));
    }

    private static Description describe(PreparedDatabase database, int rows, RowgroupSize rowgroupSize,
                                        Properties recorded, boolean loadedNow) {
        Map<String, LoadedTable> tables = new LinkedHashMap<>();
        for (String name : tableNames()) {
            String prefix = name + ".";
            tables.put(name, new LoadedTable(name, database.number(recorded, prefix + "loadSeconds"),
                    database.wholeNumber(recorded, prefix + "bytes"),
                    database.wholeNumber(recorded, prefix + "leafPages"),
                    database.wholeNumber(recorded, prefix + "internalPages"),
                    database.wholeNumber(recorded, prefix + "fragments")));
        }
        CommentsScanResult expected = new CommentsScanResult(
                database.wholeNumber(recorded, "expected.rows"),
                database.wholeNumber(recorded, "expected.sumOfIds"),
                database.wholeNumber(recorded, "expected.sumOfPostIds"),
                database.wholeNumber(recorded, "expected.sumOfScores"),
                database.wholeNumber(recorded, "expected.userIds"),
                database.wholeNumber(recorded, "expected.texts"));
        return new Description(database.directory(), rows, rowgroupSize, expected, tables, loadedNow);
    }

    /** Bytes of the files under a columnstore table's directory: its rowgroup files and primary dictionaries. */
    private static long directoryBytes(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            long bytes = 0;
            for (Path path : paths.filter(Files::isRegularFile).toList()) {
                bytes += Files.size(path);
            }
            return bytes;
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot list " + directory + ": " + e.getMessage(), e);
        }
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
